"""A grid found in the picture as taken but doubtful is weighed against the grid found under a
neutral light (`vision.reading.locate_in_any_light`, issue 19).

A coloured lamp that takes one channel of a pale board to the sensor's ceiling, or a dim
exposure, lowers the faint lines of such a board under the grey levels a line must stand out
by; the grid is then placed from the stones and the slab alone, and may be a line or two off
at a low confidence. Under a neutral light (`vision.illuminant.neutral_gray`: the clipped
channels weighed out, the grey stretched to the picture's own range) the lines show again.
So a grid less sure than `LocateConfig.recheck_below` is looked for again there, and the more
confident of the two kept where they are different grids (the same grid found again is
placed as the picture as taken placed it, unless only the neutral light found it sure: a
look in doubt saw less of the lines or the stones it fits); a sure grid needs no second
look, and a board found in neither light is not found, with the first look's reason.

Under a coloured lamp (`vision.illuminant.lamp_gains`) the neutral light is looked in
whatever the first look found, and its grid, where it is another, is kept if it is as
sure as `recheck_below`: the lamp multiplies each channel by its own gain, so in the
picture's grey the wood, the white stones and a pale table take the lamp's colour and crowd
together, and the grid placed there may be lines off at a confidence that passes for sure.

Each grid is weighed by how far it is trusted to be the board's whole grid: its confidence
lowered by its doubts (`vision.grid_score.board_doubts`), as `read_board` reports it. A grid
whose lines run on past an outer line is a patch or a line off however sure its lines and
stones are, so it is looked for again, and a neutral grid with no such doubt outweighs it.

A picture with one channel at the ceiling over much of it (`vision.illuminant.clipped_over`)
is looked at under the neutral light too, however sure its first grid: where the wood is
clipped in a channel, the grey as taken holds the lines in the other channels alone, and the
grid may be placed by the stones and the slab, lines off yet sure. The surer grid is kept.

The looks are stood in for here (which picture each grid comes from is what is checked); the
photos that need it are in the robustness benchmark (Roboflow 22_jpg under a red lamp and at
x0.6 brightness; 21, 22, 59, 63 and 90_jpg under a green lamp, cast 135 0.6; 99_jpg under a
red cast of 0.6, red clipped over three quarters of it, not a lamp by `lamp_gains`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import vision.reading as reading
from vision.config import VISION
from vision.errors import BoardNotFound
from vision.grid import GridFit
from vision.grid_score import BoardDoubts
from vision.illuminant import clipped_over, lamp_gains

RECHECK = VISION.locate.recheck_below
PHOTO = np.full((120, 160, 3), (150, 175, 200), np.uint8)
"""A colour picture under a room's light (a warm tint, no lamp: `lamp_gains` is None)."""
LAMP = np.full((120, 160, 3), (40, 120, 220), np.uint8)
"""A colour picture under a coloured lamp (an orange cast: `lamp_gains` finds it)."""

CLIPPED = PHOTO.copy()
CLIPPED[:80, :, 2] = 255
CLIPPED[:4, :4] = 255
"""A colour picture under a room's light with its red at the ceiling over two thirds of it
(an exposure too bright for the red of warm wood; white glints keep `lamp_gains` at None)."""


def looks(first: float | None, neutral: float | None, offset: float
          ) -> Callable[..., GridFit]:
    """A stand-in for `vision.locate.locate`: a grid of this confidence (None: no board) in
    the colour picture as taken (``first``) and in the grey of the neutral light
    (``neutral``), the second ``offset`` cells to the right of the first."""
    def locate(image: np.ndarray, size: int | None, config: object, *,
               work: object = None) -> GridFit:
        confidence = first if image.ndim == 3 else neutral
        if confidence is None:
            raise BoardNotFound("grid lines too weak to trust" if image.ndim == 3 else "other")
        h = np.array([[10.0, 0, 5], [0, 10.0, 5], [0, 0, 1]])  # cells of 10 px
        if image.ndim != 3:
            h[0, 2] += 10.0 * offset
        return GridFit(h, 19, confidence)
    return locate


def doubted(runs_past: float) -> Callable[..., BoardDoubts]:
    """A stand-in for `vision.grid_score.board_doubts`: the grid found in the picture as
    taken (its first column of points at x = 5) has its lines run on past an outer line
    by ``runs_past``; any other grid is free of doubt."""
    def board_doubts(gray: np.ndarray, fit: GridFit, cfg: object) -> BoardDoubts:
        return BoardDoubts(runs_past if fit.homography[0, 2] == 5.0 else 0.0, 0.0, 0.0)
    return board_doubts


def found_in(monkeypatch: pytest.MonkeyPatch, first: float | None,
             neutral: float | None, offset: float = 1.0, photo: np.ndarray = PHOTO,
             runs_past: float = 0.0) -> str:
    """Which light the grid `locate_in_any_light` keeps comes from: "as taken" or "neutral".
    By default the neutral light's grid is a line off the first (a different grid), the
    picture is one under a room's light, and neither grid is in doubt (else the first's
    lines run on past an outer line by ``runs_past``)."""
    monkeypatch.setattr(reading, "locate", looks(first, neutral, offset))
    monkeypatch.setattr(reading, "board_doubts", doubted(runs_past))
    fit, _ = reading.locate_in_any_light(photo, None, VISION)
    return "as taken" if fit.homography[0, 2] == 5.0 else "neutral"


