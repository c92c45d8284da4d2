"""`Game`: a game of Go refereed under a `Ruleset`: turns, ko and superko, suicide,
handicap, passes, the end of play, dead stones and the count.

    >>> from rules import Game, Point
    >>> g = Game("chinese", 9)
    >>> g.play(Point.from_gtp("E5"))
    MovePlayed(number=1, color=Color.BLACK, point=Point(x=4, y=4), captured=(), suicided=())
    >>> g.to_move
    Color.WHITE
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from typing import Union

from .board import Board, Effect, _String
from .events import (
    GameEnded, IllegalMove, MovePlayed, Passed, Reason, Resigned, Score, StonesRemoved,
    move_played,
)
from .handicap import fixed_handicap
from .point import Color, Move, Point
from .position import Position
from .rotation import check_rotation, rotate_point, rotated_size
from .ruleset import Handicap, KoRule, Ruleset, preset
from .scoring import count

_DESCRIPTIONS = {
    Reason.OCCUPIED: "the point is occupied",
    Reason.SUICIDE: "the stone would have no liberties",
    Reason.KO: "it retakes a ko at once",
    Reason.POSITIONAL_SUPERKO: "it repeats an earlier board position",
    Reason.SITUATIONAL_SUPERKO: "it repeats an earlier position with the same player to move",
    Reason.WRONG_TURN: "it is not that player's turn",
    Reason.OFF_BOARD: "the point is off the board",
    Reason.GAME_OVER: "the game is over",
}


class RulesError(Exception):
    """Base of the errors of the rules engine."""


class SetupError(RulesError, ValueError):
    """Setup stones (handicap, a given position, SGF ``AB``/``AW``) that would leave
    strings without liberties. ``points`` are the stones of those strings; the game is
    left as it was."""

    def __init__(self, points: tuple[Point, ...]) -> None:
        self.points = points
        super().__init__(
            "setup leaves stones without liberties at "
            + " ".join(p.gtp() for p in points)
            + ": no rule set removes them, and they would be counted"
        )


class IllegalMoveError(RulesError):
    """A move the rules forbid. The game is left as it was.

    ``reason`` says why, ``color`` and ``point`` (None for a pass) say what was tried, and
    ``position`` and ``move_number`` say where: the board before the move."""

    def __init__(
        self, reason: Reason, color: Color, point: Point | None, position: Position, move_number: int
    ) -> None:
        self.reason = reason
        self.color = color
        self.point = point
        self.position = position
        self.move_number = move_number
        where = "pass" if point is None else (
            point.gtp() if 0 <= point.x < 25 and 0 <= point.y < 25 else repr(point)
        )
        super().__init__(
            f"move {move_number + 1}: {color.letter} {where} is illegal ({reason.value}): "
            f"{_DESCRIPTIONS[reason]}\n{position.diagram()}"
        )


class Phase(enum.Enum):
    """Where a game stands."""

    PLAY = "play"
    COUNTING = "counting"
    """After two consecutive passes: dead stones may be marked, or play resumed."""
    OVER = "over"
    """Resigned or scored: nothing more can be played."""


# -- the undo log: what was done, enough to do it again --------------------------------


_Stone = tuple[int, Color, bool]
"""A stone played: the point's index, the colour, out of turn. A plain tuple where the
other actions are classes: one is made for every move (see `rules.board.Effect` for what a
NamedTuple cost on the replay benchmark)."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Pass:
    color: Color
    out_of_turn: bool


@dataclasses.dataclass(frozen=True, slots=True)
class _IllegalAsPass:
    """An illegal move counted as a pass (AGA rule 8), kept to count it again on replay."""

    error: IllegalMoveError


@dataclasses.dataclass(frozen=True, slots=True)
class _Setup:
    black: tuple[int, ...]
    white: tuple[int, ...]
    empty: tuple[int, ...]
    to_move: Color | None


