"""Points and positions at the edges: GTP vertices and SGF coordinates both ways, the
columns without I, boards from 2x2 to 25x25 and rectangles, off-board errors, reprs that
read back as code, and the diagram helpers the other rules tests lean on."""

from __future__ import annotations

import pytest

import rules
from rules import (
    BLACK, WHITE, Color, CoordinateError, Game, Handicap, KoRule, Move, MovePlayed, Point,
    Position, Reason, Ruleset, Scoring, parse_vertex, preset,
)
from rules.point import GTP_COLUMNS

from tests.rules.diagrams import assert_board, parse_diagram

SIZES = [(2, 2), (9, 9), (13, 13), (19, 19), (25, 25), (7, 3), (3, 7), (25, 2), (2, 25)]


@pytest.mark.parametrize("width, height", SIZES)
def test_gtp_round_trip_on_every_point(width: int, height: int) -> None:
    """Every point of the board reads back from its GTP vertex, and no two share one."""
    seen = set()
    for y in range(height):
        for x in range(width):
            p = Point(x, y)
            v = p.gtp()
            assert Point.from_gtp(v, height=height, width=width) == p
            seen.add(v)
    assert len(seen) == width * height


@pytest.mark.parametrize("width, height", SIZES)
def test_sgf_round_trip_on_every_point(width: int, height: int) -> None:
    """SGF counts rows from the top: the round trip needs the height, and the letters of
    the top-left and bottom-left corners are ``aa`` and ``a`` + the last row letter."""
    for y in range(height):
        for x in range(width):
            p = Point(x, y)
            assert Point.from_sgf(p.sgf(height), height, width) == p
    assert Point(0, height - 1).sgf(height) == "aa"
    assert Point(0, 0).sgf(height) == "a" + "abcdefghijklmnopqrstuvwxy"[height - 1]


@pytest.mark.parametrize("vertex, point", [
    ("A1", Point(0, 0)), ("H1", Point(7, 0)), ("J1", Point(8, 0)), ("T19", Point(18, 18)),
    ("D4", Point(3, 3)), ("Q16", Point(15, 15)), ("Z25", Point(24, 24)), ("K10", Point(9, 9)),
])
def test_gtp_columns_skip_i(vertex: str, point: Point) -> None:
    """GTP columns run A-H then J: the ninth column is J, and T is the 19th."""
    assert Point.from_gtp(vertex) == point
    assert point.gtp() == vertex
    assert "I" not in GTP_COLUMNS and len(GTP_COLUMNS) == 25


@pytest.mark.parametrize("text", ["d4", " D4 ", "d04"])
def test_gtp_reading_is_lenient_about_case_and_spaces(text: str) -> None:
    """Vertices are read in any case, with surrounding blanks."""
    assert Point.from_gtp(text, 19) == Point(3, 3)


@pytest.mark.parametrize("text", ["I5", "", "D", "4D", "DD", "pass", "D-1", "Ä4"])
def test_bad_vertices_are_refused_naming_the_text(text: str) -> None:
    """Not a vertex: CoordinateError, and the message quotes the input."""
    with pytest.raises(CoordinateError) as err:
        Point.from_gtp(text)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize("vertex, width, height", [
    ("T19", 9, 9), ("J10", 9, 9), ("A26", 25, 25), ("A0", 19, 19), ("H1", 7, 3), ("A4", 7, 3),
])
def test_vertices_off_the_board(vertex: str, width: int, height: int) -> None:
    """A vertex beyond the board's lines is refused, naming the vertex and the board."""
    with pytest.raises(CoordinateError, match=f"{vertex!r} is off a {width}x{height} board"):
        Point.from_gtp(vertex, height=height, width=width)


@pytest.mark.parametrize("coord, height, width", [
    ("tt", 19, 19), ("ja", 9, 9), ("aj", 9, 9), ("a", 19, 19), ("aaa", 19, 19), ("A1", 19, 19),
])
def test_bad_or_off_board_sgf_coordinates(coord: str, height: int, width: int) -> None:
    """``tt`` is a pass on boards up to 19x19, not a point; other bad coordinates fail
    alike, naming the input."""
    with pytest.raises(CoordinateError) as err:
        Point.from_sgf(coord, height, width)
    assert repr(coord) in str(err.value)


def test_tt_is_a_point_on_big_boards() -> None:
    """On boards larger than 19x19 ``tt`` is the 20th column, 20th row from the top."""
    assert Point.from_sgf("tt", 25) == Point(19, 5)


