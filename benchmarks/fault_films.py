"""Moves seen together: what kifu records when the board cannot be seen for a while.

Camera films (`vision.film.script`: a hand over each move, captured stones lifted late)
with camera blackouts of 1, 2, 5 and 10 s, each at 1, 1.25 and 2 s a move, a player
leaning over half the board for 3 moves, and a webcam that keeps one frame every 3 s; and the same games played on the simulated
sensor board (`firmware_bridge.simulator`, in lock-step) with 1%, 5% and 10% of its frames
garbled on the line (each bad line makes the host ask for a fresh dump) and the board
unplugged for two moves every 40. Each film's shots become readings directly (hidden
points where the hand, the arm or the blackout is), not rendered pictures, so that the
rows measure the tracker, not the stone reader.

Each row counts the films' moves: recorded exactly (the right move at its place in the
record), recorded in a wrong but legal order and announced (an ``ambiguous`` or
``hidden-moves`` announcement named them; ``order`` puts them right), in a wrong order
unannounced, lost (never recorded), invented (recorded, never played); and the films that
stopped (some move lost). The goal: 0 lost, 0 invented, 0 unannounced.

Both are run on this checkout's code ("after", the tracker as ``kifu record`` builds it)
and on ``--before REF``'s (default ``main``, unpacked with ``git archive`` and run in a
subprocess): ``kifu record``'s tracker there.

    python benchmarks/fault_films.py [--films N] [--moves N] [--only camera|serial]
                                     [--before REF|none]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT.parent / "shared" / "games"
BUNDLED = "kifu/data/lee-sedol-alphago-4.sgf"
STABLE_CAMERA = 0.5  # kifu record's defaults: --stable 0.5 for cameras, 0 for a sensor board
BLACKOUTS = (1.0, 2.0, 5.0, 10.0)
PACES = (1.0, 1.25, 2.0)
NOISES = (0.01, 0.05, 0.10)
FAULT_EVERY = 15.0   # seconds of film between the starts of two faults
UNPLUG_EVERY = 40    # moves between two unplugs of the sensor board
NOTED = ("ambiguous", "hidden-moves")


@dataclasses.dataclass
class Tally:
    """Moves of one row of films."""

    moves: int = 0
    exact: int = 0
    announced: int = 0
    unannounced: int = 0
    lost: int = 0
    invented: int = 0
    films: int = 0
    stopped: int = 0
    resyncs: int = 0
    """Fresh dumps the host asked the sensor board for (a bad line, a gap, a reconnect)."""
    seconds: float = 0.0
    slowest: float = 0.0
    """The longest one reading took the tracker to judge, in milliseconds."""

    def add(self, other: Tally) -> None:
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            setattr(self, f.name, max(mine, theirs) if f.name == "slowest" else mine + theirs)


def score(truth: Sequence[tuple[int, int]], recorded: Sequence[tuple[int, int]],
          noted: set[int]) -> Tally:
    """Compare the moves recorded with the moves played, each a (colour, cell) pair; the
    indexes of ``recorded`` in ``noted`` were named by an announcement of their order."""
    t = Tally(moves=len(truth), films=1)

    def keyed(moves: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
        seen: Counter[tuple[int, int]] = Counter()
        out = []
        for m in moves:
            seen[m] += 1
            out.append((*m, seen[m]))
        return out

    want, got = keyed(truth), keyed(recorded)
    common = set(want) & set(got)
    t.lost = len(want) - len(common)
    t.invented = len(got) - len(common)
    for k, m in enumerate(got):
        if m not in common:
            continue
        if k < len(want) and want[k] == m:
            t.exact += 1
        elif k in noted:
            t.announced += 1
        else:
            t.unannounced += 1
    t.stopped = int(t.lost > 0)
    return t


# -- the code under test ----------------------------------------------------------------------

class Code:
    """kifu's modules from one checkout, and its tracker as ``kifu record`` builds it."""

    def __init__(self) -> None:
        self.rules: Any = importlib.import_module("rules")
        self.tracker: Any = importlib.import_module("kifu.tracker")
        self.sgf: Any = importlib.import_module("kifu.sgf")

    def new_tracker(self, size: int, stable: float) -> Any:
        game = self.rules.Game("chinese", size)
        options: dict[str, Any] = {"stable_for": stable}
        accepted = inspect.signature(self.tracker.Tracker).parameters
        if "guess" in accepted:  # this branch: kifu record guesses, up to MAX_HIDDEN stones
            options.update(guess=True, max_moves=self.tracker.MAX_HIDDEN)
        return self.tracker.Tracker(game, **options)


