"""Seeded random games refereed by kifu's engine, as scripts for the differential tests.

A game is played by a simple random player: at each turn it picks a legal point that does
not fill one of its own single-point eyes (a point whose neighbours are all its stones),
prefers captures half of the time (captures make kos, and kos make refusals to compare),
and passes now and then. The game ends when both players have nothing left to play, so
its final position has a well-defined area count: every remaining empty point is an eye
or a point nobody may play. (Or it is cut at ``max_plies``: under simple ko, random games
can cycle for ever.)

Before each move the engine's verdict on a set of points is recorded for the player to
move: every empty point (``judge_all``) or a sample weighted towards the points where the
rules bite (liberties of strings in atari, the point of a single stone just captured,
points without empty neighbours) plus a few random and two occupied points. The oracle
tests then ask the other implementation about the same points, the same move, and the
board that results.
"""

from __future__ import annotations

import dataclasses
import random

from rules import Color, Game, MovePlayed, Passed, Point, Position, Reason, Ruleset, Score


@dataclasses.dataclass(frozen=True)
class Step:
    """One turn: the verdicts before it, what was played, and the board after it."""

    color: Color
    verdicts: tuple[tuple[Point, Reason | None], ...]
    """kifu's answer for the player to move on each judged point (None: legal)."""
    all_judged: bool
    """True when ``verdicts`` covers every empty point of the board."""
    event: MovePlayed | Passed
    position: Position
    """The board after the move."""
    captures: tuple[int, int]
    """Stones captured so far by Black and by White (a suicide counts for the opponent)."""


@dataclasses.dataclass(frozen=True)
class RandomGame:
    """A whole random game: its rules, size, seed, and turns."""

    rules: Ruleset
    size: int
    seed: int
    steps: tuple[Step, ...]
    finished: bool
    """True when it ended with both players out of moves (not cut at ``max_plies``)."""
    judge_all: bool
    max_plies: int

    @property
    def final(self) -> Position:
        """The board at the end."""
        return self.steps[-1].position if self.steps else Position.empty(self.size)

    def describe(self) -> str:
        """How to make this game again."""
        return (
            f"play_random_game(preset({self.rules.name!r}), {self.size}, {self.seed}, "
            f"judge_all={self.judge_all}, max_plies={self.max_plies})"
        )


def _own_eye(cells: list[int], neighbours: tuple[int, ...], color: int) -> bool:
    return all(cells[n] == color for n in neighbours)


def _interesting(game: Game, last: MovePlayed | Passed | None) -> set[int]:
    """Points where the rules bite: liberties of strings in atari (captures, ko,
    self-atari), points without an empty neighbour (eyes, suicide), the point of a single
    stone just captured (the ko point)."""
    board = game.board
    cells = board.cells
    nbrs = board.geo.neighbours
    out: set[int] = set()
    for i, c in enumerate(cells):
        if c:
            s = board.string_of[i]
            if s is not None and len(s.libs) == 1:
                out.update(s.libs)
        elif all(cells[n] for n in nbrs[i]):
            out.add(i)
    if isinstance(last, MovePlayed) and len(last.captured) == 1:
        out.add(board.geo.index(last.captured[0]))
    return out


def _captures(game: Game, i: int, color: int) -> bool:
    """Would a stone of ``color`` on ``i`` take the last liberty of an enemy string?"""
    board = game.board
    for n in board.geo.neighbours[i]:
        c = board.cells[n]
        if c and c != color:
            s = board.string_of[n]
            if s is not None and len(s.libs) == 1:
                return True
    return False


def _suicide(game: Game, i: int, color: int) -> bool:
    """Would a stone of ``color`` on ``i`` leave its own string without liberties, taking
    nothing? (Where the rules allow it, such a move is legal.)"""
    board = game.board
    for n in board.geo.neighbours[i]:
        c = board.cells[n]
        if not c:
            return False
        s = board.string_of[n]
        if s is None:
            continue
        if c == color and len(s.libs) > 1:
            return False
        if c != color and len(s.libs) == 1:
            return False
    return True


def play_random_game(
    rules: Ruleset,
    size: int,
    seed: int,
    *,
    judge_all: bool,
    max_plies: int = 2000,
    random_points: int = 6,
    pass_rate: float = 0.02,
    capture_bias: float = 0.5,
    suicide_rate: float = 0.05,
) -> RandomGame:
    """Play one seeded random game under ``rules`` on a ``size`` x ``size`` board (no komi,
    no handicap), recording kifu's verdicts before every move. Deterministic in its
    arguments.

    Where suicide is legal the player commits one with probability ``suicide_rate`` when
    it can, and a player left with nothing but suicides has no move (else no game would
    end)."""
    rng = random.Random(seed * 7919 + size)
    game = Game(rules, size, komi=0)
    geo = game.board.geo
    points = geo.points
    steps: list[Step] = []
    forced: list[bool] = []
    last: MovePlayed | Passed | None = None
    finished = False
    while len(steps) < max_plies:
        color = game.to_move
        cells = game.board.cells
        empties = [i for i in range(geo.area) if not cells[i]]
        occupied = [i for i in range(geo.area) if cells[i]]
        if judge_all:
            judged = set(empties)
        else:
            judged = _interesting(game, last)
            judged.update(rng.sample(empties, min(random_points, len(empties))))
        judged.update(rng.sample(occupied, min(2, len(occupied))))
        verdicts = {i: game.legality(points[i], color) for i in sorted(judged)}
        playable = [
            i for i, r in verdicts.items()
            if r is None and not _own_eye(cells, geo.neighbours[i], color)
        ]
        if not judge_all and not playable:
            # The sample found nothing: look through every empty point, in random order.
            rest = [i for i in empties if i not in verdicts]
            rng.shuffle(rest)
            for i in rest:
                if (
                    not _own_eye(cells, geo.neighbours[i], color)
                    and not (rules.suicide and _suicide(game, i, color))
                    and game.legality(points[i], color) is None
                ):
                    playable.append(i)
                    break
        suicides = [i for i in playable if _suicide(game, i, color)] if rules.suicide else []
        if suicides:
            playable = [i for i in playable if i not in suicides]
        after_pass = bool(steps) and isinstance(steps[-1].event, Passed)
        choice: int | None
        if suicides and rng.random() < suicide_rate:
            choice = rng.choice(suicides)
        elif not playable:
            choice = None
        elif not after_pass and rng.random() < pass_rate:
            choice = None
        else:
            captures = [i for i in playable if _captures(game, i, color)]
            pool = captures if captures and rng.random() < capture_bias else playable
            choice = rng.choice(pool)
        event: MovePlayed | Passed = game.pass_() if choice is None else game.play(points[choice])
        steps.append(Step(
            color=color,
            verdicts=tuple((points[i], r) for i, r in verdicts.items()),
            all_judged=judge_all,
            event=event,
            position=game.position,
            captures=(game.captures[Color.BLACK], game.captures[Color.WHITE]),
        ))
        forced.append(not playable)
        last = event
        if len(forced) >= 2 and forced[-1] and forced[-2]:
            finished = True
            break
    return RandomGame(rules, size, seed, tuple(steps), finished, judge_all, max_plies)


def area_score(position: Position) -> Score:
    """kifu's count of ``position`` as the board stands (Tromp-Taylor area, no komi, no
    dead stones)."""
    game = Game("tromp-taylor", position.width, position.height, komi=0)
    game.setup(position.stones(Color.BLACK), position.stones(Color.WHITE))
    return game.score()


def area_difference(position: Position) -> int:
    """Black's area less White's in `area_score`."""
    score = area_score(position)
    return int(score.black.total - score.white.total)
