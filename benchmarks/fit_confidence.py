"""Fit the calibration of `vision.read_board`'s confidences (`vision.calibration`) on the dev
photos under perturbations, and print the constants (or write them, ``--write``).

    .venv/bin/python benchmarks/fit_confidence.py [MANIFEST] [--photo-stride K]
        [--perturb-stride K] [--scenes N] [--mistaken K] [--board-scenes N] [--records FILE]
        [--write] [--jobs N]

What is read: every photo with stone truth (``stones`` or ``single_stone``), and every
``--photo-stride``-th photo with labelled grid corners only, each untouched and under a
share of `vision.perturb.STANDARD`: photo number i takes the perturbations j with
(i + j) % ``--perturb-stride`` == 0, so every perturbation is met by every stride-th photo
and every photo by a different share of them. Photos with neither truth nor labels are left
out (nothing says whether their board is right). And ``--scenes`` synthetic scenes of each
misreading seen on unseen photos (`scene_records`), whose stones are read on the true grid:
the dev photos show no hand or object on a board. Deterministic: no randomness anywhere
(the scenes are seeded).

Every read is done with the calibration off (``StoneConfig.calibration=None``): the fit is
of the reader's raw figures, read as `read_board` reads them (the point net of
`VisionConfig.point_net` weighed in, on the true grids and the placed ones too). Per board
found it records the raw point confidences and labels, which points are right (best of
four rotations against the truth, mirror images too for a single stone), and whether the
board is right: **a board found is right** (`Record.grid_right`) when it is the board's
own grid at its size: its size is the manifest's (where given), and its four corners lie
within `GRID_OFF` (half a cell) of the labelled ones (where labelled, moved as the
perturbation moves the photo), or where only the stones are known, the stones read sit on
the true ones no worse than on the true ones moved a line any way (`stones_agree`). A
point or two misread on a grid in place is not a wrong board: that is what the points'
confidence is for (the older verdict, also 99% of the points right, is kept as
``board_right``: on the dev photos it made a wrong board of every 9x9 with one point
misread). Points of a board read at the wrong size have no truth and are left out of the
point fit; the board counts wrong.

``--mistaken K`` places in every K-th photo read right untouched the grids its board's is
most easily mistaken for (`placement_records`: a line off each way, 9x9 and 13x13
patches): the dev photos read under the perturbations give no wrong grid to fit a board
model on, and these are the wrong grids a reader finds. They are fitted on and judged by
source like the photos they are placed in.

``--board-scenes N`` reads N boards of every `benchmarks/vision_scenes.py` row whole, as a
photo is read (`board_scene_records`): boards drawn a line off, at the wrong size or not
found are there where the dev photos have few. They judge the board confidence and are
never fitted on.

The fit is two logistic regressions (`vision.calibration.fit_logistic`) on
`vision.calibration`'s evidence. It prints the constants as `vision/calibrated.py` holds
them; ``--write`` writes that module whole. The constants live in a module of their own so
that a refit touches no hand-written file and merges with nothing; a Python module rather
than JSON, so the value is typed, checked by mypy and needs no package data.

Each board's record keeps the grid's own confidence and its doubts
(`vision.grid_score.board_doubts`) apart, so the board confidence is recomputed with the
current `LocateConfig.doubt_weights` (`Record.board_confidence`), and
`vision_confidence.py --calibration` shows it with the doubts and without.

``--records FILE`` keeps what was read (a pickle) and reuses it when it exists: the fit and
`vision_confidence.py --calibration` then take seconds. Delete it after any change to the
reader (the records hold its raw figures), then refit: ``--records NEW --write``.

Photos are found relative to the manifest's folder (`benchmarks.manifest_photos`); one the
manifest names that is missing or cannot be read is an input error: named on stderr, exit
status 2.

Cost, at the default strides: 1,034 photo readings (155 photos) took 256 s of one core and
the 54 scenes about 125 s; with the fit, about 6.5 minutes (13 of wall time on a machine
shared with other work). The calibration in `vision.calibrated` was fitted at photo stride
8, perturbation stride 12 and 2 scenes of each kind (475 readings, 10 minutes of wall time
on a machine loaded 8 to 15 on 2 cores); the 313 mistaken grids took 1 minute more, the 52
scene boards about 15.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.manifest_photos import (  # noqa: E402
    PhotoUnreadable, numbered_rows, open_photo, read_image, say_missing, say_unreadable)
from benchmarks.vision_robustness import over_photos, reference  # noqa: E402
from tests.vision.misreads import SPOILERS, scene  # noqa: E402
from vision import BoardNotFound, Reading, read_board  # noqa: E402
from vision.calibration import (  # noqa: E402
    BOARD_FEATURES, BOARD_RIDGE, POINT_FEATURES, POINT_RIDGE, Calibration, Logistic,
    board_evidence, fit_logistic, point_evidence)
from vision.config import LOCATE, VISION, StoneConfig  # noqa: E402
from vision.evaluate import corner_error_cells, source_of, to_array  # noqa: E402
from vision.grid_score import BoardDoubts, mistaken_placements, trusted  # noqa: E402
from vision.perturb import STANDARD, Perturbation  # noqa: E402
from vision.stones import EMPTY, read_stones  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "vision-data" / "manifest.jsonl"
UNTOUCHED = "untouched"
RAW = StoneConfig(calibration=None)
BOARD_POINTS_RIGHT = 0.99
"""A board found is right only if at least this share of its points are (with stone truth)."""
CALIBRATED_FILE = ROOT / "vision" / "calibrated.py"
STONES_TO_JUDGE = 3
"""Stones say where a grid lies (`stones_agree`) only where the truth has at least this
many: a grid a line off moves them all alike, but a lone stone read a point away is as
likely a stone off its point (a Tengen photo's one stone, read on the point below it, on a
grid that sits on the board's lines)."""
GRID_OFF = 0.5
"""A grid corner this many cells or more from its label is a grid off (half a cell: the
point nearest it is then another point)."""


@dataclasses.dataclass(frozen=True)
class Record:
    """One photo under one perturbation, read raw. ``board_right``: None where nothing says
    (False where no board was found). Where one was: ``labels`` and ``confidence`` (n, n),
    row 0 at the top of the lattice, the grid's ``homography`` and ``grid_confidence``, the
    picture's ``shape``: what `vision.calibration.calibrate` takes; ``right`` (n, n)
    whether each point is right, None without stone truth or at the wrong size."""

    photo: int
    image: str
    source: str
    perturbation: str
    found: bool
    board_right: bool | None
    labels: np.ndarray | None = None
    confidence: np.ndarray | None = None
    homography: np.ndarray | None = None
    grid_confidence: float = 0.0
    shape: tuple[int, ...] = ()
    right: np.ndarray | None = None
    counted: np.ndarray | None = None
    """Where ``right`` is known (n, n); None: everywhere it is given."""
    fit_confidence: float = 0.0
    """The grid's own confidence (`Reading.grid_confidence`), before the doubts lowered it
    into ``grid_confidence``."""
    doubts: BoardDoubts | None = None
    """What spoke against the grid (`Reading.doubts`)."""
    size_right: bool | None = None
    """Whether the board was read at its size (None where nothing says)."""
    corner_error: float | None = None
    """The largest distance (cells) of a found grid corner from its labelled one
    (`vision.evaluate.corner_error_cells`); None where the corners are not labelled."""
    stones_agree: tuple[float, float] | None = None
    """Where there is stone truth, how well the stones read sit on the true ones in place
    and a line off (`stones_agree`); None without stone truth, with fewer than
    `STONES_TO_JUDGE` true stones, or at the wrong size."""

    @property
    def grid_right(self) -> bool | None:
        """Whether the board found is the board's own grid: read at its size and, where its
        corners are labelled, every corner within `GRID_OFF` cells of its label, or where
        only its stones are known, the stones read sitting on the true ones no worse than on
        the true ones moved a line any way (`stones_agree`: a grid a line off reads the
        stones a line off; a point or two misread on a grid in place is the points'
        confidence's business, not the board's). False where no board was found; None where
        nothing says."""
        if not self.found:
            return False
        verdicts = [v for v in (self.size_right,) if v is not None]
        if self.corner_error is not None:
            verdicts.append(self.corner_error <= GRID_OFF)
        elif self.stones_agree is not None:
            in_place, off = self.stones_agree
            verdicts.append(in_place >= off)
        return all(verdicts) if verdicts else None

    def points(self) -> np.ndarray:
        """The point evidence (`vision.calibration.point_evidence`), rows as labels.ravel()."""
        assert self.labels is not None and self.confidence is not None
        return point_evidence(self.labels, self.confidence)

    def board_confidence(self, doubted: bool = True) -> float:
        """The raw board confidence: as `read_board` reports it (the grid's own, `trusted`
        for its doubts with the current weights), or without ``doubted`` the grid's own
        (what `read_board` reported before the doubts were weighed)."""
        if self.doubts is None:
            return self.grid_confidence
        return trusted(self.fit_confidence, self.doubts, LOCATE) if doubted \
            else self.fit_confidence

    def board(self, doubted: bool = True) -> np.ndarray:
        """The board evidence (`vision.calibration.board_evidence`) of `board_confidence`."""
        assert self.labels is not None and self.confidence is not None \
            and self.homography is not None
        return board_evidence(self.labels, self.confidence, self.homography,
                              self.board_confidence(doubted), self.shape,
                              self.doubts if doubted else None)


def has_truth(row: dict[str, object]) -> bool:
    """Whether a manifest row gives the stones (``stones`` or ``single_stone``)."""
    return row.get("stones") is not None or bool(row.get("single_stone"))


def manifest_rows(manifest: Path, photo_stride: int) -> list[tuple[int, dict[str, object]]]:
    """The manifest rows read: (line number, row) for every row with stone truth and every
    ``photo_stride``-th of those with labelled grid corners only (none if 0)."""
    rows = numbered_rows(manifest)
    truth = [(i, r) for i, r in rows if has_truth(r)]
    labelled = [(i, r) for i, r in rows if not has_truth(r) and r.get("grid_corners")]
    return sorted(truth + (labelled[::photo_stride] if photo_stride else []),
                  key=lambda ir: ir[0])


def picked(index: int, stride: int) -> list[Perturbation]:
    """The perturbations photo number ``index`` is read under (see the module's doc)."""
    return [p for j, p in enumerate(STANDARD) if (index + j) % stride == 0]


def right_points(reading: Reading, truth: list[str], mirror: bool) -> np.ndarray | None:
    """Per point of ``reading`` (n, n), row 0 at the top, whether it matches ``truth`` under
    the best rotation (and mirror image with ``mirror``); None if the sizes differ."""
    labels = to_array(reading.rows())
    t = to_array(truth)
    if labels.shape != t.shape:
        return None
    views = [t, t[::-1]] if mirror else [t]
    best: np.ndarray = max((labels == np.rot90(v, k) for v in views for k in range(4)),
                           key=lambda m: int(m.sum()))
    return best


def _agree(read: np.ndarray, truth: np.ndarray) -> float:
    """The points that are stones in both over those that are stones in either (1.0 with no
    stone in either)."""
    either = int((read | truth).sum())
    return 1.0 if either == 0 else float((read & truth).sum()) / either


def _a_line_off(stones: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """``stones`` (n, n) moved ``dy`` rows down and ``dx`` columns right, the points moved
    off the board dropped and those moved in empty."""
    n = stones.shape[0]
    out = np.zeros_like(stones)
    out[max(dy, 0):n + min(dy, 0), max(dx, 0):n + min(dx, 0)] = \
        stones[max(-dy, 0):n + min(-dy, 0), max(-dx, 0):n + min(-dx, 0)]
    return out


def judged_by_stones(truth: list[str]) -> bool:
    """Whether the stones of ``truth`` (rows of ``.``, ``X``, ``O``) are enough to judge a
    grid by: `STONES_TO_JUDGE` of them or more."""
    return int((to_array(truth) != EMPTY).sum()) >= STONES_TO_JUDGE


def stones_agree(labels: np.ndarray, truth: list[str], mirror: bool) -> tuple[float, float]:
    """How well the stones read (``labels`` (n, n)) sit on the true ones (`_agree`: in both
    over in either) under the best rotation of ``truth`` (and mirror image with
    ``mirror``), and how well at best under any of those moved a line any way: a grid a line
    off reads the stones a line off, a point misread on a grid in place does not."""
    read = labels != EMPTY
    t = to_array(truth) != EMPTY
    views = [np.rot90(v, r) for v in ([t, t[::-1]] if mirror else [t]) for r in range(4)]
    off = max(_agree(read, _a_line_off(v, dy, dx))
              for v in views for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    return max(_agree(read, v) for v in views), off


def _read(image: np.ndarray) -> Reading | None:
    try:
        return read_board(image, stone_cfg=RAW)
    except BoardNotFound:
        return None


def _timed(image: np.ndarray) -> tuple[Reading | None, float]:
    """`_read`, and 0 ms: nothing here is timed."""
    return _read(image), 0.0


def photo_records(base: Path, index: int, row: dict[str, object],
                  perturbations: Sequence[Perturbation]) -> list[Record]:
    """``row``'s photo read raw, untouched and under each of ``perturbations``;
    `PhotoUnreadable` if it cannot be read."""
    photo = open_photo(base, row, _timed, strict=True)
    assert photo is not None  # strict: raised instead
    untouched, plain = photo.reading, photo.corners
    truth, mirror = reference(row, untouched) if has_truth(row) else (None, False)
    size = row.get("size") or (len(truth) if truth else None)

    def record(name: str, reading: Reading | None, shape: tuple[int, ...],
               corners: np.ndarray | None) -> Record:
        src = source_of(row)
        if reading is None:
            return Record(index, str(row["image"]), src, name, False, False)
        right = None if truth is None else right_points(reading, truth, mirror)
        verdicts = []
        if size:
            verdicts.append(reading.size == int(str(size)))
        if corners is not None:
            verdicts.append(reading.size == int(str(size or 19)) and
                            corner_error_cells(reading.corners, corners, reading.size) <= 0.5)
        if truth is not None:
            verdicts.append(right is not None and right.mean() >= BOARD_POINTS_RIGHT)
        n = reading.size
        labels = to_array(reading.rows())
        return Record(index, str(row["image"]), src, name, True,
                      all(verdicts) if verdicts else None, labels,
                      np.asarray(reading.confidence).reshape(n, n)[::-1].copy(),
                      reading.homography, reading.board_confidence, tuple(shape), right,
                      fit_confidence=reading.grid_confidence, doubts=reading.doubts,
                      size_right=reading.size == int(str(size)) if size else None,
                      corner_error=None if corners is None else corner_error_cells(
                          reading.corners, corners, n) if n == int(str(size or 19))
                      else float("inf"),
                      stones_agree=None if truth is None or right is None
                      or not judged_by_stones(truth) else stones_agree(labels, truth, mirror))

    out = [record(UNTOUCHED, untouched, photo.image.shape, plain)]
    for p in perturbations:
        try:
            spoiled = p.apply(photo.image, photo.extent)
        except ValueError:  # a crop with no board's extent to go by
            continue
        moved = None if plain is None else spoiled.points(plain)
        out.append(record(p.name, _read(spoiled.image), spoiled.image.shape, moved))
    return out


def _task(job: tuple[Path, int, dict[str, object], int]) -> list[Record]:
    base, index, row, stride = job
    return photo_records(base, index, row, picked(index, stride))


def collect(manifest: Path, photo_stride: int, perturb_stride: int, jobs: int = 1,
            progress: bool = False) -> list[Record]:
    """The `Record` of every reading the strides pick (see the module's doc)."""
    work = [(manifest.parent, i, r, perturb_stride)
            for i, r in manifest_rows(manifest, photo_stride)]
    return sorted(over_photos(_task, work, jobs, progress),
                  key=lambda r: (r.photo, r.perturbation))


SCENE_SOURCE = "synthetic scenes"
SCENE_KINDS = ("plain", *SPOILERS, "off point")


def scene_records(seeds: int, size: int = 19) -> list[Record]:
    """The synthetic scenes of the misreadings seen on unseen photos (`tests.vision.misreads`:
    flash, sunlight, bevel, cloth, grayscale, an object, a hand, black stones off their
    points, and plain boards), ``seeds`` of each kind, sparse and crowded in turn, the
    stones read raw on the true grid (no board is found: no board verdict). A point that
    something hides is wrong if read as a stone and not counted if read empty."""
    out = []
    for k, kind in enumerate(SCENE_KINDS):
        for seed in range(seeds):
            shot = scene(kind, size, seed, 0.3 if seed % 2 == 0 else 0.6)
            labels, conf = read_stones(shot.image, shot.homography, size, RAW, VISION.light,
                                       VISION.point_net)
            right = (labels == shot.truth) & ~shot.hidden
            counted = ~shot.hidden | (labels != EMPTY)
            out.append(Record(-1 - k * seeds - seed, f"scene {kind} {seed}", SCENE_SOURCE,
                              f"scene {kind}", True, None, labels, conf, shot.homography,
                              0.0, tuple(shot.image.shape), right, counted))
    return out


BOARD_SCENE_SOURCE = "scene boards"
PLACED = "placed "
"""The perturbation name's prefix of a `placement_records` record."""


def placement_records(base: Path, records: Sequence[Record], stride: int) -> list[Record]:
    """Wrong boards where the dev photos have few: for every ``stride``-th photo whose
    untouched board was found right (of ``records``), the grids it is most easily mistaken
    for (`vision.grid_score.mistaken_placements`: the same lattice a line off each way,
    patches of a smaller size) placed in the untouched photo, each weighed and read as
    `read_board` weighs and reads the grid it finds (the grid's confidence and doubts in
    the working image, the stones through the lattice). All wrong: a line off is a cell
    off at every corner, a patch of the wrong size. `PhotoUnreadable` if a photo cannot
    be read."""
    from vision.grid import GridFit
    from vision.grid_score import board_doubts, confidence
    from vision.illuminant import under_white
    from vision.locate import working
    right = [r for r in records if r.perturbation == UNTOUCHED and r.grid_right
             and r.homography is not None and r.labels is not None][::stride]
    out = []
    for r in right:
        image = read_image(base / r.image)
        if r.homography is None or r.labels is None:
            continue
        small, to_full = working(image, VISION.locate)
        lit = under_white(image, VISION.light)
        n = r.labels.shape[0]
        whole = GridFit(np.linalg.inv(to_full) @ r.homography, n, 0.0)
        for name, placed in mistaken_placements(whole, VISION.sizes).items():
            own = confidence(small, placed, VISION.locate)
            doubts = board_doubts(small, placed, VISION.locate)
            h = to_full @ placed.homography
            labels, conf = read_stones(lit, h, placed.size, RAW, VISION.light, VISION.point_net)
            out.append(Record(
                r.photo, r.image, r.source, PLACED + name, True, False, labels, conf, h,
                trusted(own, doubts, VISION.locate), tuple(image.shape),
                fit_confidence=own, doubts=doubts, size_right=placed.size == n,
                corner_error=1.0 if placed.size == n else None))
    return out


def board_scene_records(seeds: int, only: Sequence[str] = ()) -> list[Record]:
    """Every row of `benchmarks.vision_scenes.SCENES` (those whose name holds one of
    ``only``, if given), ``seeds`` boards each, read raw by `read_board` as a user reads a
    photo: the board found (or not) and its verdict against the drawn grid (`grid_right`).
    Their points are not kept: these judge the board confidence only, and are never fitted
    on (`fit` leaves them out)."""
    from benchmarks.vision_scenes import SCENES
    from vision.synth import random_position, render
    out = []
    names = [n for n in SCENES if not only or any(w in n for w in only)]
    for k, name in enumerate(names):
        scene, taken = SCENES[name]
        for seed in range(seeds):
            shot = render(random_position(19, seed, stones=taken), seed, scene)
            reading = _read(shot.image)
            index = -10_000 - k * seeds - seed
            if reading is None:
                out.append(Record(index, f"{name} {seed}", BOARD_SCENE_SOURCE,
                                  f"scene board {name}", False, False))
                continue
            n = reading.size
            error = corner_error_cells(reading.corners, shot.corners, n) if n == 19 \
                else float("inf")
            out.append(Record(
                index, f"{name} {seed}", BOARD_SCENE_SOURCE, f"scene board {name}", True,
                n == 19 and error <= GRID_OFF, to_array(reading.rows()),
                np.asarray(reading.confidence).reshape(n, n)[::-1].copy(),
                reading.homography, reading.board_confidence, tuple(shot.image.shape),
                fit_confidence=reading.grid_confidence, doubts=reading.doubts,
                size_right=n == 19, corner_error=error))
    return out


def load_or_collect(manifest: Path, records: Path | None, photo_stride: int,
                    perturb_stride: int, scenes: int, jobs: int,
                    progress: bool, board_scenes: int = 0, mistaken: int = 0) -> list[Record]:
    """The records kept in ``records`` if it exists, else collected (``scenes`` synthetic
    scenes of each kind, then the photos, the grids mistaken for the board's in every
    ``mistaken``-th of them (`placement_records`; none if 0), then ``board_scenes`` boards
    of each `board_scene_records` row) and kept there. `PhotoUnreadable` if a photo
    cannot be read."""
    if records is not None and records.is_file():
        with records.open("rb") as f:
            kept: list[Record] = pickle.load(f)
        return kept
    photos = collect(manifest, photo_stride, perturb_stride, jobs, progress)
    wrong = placement_records(manifest.parent, photos, mistaken) if mistaken else []
    out = scene_records(scenes) + photos + wrong + board_scene_records(board_scenes)
    if records is not None:
        with records.open("wb") as f:
            pickle.dump(out, f)
    return out


def point_data(records: Sequence[Record]) -> tuple[np.ndarray, np.ndarray]:
    """The point evidence (m, len(POINT_FEATURES)) and rightness (m,) of every point with
    truth in ``records``."""
    kept = [(r, np.ones(r.right.size, bool) if r.counted is None else r.counted.ravel())
            for r in records if r.right is not None]
    xs = [r.points()[k] for r, k in kept]
    ys = [r.right.ravel()[k] for r, k in kept if r.right is not None]
    if not xs:
        return np.zeros((0, len(POINT_FEATURES))), np.zeros(0, bool)
    return np.concatenate(xs), np.concatenate(ys).astype(bool)


def board_data(records: Sequence[Record], doubted: bool = True
               ) -> tuple[np.ndarray, np.ndarray]:
    """The board evidence (`Record.board`) and rightness (`Record.grid_right`: the board's
    own grid, at its size) of every board found whose rightness is known."""
    known = [r for r in records if r.found and r.grid_right is not None]
    if not known:
        return np.zeros((0, len(BOARD_FEATURES))), np.zeros(0, bool)
    return (np.stack([r.board(doubted) for r in known]),
            np.array([bool(r.grid_right) for r in known]))


def fit(records: Sequence[Record], doubted: bool = True) -> Calibration:
    """The calibration fitted to ``records`` (the board's confidence ``doubted`` or not, as
    `Record.board_confidence`), the synthetic scene boards (`board_scene_records`) left
    out: they judge it."""
    mine = [r for r in records if r.source != BOARD_SCENE_SOURCE]
    xp, yp = point_data(mine)
    xb, yb = board_data(mine, doubted)
    return Calibration(point=fit_logistic(xp, yp, POINT_FEATURES, POINT_RIDGE),
                       board=fit_logistic(xb, yb, BOARD_FEATURES, BOARD_RIDGE))


def _model_text(name: str, model: Logistic) -> str:
    """``name=Logistic(...)`` laid out a feature per line, each weight named beside it."""
    lines = [f"    {name}=Logistic(", "        features=("]
    lines += [f"            {f!r}," for f in model.features]
    lines += ["        ),", "        weights=("]
    lines += [f"            {w!r},  # {f}" for f, w in zip(model.features, model.weights)]
    lines += ["        ),", f"        bias={model.bias!r},", "    ),"]
    return "\n".join(lines)


def module_text(cal: Calibration, how: str) -> str:
    """The text of `vision/calibrated.py` holding ``cal`` (its value equals ``cal``), with
    ``how`` it was fitted, wrapped to lines of at most 100 characters."""
    doc = textwrap.fill(f"The calibration `benchmarks/fit_confidence.py` fitted: {how}.",
                        width=96)
    return (f'"""{doc}\n\n'
            "Written by that script with --write; re-run it after any change to the reader's\n"
            'raw confidences (`vision.stones`, `vision.locate`)."""\n\n'
            "from .calibration import Calibration, Logistic\n\n"
            "FITTED = Calibration(\n"
            f"{_model_text('point', cal.point)}\n{_model_text('board', cal.board)}\n)\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--photo-stride", type=int, default=4,
                    help="every K-th photo with only grid corners labelled (default 4)")
    ap.add_argument("--perturb-stride", type=int, default=6,
                    help="each photo under every K-th perturbation, in turn (default 6)")
    ap.add_argument("--scenes", type=int, default=6,
                    help="synthetic scenes of each misreading (default 6)")
    ap.add_argument("--mistaken", type=int, default=3, metavar="K",
                    help="the grids most easily mistaken for the board's, placed in every "
                    "K-th photo read right untouched, as wrong boards (0: none; default 3)")
    ap.add_argument("--board-scenes", type=int, default=2,
                    help="boards of each benchmarks/vision_scenes.py row read whole, to judge "
                    "the board confidence on (never fitted on; default 2)")
    ap.add_argument("--records", type=Path, help="keep the readings here (reused if it exists: "
                    "delete it after any change to the reader)")
    ap.add_argument("--jobs", type=int, default=1, help="processes reading at once (default 1)")
    ap.add_argument("--write", action="store_true", help=f"write {CALIBRATED_FILE.name}")
    ap.add_argument("--progress", action="store_true", help="count the photos done on stderr")
    args = ap.parse_args(argv)
    if not args.manifest.is_file():
        print(f"no manifest at {args.manifest}", file=sys.stderr)
        return 2
    if min(args.photo_stride, args.perturb_stride, args.jobs) < 1 or \
            min(args.scenes, args.board_scenes, args.mistaken) < 0:
        print("--photo-stride, --perturb-stride and --jobs take a whole number >= 1",
              file=sys.stderr)
        return 2
    if not (args.records and args.records.is_file()) and \
            say_missing(args.manifest, manifest_rows(args.manifest, args.photo_stride)):
        return 2
    t0 = time.perf_counter()
    try:
        records = load_or_collect(args.manifest, args.records, args.photo_stride,
                                  args.perturb_stride, args.scenes, args.jobs, args.progress,
                                  args.board_scenes, args.mistaken)
    except PhotoUnreadable as exc:
        return say_unreadable(args.manifest, exc)
    t1 = time.perf_counter()
    cal = fit(records)
    fitted = [r for r in records if r.source != BOARD_SCENE_SOURCE]
    xp, yp = point_data(fitted)
    xb, yb = board_data(fitted)
    placed = sum(r.perturbation.startswith(PLACED) for r in fitted)
    photos = len({r.photo for r in fitted if r.source != SCENE_SOURCE})
    scenes = sum(r.source == SCENE_SOURCE for r in records)
    how = (f"{photos} photos in {len(fitted) - scenes - placed} readings (photo stride "
           f"{args.photo_stride}, perturbation stride {args.perturb_stride}), {placed} grids "
           f"mistaken for the board's (in one photo of {args.mistaken}) and {scenes} synthetic "
           f"scenes: {len(yp)} points ({int((~yp).sum())} wrong), {len(yb)} boards found "
           f"({int((~yb).sum())} wrong)")
    print(f"# {how}; read in {t1 - t0:.0f} s, fitted in {time.perf_counter() - t1:.1f} s")
    text = module_text(cal, how)
    print(text[text.index("FITTED = "):], end="")
    if args.write:
        CALIBRATED_FILE.write_text(module_text(cal, how))
        print(f"# written to {CALIBRATED_FILE}")
    return 0


if __name__ == "__main__":
    # Run as the module it is imported as, so the records it keeps unpickle anywhere.
    from benchmarks import fit_confidence
    raise SystemExit(fit_confidence.main())
