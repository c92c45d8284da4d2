"""kifu's rules engine: boards, rule sets, games and scoring. Pure Python; no I/O.

    >>> from rules import Game, Point
    >>> g = Game("japanese", 9)
    >>> for v in ["D4", "F5", "E5", "G4", "E3", "F3", "pass", "E4"]:
    ...     _ = g.pass_() if v == "pass" else g.play(Point.from_gtp(v))
    >>> g.play(Point.from_gtp("F4")).captured
    (Point(x=4, y=3),)
    >>> g.legality(Point.from_gtp("E4"))
    Reason.KO
"""

from .board import Board, Effect, Geometry, StoneString, geometry, strings
from .cell import Cell
from .events import (
    Event, GameEnded, IllegalMove, MovePlayed, Passed, Reason, Resigned, Score, SideScore,
    StonesRemoved,
)
from .game import Game, IllegalMoveError, Phase, RulesError, SetupError
from .handicap import fixed_handicap, star_points_in_order
from .observation import Observation
from .point import BLACK, WHITE, Color, CoordinateError, Move, Point, parse_vertex
from .position import Position
from .rotation import ROTATIONS, rotate_observation, rotate_point, rotate_position
from .ruleset import PRESETS, Handicap, KoRule, Ruleset, Scoring, preset

__all__ = [
    "BLACK", "WHITE", "Board", "Cell", "Color", "CoordinateError", "Effect", "Event", "Game",
    "GameEnded", "Geometry", "Handicap", "IllegalMove", "IllegalMoveError", "KoRule", "Move",
    "MovePlayed", "Observation", "PRESETS", "Passed", "Phase", "Point", "Position",
    "ROTATIONS", "Reason", "Resigned", "Ruleset", "RulesError", "Score", "Scoring",
    "SetupError", "SideScore", "StoneString", "StonesRemoved", "fixed_handicap", "geometry",
    "parse_vertex", "preset", "rotate_observation", "rotate_point", "rotate_position",
    "star_points_in_order", "strings",
]
