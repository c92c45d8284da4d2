"""`read_board`: a photo in, the position on the board out, with what it is sure of."""

from __future__ import annotations

import dataclasses
import time

import cv2
import numpy as np

from rules import Observation, Position

from . import grid
from .calibration import calibrate
from .config import VISION, LocateConfig, OutlineConfig, StoneConfig, VisionConfig
from .errors import BoardNotFound
from .grid import GridFit, same_grid
from .grid_score import BoardDoubts, board_doubts, on_points, trusted
from .illuminant import clipped_over, lamp_gains, neutral_gray, under_white
from .locate import locate, working
from .stone_lattice import dark_centres
from .stones import read_stones


@dataclasses.dataclass(frozen=True)
class Reading:
    """One photo read.

    ``position``: the stones (rules.Position), its top row the board edge nearest the top of
    the image. ``confidence``: per point in [0, 1], indexed like ``Position.cells`` (bottom
    row first). ``corners``: the outermost intersections in image pixels, (4, 2) as
    top-left, top-right, bottom-right, bottom-left on screen. ``homography``: lattice
    (column i from the left, row j from the top) to image pixels. ``board_confidence``: how
    sure the grid is the board's, in [0, 1]: the grid's own confidence lowered by what
    speaks against it (`vision.grid_score.trusted`). ``timings``: milliseconds per stage.
    Both confidences are the reader's raw figures unless the stone config names a calibration
    (`StoneConfig.calibration`), which turns them into probabilities of being right.
    """

    position: Position
    confidence: tuple[float, ...]
    corners: np.ndarray
    homography: np.ndarray
    board_confidence: float
    timings: dict[str, float]
    grid_confidence: float = 0.0
    """How well the grid sits on the lines (`vision.locate`'s own figure), before the
    ``doubts`` lowered it into ``board_confidence``; 0 where not given."""
    doubts: BoardDoubts | None = None
    """What speaks against the grid being the board's whole grid
    (`vision.grid_score.board_doubts`); None where not looked at."""

    @property
    def size(self) -> int:
        """The board size read (9, 13 or 19)."""
        return self.position.width

    def rows(self) -> list[str]:
        """The position as rows of ``.``, ``X``, ``O``, top of the image first."""
        return self.position.rows()

    def observation(self, time_s: float = 0.0, source: str = "camera") -> Observation:
        """The reading as the rules engine's Observation (every point known)."""
        p = self.position
        return Observation(p.width, p.height, p.cells, self.confidence, time_s, source)


def located(image: np.ndarray, size: int | None,
            config: VisionConfig) -> tuple[GridFit, BoardDoubts]:
    """`locate_in_any_light` in ``image``; where it finds no board there and the picture's
    longer side is under `LocateConfig.work_least`, in the picture enlarged by the least
    whole factor that takes it there, the grid mapped back to ``image``'s pixels. Raises
    vision.BoardNotFound with the first look's reason when neither finds it."""
    try:
        return locate_in_any_light(image, size, config)
    except BoardNotFound as lost:
        longer = max(image.shape[:2])
        if longer >= config.locate.work_least:
            raise
        reason = lost
    k = int(np.ceil(config.locate.work_least / longer))
    big = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR)
    try:
        fit, doubts = locate_in_any_light(big, size, config)
    except BoardNotFound:
        raise reason from None
    # cv2.resize puts the centre of pixel x at (x + 0.5) k - 0.5 of the enlarged picture.
    back = np.array([[1 / k, 0, 0.5 / k - 0.5], [0, 1 / k, 0.5 / k - 0.5], [0, 0, 1]])
    return GridFit(back @ fit.homography, fit.size, fit.confidence), doubts