def test_pass_is_not_a_point() -> None:
    """``pass`` reads as None; anything else as a point on the given board."""
    assert parse_vertex("pass", 9, 9) is None
    assert parse_vertex("PASS", 9, 9) is None
    assert parse_vertex("J9", 9, 9) == Point(8, 8)
    with pytest.raises(CoordinateError):
        parse_vertex("K9", 9, 9)


@pytest.mark.parametrize("width, height", [(1, 9), (9, 1), (26, 26), (19, 26), (0, 0)])
def test_board_sizes_outside_two_to_twenty_five(width: int, height: int) -> None:
    """The engine plays any rectangle from 2x2 to 25x25 and refuses others by size."""
    with pytest.raises(ValueError, match=f"{width}x{height}"):
        Game("chinese", width, height)


@pytest.mark.parametrize("width, height", [(2, 2), (25, 25), (25, 2), (4, 19)])
def test_board_sizes_accepted(width: int, height: int) -> None:
    """The corners of the accepted range, and rectangles, make games."""
    g = Game("chinese", width, height)
    far = Point(width - 1, height - 1)
    g.play(far)
    assert g.position[far] is BLACK


# -- reprs as code -----------------------------------------------------------------------

NAMESPACE = {
    "Point": Point, "Position": Position, "Color": Color, "Reason": Reason, "Move": Move,
    "Ruleset": Ruleset, "KoRule": KoRule, "Scoring": Scoring, "Handicap": Handicap,
    "MovePlayed": MovePlayed,
}


@pytest.mark.parametrize("value", [
    Point(3, 15),
    Color.BLACK,
    Color.WHITE,
    Reason.SITUATIONAL_SUPERKO,
    Position(["X.O", ".O.", "XX."]),
    Move(WHITE, Point(2, 2)),
    Move(BLACK, None),
    MovePlayed(7, WHITE, Point(0, 0), (Point(1, 0),), ()),
    *(preset(name) for name in rules.PRESETS),
])
def test_repr_reads_back_as_code(value: object) -> None:
    """Like python-chess's values, each prints as the code that makes it."""
    assert eval(repr(value), dict(NAMESPACE)) == value


# -- positions ---------------------------------------------------------------------------


def test_position_rows_are_top_first_and_cells_bottom_first() -> None:
    """``Position(rows)`` takes the top row first; ``cells`` index ``y * width + x`` from
    the bottom-left corner; ``rows()`` gives back the text."""
    p = Position(["X..", "..O"])
    assert p.rows() == ["X..", "..O"]
    assert p.cells == (0, 0, 2, 1, 0, 0)
    assert p[Point(0, 1)] is BLACK and p[Point(2, 0)] is WHITE and p[Point(1, 1)] is None
    assert Position.from_cells(3, 2, p.cells) == p
    assert p.stones(BLACK) == [Point(0, 1)]


def test_position_off_board_and_bad_rows() -> None:
    """Reading a point off the board, a ragged row or a stray character fails clearly."""
    p = Position.empty(3, 2)
    with pytest.raises(IndexError, match="D1"):
        p[Point(3, 0)]
    with pytest.raises(ValueError, match="row 2"):
        Position(["...", ".."])
    with pytest.raises(ValueError, match="'Z'"):
        Position(["..Z", "..."])


def test_position_difference_and_diagram() -> None:
    """``difference`` lists the points that differ; ``diagram`` draws GTP coordinates."""
    a = Position(["X.", ".O"])
    b = Position(["X.", "O."])
    assert a.difference(b) == [Point(0, 0), Point(1, 0)]
    assert a.diagram() == "   A B\n 2 X . 2\n 1 . O 1\n   A B"


# -- the diagram helpers -----------------------------------------------------------------


def test_parse_diagram_reads_aga_figures_and_marks() -> None:
    """``+`` and ``-`` (the AGA figures' points and edge) are empty; ``*`` and letters
    name empty points."""
    d = parse_diagram("""
        +O*
        -Xa
    """)
    assert d.position == Position([".O.", ".X."])
    assert d["*"] == Point(2, 1) and d["a"] == Point(2, 0)
    with pytest.raises(KeyError, match="'b'"):
        d["b"]
    with pytest.raises(ValueError, match="twice"):
        parse_diagram("a.a")
    with pytest.raises(ValueError, match="'%'"):
        parse_diagram("..%")


def test_assert_board_names_the_differing_points() -> None:
    """A failed board comparison names each differing point and prints both boards."""
    with pytest.raises(AssertionError) as err:
        assert_board(Position(["X.", ".O"]), """
            X O
            . .
        """)
    msg = str(err.value)
    assert "2 point(s) differ" in msg
    assert "B2 is empty not O" in msg and "B1 is O not empty" in msg
    assert msg.count("A B") == 4  # two diagrams, coordinates above and below
