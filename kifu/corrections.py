"""Corrections of the record, each one an output of the session like any other, so that
every sink hears of it: the terminal prints it, the page shows it, the SGF keeps it as a
comment on its node.

* ``undo`` (the keyboard, the page's button): the last move or pass is taken back in the
  record; its stone, still on the board, is expected to be lifted.
* a take-back: the last stone played is lifted before the opponent answers, and the
  rules of the game (``--takeback allowed``) let it be taken back.
* ``set D4 black|white|empty``: the camera's reading of a point is corrected, until the
  camera reads something else there.
"""

from __future__ import annotations

import dataclasses

from rules import Color, Point

from .tracker import Announcement, Kind

ACTIONS = ("undo", "take-back", "set")


@dataclasses.dataclass(frozen=True)
class Correction(Announcement):
    """A correction, announced (``text``) and kept in the record. ``action`` is one of
    `ACTIONS`; ``number`` the move (or pass) taken back, 0 for a reading corrected;
    ``color`` whose move it was (or the colour set, None for empty); ``points`` the
    point concerned (none for a pass taken back)."""

    action: str = "undo"
    number: int = 0
    color: Color | None = None

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown correction {self.action!r}: expected one of "
                             f"{', '.join(ACTIONS)}")

    @property
    def takes_back(self) -> bool:
        """Does it remove the last move or pass from the record?"""
        return self.action != "set"


def correction(action: str, text: str, number: int = 0, color: Color | None = None,
               point: Point | None = None) -> Correction:
    """A `Correction` of kind `Kind.CORRECTION`."""
    return Correction(Kind.CORRECTION, text, (point,) if point else (), None, action,
                      number, color)


def comment(item: Correction, time: float) -> str:
    """The SGF comment that keeps a correction: what was corrected and when (seconds on
    the source's clock, as the moves' ``KT``)."""
    return f"kifu correction at {time:.2f} s: {item.action}: {item.text}"


__all__ = ["ACTIONS", "Correction", "comment", "correction"]
