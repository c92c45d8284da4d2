"""How `vision.read_board` reads stone sets that are not black and white: synthetic boards
(`vision.synth`, its default camera, light, glare and noise) with stones of two colours.

    .venv/bin/python benchmarks/vision_sets.py [--seeds N] [--size 19] [--taken 0.4]

One row per set: boards, boards found, grids within a quarter of a cell of the truth,
intersections right (a board not found or misplaced counts all its points wrong), boards
read perfectly, median milliseconds. The darker colour is the first player's (X). No real photos of such
sets are at hand: synthetic images are a guide, not the judge.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.evaluate import COLUMNS, ShotTally  # noqa: E402
from vision.synth import Scene  # noqa: E402

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
    tally = ShotTally.of(size, seeds, taken, Scene(stone_colours=SETS[name]))
    return f"{name:18s} {tally.columns()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="boards per set (default 8)")
    parser.add_argument("--size", type=int, default=19, choices=(9, 13, 19))
    parser.add_argument("--taken", type=float, default=0.4,
                        help="share of the points taken (default 0.4)")
    args = parser.parse_args(argv)
    print(f"{'set':18s} {COLUMNS}")
    for name in SETS:
        print(row(name, args.seeds, args.size, args.taken), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
