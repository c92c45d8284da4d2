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

Photos are found relative to the manifest's folder, as every vision benchmark finds them
(`benchmarks.manifest_photos`). A photo the manifest names that is missing or cannot be
read is an input error: named on stderr, exit status 2, nothing written; ``--keep-going``
names it and records it as ``{"error": "cannot read"}`` instead.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from collections.abc import Iterator, Sequence
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks.manifest_photos import (  # noqa: E402
    PhotoUnreadable, Read, numbered_rows, open_photo, perturbed_reads, photo_path, say_missing,
    say_unreadable, timed_read)
from vision.perturb import Perturbation, by_name  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"


def as_json(seen: Read) -> dict[str, Any]:
    """A reading as plain JSON values: the board found or the reason it was not."""
    r = seen.reading
    if r is None:
        return {"found": False, "reason": seen.why}
    return {"found": True, "size": r.size, "board_confidence": r.board_confidence,
            "homography": r.homography.tolist(), "corners": r.corners.tolist(),
            "rows": r.rows(), "confidence": list(r.confidence)}


def read(image: np.ndarray) -> tuple[dict[str, Any], float]:
    """The reading of one image (uint8 BGR) as plain JSON values, and the milliseconds it
    took."""
    seen = Read.by(timed_read, image)
    return as_json(seen), seen.ms


UNREADABLE = {"error": "cannot read"}
"""What ``--keep-going`` records for a photo that cannot be read."""


def photo_readings(base: Path, row: dict[str, Any], perturbations: Sequence[Perturbation],
                   keep_going: bool = False) -> Iterator[tuple[str, dict[str, Any], float]]:
    """``row``'s photo (under ``base``) read as `manifest_photos` reads it: (its image,
    the reading, its milliseconds); with ``perturbations``, under each of them instead,
    as ("IMAGE @ NAME", ...). A photo that cannot be read raises `PhotoUnreadable`;
    with ``keep_going``, it is recorded as `UNREADABLE` instead (said on stderr)."""
    name = str(row["image"])
    keys = [f"{name} @ {p.name}" for p in perturbations] or [name]
    photo = open_photo(base, row)
    if photo is None:
        if not keep_going:
            raise PhotoUnreadable(str(photo_path(base, row)))
        for key in keys:
            yield key, dict(UNREADABLE), 0.0
        return
    if not perturbations:
        yield name, as_json(Read(photo.reading, photo.why, photo.ms)), photo.ms
        return
    for key, (_, _, seen) in zip(keys, perturbed_reads(photo, perturbations)):
        if seen is None:
            yield key, {"error": "no board's extent to perturb by"}, 0.0
        else:
            yield key, as_json(seen), seen.ms


def dump(manifest: Path, stride: int, perturbations: Sequence[Perturbation] = (),
         keep_going: bool = False) -> tuple[dict[str, Any], list[float]]:
    """Every ``stride``-th image of ``manifest`` read: {image: reading}, and the times; with
    ``perturbations``, each image under each of them instead: {"IMAGE @ NAME": reading}.
    A photo that cannot be read raises `PhotoUnreadable`, unless ``keep_going``."""
    out: dict[str, Any] = {}
    times: list[float] = []
    for _, row in numbered_rows(manifest)[::stride]:
        for key, reading, ms in photo_readings(manifest.parent, row, perturbations, keep_going):
            out[key] = reading
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
    ap.add_argument("--keep-going", action="store_true", help="record a photo that cannot "
                    "be read as such and go on (else it is an input error, exit status 2)")
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
    if not args.keep_going and say_missing(manifest, numbered_rows(manifest)[::args.stride]):
        return 2
    try:
        out, times = dump(manifest, args.stride, chosen, args.keep_going)
    except PhotoUnreadable as exc:
        return say_unreadable(manifest, exc, "--keep-going records it and goes on")
    args.paths[0].write_text(json.dumps(out, indent=0))
    found = sum(1 for v in out.values() if v.get("found"))
    what = "readings" if chosen else "photos"
    median = statistics.median(times) if times else float("nan")
    print(f"{len(out)} {what}, {found} boards found, median {median:.1f} ms"
          f" per photo -> {args.paths[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
