"""The real per-move sequences of ../shared/vision-data (one photo per move, each labelled
with the stones it shows), and the moves their labels prove."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from rules import Position
from tests.conftest import VISION_DATA, need


def frames(name: str) -> list[dict[str, Any]]:
    """The manifest's rows of sequence ``name``, in move order. Skips the test (fails it
    under CI) when the vision data is missing."""
    manifest = VISION_DATA / "manifest.jsonl"
    need(manifest.is_file(), f"no vision data at {VISION_DATA}")
    rows = [json.loads(line) for line in manifest.read_text().splitlines() if line.strip()]
    found = sorted((r for r in rows if r.get("sequence") == name), key=lambda r: r["index"])
    need(bool(found), f"no sequence {name!r} in {manifest}")
    return found


def labels(name: str) -> list[list[str]]:
    """The labelled stones of each frame of ``name`` (rows, top of the photo first)."""
    return [r["stones"] for r in frames(name)]


def copy_photos(name: str, folder: Path) -> list[list[str]]:
    """Copy the photos of ``name`` into ``folder`` (made if need be), named by their place
    in the sequence (``000.png``...); their labels, in that order."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = frames(name)
    for r in rows:
        photo = VISION_DATA / r["image"]
        need(photo.is_file(), f"no photo {photo}")
        shutil.copyfile(photo, folder / f"{r['index']:03d}{photo.suffix}")
    return [r["stones"] for r in rows]


def moves_between(positions: list[list[str]]) -> list[str]:
    """The moves (``B C3``) that lead from each labelled position to the next, in the
    photos' own coordinates: exactly one new stone each; stones may also be gone (taken
    off by a capture), or still lie there (captured, not yet taken off)."""
    out = []
    for before, after in zip(positions, positions[1:]):
        old, new = Position(before), Position(after)
        changed = new.difference(old)
        placed = [p for p in changed if new[p] is not None]
        assert len(placed) == 1 and old[placed[0]] is None, (
            f"not one new stone from {before} to {after}: {[p.gtp() for p in changed]}")
        stone = new[placed[0]]
        assert stone is not None
        out.append(f"{stone.letter} {placed[0].gtp()}")
    return out
