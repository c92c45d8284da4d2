"""How well `vision.read_board` reads real photos: a table per set of images.

    .venv/bin/python benchmarks/vision_accuracy.py [MANIFEST ...] [--rotations] [--only TEXT]
                                                   [--by-source]

MANIFEST defaults to ../shared/vision-data/manifest.jsonl (one JSON object per image; see
that folder's README). The size is decided by the reader, never given. Per set (the first two
folders of the image path) and over all images:

- images; boards found (no BoardNotFound); size right (where the manifest gives one);
- intersections right, over images with stone ground truth, the best of four rotations; a
  board not found or read at the wrong size counts all its points wrong. A single-stone row
  (``single_stone``) is a board empty but for that stone, at the manifest's size or else
  the size read (19 when nothing was read), compared under mirror images too: the Tengen
  setup photos count rows from the top of the picture (C2_1.png shows its stone on the
  second line from the top);
- boards read perfectly; grid-corner error in cells where corners are labelled: the median
  of each image's worst corner and the shares of images whose four corners are all within a
  quarter and within half a cell (boards not found count as outside; within half a cell is
  the right grid, whatever the labels' own offset); the median milliseconds per image;
- a check of every board found that needs no labels: where the photo's own outer lines show
  near each corner, measured from the grid found (`vision.evaluate.edge_line_offsets`).

``--rotations`` runs every image turned by 0, 90, 180 and 270 degrees (labelled corners
turned with it) and prints one table per turn: the reader should not care.

``--by-source`` adds a table of the same figures per source (the manifest row's ``source``,
the public set it was copied from; its first folder where a row names none), the unit of
"leave one source out" (issue 19): a change that helps one source and costs another is
seen there.

Photos are found relative to the manifest's folder (`benchmarks.manifest_photos`); one the
manifest names that is missing or cannot be read is an input error: named on stderr, exit
status 2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.manifest_photos import (  # noqa: E402
    PhotoUnreadable, Read, chosen_rows, photo_image, say_missing, say_unreadable, timed_read)
from vision.evaluate import (  # noqa: E402
    corner_error_cells, corner_offsets, edge_line_offsets, points_right, single_stone_rows,
    source_of, turn_points)

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"
TURNS = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180,
         270: cv2.ROTATE_90_COUNTERCLOCKWISE}


@dataclass
class Tally:
    """Running figures for one set."""

    images: int = 0
    found: int = 0
    sized: int = 0
    size_right: int = 0
    points: int = 0
    points_right: int = 0
    boards: int = 0
    perfect: int = 0
    sizes_read: Counter[int] = field(default_factory=Counter)
    corner_errors: list[float] = field(default_factory=list)
    label_offsets: list[np.ndarray] = field(default_factory=list)
    edge_offsets: list[np.ndarray] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)

    def row(self, name: str, width: int = 28) -> str:
        acc = f"{100 * self.points_right / self.points:8.3f}" if self.points else f"{'-':>8}"
        perf = f"{self.perfect:>3}/{self.boards:<3}" if self.boards else f"{'-':>7}"
        size = f"{self.size_right:>3}/{self.sized:<3}" if self.sized else f"{'-':>7}"
        if self.corner_errors:
            ce = np.array(self.corner_errors)
            corner = (f"{np.median(ce):6.3f} {100 * np.mean(ce <= 0.25):5.1f}%"
                      f" {100 * np.mean(ce <= 0.5):5.1f}%")
        else:
            corner = f"{'-':>6} {'-':>6} {'-':>6}"
        ms = f"{statistics.median(self.ms):7.0f}" if self.ms else f"{'-':>7}"
        return (f"{name:<{width}} {self.images:>6} {self.found:>6} {size} {acc} {perf} "
                f"{corner} {ms}")


HEADER = (f"{'set':<28} {'images':>6} {'found':>6} {'size ok':>7} {'points%':>8} "
          f"{'perfect':>7} {'corner':>6} {'<=.25':>6} {'<=.5':>6} {'ms':>7}")


def set_name(image: str) -> str:
    """The set an image belongs to: the first two folders of its path."""
    parts = image.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def run(manifest: Path, deg: int, only: str | None, verbose: bool,
        sources: dict[str, Tally] | None = None) -> dict[str, Tally]:
    """Read every image of ``manifest`` (whose path holds ``only``, if given) turned by
    ``deg``; the tallies per set and 'all'. With ``sources``, each image is tallied there
    too, under its `source_of` name. A photo that cannot be read raises `PhotoUnreadable`."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for _, row in chosen_rows(manifest, only):
        image = photo_image(manifest.parent, row)
        shape = image.shape
        turn = TURNS[deg]
        if turn is not None:
            image = cv2.rotate(image, turn)
        seen = Read.by(timed_read, image)
        reading, why, ms = seen.reading, seen.why, seen.ms
        rows, size = (reading.rows(), reading.size) if reading else (None, None)
        truth = row.get("stones")
        mirror = truth is None
        if truth is None and row.get("single_stone"):
            s = row.get("size") or size or 19
            truth = single_stone_rows(s, row["single_stone"]["point"], row["single_stone"]["color"])
        edges = None if reading is None else edge_line_offsets(
            cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), reading.homography, reading.size)
        targets = [tallies[set_name(row["image"])], tallies["all"]]
        if sources is not None:
            targets.append(sources.setdefault(source_of(row), Tally()))
        for t in targets:
            t.images += 1
            if edges is not None:
                t.edge_offsets.append(edges)
            t.found += reading is not None
            if size is not None:
                t.sizes_read[size] += 1
            t.ms.append(ms)
            if row.get("size"):
                t.sized += 1
                t.size_right += size == row["size"]
            if truth is not None:
                right = points_right(rows, truth, mirror)
                n = len(truth) * len(truth[0])
                t.points += n
                t.points_right += right
                t.boards += 1
                t.perfect += right == n
            if row.get("grid_corners"):
                if reading is None:
                    t.corner_errors.append(float("inf"))
                else:
                    lab = turn_points(row["grid_corners"], shape, deg)
                    t.corner_errors.append(corner_error_cells(
                        reading.corners, lab, row.get("size") or reading.size))
                    if reading.size == (row.get("size") or 19):
                        t.label_offsets.append(corner_offsets(reading.corners, lab, reading.size))
        if verbose:
            status = f"{size} conf {reading.board_confidence:.2f}" if reading else f"NOT FOUND: {why}"
            extra = ""
            if truth is not None:
                extra = f" points {points_right(rows, truth, mirror)}/{len(truth) * len(truth[0])}"
            if row.get("grid_corners") and reading is not None:
                extra += f" corner {tallies['all'].corner_errors[-1]:.2f}"
            print(f"{row['image']}: {status}{extra} {ms:.0f} ms", flush=True)
    return tallies


