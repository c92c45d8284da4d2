"""Replays the ../shared/games corpus and prints moves per second for kifu's engine (full
legality and superko checks, events with captures) and, in the same run, for sgfmill's
Board.play (captures only).

    python benchmarks/rules_replay.py [GAMES_DIR] [--rules chinese] [--limit N] [--repeat R]

Records are parsed before timing; each engine replays the same move lists. The best of
R repeats is reported for each engine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sgfmill import boards  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kifu.sgf import SgfError, load  # noqa: E402
from rules import Game, IllegalMoveError, Point, preset  # noqa: E402

DEFAULT_GAMES = ROOT.parent / "shared" / "games"


def corpus(folder: Path, limit: int | None) -> list[tuple[int, list[tuple], list[Point], list[Point]]]:
    """(size, moves, black setup, white setup) of every plain record under ``folder``."""
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".sgf")
    out = []
    for f in files[:limit]:
        try:
            rec = load(f)
        except SgfError as exc:
            print(f"skipped: {exc}", file=sys.stderr)
            continue
        if not rec.plain:
            continue
        out.append((rec.width, [(m.color, m.point) for m in rec.moves],
                    list(rec.setup.black), list(rec.setup.white)))
    return out


def run_kifu(games: list, rules_name: str) -> tuple[int, int, float]:
    rules = preset(rules_name)
    moves = refused = 0
    t0 = time.perf_counter()
    for size, seq, ab, aw in games:
        g = Game(rules, size)
        if ab or aw:
            g.setup(ab, aw, to_move=seq[0][0] if seq else None)
        play = g.play
        pass_ = g.pass_
        for color, point in seq:
            try:
                if point is None:
                    pass_(color, out_of_turn=True)
                else:
                    play(point, color, out_of_turn=True)
            except IllegalMoveError:
                refused += 1
        moves += len(seq)
    return moves, refused, time.perf_counter() - t0


def run_sgfmill(games: list) -> tuple[int, float]:
    moves = 0
    t0 = time.perf_counter()
    for size, seq, ab, aw in games:
        b = boards.Board(size)
        if ab or aw:
            b.apply_setup([(p.y, p.x) for p in ab], [(p.y, p.x) for p in aw], [])
        play = b.play
        for color, point in seq:
            if point is not None:
                try:
                    play(point.y, point.x, "b" if color == 1 else "w")
                except ValueError:  # a move on an occupied point (a broken record)
                    pass
        moves += len(seq)
    return moves, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="?", type=Path, default=DEFAULT_GAMES)
    ap.add_argument("--rules", default="chinese")
    ap.add_argument("--limit", type=int, default=None, help="read only the first N files")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not args.games.is_dir():
        print(f"no games folder at {args.games}", file=sys.stderr)
        return 2
    t = time.perf_counter()
    games = corpus(args.games, args.limit)
    print(f"corpus: {len(games)} plain records, {sum(len(g[1]) for g in games)} moves "
          f"(parsed in {time.perf_counter() - t:.1f} s)")
    best_k = best_s = float("inf")
    for _ in range(args.repeat):
        n, refused, dt = run_kifu(games, args.rules)
        best_k = min(best_k, dt)
        n2, dt2 = run_sgfmill(games)
        best_s = min(best_s, dt2)
    k_rate, s_rate = n / best_k, n2 / best_s
    print(f"kifu    ({args.rules}, legality + superko + events): {k_rate:,.0f} moves/s; "
          f"{refused} moves refused")
    print(f"sgfmill (Board.play, captures only):            {s_rate:,.0f} moves/s")
    print(f"ratio kifu/sgfmill: {k_rate / s_rate:.2f}x (goal 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
