"""A manifest's photos, opened and read the one way every vision benchmark reads them: the
rows of the manifest (JSON lines), each photo's path (relative to the manifest's folder),
the photo read untouched, the board's extent taken from it, and the photo read under each
perturbation of `vision.perturb`, perturbed by that extent. A photo the manifest names that
is missing or cannot be read is an input error to the benchmarks that say so
(`say_missing`, `PhotoUnreadable`: named on stderr, exit status 2)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import BoardNotFound, Reading, read_board
from vision.perturb import Board, Perturbation, Perturbed

Reader = Callable[[np.ndarray], tuple[Reading | BoardNotFound | None, float]]
"""How a benchmark reads an image: the reading (a `BoardNotFound`, or None, where no board
was found) and the milliseconds it took."""


def timed_read(image: np.ndarray) -> tuple[Reading | BoardNotFound, float]:
    """`read_board` of ``image`` (uint8 BGR) with the default config, or the `BoardNotFound`
    it raised, and the milliseconds it took."""
    t0 = time.perf_counter()
    try:
        result: Reading | BoardNotFound = read_board(image)
    except BoardNotFound as exc:
        result = exc
    return result, (time.perf_counter() - t0) * 1e3


@dataclasses.dataclass(frozen=True)
class Read:
    """What reading an image gave: the ``reading`` (None: no board found), ``why`` not
    (the `BoardNotFound` reason; None where a board was found or the reader did not say),
    and the ``ms`` it took."""

    reading: Reading | None
    why: str | None
    ms: float

    @classmethod
    def by(cls, read: Reader, image: np.ndarray) -> Read:
        """``image`` read by ``read``."""
        result, ms = read(image)
        if isinstance(result, BoardNotFound):
            return cls(None, result.reason, ms)
        return cls(result, None, ms)


def numbered_rows(manifest: Path) -> list[tuple[int, dict[str, Any]]]:
    """The rows of ``manifest`` (JSON lines) as (line number, row), blank lines skipped:
    a photo's line number names it in every outcome and record."""
    return [(i, json.loads(line)) for i, line in enumerate(manifest.read_text().splitlines())
            if line.strip()]


def chosen_rows(manifest: Path, only: str | None = None, stride: int = 1
                ) -> list[tuple[int, dict[str, Any]]]:
    """Every ``stride``-th of the `numbered_rows` of ``manifest`` whose image's path holds
    ``only`` (all if None): the photos a benchmark's ``--only`` and ``--stride`` pick."""
    return [(i, r) for i, r in numbered_rows(manifest)
            if not only or only in str(r["image"])][::stride]


def photo_path(base: Path, row: dict[str, Any]) -> Path:
    """Where ``row``'s photo is: its ``image`` under ``base``, the manifest's folder."""
    return base / str(row["image"])


class PhotoUnreadable(Exception):
    """A photo the manifest names cannot be read (its path: the message)."""


def load_image(path: Path) -> np.ndarray | None:
    """The photo at ``path`` (uint8 BGR), or None if it is missing or not an image."""
    image: np.ndarray | None = cv2.imread(str(path), cv2.IMREAD_COLOR)
    return image


def read_image(path: Path) -> np.ndarray:
    """The photo at ``path`` (uint8 BGR); `PhotoUnreadable` naming it if it is missing or
    not an image."""
    image = load_image(path)
    if image is None:
        raise PhotoUnreadable(str(path))
    return image


def photo_image(base: Path, row: dict[str, Any]) -> np.ndarray:
    """``row``'s photo (under ``base``, uint8 BGR); `PhotoUnreadable` naming its path if it
    is missing or not an image."""
    return read_image(photo_path(base, row))


def missing_photos(manifest: Path, rows: Iterable[tuple[int, dict[str, Any]]]) -> list[Path]:
    """The photos of ``rows`` (of ``manifest``) that are not there."""
    paths = [photo_path(manifest.parent, row) for _, row in rows]
    return [path for path in paths if not path.is_file()]


def say_missing(manifest: Path, rows: Iterable[tuple[int, dict[str, Any]]]) -> bool:
    """Whether any photo of ``rows`` (of ``manifest``) is not there; the first ten said on
    stderr, each with its path, and how many more."""
    missing = missing_photos(manifest, rows)
    for path in missing[:10]:
        print(f"{path}: no such photo (named in {manifest}; photos are found relative "
              "to the manifest's folder)", file=sys.stderr)
    if len(missing) > 10:
        print(f"... and {len(missing) - 10} more photos missing", file=sys.stderr)
    return bool(missing)


def say_unreadable(manifest: Path, exc: PhotoUnreadable, hint: str = "") -> int:
    """Say on stderr that the photo of ``exc``, named in ``manifest``, cannot be read (then
    ``hint``, if any, in brackets); the exit status of an input error, 2."""
    print(f"{exc}: named in {manifest}, cannot be read" + (f" ({hint})" if hint else ""),
          file=sys.stderr)
    return 2


@dataclasses.dataclass(frozen=True)
class Photo:
    """A manifest row's photo, opened and read untouched: the ``image``, its ``reading``
    (None: no board found) and the ``ms`` it took, the labelled grid ``corners`` (4, 2)
    where the row has them, the board's ``extent`` for the perturbations that need it
    (the labelled corners, else the untouched reading's; None with neither), and ``why``
    no board was found (where the reader said)."""

    image: np.ndarray
    reading: Reading | None
    ms: float
    corners: np.ndarray | None
    extent: Board | None
    why: str | None = None


def open_photo(base: Path, row: dict[str, Any], read: Reader = timed_read,
               strict: bool = False) -> Photo | None:
    """``row``'s photo (under ``base``) opened and read by ``read``; if it cannot be opened,
    None, said on stderr naming the photo's path, or with ``strict`` `PhotoUnreadable`
    naming it. The extent's size is the row's ``size``, else the reading's."""
    path = photo_path(base, row)
    image = read_image(path) if strict else load_image(path)
    if image is None:
        print(f"cannot read {path}", file=sys.stderr)
        return None
    seen = Read.by(read, image)
    reading = seen.reading
    labels = row.get("grid_corners")
    corners = np.asarray(labels, dtype=np.float64).reshape(4, 2) if labels else None
    size = row.get("size") or (reading.size if reading else 19)
    extent = corners if corners is not None else (reading.corners if reading else None)
    return Photo(image, reading, seen.ms, corners,
                 None if extent is None else Board(extent, int(str(size))), seen.why)


def perturbed_reads(photo: Photo, perturbations: Sequence[Perturbation],
                    read: Reader = timed_read
                    ) -> Iterator[tuple[Perturbation, Perturbed | None, Read | None]]:
    """``photo`` under each of ``perturbations`` (by its extent) and read by ``read``:
    (the perturbation, the perturbed photo, its reading) each; (the perturbation, None,
    None) where the perturbation needs an extent the photo has not (a crop)."""
    for p in perturbations:
        try:
            spoiled = p.apply(photo.image, photo.extent)
        except ValueError:  # a crop with no board's extent to go by
            yield p, None, None
            continue
        yield p, spoiled, Read.by(read, spoiled.image)