def print_sources(sources: dict[str, Tally], total: Tally) -> None:
    """The table of `Tally` figures per source, widest name first column, then 'all'."""
    width = max(len(n) for n in [*sources, "source"])
    print(f"\n{'source':<{width}}{HEADER[28:]}")  # HEADER less its 28-wide first column
    for name in sorted(sources):
        print(sources[name].row(name, width))
    print(total.row("all", width))


def print_label_offsets(tallies: dict[str, Tally]) -> None:
    """Where the labelled corners lie from the corners found, on boards read at the right
    size (19 where the manifest gives none): a steady inward offset is the labels' own
    convention (boxes drawn around a corner have their centre inside it), not an error of
    the grid; the quarter-cell share is shown again with that median offset taken off."""
    rows = [(n, t) for n, t in sorted(tallies.items()) if n != "all" and t.label_offsets]
    if not rows:
        return
    print(f"\n{'labelled corners vs found':<28} {'corners':>7} {'inward':>7} {'across':>7} "
          f"{'<=.25':>6} {'less inward':>11}")
    for name, t in rows:
        f = label_offset_figures(t.label_offsets)
        print(f"{name:<28} {f.corners:>7} {f.inward:>7.3f} {f.across:>7.3f} "
              f"{100 * f.within:>5.1f}% {100 * f.within_less_inward:>10.1f}%")


