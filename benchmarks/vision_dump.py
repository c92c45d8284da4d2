"""Every dev photo's reading, written out whole, to tell whether a change altered any reading.

    .venv/bin/python benchmarks/vision_dump.py OUT.json [MANIFEST] [--stride N] [--perturb NAME]
    .venv/bin/python benchmarks/vision_dump.py --diff BEFORE.json AFTER.json [--readings]

MANIFEST defaults to ../shared/vision-data/manifest.jsonl. Per image: the board found or the
reason it was not, its size, board confidence, homography and corners (floats as Python
writes them, every digit), every point's colour and confidence. A refactor that claims to
change no reading shows no difference under ``--diff`` (exit status 1 when there is one,
with the first differing images named; a dump of every N-th image is checked against the
images it holds). ``--readings`` compares only what was read (the board found or not, its
size, grid and stones), not the confidences: a change to the confidences alone shows none.
Also prints the median milliseconds per photo. ``--perturb NAME`` (repeatable; the names of
``vision_robustness.py --perturb``, comma-separated or prefixes too) dumps each photo's
reading under each perturbation instead, as "IMAGE @ NAME", perturbed as that benchmark
perturbs it, so a perturbed reading can be compared with another tree's the same way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from collections.abc import Iterator, Sequence
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks.vision_robustness import numbered_rows, open_photo  # noqa: E402
from vision import BoardNotFound, Reading, read_board  # noqa: E402
from vision.perturb import Perturbation, by_name  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"


def read(image: np.ndarray) -> tuple[dict[str, Any], float]:
    """The reading of one image (uint8 BGR) as plain JSON values, and the milliseconds it
    took."""
    t0 = time.perf_counter()
    try:
        r = read_board(image)
    except BoardNotFound as exc:
        return {"found": False, "reason": exc.reason}, (time.perf_counter() - t0) * 1e3
    ms = (time.perf_counter() - t0) * 1e3
    return {"found": True, "size": r.size, "board_confidence": r.board_confidence,
            "homography": r.homography.tolist(), "corners": r.corners.tolist(),
            "rows": r.rows(), "confidence": list(r.confidence)}, ms


def reading_of(image_path: Path) -> tuple[dict[str, Any], float]:
    """The reading of one photo as plain JSON values, and the milliseconds it took."""
    image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
    if image is None:
        return {"error": "cannot read"}, 0.0
    return read(image)


def _untouched(image: np.ndarray) -> tuple[Reading | None, float]:
    try:
        return read_board(image), 0.0
    except BoardNotFound:
        return None, 0.0


def perturbed_readings(base: Path, row: dict[str, Any], perturbations: Sequence[Perturbation]
                       ) -> Iterator[tuple[str, dict[str, Any], float]]:
    """``row``'s photo (under ``base``) read under each of ``perturbations``, as
    `vision_robustness` perturbs it (the board's extent from the labelled corners, else the
    untouched reading): ("IMAGE @ NAME", the reading, its milliseconds) each."""
    photo = open_photo(base, row, _untouched)
    for p in perturbations:
        key = f"{row['image']} @ {p.name}"
        if photo is None:
            yield key, {"error": "cannot read"}, 0.0
            continue
        try:
            spoiled = p.apply(photo.image, photo.extent)
        except ValueError:  # a crop with no board's extent to go by
            yield key, {"error": "no board's extent to perturb by"}, 0.0
            continue
        yield (key, *read(spoiled.image))


def dump(manifest: Path, stride: int, perturbations: Sequence[Perturbation] = ()
         ) -> tuple[dict[str, Any], list[float]]:
    """Every ``stride``-th image of ``manifest`` read: {image: reading}, and the times; with
    ``perturbations``, each image under each of them instead: {"IMAGE @ NAME": reading}."""
    out: dict[str, Any] = {}
    times: list[float] = []
    for _, row in numbered_rows(manifest)[::stride]:
        if perturbations:
            for key, reading, ms in perturbed_readings(manifest.parent, row, perturbations):
                out[key] = reading
                times.append(ms)
            continue
        out[row["image"]], ms = reading_of(manifest.parent / row["image"])
        times.append(ms)
    return out, times


CONFIDENCES = ("board_confidence", "confidence")
"""The fields of a dump's reading that say how sure it is, not what was read."""


def diff(before: dict[str, Any], after: dict[str, Any], readings: bool = False) -> list[str]:
    """The images of ``after`` whose readings differ from ``before``'s (or that ``before``
    lacks), in ``after``'s order: a dump taken with ``--stride`` is checked image by image
    against a whole one. With ``readings``, the `CONFIDENCES` are not compared."""
    def kept(reading: Any) -> Any:
        if not readings or not isinstance(reading, dict):
            return reading
        return {k: v for k, v in reading.items() if k not in CONFIDENCES}
    return [k for k in after if k not in before or kept(before[k]) != kept(after[k])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", type=Path, help="OUT.json [MANIFEST], or two dumps")
    ap.add_argument("--diff", action="store_true", help="compare two dumps")
    ap.add_argument("--stride", type=int, default=1, help="every N-th image only")
    ap.add_argument("--readings", action="store_true", help="with --diff: compare what was "
                    "read only, not the confidences")
    ap.add_argument("--perturb", action="append", default=[], metavar="NAME",
                    help="dump the readings under this perturbation instead (repeatable; "
                    "the names of vision_robustness.py --perturb)")
    args = ap.parse_args(argv)
    if args.diff:
        if len(args.paths) != 2:
            ap.error("--diff takes two dump files")
        dumps = []
        for path in args.paths:
            try:
                dumps.append(json.loads(path.read_text()))
            except (OSError, ValueError) as exc:
                print(f"{path}: not a dump this script wrote ({exc})", file=sys.stderr)
                return 2
        before, after = dumps
        changed = diff(before, after, args.readings)
        print(f"{len(after)} readings checked against {len(before)}; {len(changed)} differ")
        for name in changed[:20]:
            print(f"  {name}")
        return 1 if changed else 0
    manifest = args.paths[1] if len(args.paths) > 1 else DEFAULT
    if not manifest.is_file():
        print(f"no manifest at {manifest}", file=sys.stderr)
        return 2
    try:
        chosen = by_name(",".join(args.perturb)) if args.perturb else []
    except ValueError as exc:
        print(f"--perturb: {exc}", file=sys.stderr)
        return 2
    out, times = dump(manifest, args.stride, chosen)
    args.paths[0].write_text(json.dumps(out, indent=0))
    found = sum(1 for v in out.values() if v.get("found"))
    what = "readings" if chosen else "photos"
    median = statistics.median(times) if times else float("nan")
    print(f"{len(out)} {what}, {found} boards found, median {median:.1f} ms"
          f" per photo -> {args.paths[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
