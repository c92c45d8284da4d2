"""Resuming a long record and writing it move by move: this tree against another commit
(default ``main``), measured in the same run.

    nice .venv/bin/python benchmarks/sgf_resume.py [--against main] [--moves 300,2000,10000]

For each length, a record of a random legal 19x19 game (seeded; stones fill their own eyes
too, so that captures keep the board open for thousands of moves) with each move's time
(``KT``) is written; then, in a fresh process per tree:

* resume: what ``kifu record --resume`` does before it watches: read the record, replay
  it through the referee, and write it back (`kifu.session.resume` and `SgfWriter`);
* write: one move more added and the file rewritten, as after every move of a recording
  (the mean of ``--writes`` moves).

Times are the process's CPU time (the machine may be shared by other work; the file's
fsync waits are not CPU), with the wall time beside them.

The other commit's ``rules`` and ``kifu`` are taken with ``git archive`` into a temporary
folder; nothing of the working tree is changed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DRIVER = r"""
import inspect, json, sys, time
from pathlib import Path
from kifu.session import resume
from kifu.sinks import SgfWriter
from rules import MovePlayed, Passed, preset

def clocks():
    return time.process_time(), time.perf_counter()

def since(t):
    now = clocks()
    return [now[0] - t[0], now[1] - t[1]]

def measure(path, writes):
    data = Path(path).read_bytes()
    out = Path(path).with_suffix(".out.sgf")
    t0 = clocks()
    done = resume(data, preset("chinese"), path)
    if "record" in inspect.signature(SgfWriter).parameters:
        writer = SgfWriter(out, done.game, record=done.data)
    else:
        r = done.record
        writer = SgfWriter(out, done.game, properties=r.properties, setup=r.setup,
                           moves=done.moves, times=done.times)
    resumed = since(t0)
    game, spent = done.game, []
    points = [p for p in game.position.points()]
    for k in range(writes):
        legal = next((p for p in points if game.legality(p) is None), None)
        event = game.pass_() if legal is None else game.play(legal)
        t = clocks()
        writer(event, 1e6 + k)
        spent.append(since(t))
    return {"resume": resumed, "write": [sum(s[i] for s in spent) / len(spent) for i in (0, 1)]}

writes = int(sys.argv[1])
print(json.dumps({p: measure(p, writes) for p in sys.argv[2:]}))
"""


def random_game(moves: int, seed: int) -> list[tuple[str, tuple[int, int] | None]]:
    """A legal 19x19 game of ``moves`` moves (sgfmill's (row, col); None a pass), played
    at random by this tree's referee."""
    sys.path.insert(0, str(ROOT))
    from rules import Game, Point, preset

    rng = random.Random(seed)
    game = Game(preset("chinese"), 19)
    points = list(game.position.points())
    out: list[tuple[str, tuple[int, int] | None]] = []
    while len(out) < moves:
        colour = game.to_move.letter.lower()
        rng.shuffle(points)
        legal: Point | None = next((p for p in points if game.legality(p) is None), None)
        if legal is None or (out and out[-1][1] is None and rng.random() < 0.5):
            if out and out[-1][1] is None:  # never two passes in a row: the game would end
                legal = next(p for p in points if game.legality(p) is None)
            else:
                game.pass_()
                out.append((colour, None))
                continue
        game.play(legal)
        out.append((colour, (legal.y, legal.x)))
    return out


def record(moves: list[tuple[str, tuple[int, int] | None]]) -> bytes:
    """The game as SGF, each move with its time (KT), as kifu records it."""
    from sgfmill import sgf  # type: ignore[import-untyped]

    out = sgf.Sgf_game(19)
    out.get_root().set("KM", 7.5)
    for k, (colour, move) in enumerate(moves):
        node = out.extend_main_sequence()
        node.set_move(colour, move)
        node.set_raw("KT", f"{1.25 * k:.2f}".encode())
    data: bytes = out.serialise()
    return data


def measure(tree: Path, paths: list[Path], writes: int) -> dict[str, dict[str, list[float]]]:
    result = subprocess.run(
        [sys.executable, "-c", DRIVER, str(writes), *map(str, paths)],
        cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True,
    )
    timings: dict[str, dict[str, list[float]]] = json.loads(result.stdout)
    return timings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", default="main", help="the commit to compare with (main)")
    ap.add_argument("--moves", default="300,2000,10000", help="record lengths")
    ap.add_argument("--writes", type=int, default=3, help="moves written after resuming")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    lengths = [int(n) for n in args.moves.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        game = random_game(max(lengths), args.seed)
        paths = []
        for n in lengths:
            path = folder / f"game-{n}.sgf"
            path.write_bytes(record(game[:n]))
            paths.append(path)
        other = folder / "other"
        other.mkdir()
        archive = subprocess.run(["git", "archive", args.against, "rules", "kifu"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
        mine = measure(ROOT, paths, args.writes)
        theirs = measure(other, paths, args.writes)
    print(f"resume and write of a random 19x19 game with move times: this tree against "
          f"{args.against}, measured in the same run ({args.writes} writes each). CPU time "
          f"of the process (the machine may be shared), wall time in brackets")
    print(f"{'moves':>6} | {'resume':>17} {args.against:>17} {'ratio':>6} | "
          f"{'write':>19} {args.against:>19} {'ratio':>6}")
    for n, path in zip(lengths, paths):
        a, b = mine[str(path)], theirs[str(path)]

        def s(x: list[float]) -> str:
            return f"{x[0]:6.3f}s ({x[1]:6.3f}s)"

        def ms(x: list[float]) -> str:
            return f"{x[0] * 1e3:7.1f}ms ({x[1] * 1e3:6.1f}ms)"

        print(f"{n:>6} | {s(a['resume'])} {s(b['resume'])} {b['resume'][0] / a['resume'][0]:5.1f}x | "
              f"{ms(a['write'])} {ms(b['write'])} {b['write'][0] / a['write'][0]:5.1f}x")


if __name__ == "__main__":
    main()
