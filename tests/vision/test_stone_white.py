"""Whether a point is a white stone is decided in one place (`vision.stones._white`): a
white stone is lighter than the wood around it, or has lost the wood's colour where the
wood has colour to lose, and is never darker than the wood by half a black stone's drop.
Against the stones of the board (a pale set, a set of two colours) it is white where its
colour is nearer the white stones' than anything else's."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_stone_light import drawn_board, read
from vision.config import STONES
from vision.stones import _white

GREY = (200, 200, 200)
"""A colourless stone about as light as the stained wood `drawn_board` draws (Lab L 206
against the wood's 200, chroma 0 against 48): a white stone in dim light, say; lighter
than the wood by less than `white_rise`, but with none of its colour."""
WHITE = (235, 238, 240)


ROWS = [".....",
        ".O.X.",
        ".....",
        ".X.O.",
        "....."]
"""X marks the colourless stones about as light as the wood (`GREY`), O the white ones
lighter than it."""


def test_a_white_stone_is_lighter_than_the_wood_or_has_lost_its_colour() -> None:
    # Both are white on wood that has colour to lose.
    image, h = drawn_board(ROWS, colours=(GREY, WHITE))
    assert read(image, h, 5) == [".....",
                                 ".O.O.",
                                 ".....",
                                 ".O.O.",
                                 "....."]


def test_in_a_grey_photo_only_lightness_tells_a_white_stone() -> None:
    # The same board in grey: the wood has no colour for a stone to lose, and the stones
    # no lighter than the wood are no longer told from it; the lighter ones still are.
    image, h = drawn_board(ROWS, colours=(GREY, WHITE))
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert read(grey, h, 5) == [".....",
                                ".O...",
                                ".....",
                                "...O.",
                                "....."]


def test_lighter_than_the_wood_is_white_from_white_rise_up() -> None:
    rise = np.array([[0.0, 0.07, 0.09, 0.5]])
    assert (_white(STONES, rise) > 0).tolist() == [[False, False, True, True]]


def test_colour_lost_tells_only_on_coloured_wood_and_never_in_the_dark() -> None:
    share = np.full((1, 3), 0.1)  # the point kept a tenth of the wood's colour
    rise = np.array([[0.0, 0.0, -0.2]])  # as light as the wood, twice, then in shade
    wood_chroma = np.array([[30.0, 4.0, 30.0]])  # stained, pale grey, stained
    white = _white(STONES, rise, colourless=(share, wood_chroma)) > 0
    assert white.tolist() == [[True, False, False]]


def test_against_the_stones_white_is_nearer_the_white_stones_than_anything_else() -> None:
    to_white = np.array([[1.0, 3.0, 2.0]])
    to_other = np.array([[2.0, 1.0, 2.0]])
    assert (_white(STONES, nearer=(to_white, to_other)) > 0).tolist() == [[True, False, False]]
    # A pale stone must also be lighter than the wood at all.
    rise = np.array([[-0.01, 0.0, 0.01]])
    near = (np.full((1, 3), 1.0), np.full((1, 3), 2.0))
    assert (_white(STONES, rise, nearer=near) > 0).tolist() == [[False, False, True]]
