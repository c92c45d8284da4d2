"""The tracker: board readings in, refereed moves out.

Each behaviour is a short film of ASCII readings (``?`` is a hand over a point), each held
for a given time; then whole real games are turned into long, messy films (hands, late
capture removal, two moves between clear views, nudged stones, noise) and must come out
as the exact game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from kifu.replay import start
from kifu.sgf import Record, load
from kifu.tracker import Announcement, Kind, Output, SetupStones, Tracker
from rules import (
    Color, Game, GameEnded, IllegalMoveError, MovePlayed, Observation, Passed, Phase, Point, Position, Reason, Score,
    StonesRemoved, preset,
)
from tests.conftest import GAMES, ROOT, VISION_DATA, need
from tests.kifu import sequences

STABLE = 0.3
BUNDLED = ROOT / "kifu" / "data" / "lee-sedol-alphago-4.sgf"


class Film:
    """Feeds a tracker readings held for a while, on a clock of its own."""

    def __init__(self, tracker: Tracker, fps: float = 10.0) -> None:
        self.tracker = tracker
        self.dt = 1.0 / fps
        self.t = 0.0
        self.out: list[Output] = []

    def show(self, *rows: str, seconds: float = 1.0) -> list[Output]:
        """Show a reading for ``seconds`` (frame after frame); return what it caused."""
        obs = Observation.from_rows(rows)
        got: list[Output] = []
        end = self.t + seconds
        while self.t < end - 1e-9:
            got += self.tracker.feed(Observation(obs.width, obs.height, obs.cells, time=self.t))
            self.t += self.dt
        self.out += got
        return got

    def flash(self, *rows: str) -> list[Output]:
        """Show a reading for one frame."""
        return self.show(*rows, seconds=self.dt)


def new(rules: str = "chinese", size: int = 5, **kw: object) -> tuple[Game, Film]:
    game = Game(rules, size)
    return game, Film(Tracker(game, stable_for=STABLE, **kw))  # type: ignore[arg-type]


def from_position(rows: Sequence[str], to_move: Color, rules: str = "chinese") -> tuple[Game, Film]:
    pos = Position(rows)
    game = Game(rules, pos.width, pos.height)
    game.setup(pos.stones(Color.BLACK), pos.stones(Color.WHITE), to_move=to_move)
    return game, Film(Tracker(game, stable_for=STABLE))


def moves(out: Sequence[Output]) -> list[str]:
    """The moves among the outputs, as ``B C3`` / ``W pass``."""
    return [
        f"{e.color.letter} {e.point.gtp()}" if isinstance(e, MovePlayed) else f"{e.color.letter} pass"
        for e in out if isinstance(e, (MovePlayed, Passed))
    ]


def said(out: Sequence[Output]) -> list[Kind]:
    return [a.kind for a in out if isinstance(a, Announcement)]


EMPTY = [".....", ".....", ".....", ".....", "....."]


# -- one move at a time ----------------------------------------------------------------------

def test_one_new_stone_of_the_colour_to_play_is_a_move() -> None:
    game, film = new()
    film.show(*EMPTY)
    assert moves(film.show(".....", ".....", "..X..", ".....", ".....")) == ["B C3"]
    assert moves(film.show(".....", "...O.", "..X..", ".....", ".....")) == ["W D4"]
    assert game.to_move is Color.BLACK


def test_a_state_is_judged_only_after_it_has_been_stable() -> None:
    game, film = new()
    film.show(*EMPTY)
    assert film.show(".....", ".....", "..X..", ".....", ".....", seconds=STABLE - 0.05) == []
    assert game.number == 0
    assert moves(film.show(".....", ".....", "..X..", ".....", ".....", seconds=0.1)) == ["B C3"]


def test_a_hand_over_the_board_is_occlusion_not_a_reading() -> None:
    game, film = new()
    film.show(*EMPTY)
    # The hand covers C3 for two seconds while the stone goes down: nothing is judged,
    # even the points the hand does not cover.
    assert film.show(".....", ".???.", ".??X.", ".....", ".....", seconds=2) == []
    assert game.number == 0
    assert moves(film.show(".....", ".....", "..X..", ".....", ".....")) == ["B C3"]


def test_a_nudged_stone_read_as_empty_for_one_frame_is_ignored() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.show(".....", ".....", "..X..", ".....", ".....")
    assert film.flash(".....", ".....", ".....", ".....", ".....") == []
    assert film.show(".....", ".....", "..X..", ".....", ".....") == []
    assert game.number == 1


def test_noise_frames_are_ignored() -> None:
    game, film = new()
    film.show(*EMPTY)
    assert film.flash("O...X", ".....", "..X..", ".O...", ".....") == []
    assert film.flash(".....", "X....", ".....", ".....", "....O") == []
    assert film.show(*EMPTY) == []
    assert game.number == 0


def test_points_read_with_low_confidence_count_as_hidden() -> None:
    game, film = new(min_confidence=0.5)
    film.show(*EMPTY)
    # A shadow reads as a black stone on C3, but the reader is unsure of it.
    shadow = Observation.from_rows([".....", ".....", "..X..", ".....", "....."])
    doubt = tuple(0.2 if c else 0.9 for c in shadow.cells)
    for k in range(10):
        assert film.tracker.feed(Observation(5, 5, shadow.cells, doubt, time=film.t + k)) == []
    assert game.number == 0
    film.t += 10
    assert moves(film.show(".....", ".....", "..X..", ".....", ".....")) == ["B C3"]


@pytest.mark.parametrize("kw, message", [
    ({"stable_for": -1}, "stable_for"), ({"handicap": 1}, "handicap"), ({"max_moves": 0}, "max_moves"),
])
def test_bad_settings_are_refused_by_name(kw: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Tracker(Game("chinese", 5), **kw)  # type: ignore[arg-type]


# -- captures ----------------------------------------------------------------------------------

CAPTURE_BEFORE = [".....", ".....", ".X...", "XO...", ".X..."]   # W B2 in atari, B to play C2
CAPTURE_MOVE = [".....", ".....", ".X...", "XOX..", ".X..."]     # B C2, B2 still on the board
CAPTURE_CLEAN = [".....", ".....", ".X...", "X.X..", ".X..."]    # B2 taken off


def test_captured_stones_still_on_the_board_are_pending_removal_not_an_error() -> None:
    game, film = from_position(CAPTURE_BEFORE, Color.BLACK)
    film.show(*CAPTURE_BEFORE)
    out = film.show(*CAPTURE_MOVE)
    assert moves(out) == ["B C2"]
    assert out[0].captured == (Point.from_gtp("B2"),)  # type: ignore[union-attr]
    assert said(out) == [Kind.WAITING_FOR_REMOVAL]
    # White plays elsewhere before anyone takes the stone off: still fine.
    assert moves(film.show("....O", ".....", ".X...", "XOX..", ".X...")) == ["W E5"]
    # Taking it off later is expected: no move, no announcement.
    assert film.show("....O", ".....", ".X...", "X.X..", ".X...") == []
    assert game.position == Position(["....O", ".....", ".X...", "X.X..", ".X..."])


def test_a_capture_taken_off_while_the_stone_goes_down_is_one_move() -> None:
    game, film = from_position(CAPTURE_BEFORE, Color.BLACK)
    film.show(*CAPTURE_BEFORE)
    out = film.show(*CAPTURE_CLEAN)
    assert moves(out) == ["B C2"] and said(out) == []


def test_a_stone_played_where_a_captured_stone_of_the_other_colour_lay_is_a_move() -> None:
    game, film = from_position(CAPTURE_BEFORE, Color.BLACK)
    film.show(*CAPTURE_BEFORE)
    film.show(*CAPTURE_MOVE)                                # W B2 captured, still lying there
    film.show("....O", ".....", ".X...", "XOX..", ".X...")  # W E5
    # Black takes the dead stone off and fills B2 under one hand.
    assert moves(film.show("....O", ".....", ".X...", "XXX..", ".X...")) == ["B B2"]


def test_a_ko_retaken_while_the_captured_stone_still_lay_there_is_found() -> None:
    # White takes the ko at B2; Black's captured stone stays on C2. After a threat and its
    # answer, Black retakes: its own stone goes back where its dead one lay (no visible
    # change there) and White's B2 comes off. The only visible change is B2 emptying.
    game, film = from_position(KO, Color.WHITE)
    film.show(*KO)
    film.show(".....", ".....", ".XO..", "XOXO.", ".XO..")  # W B2, C2 still on the board
    film.show("....X", ".....", ".XO..", "XOXO.", ".XO..")  # B E5
    film.show("....X", "....O", ".XO..", "XOXO.", ".XO..")  # W E4
    out = film.show("....X", "....O", ".XO..", "X.XO.", ".XO..")
    assert moves(out) == ["B C2"] and said(out) == []
    assert out[0].captured == (Point.from_gtp("B2"),)  # type: ignore[union-attr]


def test_a_refill_that_could_be_either_of_two_dead_stones_is_ambiguous() -> None:
    before = [".....", ".....", ".....", "XX...", "OO..."]
    game, film = from_position(before, Color.BLACK)
    film.show(*before)
    film.show(".....", ".....", ".....", "XX...", "OOX..")  # B C1 captures A1 B1, left lying
    film.show("....O", ".....", ".....", "XX...", "OOX..")  # W E5
    film.show("....O", "....X", ".....", "XX...", "OOX..")  # B E4
    # White plays A1 or B1 in place of a dead stone, unseen; then Black D4 shows.
    out = film.show("....O", "...XX", ".....", "XX...", "OOX..")
    assert said(out) == [Kind.AMBIGUOUS] and game.number == 3


# -- several stones between two clear views ----------------------------------------------------

def test_two_new_stones_of_alternating_colours_are_two_moves_in_turn_order() -> None:
    game, film = new()
    film.show(*EMPTY)
    assert moves(film.show(".....", "...O.", "..X..", ".....", ".....")) == ["B C3", "W D4"]


def test_three_stones_are_recorded_when_only_one_order_is_legal() -> None:
    # White's A2 B2 B1 has two liberties, A1 and B3. Black A1 first would be suicide, so
    # Black must have played B3 first, then White E5, then Black A1 capturing three.
    before = [".....", ".....", "X.X..", "OOX..", ".OX.."]
    after = ["....O", ".....", "XXX..", "..X..", "X.X.."]
    game, film = from_position(before, Color.BLACK)
    film.show(*before)
    out = film.show(*after)
    assert moves(out) == ["B B3", "W E5", "B A1"]
    assert sorted(out[2].captured) == sorted(Point.from_gtp(v) for v in ("A2", "B2", "B1"))  # type: ignore[union-attr]


def test_stones_whose_order_the_rules_cannot_decide_are_announced_and_not_recorded() -> None:
    game, film = new()
    film.show(*EMPTY)
    out = film.show("....X", ".....", "..O..", ".....", "X....")
    assert moves(out) == [] and said(out) == [Kind.AMBIGUOUS]
    assert game.number == 0
    # The players take the stones off and play them again one by one.
    assert said(film.show(*EMPTY)) == [Kind.RESYNC]
    assert moves(film.show("....X", ".....", ".....", ".....", ".....")) == ["B E5"]
    assert moves(film.show("....X", ".....", "..O..", ".....", ".....")) == ["W C3"]
    assert moves(film.show("....X", ".....", "..O..", ".....", "X....")) == ["B A1"]


def test_too_many_new_stones_at_once_are_announced() -> None:
    game, film = new()
    film.show(*EMPTY)
    assert said(film.show("X.O.X", ".....", "..O..", ".....", "X....")) == [Kind.UNEXPLAINED]
    assert game.number == 0


# -- trouble and take-backs -----------------------------------------------------------------

def test_a_stone_removed_that_was_not_captured_is_announced_until_put_back() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.show(".....", ".....", "..X..", ".....", ".....")
    out = film.show(*EMPTY)
    assert said(out) == [Kind.UNEXPECTED_REMOVAL]
    assert out[0].points == (Point.from_gtp("C3"),)  # type: ignore[union-attr]
    # A white move while the stone is missing is not recorded either.
    assert moves(film.show(".....", "...O.", ".....", ".....", ".....")) == []
    out = film.show(".....", "...O.", "..X..", ".....", ".....")
    assert moves(out) == ["W D4"]
    assert game.number == 2


def test_a_stone_knocked_onto_another_point_is_announced_until_put_back() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.show(".....", ".....", "..X..", ".....", ".....")
    out = film.show(".....", ".....", "...X.", ".....", ".....")
    assert said(out) == [Kind.MOVED] and game.number == 1
    assert out[0].points == (Point.from_gtp("C3"), Point.from_gtp("D3"))  # type: ignore[union-attr]
    assert said(film.show(".....", ".....", "..X..", ".....", ".....")) == [Kind.RESYNC]


def test_a_stone_of_the_wrong_colour_is_announced_and_waits_for_the_take_back() -> None:
    game, film = new()
    film.show(*EMPTY)
    out = film.show(".....", ".....", "..O..", ".....", ".....")
    assert said(out) == [Kind.WRONG_COLOUR] and game.number == 0
    assert said(film.show(*EMPTY)) == [Kind.RESYNC]
    assert moves(film.show(".....", ".....", "..X..", ".....", ".....")) == ["B C3"]


def test_two_black_stones_after_the_start_are_the_wrong_colour() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.show(".....", ".....", "..X..", ".....", ".....")
    out = film.show(".X...", ".....", "..X..", "...X.", ".....")
    assert said(out) == [Kind.WRONG_COLOUR] and game.number == 1
    assert out[0].points == (Point.from_gtp("B5"), Point.from_gtp("D2"))  # type: ignore[union-attr]


KO = [".....", ".....", ".XO..", "X.XO.", ".XO.."]


def test_retaking_a_ko_at_once_is_announced_as_illegal_and_not_recorded() -> None:
    game, film = from_position(KO, Color.WHITE)
    film.show(*KO)
    out = film.show(".....", ".....", ".XO..", "XO.O.", ".XO..")      # W B2 takes C2
    assert moves(out) == ["W B2"]
    out = film.show(".....", ".....", ".XO..", "X.XO.", ".XO..")      # B C2 retakes at once
    assert said(out) == [Kind.ILLEGAL]
    assert out[0].reason is Reason.KO  # type: ignore[union-attr]
    assert game.number == 1
    # Black takes it back and White's stone returns: the board matches the game again.
    assert said(film.show(".....", ".....", ".XO..", "XO.O.", ".XO..")) == [Kind.RESYNC]
    assert moves(film.show("....X", ".....", ".XO..", "XO.O.", ".XO..")) == ["B E5"]


def test_a_suicide_is_illegal_under_chinese_rules() -> None:
    before = [".....", ".....", ".O...", "O.O..", ".O..."]
    game, film = from_position(before, Color.BLACK)
    film.show(*before)
    out = film.show(".....", ".....", ".O...", "OXO..", ".O...")
    assert said(out) == [Kind.ILLEGAL] and out[0].reason is Reason.SUICIDE  # type: ignore[union-attr]
    assert game.number == 0


def test_a_suicide_under_tromp_taylor_is_a_move_whose_stone_is_then_taken_off() -> None:
    before = [".....", ".....", ".O...", "O.O..", ".O..."]
    game, film = from_position(before, Color.BLACK, rules="tromp-taylor")
    film.show(*before)
    out = film.show(".....", ".....", ".O...", "OXO..", ".O...")
    assert moves(out) == ["B B2"]
    assert out[0].suicided == (Point.from_gtp("B2"),)  # type: ignore[union-attr]
    assert said(out) == [Kind.WAITING_FOR_REMOVAL]
    assert film.show(*before) == []


def test_a_stone_put_in_place_of_the_opponents_is_illegal_occupied() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.show(".....", ".....", "..X..", ".....", ".....")
    film.show(".....", ".....", "..X..", "..O..", ".....")
    out = film.show(".....", ".....", "..X..", "..X..", ".....")
    assert said(out) == [Kind.ILLEGAL] and out[0].reason is Reason.OCCUPIED  # type: ignore[union-attr]
    assert game.number == 2


def test_a_ko_retaken_across_two_passes_is_positional_superko_under_chinese_rules() -> None:
    game, film = from_position(KO, Color.WHITE, rules="chinese")
    film.show(*KO)
    film.show(".....", ".....", ".XO..", "XO.O.", ".XO..")  # W B2 takes C2
    film.tracker.pass_()
    film.tracker.pass_()
    out = film.show(*KO)                                     # B C2 retakes: KO again
    assert said(out) == [Kind.ILLEGAL]
    assert out[0].reason is Reason.POSITIONAL_SUPERKO  # type: ignore[union-attr]
    assert game.number == 3


def test_the_same_retake_across_two_passes_is_legal_under_japanese_rules() -> None:
    game, film = from_position(KO, Color.WHITE, rules="japanese")
    film.show(*KO)
    film.show(".....", ".....", ".XO..", "XO.O.", ".XO..")
    film.tracker.pass_()
    film.tracker.pass_()
    assert moves(film.show(*KO)) == ["B C2"]
    assert game.phase is Phase.PLAY


def test_a_wrong_colour_stone_becomes_a_move_when_the_player_to_move_passes() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.show(".....", ".....", "..X..", ".....", ".....")
    out = film.show(".....", ".X...", "..X..", ".....", ".....")
    assert said(out) == [Kind.WRONG_COLOUR]
    assert moves(film.tracker.pass_()) == ["W pass", "B B4"]


# -- handicap ----------------------------------------------------------------------------------

def test_black_stones_alone_at_the_start_are_handicap_setup_stones() -> None:
    game, film = new(size=9)
    out = film.show(".........", ".........", "......X..", ".........", ".........",
                    ".........", "..X......", ".........", ".........")
    assert out == [SetupStones((Point.from_gtp("C3"), Point.from_gtp("G7")))]
    assert game.handicap_stones == 2 and game.to_move is Color.WHITE and game.number == 0


def test_the_expected_handicap_is_waited_for_while_the_stones_go_down() -> None:
    game, film = new(size=9, handicap=3)
    rows = [".........", ".........", "......X..", ".........", ".........",
            ".........", "..X......", ".........", "........."]
    assert film.show(*rows) == []
    rows[6] = "..X...X.."
    out = film.show(*rows)
    assert [type(o) for o in out] == [SetupStones] and game.handicap_stones == 3
    rows[4] = "....O...."
    assert moves(film.show(*rows)) == ["W E5"]


# -- the end -----------------------------------------------------------------------------------

END = [".X.O.", "XX.OO", ".XO..", ".XO.O", ".XO.."]


def test_after_two_passes_lifted_strings_are_dead_and_the_count_follows() -> None:
    game, film = from_position(END, Color.BLACK, rules="chinese")
    film.show(*END)
    assert moves(film.tracker.pass_() + film.tracker.pass_()) == ["B pass", "W pass"]
    assert game.phase is Phase.COUNTING
    # Lifting one stone of the string D5-D4-E4 does nothing yet; lifting all marks it dead.
    assert film.show(".X...", "XX.OO", ".XO..", ".XO.O", ".XO..") == []
    out = film.show(".X...", "XX...", ".XO..", ".XO.O", ".XO..")
    assert [type(o) for o in out] == [StonesRemoved] and out[0].dead  # type: ignore[union-attr]
    assert set(out[0].points) == {Point.from_gtp(v) for v in ("D5", "D4", "E4")}  # type: ignore[union-attr]
    # Put back: alive again. Lifted again: dead again.
    assert [o.dead for o in film.show(*END)] == [False]  # type: ignore[union-attr]
    film.show(".X...", "XX...", ".XO..", ".XO.O", ".XO..")
    ended, score = film.tracker.finish()
    assert isinstance(ended, GameEnded) and isinstance(score, Score)
    expected = game.score()
    assert score == expected and set(score.dead_stones) == {Point.from_gtp(v) for v in ("D5", "D4", "E4")}


def test_counting_before_two_passes_is_refused() -> None:
    game, film = new()
    with pytest.raises(ValueError, match="two passes"):
        film.tracker.finish()


def test_a_stone_played_after_two_passes_resumes_the_game() -> None:
    game, film = new()
    film.show(*EMPTY)
    film.tracker.pass_()
    film.tracker.pass_()
    assert moves(film.show(".....", ".....", "..X..", ".....", ".....")) == ["B C3"]
    assert game.phase is Phase.PLAY


def test_an_observation_of_another_board_size_is_refused_with_its_source() -> None:
    game, film = new()
    obs = Observation.from_rows(["...", "...", "..."], source="cam0")
    with pytest.raises(ValueError, match="3x3 board from cam0"):
        film.tracker.feed(obs)


# -- whole real games as messy films ------------------------------------------------------------

Frame = Observation | str  # a reading, or "pass"


def film_of(record: Record, seed: int, fps: float = 10.0, stable: float = STABLE) -> Iterator[Frame]:
    """The readings a camera would give of ``record`` played on a real board: a hand over
    every move, captured stones taken off late (up to three moves later), sometimes two
    moves between clear views, nudged stones read as empty for a frame, noise frames."""
    rng = random.Random(seed)
    truth = start(record, preset("chinese"))
    w, h = record.width, record.height
    board = list(truth.board.cells)         # what is physically on the board
    late: list[tuple[int, list[int]]] = []  # (moves left before removal, points)
    t = 0.0
    dt = 1.0 / fps
    hold = int(stable * fps) + 2            # frames of a clear view

    def frame(cells: Sequence[int]) -> Observation:
        nonlocal t
        obs = Observation(w, h, tuple(cells), time=round(t, 6), source="film")
        t += dt
        return obs

    def hand(over: Sequence[int], frames: int) -> Iterator[Observation]:
        xs = [i % w for i in over]
        ys = [i // w for i in over]
        x0, x1 = max(0, min(xs) - rng.randint(0, 2)), min(w - 1, max(xs) + rng.randint(0, 2))
        y0, y1 = max(0, min(ys) - rng.randint(0, 2)), min(h - 1, max(ys) + rng.randint(1, 3))
        for _ in range(frames):
            cells = list(board)
            for y in range(y0, y1 + 1):
                for x in range(x0, x1 + 1):
                    cells[y * w + x] = 3
            yield frame(cells)

    def clear_view() -> Iterator[Observation]:
        if rng.random() < 0.1:  # a noise frame: a few points misread
            cells = list(board)
            for _ in range(rng.randint(1, 4)):
                cells[rng.randrange(w * h)] = rng.randint(0, 2)
            yield frame(cells)
        if rng.random() < 0.05:  # a nudged stone reads as empty for a frame
            stones = [i for i, c in enumerate(board) if c]
            if stones:
                cells = list(board)
                cells[rng.choice(stones)] = 0
                yield frame(cells)
        for _ in range(hold + rng.randint(0, 4)):
            yield frame(board)

    def captured_at_once(game: Game, k: int) -> bool:
        """Does move ``k`` capture the stone just played? (No one sees such a stone when
        both moves come between two clear views, so a film does not do that.)"""
        if k >= len(record.moves) or record.moves[k].point is None:
            return False
        last = record.moves[k - 1].point
        after = copy.deepcopy(game)
        event = after.play(record.moves[k].point, record.moves[k].color, out_of_turn=True)  # type: ignore[arg-type]
        return last in event.captured

    yield from clear_view()
    rushed = False
    for k, node in enumerate(record.moves):
        if node.point is None:  # said at the keyboard once the last move is seen
            if rushed:
                yield from clear_view()
            truth.pass_(node.color, out_of_turn=True)
            yield "pass"
            yield from clear_view()
            continue
        i = node.point.y * w + node.point.x
        for entry in [e for e in late if i in e[1]]:  # a dead stone lies where the move goes
            late.remove(entry)
            yield from hand(entry[1], rng.randint(1, 3))
            for j in entry[1]:
                board[j] = 0
            yield from clear_view()  # (unseen, a stone for a stone would be undecidable)
        event = truth.play(node.point, node.color, out_of_turn=True)
        yield from hand([i], rng.randint(1, 3))
        board[i] = int(node.color)
        taken = [p.y * w + p.x for p in event.captured + event.suicided]
        if taken:
            if rng.random() < 0.5:  # taken off at once, under the same hand
                yield from hand(taken, rng.randint(1, 4))
                for j in taken:
                    board[j] = 0
            else:
                late.append((rng.randint(0, 3), taken))
        for entry in list(late):
            if entry[0] == 0:
                late.remove(entry)
                yield from clear_view()
                yield from hand(entry[1], rng.randint(1, 3))
                for j in entry[1]:
                    board[j] = 0
            else:
                late[late.index(entry)] = (entry[0] - 1, entry[1])
        if not rushed and rng.random() < 0.15 and not captured_at_once(truth, k + 1):
            rushed = True
            continue  # the next move follows before the board is seen clearly
        rushed = False
        yield from clear_view()
    for _, points in late:
        yield from hand(points, 2)
        for j in points:
            board[j] = 0
    yield from clear_view()


def in_turn(record: Record) -> bool:
    """Are the record's moves in turn order and legal (what a board can show)?"""
    game = start(record, preset("chinese"))
    try:
        for m in record.moves:
            game.pass_(m.color) if m.point is None else game.play(m.point, m.color)
    except IllegalMoveError:
        return False
    return True


