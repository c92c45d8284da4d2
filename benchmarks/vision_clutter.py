"""How `vision.read_board` holds up to what lies around and over a board at a club game:
synthetic boards (`vision.synth`) with a hand reaching in, bowls of stones and their lids
beside the board, or both, or a low lamp throwing each stone's shadow half a cell over
its neighbour's point; seen from above and from 45 degrees (stones standing up off the
board), sparse and crowded.

    .venv/bin/python benchmarks/vision_clutter.py [--seeds N] [--size 19]

One row per scene: boards, boards found, grids within a quarter of a cell of the truth,
intersections right (a board not found or misplaced counts all its points wrong; the
points a hand hides do not count: no photo shows them), boards read perfectly, median
milliseconds. Synthetic images are a guide, not the judge.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.evaluate import COLUMNS, ShotTally  # noqa: E402
from vision.synth import Scene  # noqa: E402

CLUTTER: dict[str, Scene] = {
    "nothing": Scene(),
    "a hand": Scene(hand=True),
    "bowls and lids": Scene(bowls=True),
    "hand, bowls, lids": Scene(hand=True, bowls=True),
    "a low lamp": Scene(lamp=0.5),
}
VIEWS: dict[str, tuple[float, float]] = {  # the camera's lean (degrees), the stones' height
    "above": (0.0, 0.0),
    "45 degrees": (45.0, 0.2),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="boards per row (default 8)")
    parser.add_argument("--size", type=int, default=19, choices=(9, 13, 19))
    args = parser.parse_args(argv)
    print(f"{'clutter':18s} {'view':10s} {'taken':>5s} {COLUMNS}")
    for name, scene in CLUTTER.items():
        for view, (lean, height) in VIEWS.items():
            seen = dataclasses.replace(scene, camera_tilt=lean, stone_height=height)
            for taken in (0.3, 0.75):
                tally = ShotTally.of(args.size, args.seeds, taken, seen)
                print(f"{name:18s} {view:10s} {taken:5.2f} {tally.columns()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
