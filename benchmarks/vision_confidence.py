"""How honest the per-point confidence of `vision.read_board` is: a point read with
confidence >= 0.6 should be right, and a right point should rarely be read with less.

    .venv/bin/python benchmarks/vision_confidence.py [--seeds N] [--size 19] [--skip-photos]
    .venv/bin/python benchmarks/vision_confidence.py --calibration [--records FILE]
        [--photo-stride K] [--perturb-stride K] [--scenes N] [--mistaken K] [--board-scenes N]
    .venv/bin/python benchmarks/vision_confidence.py --placements K

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

``--calibration`` prints instead how well the confidences separate right from wrong before
(the reader's raw figures) and after `vision.calibration`, on the readings
`benchmarks/fit_confidence.py` collects (the same strides; ``--records`` reuses its file),
each set judged by a calibration fitted without it: leave one source out (the manifest's
``source``; all held-out predictions pooled too), and leave one group of perturbations out
(`GROUPS`). Per row, for points: wrong points under 0.6 of all wrong ("warned"), the share
of points at 0.6 or more that is wrong ("sure bad"), how many are sure, and the AUC (the
chance a right point scores above a wrong one). For boards found the same, a board being
wrong when its grid is not the board's own (`fit_confidence.Record.grid_right`: read at
the wrong size, half a cell or more off its labelled corners, or where only the stones are
known, its stones read sitting better on the truth moved a line than in place; a point
misread on a grid in place is not a wrong board), the wrong boards including the grids a
board's is most easily mistaken for (``--mistaken``: a line off, patches of a smaller
size), and the scene boards (``--board-scenes``, never fitted on) a row of their own; sure
at the raw grid confidence >= `min_confidence` (every board found) before, at calibrated
>= 0.6 after. Then reliability tables (per band of
confidence, the share right) of the pooled leave-one-source-out predictions. Each set has
four rows: "raw" (the board's confidence the grid's own, as `read_board` reported it
before the doubts were weighed), "raw+doubts" (lowered by its doubts,
`vision.grid_score.trusted`: what it reports now), and each calibrated.

``--placements K`` prints instead how the raw board confidence tells each right grid found
(every K-th photo `fit_confidence.py` reads, untouched) from the grids it is most easily
mistaken for (`vision.grid_score.mistaken_placements`: a line off each way, patches of a
smaller size): per kind, how many are at or above `min_confidence`, and the AUC of right
against them, before and after the doubts. The dev photos' found-but-wrong boards are too
few (and mostly a point misread on a 9x9) to judge the board confidence by alone.

Photos are found relative to the manifest's folder (`benchmarks.manifest_photos`); one the
manifest names that is missing or cannot be read is an input error: named on stderr, exit
status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fit_confidence import (  # noqa: E402
    BOARD_SCENE_SOURCE, PLACED, SCENE_SOURCE, Record, board_data, fit, load_or_collect,
    manifest_rows, photo_records, point_data, right_points)
from benchmarks.manifest_photos import (  # noqa: E402
    PhotoUnreadable, Read, photo_image, say_missing, say_unreadable, timed_read)
from benchmarks.vision_robustness import reference  # noqa: E402
from tests.vision.misreads import SPOILERS, scene  # noqa: E402
from vision.calibration import POINT_FEATURES, SURE, Calibration  # noqa: E402
from vision.config import LOCATE, VISION  # noqa: E402
from vision.grid import GridFit  # noqa: E402
from vision.grid_score import confidence, mistaken_placements, placed_confidence  # noqa: E402
from vision.locate import to_gray, working_image  # noqa: E402
from vision.stones import EMPTY, read_stones  # noqa: E402

MANIFEST = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"

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
    """The real photos with stone truth, spoiled, read by `read_board`; `PhotoUnreadable`
    if one cannot be read."""
    tally = Split()
    for _, row in manifest_rows(MANIFEST, 0):
        image = photo_image(MANIFEST.parent, row)
        tally.boards += 1
        reading = Read.by(timed_read, spoil(image)).reading
        if reading is None:
            tally.missed += 1
            continue
        truth, mirror = reference(row, reading)
        right = None if truth is None else right_points(reading, truth, mirror)
        if right is None:
            tally.missed += 1
            continue
        # Confidence is indexed as Position.cells: the bottom row first.
        n = reading.size
        tally.add(right, np.array(reading.confidence).reshape(n, n)[::-1] >= SURE)
    return tally


def scenes(kind: str, seeds: int, size: int) -> Split:
    """Synthetic scenes of ``kind``, sparse and crowded seeds in turn, read on the true grid
    as `vision.read_board` reads them (the point net too, where its config has it)."""
    tally = Split()
    for seed in range(seeds):
        shot = scene(kind, size, seed, 0.3 if seed % 2 == 0 else 0.6)
        labels, conf = read_stones(shot.image, shot.homography, size, VISION.stones, VISION.light,
                                   VISION.point_net)
        tally.boards += 1
        shown = ~shot.hidden
        tally.add((labels == shot.truth)[shown], (conf >= SURE)[shown])
        tally.hidden += int(shot.hidden.sum())
        tally.hidden_sure += int((shot.hidden & (labels != EMPTY) & (conf >= SURE)).sum())
    return tally


GROUPS: dict[str, tuple[str, ...]] = {
    "colour casts": ("cast",),
    "light": ("brightness", "gamma"),
    "compression": ("jpeg", "saved as jpeg", "downscale"),
    "geometry": ("turn", "crop", "steeper"),
    "grey, blur, noise": ("grayscale", "blur", "noise"),
    "synthetic scenes": ("scene",),
    "mistaken placements": ("placed",),
}
"""Groups of `vision.perturb.STANDARD` by name prefix, for the split by perturbation (a
turn saved as a JPEG is geometry: its name starts with "turn"); the synthetic scenes of
`benchmarks/fit_confidence.py` are a group of their own (its scene boards, never fitted
on, among them), and so are the grids it places where the board's is easily mistaken for
(`placement_records`)."""


def group_of(perturbation: str) -> str:
    """The `GROUPS` name of a perturbation's name; "untouched" for the untouched photo."""
    for name, prefixes in GROUPS.items():
        if perturbation.startswith(prefixes):
            return name
    return "untouched"


