"""`Observation`: one reading of a whole board by a camera or a sensor board."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .board import StoneString, strings
from .cell import CHARS, Cell
from .point import Point, check_size
from .position import Position

UNKNOWN = Cell.UNKNOWN
"""Cell code of a point that could not be read (a hand over it, glare, a fault)."""

_CODES = frozenset(Cell)


@dataclasses.dataclass(frozen=True)
class Observation:
    """What a source saw: per point a `Cell` code, empty (0), black (1), white (2) or
    unknown (3), bottom row first as in `Position.cells`; a confidence per point in [0, 1]; when it was taken
    (seconds, the source's clock) and what took it."""

    width: int
    height: int
    cells: tuple[int, ...]
    confidence: tuple[float, ...] = ()
    time: float = 0.0
    source: str = ""

    def __post_init__(self) -> None:
        check_size(self.width, self.height)
        n = self.width * self.height
        if len(self.cells) != n:
            raise ValueError(f"{len(self.cells)} cells do not fill a {self.width}x{self.height} board")
        if any(c not in _CODES for c in self.cells):
            raise ValueError("observation cells must be 0, 1, 2 or 3 (unknown)")
        if self.confidence and len(self.confidence) != n:
            raise ValueError("one confidence per point, or none")

    @classmethod
    def from_rows(cls, rows: Sequence[str], time: float = 0.0, source: str = "") -> Observation:
        """From rows of ``. X O ?``, top row first."""
        lines = [r.replace(" ", "") for r in rows]
        h, w = len(lines), len(lines[0]) if lines else 0
        cells = [0] * (w * h)
        for r, line in enumerate(lines):
            if len(line) != w:
                raise ValueError(f"row {r + 1} has {len(line)} points, expected {w}")
            for x, ch in enumerate(line):
                try:
                    cells[(h - 1 - r) * w + x] = Cell.from_char(ch)
                except ValueError:
                    raise ValueError(f"row {r + 1}: {ch!r} is not one of . X O ?") from None
        return cls(w, h, tuple(cells), time=time, source=source)

    @classmethod
    def of(cls, position: Position, time: float = 0.0, source: str = "") -> Observation:
        """A certain reading of a position."""
        return cls(position.width, position.height, position.cells, time=time, source=source)

    def rows(self) -> list[str]:
        """Rows of ``. X O ?``, top row first."""
        w = self.width
        return [
            "".join(CHARS[c] for c in self.cells[y * w:(y + 1) * w])
            for y in range(self.height - 1, -1, -1)
        ]

    def unknown(self) -> list[Point]:
        """The points that could not be read."""
        w = self.width
        return [Point(i % w, i // w) for i, c in enumerate(self.cells) if c == UNKNOWN]

    def cell(self, p: Point) -> Cell:
        """What was seen at ``p`` (IndexError off the board)."""
        if not (0 <= p.x < self.width and 0 <= p.y < self.height):
            raise IndexError(f"{p} is off a {self.width}x{self.height} board")
        return Cell(self.cells[p.y * self.width + p.x])

    def strings(self) -> list[StoneString]:
        """The strings of the stones seen, with their liberties (`rules.board.strings`:
        an unknown point is neither a stone nor a liberty)."""
        return strings(self.width, self.height, self.cells)

    def position(self) -> Position | None:
        """The position seen, or None if any point is unknown."""
        if UNKNOWN in self.cells:
            return None
        return Position.from_cells(self.width, self.height, self.cells)

    def __repr__(self) -> str:
        extra = "".join(
            f", {k}={v!r}" for k, v in (("time", self.time), ("source", self.source)) if v
        )
        return f"Observation.from_rows({self.rows()!r}{extra})"
