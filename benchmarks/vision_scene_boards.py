"""Board by board, what went wrong with `vision.read_board` on the synthetic scenes of
`benchmarks/vision_scenes.py` (issue 19): diagnose before fixing.

    .venv/bin/python benchmarks/vision_scene_boards.py [--seeds N] [--size 19] [--only TEXT,...]

One line per board. A board found: its size, the largest grid corner's error and the
largest intersection's offset from the truth (cells; the far row's and the near row's
mean offsets apart, to tell a corner error growing toward the far edge), the points read
wrong by kind (truth>read, ``.XO``) and how many of those lie where the grid is a third of
a cell or more off (the grid's fault, not the stone reading's). A board missed: the reason
`vision.BoardNotFound` gave, then the stages: each slab outline `vision.outline` offered,
as its corners' places in the true lattice (cells; the true slab's corners lie 0.7 to 1.1
cell outside the outer lines, `vision.synth`), and how much the black stones vouch for the
true grid (`vision.grid_score.vouched`; under `LocateConfig.min_confidence` the true grid
would be refused too: scoring, not finding, is then at fault).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.vision_scenes import SCENES  # noqa: E402
from vision import BoardNotFound, grid, read_board  # noqa: E402
from vision.config import VISION  # noqa: E402
from vision.evaluate import corner_error_cells, to_array  # noqa: E402
from vision.grid import GridFit  # noqa: E402
from vision.grid_score import vouched  # noqa: E402
from vision.locate import working  # noqa: E402
from vision.outline import outlines  # noqa: E402
from vision.stone_lattice import dark_centres  # noqa: E402
from vision.synth import Synthetic, random_position, render  # noqa: E402


def found_line(shot: Synthetic, corners: np.ndarray, homography: np.ndarray,
               rows: list[str], size: int) -> str:
    """What is wrong with a board found at ``size``: corners (4, 2), homography lattice ->
    pixels and the rows read, against the truth ``shot``."""
    pts = grid.lattice(size)
    truth = grid.apply(shot.homography, pts)
    cell = np.linalg.norm(grid.apply(shot.homography, pts + [1.0, 0.0]) - truth, axis=1)
    off = (np.linalg.norm(grid.apply(homography, pts) - truth, axis=1) / cell).reshape(size, size)
    seen, want = to_array(rows), to_array(shot.position.rows())
    wrong = (seen != want) & ~shot.hidden
    kinds: dict[str, int] = {}
    for t, s in zip(want[wrong], seen[wrong]):
        key = f"{'.XO'[t]}>{'.XO'[s]}"
        kinds[key] = kinds.get(key, 0) + 1
    return (f"corner {corner_error_cells(corners, shot.corners, size):.2f} offset max "
            f"{off.max():.2f} far {off[0].mean():.2f} near {off[-1].mean():.2f}; wrong "
            f"{int(wrong.sum())} {kinds} ({int((wrong & (off >= 1 / 3)).sum())} off-grid)")


def missed_line(shot: Synthetic, size: int) -> str:
    """The stages of a board missed: the slab outlines offered and the true grid's vouch."""
    small, to_full = working(shot.image, VISION.locate)
    into_lattice = np.linalg.inv(shot.homography)
    slabs = [np.round(grid.apply(into_lattice, o.quad), 1).tolist()
             for o in outlines(shot.image, VISION.outline)]
    stones = dark_centres(small, VISION.locate)
    truth = np.linalg.inv(to_full) @ shot.homography
    vouch = 0.0 if stones is None else \
        vouched(small, GridFit(truth / truth[2, 2], size, 0.0), stones.centres, size,
                VISION).confidence
    return f"slabs in the true lattice {slabs or 'none'}; stones vouch for the truth {vouch:.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=3, help="boards per row (default 3)")
    ap.add_argument("--size", type=int, default=19, choices=(9, 13, 19))
    ap.add_argument("--only", default="aimed,phone 60",
                    help="rows whose name contains this text (or one of several, "
                    "comma-separated; default: aimed,phone 60)")
    args = ap.parse_args(argv)
    wanted = [w for w in args.only.split(",") if w]
    names = [n for n in SCENES if any(w in n for w in wanted)]
    if not names or args.seeds < 1:
        print("no boards to look at: check --only and --seeds", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    for name in names:
        scene, taken = SCENES[name]
        for seed in range(args.seeds):
            shot = render(random_position(args.size, seed, stones=taken), seed, scene)
            head = f"{name[:36]:36s} seed {seed}:"
            try:
                reading = read_board(shot.image)
            except BoardNotFound as lost:
                print(f"{head} MISSED ({lost}); {missed_line(shot, args.size)}", flush=True)
                continue
            if reading.size != args.size:
                print(f"{head} found at size {reading.size}", flush=True)
                continue
            print(f"{head} {found_line(shot, reading.corners, reading.homography, reading.rows(), args.size)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