def games(code: Code, n: int, moves: int) -> list[list[tuple[int, Any]]]:
    """``n`` games of 19x19 (the bundled one first, then a seeded sample of the corpus):
    their first ``moves`` moves, up to the first pass, as (colour, point)."""
    paths = [ROOT / BUNDLED]
    if n > 1 and GAMES.is_dir():
        corpus = sorted(p for p in GAMES.rglob("*") if p.suffix.lower() == ".sgf")
        paths += random.Random(7).sample(corpus, min(len(corpus), 20 * n))
    out: list[list[tuple[int, Any]]] = []
    for path in paths:
        try:
            record = code.sgf.load(path)
        except Exception:  # noqa: BLE001 - a corpus file kifu cannot read is skipped
            continue
        if record.width != 19 or record.height != 19 or not record.plain or record.setup.black \
                or record.setup.white or record.handicap:
            continue
        game = code.rules.Game("chinese", 19)
        played: list[tuple[int, Any]] = []
        try:
            for m in record.moves[:moves]:
                if m.point is None:
                    break
                game.play(m.point, m.color)
                played.append((int(m.color), m.point))
        except code.rules.IllegalMoveError:
            continue
        if len(played) >= min(moves, 60):
            out.append(played)
        if len(out) == n:
            break
    return out


def run_tracker(code: Code, tracker: Any,
                readings: Iterator[Any]) -> tuple[list[tuple[int, int]], set[int], float]:
    """Feed the readings; the moves recorded as (colour, cell), the indexes of those whose
    order an announcement named, and the longest a reading took (ms)."""
    recorded: list[tuple[int, int]] = []
    noted: set[int] = set()
    size = tracker.game.width
    slowest = 0.0
    for obs in readings:
        t0 = time.perf_counter()
        out = tracker.feed(obs)
        slowest = max(slowest, (time.perf_counter() - t0) * 1000)
        said = any(getattr(o, "kind", None) is not None and str(o.kind) in NOTED for o in out)
        for o in out:
            if isinstance(o, code.rules.MovePlayed):
                if said:
                    noted.add(len(recorded))
                recorded.append((int(o.color), o.point.y * size + o.point.x))
    return recorded, noted, slowest


# -- camera films -------------------------------------------------------------------------------

def hand_cover(cells: list[int], size: int, hand: Any) -> None:
    """Hide what a hand reaching for ``hand`` covers: the point and its neighbours, and the
    arm down to the players' edge (row 1)."""
    for y in range(0, min(size, hand.y + 2)):
        for x in range(max(0, hand.x - 1), min(size, hand.x + 2)):
            cells[y * size + x] = 3


