"""The events a game produces: plain immutable values that every sink consumes alike."""

from __future__ import annotations

import dataclasses
import enum
from typing import Union

from .point import Color, Point


class Reason(str, enum.Enum):
    """Why a move is illegal. The value is the word printed and sent as JSON."""

    OCCUPIED = "occupied"
    SUICIDE = "suicide"
    KO = "ko"
    POSITIONAL_SUPERKO = "positional-superko"
    SITUATIONAL_SUPERKO = "situational-superko"
    WRONG_TURN = "wrong-turn"
    OFF_BOARD = "off-board"
    GAME_OVER = "game-over"

    def __repr__(self) -> str:
        return f"Reason.{self.name}"

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True, slots=True)
class MovePlayed:
    """A stone was played. ``captured`` are the opponent stones taken off; ``suicided``
    the player's own stones removed (where the rules allow suicide)."""

    number: int
    color: Color
    point: Point
    captured: tuple[Point, ...] = ()
    suicided: tuple[Point, ...] = ()


_new = object.__new__
_set_number = vars(MovePlayed)["number"].__set__
_set_color = vars(MovePlayed)["color"].__set__
_set_point = vars(MovePlayed)["point"].__set__
_set_captured = vars(MovePlayed)["captured"].__set__
_set_suicided = vars(MovePlayed)["suicided"].__set__


def move_played(
    number: int, color: Color, point: Point,
    captured: tuple[Point, ...] = (), suicided: tuple[Point, ...] = (),
) -> MovePlayed:
    """The same value as ``MovePlayed(...)``, made without the frozen dataclass's slow
    ``__init__`` (this is on the engine's hot path)."""
    e = _new(MovePlayed)
    _set_number(e, number)
    _set_color(e, color)
    _set_point(e, point)
    _set_captured(e, captured)
    _set_suicided(e, suicided)
    return e


@dataclasses.dataclass(frozen=True, slots=True)
class Passed:
    """A player passed."""

    number: int
    color: Color


@dataclasses.dataclass(frozen=True, slots=True)
class IllegalMove:
    """A move was refused. Usually the game did not change and the same player moves
    again; where the rules treat an illegal move as a pass (AGA rule 8), ``counted_as_pass``
    is True: the move was taken back and the player passed, handing over a pass stone, as
    move ``number``. ``taken_back`` is the player's earlier move taken back with it (AGA
    rule 8: "BOTH moves, if he or she moved twice in succession"), or None."""

    color: Color
    point: Point | None
    reason: Reason
    counted_as_pass: bool = False
    number: int = 0
    taken_back: Point | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class StonesRemoved:
    """Stones were marked dead (``dead`` True) or alive again after the two passes."""

    points: tuple[Point, ...]
    dead: bool = True


@dataclasses.dataclass(frozen=True, slots=True)
class Resigned:
    """A player resigned."""

    color: Color


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """Play is over: ``how`` is "passes" (two consecutive passes), "resignation", or
    "counted" (a position counted as it stands)."""

    how: str
    winner: Color | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SideScore:
    """One player's count, item by item. Items a rule set does not use stay 0."""

    stones: int = 0
    territory: int = 0
    captures: int = 0
    """Opponent stones captured during play."""
    dead: int = 0
    """Opponent stones marked dead at the end (prisoners under territory scoring)."""
    pass_stones: int = 0
    """Pass stones received from the opponent (AGA)."""
    komi: float = 0.0
    compensation: float = 0.0
    """Handicap compensation (area scoring)."""
    total: float = 0.0


@dataclasses.dataclass(frozen=True, slots=True)
class Score:
    """The counted result of a finished game."""

    rules: str
    black: SideScore
    white: SideScore
    neutral: int = 0
    """Empty points that reach both colours (seki) or none."""
    territory: tuple[tuple[Point, ...], tuple[Point, ...]] = ((), ())
    """Black's and White's territory points, for drawing."""
    dead_stones: tuple[Point, ...] = ()

    @property
    def winner(self) -> Color | None:
        """The colour with more points, None on a tie."""
        if self.black.total > self.white.total:
            return Color.BLACK
        if self.white.total > self.black.total:
            return Color.WHITE
        return None

    @property
    def margin(self) -> float:
        """How many points the winner is ahead (0 on a tie)."""
        return abs(self.black.total - self.white.total)

    def result(self) -> str:
        """The result as SGF writes it: ``B+7.5``, ``W+0.5``, ``0`` for a tie."""
        w = self.winner
        return "0" if w is None else f"{w.letter}+{self.margin:g}"


Event = Union[MovePlayed, Passed, IllegalMove, StonesRemoved, Resigned, GameEnded, Score]