def test_a_sure_grid_needs_no_second_look(monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, RECHECK, 1.0) == "as taken"


def test_a_grid_whose_lines_run_on_is_looked_for_again_whatever_its_confidence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Sure by its lines and stones, but its lines run on past an outer line: a patch or a
    # grid a line off. The neutral light's grid, less sure but in no doubt, is kept.
    assert found_in(monkeypatch, 0.9, RECHECK - 0.05, runs_past=1.0) == "neutral"
    assert found_in(monkeypatch, 0.9, RECHECK - 0.05) == "as taken"


def test_a_doubted_grid_is_kept_where_the_neutral_light_is_trusted_less(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Half its confidence, or more, is left after its doubt: more than the neutral grid's.
    weight = VISION.locate.doubt_weights[0]
    assert found_in(monkeypatch, 0.9, 0.2, runs_past=0.5 / weight) == "as taken"


def test_a_doubtful_grid_gives_way_to_a_surer_one_under_neutral_light(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, RECHECK - 0.15, RECHECK - 0.05) == "neutral"


def test_the_same_grid_found_again_a_little_surer_keeps_the_picture_as_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A tenth of a cell apart: both looks put every point on the same crossing.
    assert found_in(monkeypatch, RECHECK - 0.15, RECHECK - 0.05, offset=0.1) == "as taken"
    # Three fifths of a cell apart is another grid: the surer look wins.
    assert found_in(monkeypatch, RECHECK - 0.15, RECHECK - 0.05, offset=0.6) == "neutral"


def test_the_same_grid_found_in_doubt_is_placed_where_the_neutral_light_finds_it_sure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A tenth of a cell apart, one grid: the look that found it sure placed it better.
    assert found_in(monkeypatch, RECHECK - 0.15, 0.9, offset=0.1) == "neutral"
    assert found_in(monkeypatch, RECHECK - 0.15, RECHECK, offset=0.1) == "neutral"
    assert found_in(monkeypatch, RECHECK - 0.15, 0.9, offset=0.1, photo=LAMP) == "neutral"
    # Placed sure as taken, it stays as placed there however sure the neutral light is,
    # and so it does where only its doubts (its lines run on) leave it less trusted: they
    # doubt it is the whole board, not where its lines lie.
    assert found_in(monkeypatch, RECHECK + 0.1, 0.9, offset=0.1, photo=LAMP) == "as taken"
    assert found_in(monkeypatch, 0.9, 0.95, offset=0.1, runs_past=1.0) == "as taken"


def test_a_doubtful_grid_is_kept_where_the_neutral_light_is_less_sure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, RECHECK - 0.15, RECHECK - 0.2) == "as taken"


def test_a_doubtful_grid_is_kept_where_the_neutral_light_finds_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, RECHECK - 0.15, None) == "as taken"


def test_a_board_lost_in_the_picture_as_taken_is_found_under_neutral_light(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, None, 0.5) == "neutral"


def test_a_board_lost_in_both_lights_says_why_the_first_look_lost_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BoardNotFound, match="grid lines too weak"):
        found_in(monkeypatch, None, None)


def test_the_pictures_stand_for_a_room_light_and_a_lamp() -> None:
    assert lamp_gains(PHOTO, VISION.light) is None
    assert lamp_gains(LAMP, VISION.light) is not None


def test_under_a_lamp_a_sure_grid_under_neutral_light_outweighs_a_surer_one_as_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The picture as taken would be surer: under a lamp that is no evidence.
    assert found_in(monkeypatch, 0.9, RECHECK, photo=LAMP) == "neutral"


def test_under_a_lamp_the_same_grid_found_in_both_lights_reads_the_picture_as_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, 0.9, RECHECK, offset=0.1, photo=LAMP) == "as taken"


def test_under_a_lamp_a_doubtful_neutral_grid_is_weighed_by_confidence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, RECHECK + 0.1, RECHECK - 0.05, photo=LAMP) == "as taken"
    assert found_in(monkeypatch, RECHECK - 0.15, RECHECK - 0.05, photo=LAMP) == "neutral"


def test_under_a_lamp_a_board_is_found_in_whichever_light_shows_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert found_in(monkeypatch, 0.5, None, photo=LAMP) == "as taken"
    assert found_in(monkeypatch, None, 0.5, photo=LAMP) == "neutral"
    with pytest.raises(BoardNotFound, match="grid lines too weak"):
        found_in(monkeypatch, None, None, photo=LAMP)


def test_a_picture_clipped_over_much_of_it_is_looked_at_again_however_sure_its_grid(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert clipped_over(CLIPPED, VISION.light) and lamp_gains(CLIPPED, VISION.light) is None
    assert not clipped_over(PHOTO, VISION.light)
    # Sure as taken, a line off what the neutral light finds surer: the neutral light's.
    assert found_in(monkeypatch, RECHECK + 0.2, RECHECK + 0.3, photo=CLIPPED) == "neutral"
    assert found_in(monkeypatch, RECHECK + 0.2, RECHECK + 0.3) == "as taken"
    # Surer as taken, or the same grid: the picture as taken's.
    assert found_in(monkeypatch, RECHECK + 0.3, RECHECK + 0.2, photo=CLIPPED) == "as taken"
    assert found_in(monkeypatch, RECHECK + 0.2, RECHECK + 0.3, offset=0.1,
                    photo=CLIPPED) == "as taken"
