"""A manifest's photos, opened and read the one way every vision benchmark reads them: the
rows of the manifest (JSON lines), each photo's path (relative to the manifest's folder),
the photo read untouched, the board's extent taken from it, and the photo read under each
perturbation of `vision.perturb`, perturbed by that extent."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
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


def photo_path(base: Path, row: dict[str, Any]) -> Path:
    """Where ``row``'s photo is: its ``image`` under ``base``, the manifest's folder."""
    return base / str(row["image"])


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


def open_photo(base: Path, row: dict[str, Any], read: Reader = timed_read) -> Photo | None:
    """``row``'s photo (under ``base``) opened and read by ``read``; None, said on stderr
    naming the photo's path, if it cannot be opened. The extent's size is the row's
    ``size``, else the reading's."""
    path = photo_path(base, row)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
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
