"""Colours and points, and their text forms at the edges (GTP vertices, SGF coordinates).

A `Point` is a column and a row counted from the bottom-left corner, both from 0, so that
its GTP vertex does not depend on the board's height: ``Point(3, 3)`` is ``D4`` on every
board. SGF coordinates count rows from the top, so converting to and from SGF needs the
board's height.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

MAX_SIZE = 25
MIN_SIZE = 2

# GTP columns: A..Z without I, which gives exactly 25 letters.
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
_SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class CoordinateError(ValueError):
    """A vertex or coordinate that cannot be read, or that lies off the board."""


class Color(enum.IntEnum):
    """The colour of a stone or of a player. The values are the engine's cell codes."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``"B"`` or ``"W"``, as in SGF and GTP."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read ``B``/``W``/``black``/``white`` in any case."""
        t = text.strip().lower()
        if t in ("b", "black"):
            return cls.BLACK
        if t in ("w", "white"):
            return cls.WHITE
        raise ValueError(f"not a colour: {text!r}")

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    __str__ = __repr__


BLACK = Color.BLACK
WHITE = Color.WHITE


class Point(NamedTuple):
    """An intersection: column ``x`` from the left and row ``y`` from the bottom, from 0."""

    x: int
    y: int

    @classmethod
    def from_gtp(cls, vertex: str, height: int = MAX_SIZE, width: int | None = None) -> Point:
        """Read a GTP vertex such as ``D4`` (no ``I`` column). ``pass`` is not a point.

        Raises `CoordinateError` when the text is not a vertex or is off a board of the
        given size (the default size accepts any vertex up to 25x25).
        """
        v = vertex.strip().upper()
        if len(v) < 2 or v[0] not in GTP_COLUMNS or not v[1:].isdigit():
            raise CoordinateError(f"not a GTP vertex: {vertex!r}")
        x = GTP_COLUMNS.index(v[0])
        y = int(v[1:]) - 1
        w = height if width is None else width
        if not (0 <= x < w and 0 <= y < height):
            raise CoordinateError(f"vertex {vertex!r} is off a {w}x{height} board")
        return cls(x, y)

    def gtp(self) -> str:
        """The GTP vertex, e.g. ``"D4"``."""
        return f"{GTP_COLUMNS[self.x]}{self.y + 1}"

    @classmethod
    def from_sgf(cls, coord: str, height: int, width: int | None = None) -> Point:
        """Read a two-letter SGF coordinate (``"dp"``) on a board ``height`` rows high.

        An empty string or ``tt`` (on boards up to 19x19) is a pass in SGF; that is not a
        point, so it raises `CoordinateError`: callers test for passes first.
        """
        w = height if width is None else width
        if len(coord) != 2 or coord[0] not in _SGF_LETTERS or coord[1] not in _SGF_LETTERS:
            raise CoordinateError(f"not an SGF coordinate: {coord!r}")
        x = _SGF_LETTERS.index(coord[0])
        row_from_top = _SGF_LETTERS.index(coord[1])
        if not (0 <= x < w and 0 <= row_from_top < height):
            raise CoordinateError(f"SGF coordinate {coord!r} is off a {w}x{height} board")
        return cls(x, height - 1 - row_from_top)

    def sgf(self, height: int) -> str:
        """The SGF coordinate of this point on a board ``height`` rows high."""
        return _SGF_LETTERS[self.x] + _SGF_LETTERS[height - 1 - self.y]

    def __str__(self) -> str:
        return self.gtp()


def parse_vertex(text: str, width: int, height: int) -> Point | None:
    """Read a GTP vertex or ``pass`` (returned as None) on a ``width`` x ``height`` board."""
    if text.strip().lower() == "pass":
        return None
    return Point.from_gtp(text, height=height, width=width)


def check_size(width: int, height: int) -> None:
    """Raise ValueError unless the board is a rectangle from 2x2 to 25x25."""
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise ValueError(
            f"board {width}x{height} is not supported: sides must be {MIN_SIZE} to {MAX_SIZE}"
        )


class Move(NamedTuple):
    """A turn: a stone of ``color`` on ``point``, or a pass when ``point`` is None.

        >>> Move.parse("B D4")
        Move(color=Color.BLACK, point=Point(x=3, y=3))
        >>> Move.parse("w pass").gtp()
        'W pass'
    """

    color: Color
    point: Point | None

    @classmethod
    def parse(cls, text: str, width: int = MAX_SIZE, height: int = MAX_SIZE) -> Move:
        """Read ``"B D4"``, ``"white Q16"``, ``"W pass"`` (GTP's colour and vertex)."""
        parts = text.split()
        if len(parts) != 2:
            raise CoordinateError(f"not a move (colour and vertex): {text!r}")
        try:
            color = Color.parse(parts[0])
        except ValueError:
            raise CoordinateError(f"not a move: {text!r} ({parts[0]!r} is no colour)") from None
        return cls(color, parse_vertex(parts[1], width, height))

    @property
    def is_pass(self) -> bool:
        return self.point is None

    def gtp(self) -> str:
        """``"B D4"`` or ``"W pass"``."""
        return f"{self.color.letter} {'pass' if self.point is None else self.point.gtp()}"

    def __str__(self) -> str:
        return self.gtp()
