"""How the step that moves a doubtful grid back into phase
(`vision.reading._in_phase_with_margins`) treats grids handed to it a line or two off, on
the synthetic scenes where crowded stones leave the phase in doubt (a whole-line shift
keeps nearly every stone on a point):

    .venv/bin/python benchmarks/vision_phase.py [--seeds N] [--only TEXT,...] [--jobs N]

For each scene row and seed, the board's own grid and that grid moved one and two lines
each way along either axis are handed to the step as found in doubt (grid confidence 0.3,
under `LocateConfig.recheck_below`), and where the step leaves each is counted: "own kept"
(the board's grid left where it is), "1 off home" and "2 off home" (moved back onto the
board's grid), "left" (not moved), "worse" (moved, not home). A move the wrong way costs
nothing on a grid already off, but it shows a witness that can point the wrong way. The
step is judged here apart from the rest of the reader: `vision_scenes.py` shows how often
the reader hands it such grids.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.vision_scenes import SCENES  # noqa: E402
from vision import grid  # noqa: E402
from vision.config import VISION  # noqa: E402
from vision.evaluate import corner_error_cells  # noqa: E402
from vision.grid import GridFit  # noqa: E402
from vision.locate import working  # noqa: E402
from vision.reading import _in_phase_with_margins  # noqa: E402
from vision.synth import random_position, render  # noqa: E402

ROWS = ("aimed phone 45, full", "aimed phone 45, crowded, far margin cut off",
        "aimed phone 50, full, lamp, exposure, resaved", "aimed landscape 45, full, lamp",
        "phone 45, crowded")
"""Crowded boards seen from 45 to 50 degrees, the far margin seen and cut off."""

DOUBTFUL = 0.3
"""The grid confidence the grids are handed over with: under `recheck_below`."""

HOME = 0.01
"""Cells: a grid whose corners all lie this near the board's is the board's."""

MOVES = tuple((di, dj) for k in (1, 2) for di, dj in ((k, 0), (-k, 0), (0, k), (0, -k)))


def board(job: tuple[str, int]) -> tuple[int, int, int, int, int]:
    """For scene row ``job[0]``, seed ``job[1]``: (own kept 0/1, one line off moved home,
    two lines off moved home, off grids left, off grids moved not home)."""
    name, seed = job
    cv2.setNumThreads(1)
    scene, taken = SCENES[name]
    shot = render(random_position(19, seed, stones=taken), seed, scene)
    work = working(shot.image, VISION.locate)

    def after(di: int, dj: int) -> tuple[float, float]:
        fit = GridFit(grid.shifted(shot.homography, di, dj), 19, DOUBTFUL)
        out, _ = _in_phase_with_margins(fit, work, VISION)
        ends = grid.corners(out.homography, 19)
        return (corner_error_cells(ends, shot.corners, 19),
                corner_error_cells(ends, grid.corners(fit.homography, 19), 19))
    kept = int(after(0, 0)[0] < HOME)
    home = [0, 0]
    left = worse = 0
    for di, dj in MOVES:
        error, moved = after(di, dj)
        if error < HOME:
            home[max(abs(di), abs(dj)) - 1] += 1
        elif moved < HOME:
            left += 1
        else:
            worse += 1
    return kept, home[0], home[1], left, worse


def _line(label: str, got: list[int], boards: int) -> str:
    """One row of the table: ``got`` as `board` counts them, summed over ``boards``."""
    return (f"{label[:46]:46s} {got[0]:>5d}/{boards:<3d} {got[1]:>6d}/{4 * boards:<4d} "
            f"{got[2]:>6d}/{4 * boards:<4d} {got[3]:>6d} {got[4]:>6d}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="boards per row (default 8)")
    parser.add_argument("--only", default="", help="comma-separated texts: rows containing one")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once (default 1)")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.jobs < 1:
        parser.error("--seeds and --jobs must be at least 1")
    wanted = [t for t in args.only.split(",") if t]
    rows = [r for r in ROWS if not wanted or any(t in r for t in wanted)]
    if not rows:
        parser.error(f"--only {args.only!r} matches no row of {ROWS}")
    jobs = [(r, s) for r in rows for s in range(args.seeds)]
    start = time.perf_counter()
    if args.jobs == 1:
        results = [board(j) for j in jobs]
    else:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(board, jobs, chunksize=1)
    n = args.seeds
    print(f"{'scene':46s} {'own kept':>9s} {'1 off home':>11s} {'2 off home':>11s} "
          f"{'left':>6s} {'worse':>6s}")
    totals = [0] * 5
    for k, r in enumerate(rows):
        got = [sum(x[i] for x in results[k * n:(k + 1) * n]) for i in range(5)]
        totals = [a + b for a, b in zip(totals, got)]
        print(_line(r, got, n))
    print(_line("all", totals, n * len(rows)))
    print(f"\nwall time {time.perf_counter() - start:.0f} s on {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
