"""Sensor board latency, in lock-step simulation: from a stone put down (or lifted) to the
change event reaching the host, in simulated milliseconds; the scan period; and the bytes
on the serial line per move of a real game. Runs the real firmware under simavr (if
``make -C hardware`` has built it) and the pure-Python simulator.

    python benchmarks/serial_latency.py [--samples N] [--game FILE] [--board simavr|python|both]

Times are simulated, so they do not depend on this machine; the wall-clock speed of each
simulation is printed as well.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Union

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_bridge.client import SensorBoard  # noqa: E402
from firmware_bridge.simavr import FIRMWARE, HARNESS, SimavrBoard  # noqa: E402
from firmware_bridge.simulator import SimulatedBoard  # noqa: E402
from kifu import replay, sgf  # noqa: E402
from rules import Color, Game, MovePlayed, preset  # noqa: E402

Board = Union[SimavrBoard, SimulatedBoard]
DEFAULT_GAME = ROOT.parent / "shared" / "games" / "computer-go" / "AlphaGo" / "LS vs AG - G4 - English.sgf"


def connect(board: Board) -> SensorBoard:
    client = SensorBoard(lambda: board.port, clock=lambda: board.now_ms() / 1000,
                         idle=lambda: board.run(1))
    client.handshake()
    return client


def latency(board: Board, client: SensorBoard, samples: int, seed: int) -> tuple[list[int], list[int]]:
    """Simulated ms from place to the change seen by the host, and from lift likewise, at
    random points and random moments (so the scan phase varies)."""
    rng = random.Random(seed)
    placed: list[int] = []
    lifted: list[int] = []
    for _ in range(samples):
        x, y = rng.randrange(19), rng.randrange(19)
        i = y * 19 + x
        board.run(rng.randrange(1, 23))
        client.poll()
        for action, want, out in (("place", "X", placed), ("lift", ".", lifted)):
            start = board.now_ms()
            if action == "place":
                board.place(x, y, Color.BLACK)
            else:
                board.lift(x, y)
            while client.link.mirror is None or client.link.mirror[i] != want:
                board.run(1)
                client.poll()
                if board.now_ms() - start > 1000:
                    raise RuntimeError(f"no change event within 1 s at ({x}, {y})")
            out.append(board.now_ms() - start)
            board.run(rng.randrange(5, 40))
            client.poll()
    return placed, lifted


def play_game(board: Board, client: SensorBoard, game_file: Path) -> tuple[int, int, int, list[int]]:
    """A game played at one move per second, captured stones lifted 200 ms after the move,
    the bridge's Observations fed to kifu's tracker (stable_for=0: the firmware has
    debounced already). Returns (moves, change-event bytes, all bytes, and the simulated
    ms from each stone put down to its MovePlayed event)."""
    from kifu.tracker import Tracker

    record = sgf.load(game_file)
    game = replay.start(record, preset("chinese"))
    tracker = Tracker(Game(preset("chinese"), 19), stable_for=0.0)
    before = dict(client.link.counters.line_bytes)
    bytes_before = client.link.counters.bytes_in
    to_event: list[int] = []
    moves = 0
    for move in record.moves:
        if move.point is None:
            continue
        event = game.play(move.point, move.color, out_of_turn=True)
        assert isinstance(event, MovePlayed)
        board.place(move.point.x, move.point.y, move.color)
        start = board.now_ms()
        seen = False
        for _ in range(1000):
            board.run(1)
            for obs in client.poll():
                if any(isinstance(o, MovePlayed) for o in tracker.feed(obs)) and not seen:
                    to_event.append(board.now_ms() - start)
                    seen = True
            if board.now_ms() - start >= 200:
                break
        for stone in event.captured:
            board.lift(stone.x, stone.y)
        board.run(800)
        for obs in client.poll():
            tracker.feed(obs)
        moves += 1
    change_bytes = client.link.counters.line_bytes.get("C", 0) - before.get("C", 0)
    return moves, change_bytes, client.link.counters.bytes_in - bytes_before, to_event


def report(kind: str, board: Board, samples: int, game_file: Path | None) -> None:
    wall = time.perf_counter()
    client = connect(board)
    placed, lifted = latency(board, client, samples, seed=5)
    s = client.link.settings
    assert s is not None
    print(f"[{kind}] firmware {client.link.identity.firmware if client.link.identity else '?'}, "
          f"DEB={s.debounce} PER={s.period} ms HB={s.heartbeat} ms")
    for name, values in (("place", placed), ("lift", lifted)):
        print(f"  {name} -> change event at the host: median {statistics.median(values):.0f} ms, "
              f"min {min(values)} ms, max {max(values)} ms ({len(values)} samples)")
    print(f"  scan period {s.period} ms (latency spread max-min {max(placed) - min(placed)} ms)")
    if game_file is not None and game_file.exists():
        moves, change_bytes, total, to_event = play_game(board, client, game_file)
        print(f"  {game_file.name}: {moves} moves; per move {change_bytes / moves:.1f} bytes of "
              f"change events, {total / moves:.1f} bytes in all (heartbeats included)")
        print(f"  stone put down -> MovePlayed from kifu.tracker: median "
              f"{statistics.median(to_event):.0f} ms, max {max(to_event)} ms "
              f"({len(to_event)} of {moves} moves)")
    sim_s = board.now_ms() / 1000
    spent = time.perf_counter() - wall
    print(f"  simulated {sim_s:.1f} s in {spent:.1f} s wall ({sim_s / spent:.1f}x real time)")
    client.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--game", type=Path, default=DEFAULT_GAME)
    parser.add_argument("--board", choices=["simavr", "python", "both"], default="both")
    args = parser.parse_args()
    if args.board in ("simavr", "both"):
        if HARNESS.exists() and FIRMWARE.exists():
            board: Board = SimavrBoard()
            try:
                report("simavr", board, args.samples, args.game)
            finally:
                board.close()
        else:
            print("[simavr] not built: run `make -C hardware`")
    if args.board in ("python", "both"):
        py = SimulatedBoard()
        try:
            report("python", py, args.samples, args.game)
        finally:
            py.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