def auc(score: np.ndarray, right: np.ndarray) -> float:
    """The chance that a right item scores above a wrong one (ties count half): the area
    under the ROC curve; NaN without both kinds."""
    pos, neg = int(right.sum()), int((~right).sum())
    if not pos or not neg:
        return float("nan")
    _, where, counts = np.unique(score, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2.0)[where]  # tied scores share their rank
    return float((ranks[right].sum() - pos * (pos + 1) / 2) / (pos * neg))


@dataclass
class Separation:
    """How well confidences ``score`` at a threshold separate right items from wrong."""

    score: np.ndarray
    right: np.ndarray
    threshold: float

    def cells(self) -> str:
        """wrong warned (under the threshold) of wrong; share of the sure that is wrong; AUC."""
        sure = self.score >= self.threshold
        wrong = ~self.right
        warned = f"{int((wrong & ~sure).sum())}/{int(wrong.sum())}"
        bad = f"{100 * (wrong & sure).sum() / max(1, sure.sum()):.3f}%"
        return f"{warned:>11} {bad:>8} {int(sure.sum()):>7} {auc(self.score, self.right):6.3f}"


SEP_HEADER = f"{'warned':>11} {'sure bad':>8} {'sure':>7} {'AUC':>6}"


def held_out(records: Sequence[Record], split: Callable[[Record], str]) -> tuple[
        dict[str, tuple[Calibration, Calibration, list[Record]]], list[str]]:
    """Per value of ``split`` over ``records``: calibrations fitted on the records with
    another value, of the board confidence without and with its doubts
    (`Record.board_confidence`), and the records with that one (left out of their fit)."""
    keys = sorted({split(r) for r in records})
    out = {}
    for key in keys:
        test = [r for r in records if split(r) == key]
        rest = [r for r in records if split(r) != key]
        out[key] = (fit(rest, doubted=False), fit(rest), test)
    return out, keys