def locate_in_any_light(image: np.ndarray, size: int | None,
                        config: VisionConfig) -> tuple[GridFit, BoardDoubts]:
    """The board's grid in ``image`` (`vision.locate`), and its doubts
    (`vision.grid_score.board_doubts`, measured in the working image it was found in).
    Each grid is weighed by how far it is trusted to be the board's whole grid: its
    confidence lowered by those doubts (lines running on past an outer line, no wood
    beyond one, lopsided margins), the board confidence `read_board` reports. A grid sure
    by its lines and stones may still be a patch or a line off, and its doubts say so.
    Where there is no grid in the picture as taken, or only one trusted less than
    `LocateConfig.recheck_below`, or the picture was taken under a coloured lamp
    (`vision.illuminant.lamp_gains`), or one of its channels is at the ceiling over much
    of it (`vision.illuminant.clipped_over`), it is looked for again under a neutral light
    (`vision.illuminant.neutral_gray`: a lamp's cast or an exposure that clipped the
    channels the lines were in taken out, the grey stretched to the picture's own range).
    Each look's grid, where its doubts leave it trusted under ``recheck_below``, may be
    moved a line where the wood beyond its outer lines says so, or, running past the
    picture's edge, back into it where the lines past its outer lines say so
    (`_in_phase_with_margins`).
    Where the two looks find different grids (`same_grid`), the neutral light's is kept if
    it is the more trusted, or, under a lamp, trusted as far as ``recheck_below``: a lamp
    or a dim exposure takes the faint lines of a pale board under the grey levels a line
    must stand out by, and a grid placed without them may be a line or two off; and a lamp
    multiplies each channel by its own gain, so in the picture's grey the wood, the white
    stones and a pale table take its colour and crowd together, and a grid placed there
    may be lines off at a confidence that passes for sure, while the neutral light shows
    the picture as a white light would, the light the lines' thresholds hold for. Where
    both looks find one grid, the picture as taken places it, unless it found it with a
    confidence under ``recheck_below`` and the neutral light with as much. (The stones are read in
    the picture as taken either way: `read_board`.) Raises vision.BoardNotFound
    with the first look's reason when neither finds it, ValueError when ``image`` is not
    an image."""
    work = working(image, config.locate)  # validates the input before any work
    first: GridFit | None = None
    try:
        first = locate(image, size, config, work=work)
    except BoardNotFound as lost:
        reason = lost
    cfg = config.locate
    under_lamp = lamp_gains(image, config.light) is not None
    if first is not None:
        first, first_doubts = _in_phase_with_margins(first, work, config)
        sure = trusted(first.confidence, first_doubts, cfg)
        if sure >= cfg.recheck_below and not (under_lamp or clipped_over(image, config.light)):
            return first, first_doubts
    neutral = neutral_gray(image, config.light)
    again = working(neutral, cfg)
    try:
        second = locate(neutral, size, config, work=again)
    except BoardNotFound:
        if first is None:
            raise reason from None
        return first, first_doubts
    second, second_doubts = _in_phase_with_margins(second, again, config)
    other = trusted(second.confidence, second_doubts, cfg)
    if first is None:
        return second, second_doubts
    if same_grid(first, second):
        # One grid placed twice: a look whose lines and stones left it in doubt (its own
        # confidence, before the doubts of it being the whole board) placed it worse than
        # one whose lines placed it sure.
        placed_surer = first.confidence < cfg.recheck_below <= second.confidence
        return (second, second_doubts) if placed_surer else (first, first_doubts)
    if sure >= other and not (under_lamp and other >= cfg.recheck_below):
        return first, first_doubts
    return second, second_doubts


def _in_phase_with_margins(fit: GridFit, work: tuple[np.ndarray, np.ndarray],
                           config: VisionConfig) -> tuple[GridFit, BoardDoubts]:
    """``fit`` (in full pixels, found in the working image ``work``) with its doubts
    (`board_doubts`, measured in ``work``'s small grey); or, where those leave it trusted
    under `LocateConfig.recheck_below`, the same lattice moved along one axis, with its
    doubts, where it keeps about as many of the black stones on its points
    (`OutlineConfig.phase_rows` rows' worth less at most) and its lines run no further
    past its outer lines (`BoardDoubts.runs_past`), and:

    - moved a line, the wood beyond its outer lines speaks for it (`_margins_say`) by
      `LocateConfig.phase_over` more;
    - moved up to `LocateConfig.phase_reach` lines, from a grid running past the
      picture's edge into one inside it, the wood or the drop in its lines running past
      speaks for it by ``phase_over`` and the other does not speak against it.

    Of such moves, the one the witnesses speak for most together. Its confidence is
    ``fit``'s: one lattice.

    A crowded board's stones repeat every cell: they vouch for a grid a row off almost as
    well as for the board's own, and its hidden lines barely choose; but the wood beyond
    the outer lines does. A grid a row off has the slab's edge or the table beyond one
    outer line and more than a cell of wood beyond the other; moved back, both margins
    are the board's own. Where the picture cuts the board off, the wood past that edge
    cannot speak and the first look may place the grid rows out past it; the board's own
    lines, running on past the grid's outer line on the side the picture shows, tell how
    far it has to come back."""
    cfg = config.locate
    small, to_full = work
    h = np.linalg.inv(to_full) @ fit.homography  # in the working image's pixels
    doubts = board_doubts(small, GridFit(h, fit.size, fit.confidence), cfg)
    if trusted(fit.confidence, doubts, cfg) >= cfg.recheck_below:
        return fit, doubts
    dark = dark_centres(small, cfg)

    def stones_on(lattice: np.ndarray) -> float:
        return 0.0 if dark is None else \
            on_points(small, GridFit(lattice, fit.size, 0.0), dark.centres, config)
    share = stones_on(h) - config.outline.phase_rows / fit.size
    said = _margins_say(doubts, cfg)
    best, gained = (fit, doubts), 0.0
    reach = 1 if _inside(h, fit.size, small.shape) else cfg.phase_reach
    for k in range(1, reach + 1):
        for di, dj in ((k, 0), (-k, 0), (0, k), (0, -k)):
            moved = grid.shifted(h, di, dj)
            if k > 1 and not _inside(moved, fit.size, small.shape):
                continue
            its = board_doubts(small, GridFit(moved, fit.size, 0.0), cfg)
            lines = doubts.runs_past - its.runs_past
            witnesses = (_margins_say(its, cfg) - said,) + ((lines,) if k > 1 else ())
            if lines >= 0.0 and min(witnesses) >= 0.0 and max(witnesses) > cfg.phase_over \
                    and sum(witnesses) > gained and stones_on(moved) >= share:
                best = GridFit(to_full @ moved, fit.size, fit.confidence), its
                gained = sum(witnesses)
    return best


