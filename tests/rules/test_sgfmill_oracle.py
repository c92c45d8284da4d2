"""kifu's rules engine against sgfmill's `boards.Board`, over seeded random games under
every preset, suicide included (which GNU Go cannot check with superko, see
test_gnugo_oracle).

sgfmill plays stones, captures and self-captures and enforces no ko; it reports the point
simple ko forbids after each move, and counts area as the board stands (``area_score``,
Black less White, no komi). After every move of every game the two boards must be equal
(hence the same captures and the same suicides), sgfmill's ko point must be the one kifu
refuses as ko, and at the end the two counts must agree.
"""

from __future__ import annotations

import dataclasses
import time

import pytest
from sgfmill import boards  # type: ignore[import-untyped]

from rules import PRESETS, Color, KoRule, MovePlayed, Point, Position, Reason, preset

from .random_games import RandomGame, area_difference, play_random_game

COLOUR = {Color.BLACK: "b", Color.WHITE: "w"}


def sgfmill_position(board: boards.Board) -> Position:
    """sgfmill's board as a kifu `Position` (sgfmill's row 0 is the bottom row, as ours)."""
    size = board.side
    cells = [0] * (size * size)
    for colour, (row, col) in board.list_occupied_points():
        cells[row * size + col] = 1 if colour == "b" else 2
    return Position.from_cells(size, size, cells)


@dataclasses.dataclass
class Tally:
    games: int = 0
    moves: int = 0
    captures: int = 0
    suicides: int = 0
    ko_points: int = 0
    ko_refusals_agreed: int = 0
    ko_retakes_allowed: int = 0
    areas: int = 0


def recapture_repeats(game: RandomGame, k: int) -> bool:
    """Would retaking the ko at turn ``k`` (after the opponent's capture at turn k-1)
    break the game's superko rule, by the rule's text? The retake recreates the board as
    it was before that capture. Positional: it has occurred. Same player to move: it
    occurred with the opponent to move (it did, after the turn before the capture).
    Tromp-Taylor: the player to move left it (by a move; by a pass too in the concise
    rules). Simple ko forbids the retake outright."""
    rules = game.rules
    if rules.ko is not KoRule.SITUATIONAL:
        return True
    color = game.steps[k].color
    before_capture = game.steps[k - 2].position if k >= 2 else Position.empty(game.size)
    return any(
        step.position == before_capture
        for step in game.steps[:k]
        if step.color is color
        and (isinstance(step.event, MovePlayed) or rules.pass_leaves_position)
    )


def check_game(game: RandomGame, tally: Tally) -> None:
    """Play ``game``'s moves on an sgfmill board and compare after every one."""
    board = boards.Board(game.size)
    ko_point: Point | None = None  # sgfmill's simple-ko point for the player to move
    for k, step in enumerate(game.steps):
        where = f"{game.describe()}, turn {k + 1}"
        verdicts = dict(step.verdicts)
        refused_as_ko = {p for p, r in step.verdicts if r is Reason.KO}
        if ko_point is None:
            assert not refused_as_ko, (
                f"{where}: kifu refuses {sorted(p.gtp() for p in refused_as_ko)} as ko, "
                "sgfmill sees no ko"
            )
        else:
            assert ko_point in verdicts, f"{where}: the ko point was not judged"
            if recapture_repeats(game, k):
                expected = {ko_point}
                tally.ko_refusals_agreed += 1
            else:
                expected = set()
                assert verdicts[ko_point] is None, (
                    f"{where}: retaking the ko at {ko_point.gtp()} repeats no position "
                    f"{step.color.letter} left, yet kifu says {verdicts[ko_point]}"
                )
                tally.ko_retakes_allowed += 1
            assert refused_as_ko == expected, (
                f"{where}: sgfmill's ko point is {ko_point.gtp()}, kifu refuses "
                f"{sorted(p.gtp() for p in refused_as_ko)} as ko"
            )
        event = step.event
        if isinstance(event, MovePlayed):
            p = event.point
            ko = board.play(p.y, p.x, COLOUR[step.color])
            ko_point = None if ko is None else Point(ko[1], ko[0])
            tally.ko_points += ko_point is not None
            tally.moves += 1
            tally.captures += bool(event.captured)
            tally.suicides += bool(event.suicided)
        else:
            ko_point = None
        theirs = sgfmill_position(board)
        if theirs != step.position:
            raise AssertionError(
                f"{where}: after {step.color.letter} {event}, the boards differ at "
                f"{[q.gtp() for q in theirs.difference(step.position)]}\n"
                f"kifu:\n{step.position.diagram()}\nsgfmill:\n{theirs.diagram()}"
            )
    assert board.area_score() == area_difference(game.final), (
        f"{game.describe()}: area B-W sgfmill {board.area_score()}, kifu "
        f"{area_difference(game.final)}\n{game.final.diagram()}"
    )
    tally.areas += 1
    tally.games += 1


GAMES_9 = {
    "tromp-taylor": 80, "concise": 40, "new-zealand": 40, "go-gadget": 25,
    "chinese": 20, "timin": 10, "aga": 20, "aga-area": 10, "go-gadget-7a": 10, "japanese": 15,
}
GAMES_19 = {"tromp-taylor": 2, "chinese": 1, "go-gadget": 1}


def test_every_preset_is_exercised() -> None:
    assert set(GAMES_9) == set(PRESETS)


@pytest.mark.parametrize("name", sorted(GAMES_9))
def test_random_games_agree_with_sgfmill(name: str) -> None:
    """Every move of seeded random 9x9 games (and a few 19x19 ones) under ``name``: the
    same board as sgfmill, the same ko point, the same area count at the end."""
    rules = preset(name)
    tally = Tally()
    start = time.perf_counter()
    seeds = [(9, s) for s in range(GAMES_9[name])] + [(19, s) for s in range(GAMES_19.get(name, 0))]
    first = 50_000 + 1000 * sorted(GAMES_9).index(name)
    for size, seed in seeds:
        game = play_random_game(
            rules, size, first + seed, judge_all=False, max_plies=3 * size * size
        )
        check_game(game, tally)
    print(f"\nsgfmill, {name}: {tally} in {time.perf_counter() - start:.1f} s")
    assert tally.games == len(seeds)
    assert tally.captures >= tally.games * 5
    assert tally.ko_points >= tally.games // 2
    assert tally.ko_refusals_agreed >= tally.games // 4
    if rules.ko is KoRule.SITUATIONAL and not rules.pass_leaves_position:
        assert tally.ko_retakes_allowed > 0
    if rules.suicide:
        assert tally.suicides >= tally.games // 2
    else:
        assert tally.suicides == 0


def test_sgfmill_counts_a_finished_board_as_kifu_does() -> None:
    """A final position with a dame: C1 touches both colours and counts for nobody.
    Black has 12 stones and 5 eyes, White 7 stones and no empty point of its own."""
    position = Position([
        ". X . X O",
        "X X X X O",
        ". X . X O",
        "X X X O O",
        ". X . O O",
    ])
    board = boards.Board(5)
    board.apply_setup(
        [(p.y, p.x) for p in position.stones(Color.BLACK)],
        [(p.y, p.x) for p in position.stones(Color.WHITE)], [],
    )
    assert board.area_score() == area_difference(position) == (12 + 5) - 7
