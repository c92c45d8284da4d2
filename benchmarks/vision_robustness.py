"""How `vision.read_board` holds up when a dev photo is spoiled as an unseen one might be:
every photo of the manifest under each perturbation of `vision.perturb.STANDARD` (colour
casts of 8 hues at two strengths, brightness, gamma, JPEG, downscaling, the three turns,
saved as JPEG, grayscale, blur, noise, a cropped margin, a steeper view; issue 19).

    .venv/bin/python benchmarks/vision_robustness.py [MANIFEST] [--jobs N] [--stride K]
        [--only TEXT] [--perturb NAME,...] [--by-source] [-v]

Each reading is compared with the truth where the manifest has stones (``stones``, or a
``single_stone`` as `vision_accuracy.py` counts it), else with the untouched photo's own
reading (same size, points agreeing under the best rotation; a photo whose untouched
reading found no board has no reference and counts only for boards found). A board not
found or read at another size counts all its points wrong. Per perturbation: photos,
boards found, intersections right, boards perfect (of those with a reference), grids
within half a cell of the labelled corners (moved as the perturbation moves the photo,
where labelled), median ms, and the change of each against the untouched photos. The
goal (issue 19), checked on every row: a perturbation finds >= 99% of the boards found
untouched and loses < 0.1 point of intersections right. ``--by-source`` adds the table per
source (the manifest's ``source``).

The crop needs the board's extent: the manifest's grid corners where labelled, else the
untouched reading's corners (a photo with neither is left out of that row).

Cost: 378 photos x 35 readings (untouched and 34 perturbations). A read takes 0.28 s of
one core on average over the dev photos (`vision_accuracy.py`: 107 s of CPU for 378; the
median photo is faster, the 2048x1536 ones slower), so the full run is about an hour of
one core, half an hour with ``--jobs 2`` on an idle two-core machine. ``--stride 8`` (every
eighth photo, 48 of 378, the sets in proportion) takes an eighth of that; ``--perturb`` and
``--only`` pick subsets (``--perturb cast`` picks all 16 casts).
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.manifest_photos import chosen_rows, open_photo, perturbed_reads  # noqa: E402
from vision import Reading  # noqa: E402
from vision.evaluate import (  # noqa: E402
    corner_error_cells, points_right, single_stone_rows, source_of)
from vision.perturb import STANDARD, Perturbation, by_name  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"
UNTOUCHED = "untouched"
GOAL_FOUND = 0.99  # share of the boards found untouched that each perturbation must find
GOAL_POINTS = 0.1  # percentage points of intersections right a perturbation may lose, less


@dataclasses.dataclass(frozen=True)
class Outcome:
    """One photo under one perturbation: ``photo`` (its manifest line number), whether a
    board was ``found``, the ``points`` compared (0 without a reference) and how many were
    ``right``, whether the grid lies within half a cell of the labelled corners (None
    where none are labelled), and the milliseconds the read took."""

    perturbation: str
    photo: int
    image: str
    source: str
    found: bool
    points: int
    right: int
    grid: bool | None
    ms: float


def reference(row: dict[str, object], untouched: Reading | None) -> tuple[list[str] | None, bool]:
    """What a reading of ``row``'s photo is compared with, and whether mirror images count:
    its stones, its single stone (mirrored: see `vision_accuracy.py`), else the untouched
    reading's rows (None when that found no board)."""
    return reference_rows(row, untouched.rows() if untouched else None)


def reference_rows(row: dict[str, object], untouched: list[str] | None
                   ) -> tuple[list[str] | None, bool]:
    """`reference`, given the rows the untouched photo was read as (None: no board)."""
    stones = row.get("stones")
    if isinstance(stones, list):
        return [str(r) for r in stones], False
    single = row.get("single_stone")
    if isinstance(single, dict):
        size = row.get("size") or (len(untouched) if untouched else 19)
        return single_stone_rows(int(str(size)), str(single["point"]), str(single["color"])), True
    return untouched, False


