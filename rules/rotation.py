"""Quarter turns of a board: points, cells, positions and observations.

A turn is given in degrees clockwise, the board seen from above with row 1 at the bottom:
0, 90, 180 or 270. A quarter turn of a ``width`` x ``height`` board gives a ``height`` x
``width`` one. A turn maps neighbours to neighbours, so it maps a legal game to a legal
game with the same captures (`Game.rotate` turns a game in progress).

    >>> rotate_point(Point.from_gtp("A1"), 19, 19, 90).gtp()
    'A19'
    >>> rotate_observation(Observation.from_rows(["X.O", "..."]), 90).rows()
    ['.X', '..', '.O']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .observation import Observation
from .point import Point
from .position import Position

ROTATIONS = (0, 90, 180, 270)
"""The turns there are, in degrees clockwise."""

T = TypeVar("T")


def check_rotation(degrees: int) -> int:
    """``degrees`` when it is a quarter turn (0, 90, 180 or 270); ValueError naming it
    otherwise."""
    if isinstance(degrees, bool) or not isinstance(degrees, int) or degrees not in ROTATIONS:
        raise ValueError(f"rotate must be one of 0, 90, 180, 270 (degrees clockwise), "
                         f"not {degrees!r}")
    return degrees


def rotated_size(width: int, height: int, degrees: int) -> tuple[int, int]:
    """The width and height of a ``width`` x ``height`` board turned ``degrees``."""
    return (height, width) if check_rotation(degrees) in (90, 270) else (width, height)


def rotate_point(p: Point, width: int, height: int, degrees: int) -> Point:
    """Where the point ``p`` of a ``width`` x ``height`` board lands when the board is
    turned ``degrees`` clockwise (a quarter turn takes the bottom-left corner to the
    top-left one)."""
    x, y = p
    turn = check_rotation(degrees)
    if turn == 90:
        return Point(y, width - 1 - x)
    if turn == 180:
        return Point(width - 1 - x, height - 1 - y)
    if turn == 270:
        return Point(height - 1 - y, x)
    return Point(x, y)


def rotate_cells(cells: Sequence[T], width: int, height: int, degrees: int) -> tuple[T, ...]:
    """Values laid out like `Position.cells` (bottom row first) on a ``width`` x
    ``height`` board, laid out again for the board turned ``degrees``."""
    if len(cells) != width * height:
        raise ValueError(f"{len(cells)} values do not fill a {width}x{height} board")
    new_width, _ = rotated_size(width, height, degrees)
    out: list[T] = list(cells)
    for i, value in enumerate(cells):
        q = rotate_point(Point(i % width, i // width), width, height, degrees)
        out[q.y * new_width + q.x] = value
    return tuple(out)


def rotate_position(position: Position, degrees: int) -> Position:
    """The stones of ``position`` with the board turned ``degrees`` clockwise."""
    w, h = position.width, position.height
    new_w, new_h = rotated_size(w, h, degrees)
    return Position.from_cells(new_w, new_h, rotate_cells(position.cells, w, h, degrees))


def rotate_observation(obs: Observation, degrees: int) -> Observation:
    """The reading ``obs`` as it reads with the board turned ``degrees`` clockwise: every
    point's value and confidence moved with it; the time and the source kept."""
    w, h = obs.width, obs.height
    if check_rotation(degrees) == 0:
        return obs
    new_w, new_h = rotated_size(w, h, degrees)
    return Observation(
        new_w, new_h, rotate_cells(obs.cells, w, h, degrees),
        rotate_cells(obs.confidence, w, h, degrees) if obs.confidence else (),
        time=obs.time, source=obs.source,
    )


__all__ = [
    "ROTATIONS", "check_rotation", "rotate_cells", "rotate_observation", "rotate_point",
    "rotate_position", "rotated_size",
]