def _inside(lattice: np.ndarray, size: int, shape: tuple[int, ...]) -> bool:
    """Whether the four corner points of the ``size`` grid ``lattice`` (pixels) lie in an
    image of ``shape``."""
    c = grid.corners(lattice, size)
    return bool((c >= 0).all() and (c[:, 0] <= shape[1] - 1).all()
                and (c[:, 1] <= shape[0] - 1).all())


def _margins_say(doubts: BoardDoubts, cfg: LocateConfig) -> float:
    """How far the wood beyond a grid's outer lines says it is the board's, in [0, 1]: 1
    lowered by its ``doubts``' margin and lopsided as `trusted` lowers a confidence."""
    return trusted(1.0, dataclasses.replace(doubts, runs_past=0.0), cfg)


def position_of(labels: np.ndarray) -> Position:
    """The position that ``labels`` (n, n) of `Cell` values hold, row 0 the top of the
    image (as the stone stage gives them); `Position.cells` puts the bottom row first."""
    n = labels.shape[0]
    return Position.from_cells(n, n, (int(c) for c in labels[::-1].ravel()))


def read_board(image: np.ndarray, size: int | None = None, *,
               config: VisionConfig = VISION, locate_cfg: LocateConfig | None = None,
               stone_cfg: StoneConfig | None = None,
               outline_cfg: OutlineConfig | None = None) -> Reading:
    """Read the Go board in ``image`` (uint8 BGR, BGRA or grey, any resolution).

    ``size`` (one of ``config.sizes``) overrides the size decision. ``config`` is handed to
    every stage; ``locate_cfg``, ``stone_cfg`` and ``outline_cfg``, where given, stand in
    for its parts. Raises vision.BoardNotFound (with the reason) when there is no board to
    read, ValueError when ``image`` is not an image."""
    t0 = time.perf_counter()
    config = dataclasses.replace(config, locate=locate_cfg or config.locate,
                                 stones=stone_cfg or config.stones,
                                 outline=outline_cfg or config.outline)
    fit, doubts = located(image, size, config)
    t1 = time.perf_counter()
    # The stones in the colours a white light gives them (a coloured lamp's gains divided out).
    labels, conf = read_stones(under_white(image, config.light), fit.homography, fit.size,
                               config.stones, config.light, config.point_net)
    t2 = time.perf_counter()
    n = fit.size
    conf, board_confidence = calibrate(config.stones.calibration, labels, conf, fit.homography,
                                       trusted(fit.confidence, doubts, config.locate),
                                       image.shape, doubts)
    t3 = time.perf_counter()
    return Reading(
        position=position_of(labels),
        confidence=tuple(float(c) for c in conf[::-1].ravel()),
        corners=grid.corners(fit.homography, n),
        homography=fit.homography,
        board_confidence=board_confidence,
        timings={"locate": (t1 - t0) * 1e3, "stones": (t2 - t1) * 1e3,
                 "doubts": (t3 - t2) * 1e3, "total": (t3 - t0) * 1e3},
        grid_confidence=fit.confidence,
        doubts=doubts,
    )
