"""Where fixed handicap stones go."""

from __future__ import annotations

from .point import Point

MAX_FIXED = 9


def star_points_in_order(width: int, height: int) -> list[Point]:
    """The handicap points of a board in the AGA order (aga-1991.txt, rule 4).

    On 19x19 these are Q16, D4, Q4, D16, Q10, D10, K16, K4, K10. Other boards use the
    same pattern on their own star points: the fourth line from the edge on boards of
    13 lines and more, the third line on smaller ones; sides and centre only where a
    board has a middle line. Boards under 7 lines have none.
    """
    if min(width, height) < 7:
        return []
    dx = 3 if width >= 13 else 2
    dy = 3 if height >= 13 else 2
    lo_x, hi_x, mid_x = dx, width - 1 - dx, width // 2
    lo_y, hi_y, mid_y = dy, height - 1 - dy, height // 2
    odd_x, odd_y = width % 2 == 1, height % 2 == 1
    order: list[Point | None] = [
        Point(hi_x, hi_y),
        Point(lo_x, lo_y),
        Point(hi_x, lo_y),
        Point(lo_x, hi_y),
        Point(hi_x, mid_y) if odd_y else None,
        Point(lo_x, mid_y) if odd_y else None,
        Point(mid_x, hi_y) if odd_x else None,
        Point(mid_x, lo_y) if odd_x else None,
        Point(mid_x, mid_y) if odd_x and odd_y else None,
    ]
    return [p for p in order if p is not None]


def fixed_handicap(stones: int, width: int = 19, height: int | None = None) -> list[Point]:
    """The points of a fixed handicap of ``stones`` (2 to 9), as AGA rule 4 lists them:
    five and seven stones take the centre with the first four and six.

    Raises ValueError when the board has no such standard placement.
    """
    h = width if height is None else height
    if not 2 <= stones <= MAX_FIXED:
        raise ValueError(f"a fixed handicap has 2 to 9 stones, not {stones}")
    pts = star_points_in_order(width, h)
    centre = pts[8] if len(pts) == 9 else None
    if stones > len(pts) or (stones in (5, 7) and centre is None):
        raise ValueError(f"a {width}x{h} board has no fixed placement for {stones} stones")
    if stones in (5, 7):
        return pts[: stones - 1] + [centre]  # type: ignore[list-item]
    return pts[:stones]