Scores = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def predictions(cal: Calibration | None, records: Sequence[Record],
                doubted: bool = True) -> Scores:
    """Point scores and rightness, board scores and rightness of ``records`` under ``cal``
    (None: the raw confidences), the board confidence ``doubted`` or not
    (`Record.board_confidence`)."""
    xp, yp = point_data(records)
    xb, yb = board_data(records, doubted)
    if cal is None:  # the raw confidence, from its log-odds (clipped to [0.001, 0.999])
        ps = 1.0 / (1.0 + np.exp(-xp[:, POINT_FEATURES.index("raw")]))
        bs = np.array([r.board_confidence(doubted) for r in records
                       if r.found and r.grid_right is not None])
        return ps, yp, bs, yb
    return cal.point(xp), yp, cal.board(xb), yb


KINDS = ("raw", "raw+doubts", "calibrated", "cal.+doubts")
"""The four rows per set: the raw confidences, the board's own grid confidence or lowered
by its doubts (what `read_board` reports now), and each calibrated."""


def kind_rows(name: str, scores: Sequence[Scores]) -> list[str]:
    """A table row per `KINDS` for ``scores`` in that order: points and boards separated
    (raw boards sure at `min_confidence`, calibrated ones at `SURE`)."""
    out = []
    for label, (ps, yp, bs, yb) in zip(KINDS, scores):
        board_at = LOCATE.min_confidence if label.startswith("raw") else SURE
        out.append(f"{name:<22} {label:<11} {len(yp):>7} "
                   f"{Separation(ps, yp, SURE).cells()}  {len(yb):>5} "
                   f"{Separation(bs, yb, board_at).cells()}")
    return out


def all_kinds(plain: Calibration, doubted: Calibration, records: Sequence[Record]) -> list[Scores]:
    """The `KINDS` of scores of ``records``: raw and calibrated (by ``plain`` and
    ``doubted``), the board confidence without and with its doubts."""
    return [predictions(None, records, False), predictions(None, records),
            predictions(plain, records, False), predictions(doubted, records)]


def reliability(score: np.ndarray, right: np.ndarray) -> list[str]:
    """A reliability table: per band of confidence, items, mean confidence, share right."""
    edges = [0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.99, 1.0 + 1e-9]
    out = [f"{'confidence':<12} {'items':>7} {'mean':>6} {'right':>7}"]
    for lo, hi in zip(edges[:-1], edges[1:]):
        band = (score >= lo) & (score < hi)
        if band.any():
            out.append(f"{lo:.2f}-{min(hi, 1.0):.2f}    {int(band.sum()):>7} "
                       f"{score[band].mean():6.3f} {100 * right[band].mean():6.2f}%")
    return out


