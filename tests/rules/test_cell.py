"""One board vocabulary: `Cell` codes shared by the engine, the readings and the sensor
board's protocol, and the strings and liberties of a reading."""

from __future__ import annotations

from firmware_bridge.protocol import cells_to_states, states_to_cells
from rules import (
    BLACK, WHITE, Board, Cell, Color, Observation, Point, Position, StoneString, strings,
)


def test_the_codes_are_the_ones_every_package_uses() -> None:
    """0 empty, 1 black, 2 white (the values of `Color`), 3 unknown; text ``. X O ?``."""
    assert [int(c) for c in Cell] == [0, 1, 2, 3]
    assert (Cell.BLACK, Cell.WHITE) == (Color.BLACK, Color.WHITE)
    assert "".join(c.char for c in Cell) == ".XO?"
    assert [Cell.from_char(ch) for ch in ".XO?+BW"] == [
        Cell.EMPTY, Cell.BLACK, Cell.WHITE, Cell.UNKNOWN, Cell.EMPTY, Cell.BLACK, Cell.WHITE,
    ]
    assert [Cell.of(None), Cell.of(BLACK), Cell.of(WHITE)] == [Cell.EMPTY, Cell.BLACK, Cell.WHITE]
    assert [c.color for c in Cell] == [None, BLACK, WHITE, None]
    assert repr(Cell(3)) == "Cell.UNKNOWN"


def test_the_sensor_protocol_speaks_cells() -> None:
    """The protocol's board states are the cells' own characters, both ways."""
    cells = states_to_cells(".XO?")
    assert cells == (Cell.EMPTY, Cell.BLACK, Cell.WHITE, Cell.UNKNOWN)
    assert all(isinstance(c, Cell) for c in cells)
    assert cells_to_states((0, 1, 2, 3)) == ".XO?"


def test_strings_and_liberties_of_an_observation() -> None:
    """A hand over B2 (unknown) is neither a stone nor a liberty: the black pair A1-A2 has
    the liberties B1 and A3; White's C2 has C1, D2 and C3 (points in board order)."""
    obs = Observation.from_rows([
        ". . . .",
        "X ? O .",
        "X . . .",
    ])
    found = obs.strings()
    p = Point.from_gtp
    assert found == [
        StoneString(BLACK, (p("A1"), p("A2")), (p("B1"), p("A3"))),
        StoneString(WHITE, (p("C2"),), (p("C1"), p("D2"), p("C3"))),
    ]
    assert obs.cell(p("B2")) is Cell.UNKNOWN
    pos = Position(["...", "XO.", "X.."])
    assert strings(pos.width, pos.height, pos.cells)[0].liberties == (p("B1"), p("A3"))


def test_a_board_answers_in_points_and_cells() -> None:
    """Callers outside the engine ask the board by point, not by its internal index."""
    board = Board.from_position(Position(["...", "XO.", "X.."]))
    p = Point.from_gtp
    assert [board.cell(p(v)) for v in ("A1", "B2", "C3")] == [Cell.BLACK, Cell.WHITE, Cell.EMPTY]
    assert board.string(p("A2")) == StoneString(BLACK, (p("A1"), p("A2")), (p("B1"), p("A3")))
    assert board.string(p("C3")) is None