def photo_outcomes(base: Path, index: int, row: dict[str, object],
                   perturbations: Sequence[Perturbation]) -> list[Outcome]:
    """``row``'s photo read untouched and under each of ``perturbations``."""
    photo = open_photo(base, row)
    if photo is None:
        return []
    untouched = photo.reading
    truth, mirror = reference(row, untouched)
    size = int(str(row.get("size") or (untouched.size if untouched else 19)))
    source, name = source_of(row), str(row["image"])

    def outcome(label: str, reading: Reading | None, ms: float,
                moved_labels: np.ndarray | None) -> Outcome:
        points = right = 0
        if truth is not None:
            points = len(truth) * len(truth[0])
            right = points_right(reading.rows() if reading else None, truth, mirror)
        grid = None
        if moved_labels is not None:
            grid = reading is not None and reading.size == size and \
                corner_error_cells(reading.corners, moved_labels, size) <= 0.5
        return Outcome(label, index, name, source, reading is not None, points, right, grid, ms)

    plain = photo.corners
    out = [outcome(UNTOUCHED, untouched, photo.ms, plain)]
    for p, spoiled, seen in perturbed_reads(photo, perturbations):
        if spoiled is None or seen is None:  # a crop with no board's extent to go by
            continue
        out.append(outcome(p.name, seen.reading, seen.ms,
                           None if plain is None else spoiled.points(plain)))
    return out


@dataclasses.dataclass(frozen=True)
class Figures:
    """Totals of some outcomes: photos, found, points compared and right, boards with a
    reference and perfect ones, labelled grids and right ones, median ms."""

    photos: int
    found: int
    points: int
    right: int
    boards: int
    perfect: int
    labelled: int
    grids: int
    ms: float

    @classmethod
    def of(cls, outcomes: Sequence[Outcome]) -> Figures:
        compared = [o for o in outcomes if o.points]
        labelled = [o for o in outcomes if o.grid is not None]
        return cls(len(outcomes), sum(o.found for o in outcomes),
                   sum(o.points for o in compared), sum(o.right for o in compared),
                   len(compared), sum(o.right == o.points for o in compared),
                   len(labelled), sum(bool(o.grid) for o in labelled),
                   statistics.median([o.ms for o in outcomes]) if outcomes else 0.0)

    @property
    def accuracy(self) -> float:
        """Intersections right, percent of those compared."""
        return 100.0 * self.right / max(1, self.points)

    def meets_goal(self, untouched: Figures) -> bool:
        """Whether these figures keep issue 19's goal against the same photos untouched."""
        return (self.found >= GOAL_FOUND * untouched.found
                and self.accuracy > untouched.accuracy - GOAL_POINTS)


HEADER = (f"{'perturbation':<24} {'photos':>6} {'found':>6} {'Δ':>4} {'points%':>8} "
          f"{'Δ':>7} {'perfect':>9} {'Δ':>4} {'grid':>9} {'Δ':>4} {'ms':>5}  goal")


def row_text(name: str, f: Figures, base: Figures | None) -> str:
    """A table row: ``f``'s figures, and with ``base`` (the same photos untouched) the
    change against it and whether the goal is kept."""
    perfect = f"{f.perfect}/{f.boards}"
    grid = f"{f.grids}/{f.labelled}" if f.labelled else "-"
    if base is None:
        deltas = ("", "", "", "", "")
    else:
        deltas = (f"{f.found - base.found:+d}", f"{f.accuracy - base.accuracy:+.3f}",
                  f"{f.perfect - base.perfect:+d}",
                  f"{f.grids - base.grids:+d}" if f.labelled else "",
                  "ok" if f.meets_goal(base) else "MISSED")
    return (f"{name:<24} {f.photos:>6} {f.found:>6} {deltas[0]:>4} {f.accuracy:8.3f} "
            f"{deltas[1]:>7} {perfect:>9} {deltas[2]:>4} {grid:>9} {deltas[3]:>4} "
            f"{f.ms:5.0f}  {deltas[4]}")


def table(outcomes: Sequence[Outcome], names: Sequence[str]) -> tuple[list[str], list[str]]:
    """The table's rows for ``outcomes`` (untouched first, then ``names`` in order), and
    the names of the perturbations that miss the goal."""
    untouched = {o.photo: o for o in outcomes if o.perturbation == UNTOUCHED}
    lines = [row_text(UNTOUCHED, Figures.of(list(untouched.values())), None)]
    missed = []
    for name in names:
        mine = [o for o in outcomes if o.perturbation == name]
        if not mine:
            continue
        f = Figures.of(mine)
        base = Figures.of([untouched[o.photo] for o in mine])
        lines.append(row_text(name, f, base))
        if not f.meets_goal(base):
            missed.append(name)
    return lines, missed


Job = TypeVar("Job")
Done = TypeVar("Done")