def print_edge_offsets(tallies: dict[str, Tally]) -> None:
    """Where the photo's own outer grid lines lie from the found grid's (`edge_line_offsets`):
    a check of every board found that needs no labels. Per set: edge stretches where a line
    shows (8 per board: each edge near each end), their median inward offset in cells and
    the share within a tenth of a cell; boards with any stretch seen, and the shares whose
    stretches are all within a tenth and within a quarter of a cell."""
    print(f"\n{'outer lines in the photo':<28} {'seen':>7} {'inward':>7} {'<=.1':>6} "
          f"{'boards':>7} {'<=.1':>6} {'<=.25':>6}")
    for name, t in sorted(tallies.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        e = np.stack(t.edge_offsets) if t.edge_offsets else np.full((0, 8), np.nan)
        seen = ~np.isnan(e)
        boards = seen.any(axis=1)
        if not boards.any():
            continue
        far = np.where(seen, np.abs(e), 0.0).max(axis=1)[boards]
        print(f"{name:<28} {int(seen.sum()):>7} {np.median(e[seen]):7.3f} "
              f"{100 * np.mean(np.abs(e[seen]) <= 0.1):5.1f}% {int(boards.sum()):>7} "
              f"{100 * np.mean(far <= 0.1):5.1f}% {100 * np.mean(far <= 0.25):5.1f}%")


@dataclass(frozen=True)
class LabelOffsets:
    """Figures of a set's label offsets: how many corners; the median inward and (absolute)
    across offsets, in cells; the share of boards whose four corners are all within a
    quarter cell of their labels, as labelled and with the median inward offset taken off."""

    corners: int
    inward: float
    across: float
    within: float
    within_less_inward: float


def label_offset_figures(per_board: list[np.ndarray]) -> LabelOffsets:
    """The `LabelOffsets` of boards' (inward, across) offsets, (4, 2) each."""
    off = np.concatenate(per_board)
    inward = float(np.median(off[:, 0]))
    raw = np.linalg.norm(off, axis=1).reshape(-1, 4).max(axis=1)
    less = np.linalg.norm(off - [inward, 0.0], axis=1).reshape(-1, 4).max(axis=1)
    return LabelOffsets(len(off), inward, float(np.median(np.abs(off[:, 1]))),
                        float(np.mean(raw <= 0.25)), float(np.mean(less <= 0.25)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifests", nargs="*", type=Path, default=[DEFAULT])
    ap.add_argument("--rotations", action="store_true", help="also turn every image by 90, 180, 270")
    ap.add_argument("--only", help="only images whose path contains this text")
    ap.add_argument("--by-source", action="store_true",
                    help="also a table per source (the public set a photo comes from)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per image")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)  # the goal is stated per core
    for manifest in args.manifests:
        if not manifest.is_file():
            print(f"no manifest at {manifest}", file=sys.stderr)
            return 1
        if say_missing(manifest, chosen_rows(manifest, args.only)):
            return 2
        for deg in (0, 90, 180, 270) if args.rotations else (0,):
            sources: dict[str, Tally] | None = {} if args.by_source else None
            try:
                tallies = run(manifest, deg, args.only, args.verbose, sources)
            except PhotoUnreadable as exc:
                return say_unreadable(manifest, exc)
            print(f"\n{manifest} turned {deg} degrees" if args.rotations else f"\n{manifest}")
            print(HEADER)
            for name in sorted(tallies, key=lambda k: (k == "all", k)):
                print(tallies[name].row(name))
            if sources is not None:
                print_sources(sources, tallies["all"])
            print_label_offsets(tallies)
            print_edge_offsets(tallies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