@dataclasses.dataclass(frozen=True, slots=True)
class _Handicap:
    """Handicap stones counted: those of the setup just before, or a one-stone handicap
    (no setup) when ``stones`` is 1."""

    stones: int


@dataclasses.dataclass(frozen=True, slots=True)
class _HandicapMoves:
    stones: int


@dataclasses.dataclass(frozen=True, slots=True)
class _Resign:
    color: Color


_Action = Union[_Stone, _Pass, _IllegalAsPass, _Setup, _Handicap, _HandicapMoves, _Resign]

_PLAY = Phase.PLAY
_OVER = Phase.OVER
_OPPONENT = (None, Color.WHITE, Color.BLACK)  # by colour code, on the hot path


class Game:
    """A game under a rule set. `play` and `pass_` return the event or raise
    `IllegalMoveError` leaving the game unchanged; `undo` takes back the last action."""

    def __init__(
        self,
        rules: Ruleset | str = "chinese",
        width: int = 19,
        height: int | None = None,
        *,
        komi: float | None = None,
        handicap: int | Iterable[Point] = 0,
    ) -> None:
        """A new game on an empty ``width`` x ``height`` board.

        ``handicap`` is a number of stones (placed as the rules say: fixed star points,
        the star points for free placement, or Black's first moves for Tromp-Taylor) or
        the points where Black puts them. ``komi`` overrides the rules' komi.
        """
        self.rules: Ruleset = preset(rules) if isinstance(rules, str) else rules
        self.board = Board(width, width if height is None else height)
        self.width = self.board.geo.width
        self.height = self.board.geo.height
        self._komi = komi
        self._actions: list[_Action] = []
        self._reset()
        if isinstance(handicap, int):
            if handicap:
                self.place_handicap(handicap)
        else:
            self.place_handicap(list(handicap))

    def _reset(self) -> None:
        self.board = Board(self.width, self.height)
        self.to_move: Color = Color.BLACK
        self.number = 0
        """Moves and passes made so far."""
        self.captures = [0, 0, 0]
        """Opponent stones captured during play, indexed by the capturing colour's code."""
        self.passes = [0, 0, 0]
        """Passes made, indexed by colour code."""
        self.consecutive_passes = 0
        self.handicap_stones = 0
        self._handicap_moves_left = 0
        self.phase = Phase.PLAY
        self.winner: Color | None = None
        self.dead: set[int] = set()
        self._ko_stone = -1  # stone just played that captured exactly one stone
        # Superko: the set of position keys each colour's move may not recreate, and what
        # is XORed into the board hash to make the key of the position that colour leaves.
        ko = self.rules.ko
        side_key = self.board.geo.side_key
        seen: set[int] = set()
        self._superko = Reason.SITUATIONAL_SUPERKO
        self._side: tuple[int, int, int] = (0, 0, 0)
        self._history: tuple[None, set[int] | None, set[int] | None]
        if ko is KoRule.SIMPLE:
            self._history = (None, None, None)
        elif ko is KoRule.POSITIONAL:
            self._history = (None, seen, seen)
            self._superko = Reason.POSITIONAL_SUPERKO
        elif ko is KoRule.SITUATIONAL:
            self._history = (None, set(), set())
        else:  # SITUATIONAL_TO_MOVE: the key says who is to move after the move
            self._history = (None, seen, seen)
            self._side = (0, side_key[Color.WHITE], side_key[Color.BLACK])
        self._record_position()

    # -- positions for superko -----------------------------------------------------------

    def _record_position(self) -> None:
        """Note the current board as having occurred with the player to move now (after
        the start, a setup or a pass). Positional and same-player-to-move superko count
        these positions; Tromp-Taylor's "left by that player" does not."""
        ko = self.rules.ko
        if ko is KoRule.POSITIONAL or ko is KoRule.SITUATIONAL_TO_MOVE:
            # The key of "this board, X to move" is the key X's opponent leaves.
            self._history[1].add(self.board.hash ^ self._side[self.to_move.opponent])  # type: ignore[union-attr]

    # -- playing -------------------------------------------------------------------------

    @property
    def komi(self) -> float:
        """The komi in force: explicit, else the rules' for an even or a handicap game."""
        if self._komi is not None:
            return self._komi
        n = self.handicap_stones
        if n >= 2 or (n == 1 and self.rules.one_stone_handicap):
            return self.rules.handicap_komi
        return self.rules.komi

    def _judge(self, point: Point, color: Color, out_of_turn: bool) -> Reason | Effect:
        """Why a stone of ``color`` at ``point`` is illegal (a Reason), or what it does
        (`Board.analyse`'s answer)."""
        if self.phase is _OVER:
            return Reason.GAME_OVER
        if color is not self.to_move and not out_of_turn:
            return Reason.WRONG_TURN
        x, y = point
        w = self.width
        if not (0 <= x < w and 0 <= y < self.height):
            return Reason.OFF_BOARD
        i = y * w + x
        board = self.board
        if board.cells[i]:
            return Reason.OCCUPIED
        a = board.analyse(i, color)
        if a[6] and not self.rules.suicide:  # suicide
            return Reason.SUICIDE
        history = self._history[color]
        if history is None:
            if self._is_ko_recapture(a[5]):  # the strings it captures
                return Reason.KO
        elif a[7] ^ self._side[color] in history:  # the board's hash afterwards
            return Reason.KO if self._is_ko_recapture(a[5]) else self._superko
        return a

    def _is_ko_recapture(self, dead: list[_String]) -> bool:
        """Does this capture take back, alone, the single stone that just captured one?"""
        return (
            self._ko_stone >= 0
            and len(dead) == 1
            and len(dead[0].stones) == 1
            and dead[0].stones[0] == self._ko_stone
        )

    def legality(self, point: Point, color: Color | None = None) -> Reason | None:
        """Why playing ``point`` would be illegal now, or None if it is legal."""
        c = self.to_move if color is None else color
        r = self._judge(point, c, False)
        return r if isinstance(r, Reason) else None

    def play(self, point: Point, color: Color | None = None, *, out_of_turn: bool = False) -> MovePlayed:
        """Play a stone (of the colour to move unless ``color`` is given).

        ``out_of_turn`` accepts a stone of ``color`` even when it is not that player's turn,
        as game records sometimes do; the turn then passes to the other colour. After two
        passes, playing resumes the game. Raises `IllegalMoveError` (game unchanged).
        """
        c = self.to_move if color is None else color
        a = self._judge(point, c, out_of_turn)
        if not isinstance(a, tuple):  # a Reason (isinstance of Reason costs more)
            raise IllegalMoveError(a, c, point, self.board.position(), self.number)
        i = a[0]
        if self.phase is not _PLAY:
            self.phase = _PLAY
            self.dead.clear()
        board = self.board
        removed = board.apply(a)
        self._actions.append((i, c, out_of_turn))
        n = self.number = self.number + 1
        self.consecutive_passes = 0
        if self._handicap_moves_left and c is Color.BLACK:
            self._handicap_moves_left -= 1
        else:
            self.to_move = _OPPONENT[c]  # type: ignore[assignment]
        history = self._history[c]
        if history is not None:
            history.add(board.hash ^ self._side[c])
        if not removed:
            self._ko_stone = -1
            return move_played(n, c, point)
        pts = board.geo.points
        taken = tuple([pts[j] for j in removed])
        if a[6]:  # suicide
            self._ko_stone = -1
            self.captures[3 - c] += len(removed)
            return move_played(n, c, point, (), taken)
        self._ko_stone = i if len(removed) == 1 else -1
        self.captures[c] += len(removed)
        return move_played(n, c, point, taken)

    def push(self, move: Move, *, out_of_turn: bool = False) -> MovePlayed | Passed:
        """Play or pass as ``move`` says (its colour must be the one to move unless
        ``out_of_turn``)."""
        if move.point is None:
            return self.pass_(move.color, out_of_turn=out_of_turn)
        return self.play(move.point, move.color, out_of_turn=out_of_turn)

    def attempt(self, move: Move, *, out_of_turn: bool = False) -> MovePlayed | Passed | IllegalMove:
        """Play or pass as ``move`` says, and report an illegal move as an event instead of
        raising: see `refuse`. Replays of records and live games use this."""
        try:
            return self.push(move, out_of_turn=out_of_turn)
        except IllegalMoveError as exc:
            return self.refuse(exc)

    def refuse(self, error: IllegalMoveError) -> IllegalMove:
        """The event for an illegal move that was tried (and raised ``error``).

        Under rules where an illegal move is treated as a pass (`Ruleset.illegal_move_passes`,
        AGA rule 8: "the player must take back his or her move (BOTH moves, if he or she
        moved twice in succession), it shall be treated as a PASS, and a pass stone
        exchanged"), that player's pass is made now, with its pass stone, and the event says
        ``counted_as_pass``; a move out of turn also takes back the player's own move just
        before it (``taken_back``). Otherwise nothing changes and the same player moves
        again. A move after the end of the game changes nothing under any rules.
        """
        c, p, reason = error.color, error.point, error.reason
        if not self.rules.illegal_move_passes or reason is Reason.GAME_OVER:
            return IllegalMove(c, p, reason)
        taken_back: Point | None = None
        if reason is Reason.WRONG_TURN and c is not self.to_move:
            last = self._actions[-1] if self._actions else None
            if isinstance(last, tuple) and last[1] is c:
                taken_back = self.board.geo.points[last[0]]
                self.undo()
        if c is self.to_move:
            self.pass_(c)
        else:  # moved twice in a row, the first a pass or a setup: the second is the pass
            self.pass_(c, out_of_turn=True)
        self._actions[-1] = _IllegalAsPass(error)
        return IllegalMove(c, p, reason, counted_as_pass=True, number=self.number,
                           taken_back=taken_back)

    def pass_(self, color: Color | None = None, *, out_of_turn: bool = False) -> Passed:
        """Pass (for the colour to move unless ``color`` is given). A second consecutive
        pass ends play: see `phase`."""
        c = self.to_move if color is None else color
        if self.phase is Phase.OVER:
            raise IllegalMoveError(Reason.GAME_OVER, c, None, self.board.position(), self.number)
        if c is not self.to_move and not out_of_turn:
            raise IllegalMoveError(Reason.WRONG_TURN, c, None, self.board.position(), self.number)
        self._actions.append(_Pass(c, out_of_turn))
        if self.rules.ko is KoRule.SITUATIONAL and self.rules.pass_leaves_position:
            self._history[c].add(self.board.hash)  # type: ignore[union-attr]
        self.number += 1
        self.passes[c] += 1
        self.consecutive_passes += 1
        self._ko_stone = -1
        self._handicap_moves_left = 0
        self.to_move = c.opponent
        self._record_position()
        if self.consecutive_passes >= 2 and self.phase is Phase.PLAY:
            self.phase = Phase.COUNTING
        return Passed(self.number, c)

    def resign(self, color: Color) -> tuple[Resigned, GameEnded]:
        """``color`` resigns: the game is over and the other colour wins."""
        self._actions.append(_Resign(color))
        self.phase = Phase.OVER
        self.winner = color.opponent
        return Resigned(color), GameEnded("resignation", color.opponent)

    # -- setup and handicap --------------------------------------------------------------

    def setup(
        self,
        black: Iterable[Point] = (),
        white: Iterable[Point] = (),
        empty: Iterable[Point] = (),
        to_move: Color | None = None,
    ) -> None:
        """Put stones on (or take them off) the board as setup, not as moves: handicap
        stones, a photographed position, SGF ``AB``/``AW``/``AE``. Nothing is captured."""
        geo = self.board.geo
        try:
            b = tuple(geo.index(p) for p in black)
            w = tuple(geo.index(p) for p in white)
            e = tuple(geo.index(p) for p in empty)
        except IndexError as exc:
            raise ValueError(f"setup stone off the board: {exc}") from None
        action = _Setup(b, w, e, to_move)
        self._apply_setup(action)
        self._actions.append(action)

    def _apply_setup(self, a: _Setup) -> None:
        """Carry out a setup; raises `SetupError` (game unchanged) if it leaves a string
        without liberties."""
        cells = list(self.board.cells)
        for i in a.empty:
            cells[i] = 0
        for i in a.black:
            cells[i] = 1
        for i in a.white:
            cells[i] = 2
        board = Board(self.width, self.height)
        board.set_position(cells)
        airless = board.strings_without_liberties()
        if airless:
            pts = board.geo.points
            raise SetupError(tuple(sorted(pts[i] for i in airless)))
        self.board = board
        if a.to_move is not None:
            self.to_move = a.to_move
        self._ko_stone = -1
        self._record_position()

    def place_handicap(self, stones: int | list[Point]) -> None:
        """Give Black a handicap before any move: a number of stones (placed as the rules
        say) or the points chosen for them (free placement). White then moves first,
        except under rules that play the handicap as Black's first moves."""
        if self.number or self.handicap_stones:
            raise RulesError("handicap stones go on before the first move")
        if isinstance(stones, int):
            if stones < 0:
                raise ValueError(f"handicap must not be negative: {stones}")
            if stones == 1 and self.rules.one_stone_handicap:
                self._actions.append(_Handicap(1))
                self.handicap_stones = 1
                return
            if stones <= 1:
                return
            if self.rules.handicap is Handicap.MOVES:
                self._actions.append(_HandicapMoves(stones))
                self._apply_handicap_moves(stones)
                return
            points = fixed_handicap(stones, self.width, self.height)
        else:
            points = stones
            if len(points) < 2:
                return
        self.setup(black=points, to_move=Color.WHITE)
        self._actions.append(_Handicap(len(points)))
        self.handicap_stones = len(points)

    def _apply_handicap_moves(self, n: int) -> None:
        self.handicap_stones = n
        self._handicap_moves_left = n - 1

    # -- undo ----------------------------------------------------------------------------

    def undo(self) -> None:
        """Take back the last move, pass, setup or resignation (and any dead-stone marks).

        Raises RulesError when there is nothing to take back."""
        if not self._actions:
            raise RulesError("nothing to undo")
        actions = self._actions[:-1]
        last = self._actions[-1]
        if isinstance(last, _Handicap) and last.stones > 1:
            actions.pop()  # the handicap's setup goes with it
        self._replay(actions)

    def _replay(self, actions: list[_Action]) -> None:
        """Start again from the empty board and redo ``actions``."""
        self._actions = []
        self._reset()
        for a in actions:
            if isinstance(a, tuple):
                i, c, oot = a
                self.play(self.board.geo.points[i], c, out_of_turn=oot)
            elif isinstance(a, _Pass):
                self.pass_(a.color, out_of_turn=a.out_of_turn)
            elif isinstance(a, _IllegalAsPass):
                self.refuse(a.error)
            elif isinstance(a, _Setup):
                self._actions.append(a)
                self._apply_setup(a)
            elif isinstance(a, _Handicap):
                self._actions.append(a)
                self.handicap_stones = a.stones
            elif isinstance(a, _HandicapMoves):
                self._actions.append(a)
                self._apply_handicap_moves(a.stones)
            else:
                self.resign(a.color)

    # -- symmetry ------------------------------------------------------------------------

    def rotate(self, degrees: int) -> None:
        """Turn the whole game ``degrees`` clockwise (0, 90, 180 or 270) on its board, in
        place: every setup stone and move goes to its turned point (see
        `rules.rotation.rotate_point`) and the game is replayed, so that the captures,
        the ko and superko history, the turn, the phase, the dead stones and the result
        are those of the same game played on the turned board. A quarter turn of a
        rectangular board swaps its width and height. Raises ValueError for other angles.
        """
        if not check_rotation(degrees):
            return
        w, h = self.width, self.height
        old = self.board.geo.points
        new_w, new_h = rotated_size(w, h, degrees)

        def turned(i: int) -> int:
            q = rotate_point(old[i], w, h, degrees)
            return q.y * new_w + q.x

        def turned_point(p: Point | None) -> Point | None:
            return None if p is None else rotate_point(p, w, h, degrees)

        actions: list[_Action] = []
        for a in self._actions:
            if isinstance(a, tuple):
                actions.append((turned(a[0]), a[1], a[2]))
            elif isinstance(a, _Setup):
                actions.append(_Setup(
                    tuple(map(turned, a.black)), tuple(map(turned, a.white)),
                    tuple(map(turned, a.empty)), a.to_move,
                ))
            elif isinstance(a, _IllegalAsPass):
                e = a.error
                actions.append(_IllegalAsPass(IllegalMoveError(
                    e.reason, e.color, turned_point(e.point), e.position, e.move_number,
                )))
            else:
                actions.append(a)
        phase, winner = self.phase, self.winner
        dead = {turned(i) for i in self.dead}
        self.width, self.height = new_w, new_h
        self._replay(actions)
        self.dead = dead
        if phase is Phase.OVER:
            self.phase, self.winner = phase, winner

    # -- the end -------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The stones on the board now."""
        return self.board.position()

    def last_to_play(self) -> Color | None:
        """The colour of the last move or pass, None before the first."""
        for action in reversed(self._actions):
            if isinstance(action, tuple):
                return action[1]
            if isinstance(action, _Pass):
                return action.color
            if isinstance(action, _IllegalAsPass):
                return action.error.color
        return None

    def mark_dead(self, points: Iterable[Point], dead: bool = True) -> StonesRemoved:
        """Mark the strings on ``points`` dead (or alive again), as the players agree after
        the two passes. Empty points are ignored. Returns the stones whose mark changed."""
        geo = self.board.geo
        changed: list[int] = []
        for p in points:
            s = self.board.string_at(geo.index(p))
            if s is None:
                continue
            for i in s[0]:
                if (i in self.dead) != dead:
                    changed.append(i)
                    (self.dead.add if dead else self.dead.discard)(i)
        return StonesRemoved(tuple(geo.points[i] for i in sorted(changed)), dead)

    def is_dead(self, p: Point) -> bool:
        """Whether the stone on ``p`` is marked dead (IndexError off the board)."""
        return self.board.geo.index(p) in self.dead

    def score(self, dead: Iterable[Point] | None = None) -> Score:
        """Count the board as it stands, less the dead stones (the marked ones, or
        ``dead`` when given), under the rules. Pass stones and White's last pass (AGA)
        are included."""
        geo = self.board.geo
        dead_idx = self.dead if dead is None else {geo.index(p) for p in dead}
        passes = [self.passes[1], self.passes[2]]
        if self.rules.white_moves_last and self.last_to_play() is Color.BLACK:
            passes[1] += 1  # White's closing pass (AGA rule 11)
        return count(
            self.board.cells,
            geo,
            self.rules,
            komi=self.komi,
            dead=dead_idx,
            captures=(self.captures[1], self.captures[2]),
            pass_stones=(passes[0], passes[1]),
            handicap_stones=self.handicap_stones,
        )

    def finish(
        self, dead: Iterable[Point] | None = None, how: str = "passes"
    ) -> tuple[Score, GameEnded]:
        """End the game and count it. ``how`` says why it ended: "passes" after two
        consecutive passes, "counted" when a position is counted as it stands."""
        s = self.score(dead)
        self.phase = Phase.OVER
        self.winner = s.winner
        return s, GameEnded(how, s.winner)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.name} {self.width}x{self.height} move {self.number}, "
            f"{self.to_move.letter} to play, {self.phase.value}>"
        )
