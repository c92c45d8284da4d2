"""The board drawing: what is on it, where, and how it turns."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from kifu.svg import UNIT, board_svg, star_points
from rules import Point, Position

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def stones(root: ET.Element) -> dict[str, str]:
    """GTP vertex -> "black"/"white" for every stone drawn."""
    out = {}
    for c in root.iterfind(".//s:circle", NS):
        cls = c.get("class", "").split()
        if "stone" in cls:
            out[c.get("data-vertex", "")] = "black" if "black" in cls else "white"
    return out


def centre(root: ET.Element, vertex: str, cls: str = "stone") -> tuple[float, float]:
    for c in root.iter():
        if c.get("data-vertex") == vertex and cls in c.get("class", "").split():
            if c.tag.endswith("rect"):
                return (float(c.get("x", 0)) + float(c.get("width", 0)) / 2,
                        float(c.get("y", 0)) + float(c.get("height", 0)) / 2)
            return float(c.get("cx", 0)), float(c.get("cy", 0))
    raise AssertionError(f"nothing of class {cls} at {vertex}")


def labels(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iterfind(".//s:text", NS)]


CORNER = Position([
    "X....",
    ".O...",
    ".....",
    ".....",
    "....O",
])


def test_every_stone_is_drawn_with_its_colour_and_vertex() -> None:
    root = parse(board_svg(CORNER))
    assert stones(root) == {"A5": "black", "B4": "white", "E1": "white"}


def test_an_empty_board_has_no_stones_but_its_star_points() -> None:
    root = parse(board_svg(Position.empty(19)))
    assert stones(root) == {}
    stars = [c for c in root.iterfind(".//s:circle", NS) if c.get("class") == "star"]
    assert len(stars) == 9


@pytest.mark.parametrize("size, expected", [
    (19, ["D4", "D10", "D16", "K4", "K10", "K16", "Q4", "Q10", "Q16"]),
    (13, ["D4", "D10", "G7", "K4", "K10"]),
    (9, ["C3", "C7", "E5", "G3", "G7"]),
    (5, []),
])
def test_star_points_are_where_a_real_board_has_them(size: int, expected: list[str]) -> None:
    assert sorted(p.gtp() for p in star_points(size, size)) == sorted(expected)


def test_coordinates_run_on_all_four_sides_skipping_i() -> None:
    texts = labels(parse(board_svg(Position.empty(9))))
    letters = list("ABCDEFGHJ")
    numbers = [str(n) for n in range(9, 0, -1)]
    # Top and bottom (interleaved), then left and right (interleaved, top row first).
    assert texts[:18] == [c for c in letters for _ in range(2)]
    assert texts[18:] == [n for n in numbers for _ in range(2)]
    assert "I" not in texts


def test_without_coordinates_there_is_no_text() -> None:
    assert labels(parse(board_svg(Position.empty(9), coordinates=False))) == []


def test_row_one_is_at_the_bottom_and_column_a_at_the_left() -> None:
    root = parse(board_svg(CORNER))
    ax, ay = centre(root, "A5")
    ex, ey = centre(root, "E1")
    assert ax < ex and ay < ey
    assert ex - ax == pytest.approx(4 * UNIT) and ey - ay == pytest.approx(4 * UNIT)


@pytest.mark.parametrize("rotate, corner", [(90, "top-right"), (180, "bottom-right"),
                                             (270, "bottom-left")])
def test_rotating_moves_the_top_left_stone_clockwise(rotate: int, corner: str) -> None:
    root = parse(board_svg(CORNER, rotate=rotate))
    xs = sorted(centre(root, v)[0] for v in ("A5", "E1", "B4"))
    ys = sorted(centre(root, v)[1] for v in ("A5", "E1", "B4"))
    x, y = centre(root, "A5")
    want_x = xs[-1] if "right" in corner else xs[0]
    want_y = ys[-1] if "bottom" in corner else ys[0]
    assert (x, y) == (want_x, want_y)


def test_a_quarter_turn_swaps_the_sides_of_a_rectangle_and_its_labels() -> None:
    wide = Position.empty(7, 5)
    upright = parse(board_svg(wide))
    turned = parse(board_svg(wide, rotate=90))
    w0, h0 = map(float, upright.get("viewBox", "").split()[2:])
    w1, h1 = map(float, turned.get("viewBox", "").split()[2:])
    assert (w1, h1) == (h0, w0)
    # Turned clockwise, row 1 is at the left of the top edge, and columns run down the side.
    texts = labels(turned)
    assert texts[0] == "1" and texts[2 * 4] == "5"
    assert texts[10] == "A" and texts[-1] == "G"


def test_the_last_move_is_ringed_in_the_contrasting_colour() -> None:
    root = parse(board_svg(CORNER, last_move=Point.from_gtp("B4")))
    ring = [c for c in root.iterfind(".//s:circle", NS) if c.get("class") == "last-move"]
    assert len(ring) == 1 and ring[0].get("data-vertex") == "B4"
    assert ring[0].get("stroke") == "#111"  # dark ring on a white stone
    assert centre(root, "B4", "last-move") == centre(root, "B4")


def test_territory_squares_and_dead_stones_at_the_end() -> None:
    pos = Position([
        ".X.O.",
        ".X.O.",
        "XX.OO",
        "..OO.",
        ".X...",
    ])
    black = [Point.from_gtp(v) for v in ("A5", "A4")]
    white = [Point.from_gtp(v) for v in ("E5", "E4", "B1")]
    dead = [Point.from_gtp("B1")]
    root = parse(board_svg(pos, territory=(black, white), dead=dead))
    squares = {(r.get("data-vertex"), r.get("class")) for r in root.iterfind(".//s:rect", NS)
               if "territory" in r.get("class", "")}
    assert squares == {("A5", "territory black"), ("A4", "territory black"),
                       ("E5", "territory white"), ("E4", "territory white"),
                       ("B1", "territory white")}
    faded = [c for c in root.iterfind(".//s:circle", NS) if "dead" in c.get("class", "")]
    assert [c.get("data-vertex") for c in faded] == ["B1"]
    assert float(faded[0].get("opacity", 1)) < 1


def test_size_sets_the_width_and_keeps_the_shape() -> None:
    root = parse(board_svg(Position.empty(9, 13), size=300))
    assert root.get("width") == "300"
    assert int(root.get("height", 0)) > 300
    assert root.get("viewBox") and parse(board_svg(Position.empty(9))).get("width") is None


def test_two_boards_on_one_page_keep_their_gradients_apart() -> None:
    a = board_svg(Position.empty(9), id_prefix="b1")
    assert 'id="b1-black"' in a and "url(#b1-black)" not in board_svg(Position.empty(9))


@pytest.mark.parametrize("kwargs, message", [
    ({"rotate": 45}, "rotate must be one of"),
    ({"size": 10}, "at least 32"),
    ({"last_move": Point(9, 0)}, "last move (9, 0) is off the 9x9 board"),
    ({"dead": [Point(0, 12)]}, "dead stone (0, 12) is off"),
])
def test_bad_options_are_refused_by_name(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        board_svg(Position.empty(9), **kwargs)  # type: ignore[arg-type]
