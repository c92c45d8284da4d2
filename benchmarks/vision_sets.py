"""How `vision.read_board` reads stone sets that are not black and white: synthetic boards
(`vision.synth`, its default camera, light, glare and noise) with stones of two colours.

    .venv/bin/python benchmarks/vision_sets.py [--seeds N] [--size 19] [--taken 0.4]

One row per set: boards, boards found at their size, intersections right (a board not
found, or found at another size, counts all its points wrong), boards read perfectly,
median milliseconds. The darker colour is the first player's (X). No real photos of such
sets are at hand: synthetic images are a guide, not the judge.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import BoardNotFound, read_board  # noqa: E402
from vision.synth import Scene, random_position, render  # noqa: E402

SETS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]] | None] = {  # BGR
    "black and white": None,
    "red and blue": ((60, 60, 200), (200, 120, 40)),
    "green and yellow": ((60, 160, 40), (40, 200, 220)),
    "purple and pink": ((140, 40, 110), (190, 170, 250)),
    "navy and red": ((90, 30, 20), (50, 50, 210)),
    "black and red": ((25, 25, 25), (50, 50, 210)),
    "brown and cream": ((30, 60, 110), (170, 215, 235)),
}


def row(name: str, seeds: int, size: int, taken: float) -> str:
    """The table row for the set ``name`` on ``seeds`` boards of ``size`` lines."""
    found = perfect = right = 0
    ms: list[float] = []
    for seed in range(seeds):
        shot = render(random_position(size, seed, stones=taken), seed,
                      Scene(stone_colours=SETS[name]))
        truth = np.array([list(r) for r in shot.position.rows()])
        t0 = time.perf_counter()
        try:
            reading = read_board(shot.image)
        except BoardNotFound:
            reading = None
        ms.append((time.perf_counter() - t0) * 1e3)
        if reading is None or reading.size != size:
            continue
        found += 1
        seen = np.array([list(r) for r in reading.rows()])
        right += int((seen == truth).sum())
        perfect += bool((seen == truth).all())
    points = 100.0 * right / (seeds * size * size)
    return (f"{name:18s} {seeds:6d} {found:6d} {points:8.2f}% {perfect:7d} "
            f"{statistics.median(ms):7.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="boards per set (default 8)")
    parser.add_argument("--size", type=int, default=19, choices=(9, 13, 19))
    parser.add_argument("--taken", type=float, default=0.4,
                        help="share of the points taken (default 0.4)")
    args = parser.parse_args(argv)
    print(f"{'set':18s} {'boards':>6s} {'found':>6s} {'points':>9s} {'perfect':>7s} {'ms':>7s}")
    for name in SETS:
        print(row(name, args.seeds, args.size, args.taken), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