def record_film(record: Record, seed: int) -> tuple[Game, list[Output]]:
    game = Game(preset("chinese"), record.width, record.height, komi=record.komi)
    tracker = Tracker(game, stable_for=STABLE, handicap=record.handicap)
    out: list[Output] = []
    for item in film_of(record, seed):
        out += tracker.pass_() if item == "pass" else tracker.feed(item)  # type: ignore[arg-type]
    return game, out


def check_recorded_exactly(record: Record, seed: int) -> None:
    game, out = record_film(record, seed)
    expected = [f"{m.color.letter} {'pass' if m.point is None else m.point.gtp()}" for m in record.moves]
    got = moves(out)
    trouble = [a for a in out if isinstance(a, Announcement) and a.kind not in
               (Kind.WAITING_FOR_REMOVAL, Kind.RESYNC)]
    assert trouble == []
    assert got == expected  # move for move: no phantom move, none missed, none illegal
    truth = start(record, preset("chinese"))
    for m in record.moves:
        if m.point is None:
            truth.pass_(m.color, out_of_turn=True)
        else:
            truth.play(m.point, m.color, out_of_turn=True)
    assert game.position == truth.position


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_famous_game_filmed_with_every_difficulty_is_recorded_move_for_move(seed: int) -> None:
    check_recorded_exactly(load(BUNDLED), seed)


