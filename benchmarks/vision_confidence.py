"""How honest the per-point confidence of `vision.read_board` is: a point read with
confidence >= 0.6 should be right, and a right point should rarely be read with less.

    .venv/bin/python benchmarks/vision_confidence.py [--seeds N] [--size 19] [--skip-photos]

Two tables, one row per kind of picture:

- the real photos with stone truth (../shared/vision-data/manifest.jsonl), untouched and
  spoiled (grey, darker, brighter), read as a user reads them (`read_board`, the best of
  four rotations against the truth; boards not found are counted apart);
- synthetic scenes of the misreadings seen on unseen photos (flash hot spots, sunlight,
  bright bevels, light tablecloths, grayscale, objects and hands on the board, black
  stones off their points; drawn by tests/vision/misreads.py over `vision.synth`), the
  stones read against the true grid so only the stone reading is judged. Points an object
  or a hand hides have no truth: they count as "hidden", and as "hidden sure" when read
  as a stone with confidence >= 0.6.

Columns: points, points wrong, wrong with confidence >= 0.6 (the confidence did not warn),
right with confidence < 0.6 (a warning for nothing), and the share of wrong points the
confidence warned of.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.vision.misreads import SPOILERS, scene  # noqa: E402
from vision import BoardNotFound, read_board  # noqa: E402
from vision.evaluate import single_stone_rows, to_array  # noqa: E402
from vision.stones import EMPTY, read_stones  # noqa: E402

MANIFEST = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"
SURE = 0.6

PHOTO_SPOILS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "untouched": lambda img: img,
    "grayscale": lambda img: cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY),
                                          cv2.COLOR_GRAY2BGR),
    "brightness x0.6": lambda img: cv2.convertScaleAbs(img, alpha=0.6),
    "brightness x1.4": lambda img: cv2.convertScaleAbs(img, alpha=1.4),
}


@dataclass
class Split:
    """Points tallied by right or wrong and by sure (confidence >= `SURE`) or not."""

    boards: int = 0
    missed: int = 0
    points: int = 0
    wrong: int = 0
    wrong_sure: int = 0
    right_unsure: int = 0
    hidden: int = 0
    hidden_sure: int = 0

    def add(self, right: np.ndarray, sure: np.ndarray) -> None:
        self.points += int(right.size)
        self.wrong += int((~right).sum())
        self.wrong_sure += int((~right & sure).sum())
        self.right_unsure += int((right & ~sure).sum())

    def row(self, name: str) -> str:
        warned = f"{100 * (1 - self.wrong_sure / self.wrong):6.1f}%" if self.wrong else f"{'-':>7}"
        hid = f"{self.hidden_sure:>4}/{self.hidden:<5}" if self.hidden else f"{'-':>10}"
        return (f"{name:<18} {self.boards:>6} {self.missed:>6} {self.points:>7} {self.wrong:>6} "
                f"{self.wrong_sure:>9} {self.right_unsure:>10} {warned} {hid}")


HEADER = (f"{'kind':<18} {'boards':>6} {'missed':>6} {'points':>7} {'wrong':>6} "
          f"{'wrong>=.6':>9} {'right<.6':>10} {'warned':>7} {'hidden sure':>10}")


def photos(spoil: Callable[[np.ndarray], np.ndarray]) -> Split:
    """The real photos with stone truth, spoiled, read by `read_board`."""
    tally = Split()
    for line in MANIFEST.read_text().splitlines():
        row = json.loads(line) if line.strip() else {}
        truth = row.get("stones")
        if truth is None and row.get("single_stone"):
            truth = single_stone_rows(row.get("size") or 19, row["single_stone"]["point"],
                                      row["single_stone"]["color"])
        if truth is None:
            continue
        image = cv2.imread(str(MANIFEST.parent / row["image"]), cv2.IMREAD_COLOR)
        if image is None:
            continue
        tally.boards += 1
        t = to_array(truth)
        try:
            reading = read_board(spoil(image))
        except BoardNotFound:
            tally.missed += 1
            continue
        labels = to_array(reading.rows())
        # Confidence is indexed as Position.cells: the bottom row first.
        conf = np.array(reading.confidence).reshape(labels.shape)[::-1]
        if labels.shape != t.shape:
            tally.missed += 1
            continue
        views = [(labels, conf)] + ([(labels[::-1], conf[::-1])] if row.get("stones") is None
                                    else [])
        lab, cf = max(((np.rot90(v, k), np.rot90(c, k)) for v, c in views for k in range(4)),
                      key=lambda p: int((p[0] == t).sum()))
        tally.add(lab == t, cf >= SURE)
    return tally


def scenes(kind: str, seeds: int, size: int) -> Split:
    """Synthetic scenes of ``kind``, sparse and crowded seeds in turn, read on the true grid."""
    tally = Split()
    for seed in range(seeds):
        shot = scene(kind, size, seed, 0.3 if seed % 2 == 0 else 0.6)
        labels, conf = read_stones(shot.image, shot.homography, size)
        tally.boards += 1
        shown = ~shot.hidden
        tally.add((labels == shot.truth)[shown], (conf >= SURE)[shown])
        tally.hidden += int(shot.hidden.sum())
        tally.hidden_sure += int((shot.hidden & (labels != EMPTY) & (conf >= SURE)).sum())
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=6, help="synthetic boards per kind (default 6)")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--skip-photos", action="store_true", help="synthetic scenes only")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not args.skip_photos:
        if not MANIFEST.is_file():
            print(f"no manifest at {MANIFEST}", file=sys.stderr)
            return 1
        print("real photos, read_board")
        print(HEADER)
        for name, spoil in PHOTO_SPOILS.items():
            print(photos(spoil).row(name), flush=True)
    print(f"\nsynthetic {args.size}x{args.size} scenes, stones read on the true grid")
    print(HEADER)
    for kind in ["plain", *SPOILERS, "off point"]:
        print(scenes(kind, args.seeds, args.size).row(kind), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
