"""How `vision.read_board` holds up as the camera leans over: synthetic boards seen by a true
camera at growing angles off vertical, sparse and crowded, with stones that stand up off the
board (drawn as `vision.synth` does: lenses whose bodies lean away from the camera).

    .venv/bin/python benchmarks/vision_angles.py [--seeds N] [--size 19] [--height 0.2]

One row per (angle, share of points taken): boards, boards found, grids within a quarter of
a cell of the truth, intersections right (a board not found or misplaced counts all its
points wrong), boards read perfectly, median milliseconds. Synthetic images are a guide to
where the reader breaks; the real photos (`vision_accuracy.py`) are the judge.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.evaluate import COLUMNS, ShotTally  # noqa: E402
from vision.synth import Scene  # noqa: E402

ANGLES = (0.0, 30.0, 45.0, 55.0, 65.0)
TAKEN = (0.3, 0.75)


def row(angle: float, taken: float, seeds: int, size: int, height: float) -> str:
    """The table row for boards of ``size`` lines with ``taken`` of their points occupied,
    seen from ``angle`` degrees off vertical (0: the renderer's random perspective)."""
    tally = ShotTally.of(size, seeds, taken, Scene(camera_tilt=angle, stone_height=height))
    return f"{angle:5.0f} {taken:6.2f} {tally.columns()}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=6, help="boards per row (default 6)")
    ap.add_argument("--size", type=int, default=19, choices=(9, 13, 19))
    ap.add_argument("--height", type=float, default=0.2,
                    help="height of a stone's middle over the board, in cells (default 0.2)")
    args = ap.parse_args(argv)
    print(f"{'angle':>5} {'taken':>6} {COLUMNS}")
    for angle in ANGLES:
        for taken in TAKEN:
            print(row(angle, taken, args.seeds, args.size, args.height), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