def over_photos(task: Callable[[Job], list[Done]], work: Sequence[Job], jobs: int = 1,
                progress: bool = False) -> list[Done]:
    """Everything ``task`` gives for each job of ``work`` (one a photo), run on ``jobs``
    processes with OpenCV on one thread each (the figures are per core; the jobs share the
    machine), in the order the jobs finish; with ``progress``, the photos and readings
    done so far on stderr. ``task`` must be a module's own function (a process runs it)."""
    out: list[Done] = []
    t0 = time.perf_counter()

    def take(results: Iterable[list[Done]]) -> None:
        for k, result in enumerate(results, 1):
            out.extend(result)
            if progress:
                print(f"{k}/{len(work)} photos, {len(out)} readings, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    if jobs <= 1:
        cv2.setNumThreads(1)
        take(map(task, work))
    else:
        with multiprocessing.Pool(jobs, cv2.setNumThreads, (1,)) as pool:
            take(pool.imap_unordered(task, work))
    return out


def _task(job: tuple[Path, int, dict[str, object], tuple[Perturbation, ...]]) -> list[Outcome]:
    return photo_outcomes(*job)


def run(manifest: Path, perturbations: Sequence[Perturbation], jobs: int = 1,
        stride: int = 1, only: str | None = None,
        progress: bool = False) -> list[Outcome]:
    """Every ``stride``-th photo of ``manifest`` (whose path holds ``only``, if given),
    untouched and under each of ``perturbations``, read on ``jobs`` processes."""
    rows = chosen_rows(manifest, only, stride)
    work = [(manifest.parent, i, r, tuple(perturbations)) for i, r in rows]
    return sorted(over_photos(_task, work, jobs, progress), key=lambda o: o.photo)


def report(outcomes: Sequence[Outcome], names: Sequence[str], by_source: bool) -> list[str]:
    """The printed report: the table over all photos, per source if asked, and the goal."""
    lines, missed = table(outcomes, names)
    out = [HEADER, *lines]
    if by_source:
        for source in sorted({o.source for o in outcomes}):
            mine = [o for o in outcomes if o.source == source]
            out += ["", f"source: {source}", HEADER, *table(mine, names)[0]]
    goal = (f"goal: every perturbation finds >= {100 * GOAL_FOUND:g}% of the boards found "
            f"untouched and loses < {GOAL_POINTS:g} point of intersections right")
    kept = len(names) - len(missed)
    out += ["", goal, f"kept by {kept} of {len(names)}"
            + (f"; missed by: {', '.join(missed)}" if missed else "")]
    return out


def checked_usage(args: argparse.Namespace) -> list[Perturbation] | None:
    """The perturbations ``args.perturb`` names (comma-separated names or prefixes; all of
    `STANDARD` without it); None, said on stderr, where those names or ``args.jobs`` or
    ``args.stride`` (whole numbers of at least 1) are wrong."""
    if args.jobs < 1 or args.stride < 1:
        print("--jobs and --stride take a whole number of at least 1", file=sys.stderr)
        return None
    try:
        return by_name(args.perturb) if args.perturb else list(STANDARD)
    except ValueError as exc:
        print(f"--perturb: {exc}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--jobs", type=int, default=1, help="processes reading at once (default 1)")
    ap.add_argument("--stride", type=int, default=1, help="every K-th photo only (default 1)")
    ap.add_argument("--only", help="only photos whose path contains this text")
    ap.add_argument("--perturb", help="comma-separated perturbation names or prefixes "
                    "(default: all of vision.perturb.STANDARD)")
    ap.add_argument("--by-source", action="store_true", help="also a table per source")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also each photo a perturbation loses (not found, or points lost)")
    ap.add_argument("--progress", action="store_true",
                    help="count the photos done on stderr (on anyway at a terminal)")
    args = ap.parse_args(argv)
    if not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    chosen = checked_usage(args)
    if chosen is None:
        return 2
    t0 = time.perf_counter()
    outcomes = run(args.manifest, chosen, args.jobs, args.stride, args.only,
                   progress=args.progress or sys.stderr.isatty())
    wall = time.perf_counter() - t0
    if not outcomes:
        print("no photos to read", file=sys.stderr)
        return 2
    names = [p.name for p in chosen]
    for line in report(outcomes, names, args.by_source):
        print(line)
    if args.verbose:
        untouched = {o.photo: o for o in outcomes if o.perturbation == UNTOUCHED}
        print("\nlosses against the untouched photo:")
        for o in outcomes:
            u = untouched[o.photo]
            if o.perturbation != UNTOUCHED and (u.found > o.found or u.right > o.right):
                what = "not found" if u.found > o.found else f"{u.right - o.right} points"
                print(f"  {o.perturbation:<24} {o.image}: {what}")
    photos = len({o.photo for o in outcomes})
    reads = len(outcomes)
    cpu = sum(o.ms for o in outcomes) / 1e3
    print(f"\n{photos} photos, {reads} readings; wall time {wall:.0f} s on {args.jobs} "
          f"job(s) ({cpu:.0f} s of reading; {os.cpu_count()} cores here)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
