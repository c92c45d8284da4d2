"""How well the slab of wood is found (`vision.outline`) and the board read on the scenes
issue 19 reports missed: a crowded 19x19 board (82% of its points taken, 265 stones and
more) seen from 45 degrees over the near edge, filling the frame's width, on a dark wooden
table, plain and under coloured lamps; and a crowded board from above on a light grey floor
with bowls and feet around it (the scenes of tests/vision/test_outline.py).

    .venv/bin/python benchmarks/vision_outline.py [--seeds N]

One row per scene: boards; outlines whose corners all lie within 2% of the picture's width
of the slab's true corners (the first outline, and any of those handed on); boards found;
grids within a quarter of a cell of the truth at size 19; median milliseconds of
`vision.outline.outlines` and of `read_board`. Synthetic images are a guide, not the judge.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.vision.test_outline import (  # noqa: E402
    board_margin, crowded_on_a_grey_floor, crowded_on_dark_table, grid_error_cells)
from vision import BoardNotFound, grid, read_board  # noqa: E402
from vision.outline import outlines  # noqa: E402
from vision.perturb import Cast  # noqa: E402

Shot = tuple[np.ndarray, np.ndarray]  # the picture, the homography lattice -> picture


def dark_table(hue: float | None) -> Callable[[int], Shot]:
    def make(seed: int) -> Shot:
        picture, _, h = crowded_on_dark_table(seed)
        return (picture if hue is None else Cast(hue, 0.7).apply(picture).image), h
    return make


def grey_floor(seed: int) -> Shot:
    picture, shot = crowded_on_a_grey_floor(seed)
    return picture, shot.homography


SCENES: dict[str, Callable[[int], Shot]] = {
    "dark table": dark_table(None),
    "... blue lamp": dark_table(225.0),
    "... orange lamp": dark_table(30.0),
    "... green lamp": dark_table(120.0),
    "... violet lamp": dark_table(285.0),
    "grey floor, from above": grey_floor,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=6, help="boards per row (default 6)")
    args = parser.parse_args(argv)
    print(f"{'scene':24s} {'boards':>6} {'first':>6} {'any':>6} {'found':>6} {'grid':>6}"
          f" {'outline ms':>10} {'read ms':>8}")
    for name, make in SCENES.items():
        first = anywhere = found = placed = 0
        outline_ms: list[float] = []
        read_ms: list[float] = []
        for seed in range(args.seeds):
            picture, h = make(seed)
            m = board_margin(seed)
            slab = grid.apply(h, np.array([[-m, -m], [18 + m, -m], [18 + m, 18 + m],
                                           [-m, 18 + m]]))
            t0 = time.perf_counter()
            quads = outlines(picture)
            outline_ms.append((time.perf_counter() - t0) * 1e3)
            near = [np.linalg.norm(q.quad[:, None] - slab[None], axis=2).min(axis=1).max()
                    < 0.02 * picture.shape[1] for q in quads]
            first += bool(near and near[0])
            anywhere += any(near)
            t0 = time.perf_counter()
            try:
                reading = read_board(picture)
            except BoardNotFound:
                reading = None
            read_ms.append((time.perf_counter() - t0) * 1e3)
            if reading is not None:
                found += 1
                placed += reading.size == 19 and grid_error_cells(reading.corners, h, 19) < 0.25
        print(f"{name:24s} {args.seeds:6d} {first:6d} {anywhere:6d} {found:6d} {placed:6d}"
              f" {statistics.median(outline_ms):10.1f} {statistics.median(read_ms):8.0f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