def calibration_report(records: Sequence[Record]) -> list[str]:
    """The separation tables before and after calibration, the board confidence without
    and with its doubts: fitted on all (in sample), each source predicted by a fit without
    it (and all of those pooled), each group of perturbations predicted by a fit without
    it, and reliability tables of the pooled leave-one-source-out predictions."""
    sep = (f"points: wrong points under {SURE} (warned) of all wrong, share of the points at "
           f"{SURE} or more that is wrong, points sure, AUC; boards the same, a board wrong "
           "when its grid is not the board's own (the wrong size, >= 0.5 cell off its "
           "labelled corners, or its stones read sitting better on the truth a line off), "
           "the grids most easily mistaken for the board's among them, sure at the raw "
           f"board confidence >= {LOCATE.min_confidence} "
           f"and at calibrated >= {SURE}; 'raw' is the grid's own confidence, "
           "'raw+doubts' it lowered by its doubts (what read_board reports)")
    head = f"{'held out':<22} {'':<11} {'points':>7} {SEP_HEADER}  {'boards':>5} {SEP_HEADER}"
    read = [r for r in records if r.found and r.source not in (SCENE_SOURCE, BOARD_SCENE_SOURCE)
            and not r.perturbation.startswith(PLACED)]
    out = [sep, "", f"dev photos' readings found: {len(read)}; wrong grids "
           f"{sum(r.grid_right is False for r in read)}; wrong by the older verdict (also "
           f"99% of the points right) {sum(r.board_right is False for r in read)}", "", head]
    out += kind_rows("none (in sample)", all_kinds(fit(records, False), fit(records), records))
    by_source, sources = held_out(records, lambda r: r.source)
    pooled: list[list[Scores]] = []
    for key in sources:
        plain, doubted, test = by_source[key]
        judged = all_kinds(plain, doubted, test)
        if key != BOARD_SCENE_SOURCE:  # judged apart: never fitted on
            pooled.append(judged)
        out += kind_rows(key[:22], judged)
    kinds: list[Scores] = []
    for k in range(len(KINDS)):
        ps, yp, bs, yb = (np.concatenate([p[k][i] for p in pooled]) for i in range(4))
        kinds.append((ps, yp, bs, yb))
    out += ["", "each source predicted by a fit without it, pooled (the scene boards apart):",
            head]
    out += kind_rows("all sources", kinds)
    ps, yp, bs, yb = kinds[3]
    out.append("the same, calibrated with doubts, sure only at a stricter threshold:")
    for at in (0.9, 0.99):
        out.append(f"{'all sources':<22} {f'>= {at}':<11} {len(yp):>7} "
                   f"{Separation(ps, yp, at).cells()}  {len(yb):>5} "
                   f"{Separation(bs, yb, at).cells()}")
    out += ["", "each group of perturbations predicted by a fit without it:", head]
    by_group, groups = held_out(records, lambda r: group_of(r.perturbation))
    for key in groups:
        plain, doubted, test = by_group[key]
        out += kind_rows(key, all_kinds(plain, doubted, test))
    for what, i in (("points", 0), ("boards found", 2)):
        for label, scores in zip(KINDS, kinds):
            if what == "points" and "doubts" in label:
                continue  # the doubts weigh boards only
            out += ["", f"reliability of the {what}, leave one source out, {label}:"]
            out += reliability(scores[i], scores[i + 1])
    return out


def placement_rows(stride: int) -> list[tuple[int, dict[str, object]]]:
    """The manifest rows `placement_report` reads: every ``stride``-th of those
    `fit_confidence.py` reads at its default photo stride (4)."""
    return manifest_rows(MANIFEST, 4)[::stride]