def camera_readings(code: Code, film: Any, moves: list[tuple[int, Any]], pace: float,
                    fault: str, length: float, seed: int) -> Iterator[Any]:
    """The readings of a filmed game at ``pace`` seconds a move: ``fault`` is ``blackout``
    (nothing seen for ``length`` s) or ``lean`` (a player leaning over one half of the
    board for ``length`` s), every `FAULT_EVERY` seconds from a seeded start; or
    ``photos``: a webcam that keeps one frame every ``length`` s, each held as a still view
    (as ``kifu record --frames`` shows a folder of photos) long enough to be judged."""
    size = 19
    reach = 0.3
    take = film.Take(hold=pace - reach, reach=reach, light=False, seed=seed)
    shots = film.script([code.rules.Move(code.rules.Color(c), p) for c, p in moves], size, take)
    rng = random.Random(seed)
    start = rng.uniform(3.0, 8.0)
    kept = -1
    for shot in shots:
        if fault == "photos":
            if int(shot.time // length) == kept:
                continue
            kept = int(shot.time // length)
        cells = list(shot.cells)
        if shot.hand is not None:
            hand_cover(cells, size, shot.hand)
        phase = shot.time - start
        if fault == "photos":
            for dt in (0.0, STABLE_CAMERA + 0.1):
                yield code.rules.Observation(size, size, tuple(cells), time=round(shot.time + dt, 3))
            continue
        if phase >= 0 and phase % FAULT_EVERY < length:
            if fault == "blackout":
                cells = [3] * len(cells)
            else:
                left = int(phase // FAULT_EVERY) % 2 == 0
                for y in range(size):
                    for x in (range(0, 11) if left else range(8, size)):
                        cells[y * size + x] = 3
        yield code.rules.Observation(size, size, tuple(cells), time=round(shot.time, 3))
    last = shots[-1]
    for k in range(1, 31):  # the players look at the final position
        yield code.rules.Observation(size, size, last.cells, time=round(last.time + k * 0.1, 3))


def camera_row(code: Code, played: list[list[tuple[int, Any]]], pace: float, fault: str,
               length: float) -> Tally:
    film = importlib.import_module("vision.film")
    total = Tally()
    for k, moves in enumerate(played):
        t0 = time.perf_counter()
        tracker = code.new_tracker(19, STABLE_CAMERA)
        readings = camera_readings(code, film, moves, pace, fault, length, seed=k)
        recorded, noted, slowest = run_tracker(code, tracker, readings)
        tally = score([(c, p.y * 19 + p.x) for c, p in moves], recorded, noted)
        tally.seconds = time.perf_counter() - t0
        tally.slowest = slowest
        total.add(tally)
    return total


# -- the serial line ------------------------------------------------------------------------------

def serial_row(code: Code, played: list[list[tuple[int, Any]]], noise: float) -> Tally:
    """Each game played at one move a second on the simulated board, captured stones
    lifted 300 ms after the move, ``noise`` of the board's frames garbled (a byte
    changed), and the board unplugged for two moves every `UNPLUG_EVERY`."""
    simulator: Any = importlib.import_module("firmware_bridge.simulator")
    client_mod: Any = importlib.import_module("firmware_bridge.client")
    total = Tally()
    for k, moves in enumerate(played):
        t0 = time.perf_counter()
        rng = random.Random(1000 + k)

        class Noisy(simulator.SimulatedBoard):  # type: ignore[misc]
            def _open(self) -> None:
                super()._open()
                model = self.model
                send = model._send

                def garbled(body: str) -> None:
                    at = len(model.tx)
                    send(body)
                    if rng.random() < noise and len(model.tx) > at:
                        i = rng.randrange(at, len(model.tx))
                        model.tx[i] = (model.tx[i] + rng.randrange(1, 255)) % 256

                model._send = garbled

        board = Noisy(19, 19)
        client = client_mod.SensorBoard(lambda: board.port, clock=lambda: board.now_ms() / 1000,
                                        idle=lambda: board.run(1))
        client.handshake()
        tracker = code.new_tracker(19, 0.0)
        truth = code.rules.Game("chinese", 19)

        def readings(ms: int) -> Iterator[Any]:
            for _ in range(ms // 10):
                board.run(10)
                yield from client.poll()

        def moves_stream() -> Iterator[Any]:
            yield from readings(500)
            for n, (c, p) in enumerate(moves):
                if n % UNPLUG_EVERY == UNPLUG_EVERY // 2:
                    board.unplug()
                event = truth.play(p, code.rules.Color(c))
                board.place(p.x, p.y, code.rules.Color(c))
                yield from readings(300)
                for q in event.captured:
                    board.lift(q.x, q.y)
                yield from readings(700)
                if n % UNPLUG_EVERY == UNPLUG_EVERY // 2 + 1:
                    board.plug()
            yield from readings(2000)

        recorded, noted, slowest = run_tracker(code, tracker, moves_stream())
        resyncs = client.link.counters.resyncs + client.link.counters.reconnects
        client.close()
        board.close()
        tally = score([(c, p.y * 19 + p.x) for c, p in moves], recorded, noted)
        tally.seconds = time.perf_counter() - t0
        tally.resyncs = resyncs
        tally.slowest = slowest
        total.add(tally)
    return total


# -- the table ---------------------------------------------------------------------------------

def rows(only: str | None) -> list[tuple[str, str, Any]]:
    """(name, kind, parameters) of each row."""
    out: list[tuple[str, str, Any]] = []
    if only in (None, "camera"):
        for pace in PACES:
            for length in BLACKOUTS:
                out.append((f"camera, blackout {length:g} s, {pace:g} s/move", "camera",
                            (pace, "blackout", length)))
            out.append((f"camera, leaning for 3 moves, {pace:g} s/move", "camera",
                        (pace, "lean", 3 * pace + 0.3)))
            out.append((f"camera, a photo every 3 s, {pace:g} s/move", "camera",
                        (pace, "photos", 3.0)))
    if only in (None, "serial"):
        for noise in NOISES:
            out.append((f"serial, {noise:.0%} noise, unplugs", "serial", noise))
    return out


def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    code = Code()
    played = games(code, args.films, args.moves)
    results: dict[str, dict[str, float]] = {}
    for name, kind, params in rows(args.only):
        if kind == "camera":
            tally = camera_row(code, played, *params)
        else:
            tally = serial_row(code, played[: args.serial_games], params)
        results[name] = dataclasses.asdict(tally)
        print(f"  ... {name}: {tally.seconds:.1f} s", file=sys.stderr, flush=True)
    return results


COLUMNS = ("exact", "announced", "unannounced", "lost", "invented", "stopped", "resyncs")


def table(title: str, results: dict[str, dict[str, float]]) -> None:
    print(f"\n{title}")
    print(f"  {'row':44s} {'moves':>6s} " + " ".join(f"{c:>11s}" for c in COLUMNS)
          + "  films  slowest reading (ms)")
    for name, r in results.items():
        print(f"  {name:44s} {int(r['moves']):6d} "
              + " ".join(f"{int(r[c]):11d}" for c in COLUMNS)
              + f"  {int(r['films']):5d}  {r['slowest']:8.0f}")
    def total(column: str) -> int:
        return sum(int(r[column]) for r in results.values())

    print(f"  {'all rows':44s} {total('moves'):6d} "
          + " ".join(f"{total(c):11d}" for c in COLUMNS) + f"  {total('films'):5d}  "
          f"{max(r['slowest'] for r in results.values()):8.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--films", type=int, default=2, help="games per row (default 2)")
    parser.add_argument("--serial-games", type=int, default=1,
                        help="of those, games per serial row (default 1; slower)")
    parser.add_argument("--moves", type=int, default=120, help="moves per game (default 120)")
    parser.add_argument("--only", choices=["camera", "serial"])
    parser.add_argument("--before", default="main", metavar="REF",
                        help="also run REF's code, from git archive (default main; none: skip)")
    parser.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code or ROOT))
    if args.json:
        print(json.dumps(measure(args)))
        return 0
    before = None
    if args.before != "none":
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.before],
                                 check=True, capture_output=True, text=True).stdout.strip()
            child = [sys.executable, str(Path(__file__).resolve()), "--json", "--code", tmp,
                     "--films", str(args.films), "--serial-games", str(args.serial_games),
                     "--moves", str(args.moves)] + (["--only", args.only] if args.only else [])
            print(f"before: {args.before} ({sha})", file=sys.stderr, flush=True)
            before = json.loads(subprocess.run(child, check=True, stdout=subprocess.PIPE,
                                               text=True).stdout)
    print("after: this checkout", file=sys.stderr, flush=True)
    after = measure(args)
    if before is not None:
        table(f"before: {args.before} ({sha})", before)
    table("after: this checkout", after)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
