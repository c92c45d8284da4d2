"""Speed of `vision.read_board` on one core: the median dev photo, and a 12 MP phone photo.

    .venv/bin/python benchmarks/vision_speed.py [MANIFEST] [--stride N] [--repeat R]

Prints the median milliseconds per dev photo (every N-th of MANIFEST, default
../shared/vision-data/manifest.jsonl; goal: under 150 ms), and the fastest of R full reads
of one of them enlarged to 4000 x 3000 (12 MP; 3000 x 4000 if it stands upright; goal: under
300 ms): ``--big``, by default the one whose time was the median among the photos shaped
4:3 as a phone's are (so enlarged undistorted), or among all if none is. The tracking
path's frames per second are `benchmarks/record_speed.py`'s. To compare two versions of the code, run this script from
each tree in turn, alternating (the machine is shared and noisy), and compare the figures
as ratios. Photos are found relative to the manifest's folder
(`benchmarks.manifest_photos`); one the manifest names that is missing or cannot be read is
an input error: named on stderr, exit status 2.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core, before numpy and OpenCV load
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.manifest_photos import (  # noqa: E402
    PhotoUnreadable, chosen_rows, load_image, photo_image, photo_path, say_missing,
    say_unreadable)
from vision import BoardNotFound, read_board  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"
TWELVE_MP = (4000, 3000)


def read_ms(image: np.ndarray) -> tuple[float, float]:
    """Milliseconds of one `read_board` of ``image`` (found or not): by the clock, and of
    this process's CPU time (on a shared machine the steadier figure: one core does all
    the work, the others' load does not count)."""
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        read_board(image)
    except BoardNotFound:
        pass
    return (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3


def enlarged(image: np.ndarray) -> np.ndarray:
    """``image`` resized to 12 MP, 4000 x 3000 lying or 3000 x 4000 standing."""
    h, w = image.shape[:2]
    size = TWELVE_MP if w >= h else TWELVE_MP[::-1]
    out: np.ndarray = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--stride", type=int, default=1, help="every N-th photo only")
    ap.add_argument("--repeat", type=int, default=5, help="reads of the 12 MP photo")
    ap.add_argument("--big", help="the photo enlarged to 12 MP (its path in the manifest)")
    args = ap.parse_args(argv)
    if not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rows = chosen_rows(args.manifest, stride=args.stride)
    if say_missing(args.manifest, rows):
        return 2
    times: list[tuple[float, Path, bool]] = []
    cpu: list[float] = []
    for _, row in rows:
        try:
            image = photo_image(args.manifest.parent, row)
        except PhotoUnreadable as exc:
            return say_unreadable(args.manifest, exc)
        h, w = sorted(image.shape[:2])
        ms, cpu_ms = read_ms(image)
        times.append((ms, photo_path(args.manifest.parent, row), abs(w / h - 4 / 3) < 0.01))
        cpu.append(cpu_ms)
    median = statistics.median(t for t, _, _ in times)
    phones = [tp for tp in times if tp[2]] or times
    among = statistics.median_low(t for t, _, _ in phones)
    middle = args.manifest.parent / args.big if args.big else \
        next(p for t, p, _ in phones if t == among)
    photo = load_image(middle)
    if photo is None:
        print(f"cannot read {middle}", file=sys.stderr)
        return 2
    big = enlarged(photo)
    big_ms = [read_ms(big) for _ in range(args.repeat)]
    print(f"{len(times)} dev photos, one core: median {median:.1f} ms, CPU "
          f"{statistics.median(cpu):.1f} ms (goal under 150)")
    print(f"12 MP ({big.shape[1]}x{big.shape[0]}, {middle.relative_to(args.manifest.parent)}"
          f" enlarged): fastest of {args.repeat} {min(t for t, _ in big_ms):.1f} ms, CPU "
          f"{min(c for _, c in big_ms):.1f} ms (goal under 300)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