def placement_report(stride: int) -> list[str]:
    """How the board confidence tells a right grid from the grids it is most easily mistaken
    for (`vision.grid_score.mistaken_placements`), on every ``stride``-th dev photo
    (`manifest_rows` with stride 4) whose untouched board is found and right, before (the
    grid's own confidence, `confidence`) and after (lowered by its doubts,
    `placed_confidence`; for the right grid, what `read_board` reports). `PhotoUnreadable`
    if a photo cannot be read."""
    cfg = LOCATE
    rows = placement_rows(stride)
    right: list[tuple[float, float]] = []
    wrong: dict[str, list[tuple[float, float]]] = {}
    for index, row in rows:
        found = photo_records(MANIFEST.parent, index, row, [])
        if not found[0].grid_right:
            continue
        image = photo_image(MANIFEST.parent, row)
        r = found[0]
        assert r.homography is not None and r.labels is not None
        right.append((r.board_confidence(False), r.board_confidence()))
        small, to_full = working_image(to_gray(image), cfg)
        fit = GridFit(np.linalg.inv(to_full) @ r.homography, r.labels.shape[0], 0.0)
        for name, placed in mistaken_placements(fit, VISION.sizes).items():
            kind = name.split(" (")[0].split(",")[0]
            wrong.setdefault(kind, []).append((confidence(small, placed, cfg),
                                               placed_confidence(small, placed, cfg)))
    at = cfg.min_confidence
    out = [f"{len(right)} right boards (every {stride}th photo fit_confidence.py reads, "
           "untouched); "
           f"counted at or above the raw threshold {at}, and the AUC of right against each "
           "kind of wrong placement, before (the grid's own confidence) and after (lowered "
           "by its doubts)",
           f"{'placement':<18} {'grids':>6} {'>= ' + str(at) + ' before':>14} "
           f"{'after':>6} {'AUC before':>11} {'after':>6}"]
    r_before, r_after = (np.array([p[k] for p in right]) for k in (0, 1))
    out.append(f"{'right':<18} {len(right):>6} {int((r_before >= at).sum()):>14} "
               f"{int((r_after >= at).sum()):>6}")
    every: list[tuple[float, float]] = []
    for kind, scores in [*wrong.items(), ("all wrong", every)]:
        every += scores if kind != "all wrong" else []
        b, a = (np.array([p[k] for p in scores]) for k in (0, 1))
        ok = np.r_[np.ones(len(right), bool), np.zeros(len(scores), bool)]
        out.append(f"{kind:<18} {len(scores):>6} {int((b >= at).sum()):>14} "
                   f"{int((a >= at).sum()):>6} {auc(np.r_[r_before, b], ok):11.3f} "
                   f"{auc(np.r_[r_after, a], ok):6.3f}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=6, help="synthetic boards per kind (default 6)")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--skip-photos", action="store_true", help="synthetic scenes only")
    ap.add_argument("--calibration", action="store_true",
                    help="instead, the calibration's separation tables (see the doc)")
    ap.add_argument("--records", type=Path, help="with --calibration: the readings kept by "
                    "benchmarks/fit_confidence.py --records (read and kept if missing)")
    ap.add_argument("--photo-stride", type=int, default=4, help="as fit_confidence.py's")
    ap.add_argument("--perturb-stride", type=int, default=6, help="as fit_confidence.py's")
    ap.add_argument("--scenes", type=int, default=6, help="as fit_confidence.py's")
    ap.add_argument("--board-scenes", type=int, default=2, help="as fit_confidence.py's")
    ap.add_argument("--mistaken", type=int, default=3, help="as fit_confidence.py's")
    ap.add_argument("--placements", type=int, metavar="K", help="instead, the board "
                    "confidence of the right grids against the grids they are most easily "
                    "mistaken for, on every K-th photo fit_confidence.py reads")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        return report(args)
    except PhotoUnreadable as exc:
        return say_unreadable(MANIFEST, exc)


def report(args: argparse.Namespace) -> int:
    """Print what ``args`` (of `main`) ask for; its exit status. `PhotoUnreadable` if a
    photo cannot be read."""
    if args.placements:
        if not MANIFEST.is_file():
            print(f"no manifest at {MANIFEST}", file=sys.stderr)
            return 1
        if say_missing(MANIFEST, placement_rows(args.placements)):
            return 2
        for line in placement_report(args.placements):
            print(line, flush=True)
        return 0
    if args.calibration:
        if not MANIFEST.is_file():
            print(f"no manifest at {MANIFEST}", file=sys.stderr)
            return 1
        if not (args.records and args.records.is_file()) and \
                say_missing(MANIFEST, manifest_rows(MANIFEST, args.photo_stride)):
            return 2
        records = load_or_collect(MANIFEST, args.records, args.photo_stride,
                                  args.perturb_stride, args.scenes, 1, sys.stderr.isatty(),
                                  args.board_scenes, args.mistaken)
        for line in calibration_report(records):
            print(line)
        return 0
    if not args.skip_photos:
        if not MANIFEST.is_file():
            print(f"no manifest at {MANIFEST}", file=sys.stderr)
            return 1
        if say_missing(MANIFEST, manifest_rows(MANIFEST, 0)):
            return 2
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
