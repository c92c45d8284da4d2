"""`Cell`: what one point of a board holds, the vocabulary every package shares.

The values are the codes the engine stores (`Board.cells`, `Position.cells`) and the
readings carry (`Observation.cells`, the sensor board's states, vision's labels): 0 empty,
1 black, 2 white (equal to `Color`'s values) and 3 unknown (a reading only). Text forms
(``. X O ?``) and colours are converted here, at the edges.

    >>> Cell.from_char("X"), Cell.BLACK.char, Cell.of(Color.WHITE), Cell(3)
    (Cell.BLACK, 'X', Cell.WHITE, Cell.UNKNOWN)
"""

from __future__ import annotations

import enum

from .point import Color

CHARS = ".XO?"
"""The text form of each cell code, by code."""


class Cell(enum.IntEnum):
    """One point's content. An `int`, so codes and cells compare and index alike."""

    EMPTY = 0
    BLACK = 1
    WHITE = 2
    UNKNOWN = 3
    """Could not be read (a hand over the point, glare, a sensor fault); never on a board."""

    @property
    def char(self) -> str:
        """``.``, ``X``, ``O`` or ``?``."""
        return CHARS[self]

    @property
    def color(self) -> Color | None:
        """The colour of the stone, None for an empty or unknown point."""
        return Color(self) if self is Cell.BLACK or self is Cell.WHITE else None

    @classmethod
    def from_char(cls, ch: str) -> Cell:
        """Read ``. X O ?`` (and ``+``, ``B``, ``W``); ValueError names anything else."""
        code = _FROM_CHAR.get(ch)
        if code is None:
            raise ValueError(f"{ch!r} is not a point: one of . X O ?")
        return code

    @classmethod
    def of(cls, color: Color | None) -> Cell:
        """The cell holding a stone of ``color`` (EMPTY for None)."""
        return Cell.EMPTY if color is None else Cell(int(color))

    def __repr__(self) -> str:
        return f"Cell.{self.name}"

    __str__ = __repr__


_FROM_CHAR = {
    ".": Cell.EMPTY, "+": Cell.EMPTY, "X": Cell.BLACK, "B": Cell.BLACK,
    "O": Cell.WHITE, "W": Cell.WHITE, "?": Cell.UNKNOWN,
}
