"""Where the points of a `vision_scenes.py` row are read wrong, one line per point: what
went wrong (black read empty, empty read white, ...), where (row from the top of the
picture, the board's far side on a phone's view; column), what stands around it in the
truth (above, below, left, right; ``#`` off the board), how far the grid found lies from
the truth's there (cells), and the confidence the reading gave it. A first line per board
tells the grid's largest error and whether a turn of the reading would match the truth
better (a grid placed the wrong way round), so a grid's fault is told from the stones'.

    .venv/bin/python benchmarks/vision_scene_points.py "phone 60, crowded" [--seeds 6]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from vision import BoardNotFound, grid, read_board  # noqa: E402
from vision.evaluate import corner_error_cells, to_array  # noqa: E402
from vision.synth import random_position, render  # noqa: E402
from vision_scenes import SCENES  # noqa: E402

KINDS = {(1, 0): "black read empty", (2, 0): "white read empty", (0, 1): "empty read black",
         (0, 2): "empty read white", (1, 2): "black read white", (2, 1): "white read black"}


def around(truth: np.ndarray, j: int, i: int) -> str:
    """The truth above, below, left and right of point (j, i): ``.XO``, ``#`` off the board."""
    n = truth.shape[0]
    return "".join(".XO"[truth[y, x]] if 0 <= y < n and 0 <= x < n else "#"
                   for y, x in ((j - 1, i), (j + 1, i), (j, i - 1), (j, i + 1)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("row", help="a row of benchmarks/vision_scenes.py, by its whole name")
    ap.add_argument("--seeds", type=int, default=3, help="boards, seeds 0 .. N-1 (default 3)")
    args = ap.parse_args(argv)
    if args.row not in SCENES or args.seeds < 1:
        print(f"no scene row named {args.row!r} (or --seeds under 1)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    scene, taken = SCENES[args.row]
    kinds: collections.Counter[str] = collections.Counter()
    for seed in range(args.seeds):
        shot = render(random_position(19, seed, stones=taken), seed, scene)
        try:
            reading = read_board(shot.image)
        except BoardNotFound as lost:
            print(f"seed {seed}: not found ({lost})")
            continue
        if reading.size != 19:
            print(f"seed {seed}: read as {reading.size}x{reading.size}")
            continue
        seen, truth = to_array(reading.rows()), to_array(shot.position.rows())
        lat = grid.lattice(19)
        at = grid.apply(shot.homography, lat)
        cell = np.linalg.norm(grid.apply(shot.homography, lat + [1.0, 0.0]) - at, axis=1)
        off = (np.linalg.norm(grid.apply(reading.homography, lat) - at, axis=1)
               / cell).reshape(19, 19)
        turns = [int((np.rot90(seen, k) == truth).sum()) for k in range(4)]
        conf = np.array(reading.confidence).reshape(19, 19)[::-1]  # cells: bottom row first
        wrong = (seen != truth) & ~shot.hidden
        print(f"seed {seed}: corner {corner_error_cells(reading.corners, shot.corners, 19):.2f}"
              f" cells, grid off {off.max():.2f} at most, {int(wrong.sum())} wrong; right"
              f" under the four turns {turns}")
        for j, i in zip(*np.nonzero(wrong)):
            kind = KINDS[(int(truth[j, i]), int(seen[j, i]))]
            kinds[kind] += 1
            print(f"  row {j:2d} column {i:2d}  {kind:17s} around {around(truth, j, i)}"
                  f"  grid off {off[j, i]:.2f}  confidence {conf[j, i]:.2f}")
    print(", ".join(f"{k}: {v}" for k, v in kinds.most_common()) or "no point wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