def _corpus_sample(n: int, seed: int) -> list[Path]:
    files = sorted(p for p in GAMES.rglob("*") if p.suffix.lower() == ".sgf")
    return random.Random(seed).sample(files, n)


@pytest.mark.parametrize("index", range(10))
def test_real_games_from_the_corpus_filmed_messily_are_recorded_move_for_move(index: int) -> None:
    need(GAMES.is_dir(), f"no game corpus at {GAMES}")
    path = _corpus_sample(10, seed=4)[index]
    record = load(path)
    if not record.plain or record.setup.white or not in_turn(record):
        pytest.skip(f"{path.name}: not a plain sequence of legal moves in turn")
    check_recorded_exactly(record, seed=100 + index)


# -- the real per-move sequences of ../shared/vision-data (their labelled positions) -------------

def _film_of_labels(labels: list[list[str]], seed: int) -> Iterator[Observation]:
    """Each labelled position held for a second, a hand over the board between them."""
    rng = random.Random(seed)
    t = 0.0
    for stones in labels:
        obs = Observation.from_rows(stones)
        hand = list(obs.cells)
        for i in rng.sample(range(len(hand)), len(hand) // 5):
            hand[i] = 3
        for cells in [tuple(hand)] * 3 + [obs.cells] * 10:
            yield Observation(obs.width, obs.height, cells, time=round(t, 3))
            t += 0.1


def test_gomrades_real_sequence_is_recorded_as_its_game_then_a_setup_is_refused() -> None:
    labels = sequences.labels("gomrade-testing-sequence")
    sgf = VISION_DATA / "gomrade" / "testing_sequence" / "game1.sgf"
    need(sgf.is_file(), f"no {sgf}")
    game = Game("chinese", 19)
    tracker = Tracker(game, stable_for=STABLE)
    out: list[Output] = []
    for obs in _film_of_labels(labels, seed=1):
        out += tracker.feed(obs)
    # The labels are the photo's view: the board turned half a turn from the record's.
    turned = [f"{m.color.letter} {Point(18 - m.point.x, 18 - m.point.y).gtp()}"  # type: ignore[union-attr]
              for m in load(sgf).moves]
    assert moves(out) == turned  # nine moves, one of them capturing
    assert [len(e.captured) for e in out if isinstance(e, MovePlayed)] == [0] * 7 + [1, 0]
    # Then three white stones appear at once (the sequence's last record sets them up):
    # no order of moves explains that, and nothing more is recorded.
    assert said(out)[-1] in (Kind.WRONG_COLOUR, Kind.UNEXPLAINED)
    assert game.number == 9


@pytest.mark.parametrize("name, size, first", [("tengen-game-9", 9, Color.WHITE),
                                                ("tengen-game-13", 13, Color.BLACK)])
def test_tengens_real_sequences_are_recorded_move_for_move(name: str, size: int, first: Color) -> None:
    labels = sequences.labels(name)
    game = Game("chinese", size)
    game.setup(to_move=first)  # White moves first in the 9x9 game
    tracker = Tracker(game, stable_for=STABLE)
    out: list[Output] = []
    for obs in _film_of_labels(labels, seed=2):
        out += tracker.feed(obs)
    assert moves(out) == sequences.moves_between(labels)
    # The last move of each game captures a stone, and the photos end before it is taken
    # off: it is announced, pending removal, and mistaken for nothing else.
    captured = [p for e in out if isinstance(e, MovePlayed) for p in e.captured]
    assert len(captured) == 1 and said(out) == [Kind.WAITING_FOR_REMOVAL]
    lying = Position(labels[-1])[captured[0]]
    assert lying is not None and game.position[captured[0]] is None
    assert tracker.pending == {captured[0].y * size + captured[0].x: int(lying)}
