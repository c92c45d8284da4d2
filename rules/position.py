"""`Position`: an immutable picture of the stones on a board, and its text diagrams."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from .point import GTP_COLUMNS, Color, Point, check_size

_CHAR_TO_CELL = {".": 0, "+": 0, "X": 1, "B": 1, "#": 1, "O": 2, "W": 2, "o": 2, "x": 1}
_CELL_TO_CHAR = ".XO"


class Position:
    """The stones on a ``width`` x ``height`` board; nothing about whose turn it is.

    Built from rows of text, top row first, with ``.`` empty, ``X`` black and ``O`` white
    (``B``/``W`` and ``+`` are read too), which is also how it prints::

        >>> Position(["X.", ".O"])
        Position(['X.', '.O'])
        >>> Position(["X.", ".O"])[Point(0, 1)]
        Color.BLACK
    """

    __slots__ = ("width", "height", "_cells", "_hash")

    width: int
    height: int
    _cells: tuple[int, ...]

    def __init__(self, rows: Sequence[str]) -> None:
        lines = [r.replace(" ", "") for r in rows]
        if not lines:
            raise ValueError("a position needs at least one row")
        width = len(lines[0])
        check_size(width, len(lines))
        cells = [0] * (width * len(lines))
        height = len(lines)
        for r, line in enumerate(lines):
            if len(line) != width:
                raise ValueError(f"row {r + 1} has {len(line)} points, expected {width}: {line!r}")
            y = height - 1 - r
            for x, ch in enumerate(line):
                try:
                    cells[y * width + x] = _CHAR_TO_CELL[ch]
                except KeyError:
                    raise ValueError(f"row {r + 1}: {ch!r} is not one of . X O") from None
        self._init(width, height, tuple(cells))

    def _init(self, width: int, height: int, cells: tuple[int, ...]) -> None:
        self.width = width
        self.height = height
        self._cells = cells
        self._hash = hash((width, height, cells))

    @classmethod
    def from_cells(cls, width: int, height: int, cells: Iterable[int]) -> Position:
        """A position from cell codes (0 empty, 1 black, 2 white), row by row from the
        bottom-left corner, i.e. the cell of ``Point(x, y)`` is at ``y * width + x``."""
        check_size(width, height)
        t = tuple(int(c) for c in cells)
        if len(t) != width * height:
            raise ValueError(f"{len(t)} cells do not fill a {width}x{height} board")
        if any(c not in (0, 1, 2) for c in t):
            raise ValueError("cell codes must be 0 (empty), 1 (black) or 2 (white)")
        p = cls.__new__(cls)
        p._init(width, height, t)
        return p

    @classmethod
    def empty(cls, width: int, height: int | None = None) -> Position:
        """An empty board."""
        h = width if height is None else height
        return cls.from_cells(width, h, [0] * (width * h))

    @classmethod
    def from_stones(
        cls, width: int, height: int, stones: Mapping[Point, Color]
    ) -> Position:
        """A position holding the given stones."""
        cells = [0] * (width * height)
        for p, c in stones.items():
            if not (0 <= p.x < width and 0 <= p.y < height):
                raise ValueError(f"{p.gtp()} is off a {width}x{height} board")
            cells[p.y * width + p.x] = int(c)
        return cls.from_cells(width, height, cells)

    @property
    def cells(self) -> tuple[int, ...]:
        """Cell codes (0 empty, 1 black, 2 white), bottom row first."""
        return self._cells

    def __getitem__(self, p: Point) -> Color | None:
        if not (0 <= p.x < self.width and 0 <= p.y < self.height):
            raise IndexError(f"{p.gtp()} is off a {self.width}x{self.height} board")
        c = self._cells[p.y * self.width + p.x]
        return Color(c) if c else None

    def points(self) -> Iterator[Point]:
        """Every intersection, bottom row first."""
        for y in range(self.height):
            for x in range(self.width):
                yield Point(x, y)

    def stones(self, color: Color | None = None) -> list[Point]:
        """The points holding a stone (of ``color`` if given)."""
        w = self.width
        return [
            Point(i % w, i // w)
            for i, c in enumerate(self._cells)
            if c and (color is None or c == color)
        ]

    def rows(self) -> list[str]:
        """Rows of ``.``/``X``/``O``, top row first (as the board is seen from Black's side)."""
        w = self.width
        return [
            "".join(_CELL_TO_CHAR[c] for c in self._cells[y * w:(y + 1) * w])
            for y in range(self.height - 1, -1, -1)
        ]

    def diagram(self, coordinates: bool = True) -> str:
        """A text diagram with GTP coordinates on the sides."""
        rows = self.rows()
        if not coordinates:
            return "\n".join(" ".join(r) for r in rows)
        letters = "   " + " ".join(GTP_COLUMNS[: self.width])
        lines = [letters]
        for i, r in enumerate(rows):
            n = self.height - i
            lines.append(f"{n:2d} {' '.join(r)} {n}")
        lines.append(letters)
        return "\n".join(lines)

    def difference(self, other: Position) -> list[Point]:
        """The points where this position and ``other`` differ (same size required)."""
        if (self.width, self.height) != (other.width, other.height):
            raise ValueError("positions of different sizes cannot be compared point by point")
        w = self.width
        return [
            Point(i % w, i // w)
            for i, (a, b) in enumerate(zip(self._cells, other._cells))
            if a != b
        ]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self.width, self.height, self._cells) == (other.width, other.height, other._cells)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position({self.rows()!r})"

    def __str__(self) -> str:
        return self.diagram()
