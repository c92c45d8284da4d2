"""Moves seen together: the board reappears (after a camera blackout, a player leaning
over it, a webcam's next frame, a sensor board's resync) with several new stones, and the
tracker (``guess=True``, as ``kifu record`` runs it) records every move that fits, says so,
and lets the players put the order right with ``order``.

Films are ASCII readings (``?`` hidden), each held for a while; 5x5 boards, row 5 on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from kifu.cli import main
from kifu.session import Command, Session, parse_command
from kifu.sgf import load
from kifu.sinks import SgfWriter
from kifu.tracker import MAX_GUESSED, MAX_HIDDEN, Announcement, Kind, Output, Reordered, Tracker
from rules import Color, Game, Observation, Point, Position
from tests.kifu.test_tracker import EMPTY, STABLE, Film, moves, said

DARK = ["?????"] * 5


def guessing(rows: Sequence[str] = EMPTY, to_move: Color = Color.BLACK) -> tuple[Game, Film]:
    pos = Position(rows)
    game = Game("chinese", pos.width, pos.height)
    game.setup(pos.stones(Color.BLACK), pos.stones(Color.WHITE), to_move=to_move)
    film = Film(Tracker(game, stable_for=STABLE, max_moves=MAX_HIDDEN, guess=True))
    film.show(*rows)
    return game, film


def texts(out: Sequence[Output], kind: Kind) -> list[str]:
    return [a.text for a in out if isinstance(a, Announcement) and a.kind is kind]


def points(*vertices: str) -> list[Point]:
    return [Point.from_gtp(v) for v in vertices]


# -- one way the stones fit: recorded, and said ----------------------------------------------

def test_two_moves_during_a_camera_blackout_are_recorded_in_turn_and_announced() -> None:
    game, film = guessing()
    film.show(*DARK, seconds=2)
    out = film.show(".....", "...O.", "..X..", ".....", ".....")
    assert moves(out) == ["B C3", "W D4"]
    assert texts(out, Kind.HIDDEN) == ["2 moves while the board was hidden: B C3, W D4"]
    assert game.to_move is Color.BLACK


def test_captures_during_a_blackout_are_explained_by_the_one_order_that_makes_them() -> None:
    # White B2 is in atari. Hidden: Black C2 takes it (and it is lifted), White E5, Black
    # B2 fills the point where it lay. Only that order fits: B2 is empty until C2 captures.
    before = [".....", ".....", ".X...", "XO...", ".X..."]
    game, film = guessing(before)
    film.show(*DARK, seconds=3)
    out = film.show("....O", ".....", ".X...", "XXX..", ".X...")
    assert moves(out) == ["B C2", "W E5", "B B2"]
    assert out[0].captured == (Point.from_gtp("B2"),)  # type: ignore[union-attr]
    assert texts(out, Kind.HIDDEN) == ["3 moves while the board was hidden: B C2, W E5, B B2"]
    assert game.position == Position(["....O", ".....", ".X...", "XXX..", ".X..."])


def test_stones_whose_order_does_not_change_the_position_are_one_choice_said_as_a_guess() -> None:
    game, film = guessing()
    film.show(*DARK, seconds=3)
    out = film.show("....X", ".....", "..O..", ".....", "X....")
    assert sorted(moves(out)) == ["B A1", "B E5", "W C3"] and moves(out)[1] == "W C3"
    [text] = texts(out, Kind.HIDDEN)
    assert text.startswith("3 moves while the board was hidden: ")
    assert "one of 2 orders to this position" in text and "say 'order " in text
    assert said(out) == [Kind.HIDDEN]


def test_a_player_leaning_over_the_board_hides_three_moves_whose_glimpses_give_the_order() -> None:
    # The player's arm hides the left of the board; the stones on the right are glimpsed
    # as they go down (E5 first, then A1 under the arm, then E1), which orders the blacks.
    game, film = guessing()
    film.show("??...", "??...", "??...", "??...", "??...", seconds=0.5)
    film.show("??..X", "??...", "??...", "??...", "??...", seconds=1)
    film.show("??..X", "??...", "??...", "??...", "??...", seconds=1)   # W A3 unseen
    film.show("??..X", "??...", "??...", "??...", "??..X", seconds=1)
    out = film.show("....X", ".....", "O....", ".....", "....X")
    assert moves(out) == ["B E5", "W A3", "B E1"]
    assert said(out) == [Kind.HIDDEN]


def test_past_the_full_search_the_first_order_found_is_a_guess_and_past_that_it_asks() -> None:
    game = Game("chinese", 7)
    game.setup(white=[Point.from_gtp("G1")], to_move=Color.BLACK)
    film = Film(Tracker(game, stable_for=STABLE, max_moves=4, guess=True))
    film.show(*["......."] * 6, "......O")
    film.show(*["???????"] * 7, seconds=2)
    five = ["X.O.X..", ".......", "..O....", ".......", ".......", ".......", "X.....O"]
    out = film.show(*five)  # 5 new stones: more than the 4 whose every order is weighed
    assert moves(out) == ["B A1", "W C5", "B A7", "W C7", "B E7"]
    [text] = texts(out, Kind.AMBIGUOUS)
    assert text.startswith("5 moves while the board was hidden, too many to weigh every order: ")
    film.show(*["???????"] * 7, seconds=2)
    many = ["X.O.X..", "XXXXXXX", "OOOOOOO", "XXXXXXX", "OOOOOOO", ".......", "X.....O"]
    assert 28 > MAX_GUESSED
    out = film.show(*many)  # 28 new stones, 14 of each colour
    assert moves(out) == [] and said(out) == [Kind.UNEXPLAINED] and game.number == 5


# -- several ways: the likeliest is recorded, the ambiguity said ------------------------------

def test_an_ambiguous_triple_is_recorded_as_the_likeliest_and_announced() -> None:
    #   A B C D E          Hidden: Black A1, White D1, Black A4, the captured stones
    # 5 . X O . .          still lying. Black A1 first takes White B1; Black A4 first
    # 4 . . . . .          lets White D1 take Black C1 instead. The board shows the same
    # 3 . . . . .          either way: two ways to fit it, one stone lying dead in each.
    # 2 . X O . X
    # 1 . O X . O
    before = [".XO..", ".....", ".....", ".XO.X", ".OX.O"]
    game, film = guessing(before)
    film.show(*DARK, seconds=3)
    out = film.show(".XO..", "X....", ".....", ".XO.X", "XOXOO")
    assert moves(out) == ["B A1", "W D1", "B A4"]  # the first found of two equally likely
    [text] = texts(out, Kind.AMBIGUOUS)
    assert text == ("3 moves while the board was hidden, in one of 2 ways that fit the board: "
                    "recorded B A1, W D1, B A4; if they were played otherwise, say "
                    "'order A1 D1 A4' with the points in the order they were played")
    assert film.tracker.pending == {1: int(Color.WHITE)}  # B1 lies there, dead
    # The players say Black A4 came first: White D1 took C1.
    out = film.tracker.reorder(points("A4", "D1", "A1"))
    assert isinstance(out[0], Reordered)
    assert [f"{m.color.letter} {m.point.gtp()}" for m in out[0].moves] == ["B A4", "W D1", "B A1"]
    assert out[0].moves[1].captured == (Point.from_gtp("C1"),)
    assert said(out) == [Kind.WAITING_FOR_REMOVAL]
    assert game.position == Position([".XO..", "X....", ".....", ".XO.X", "XO.OO"])
    assert film.tracker.pending == {2: int(Color.BLACK)}
    # Lifting the dead stone is expected; the game goes on.
    assert film.show(".XO..", "X....", ".....", ".XO.X", "XO.OO") == []
    assert moves(film.show(".XO..", "X...O", ".....", ".XO.X", "XO.OO")) == ["W E4"]


def test_a_refill_of_either_of_two_dead_stones_is_guessed_and_announced() -> None:
    before = [".....", ".....", ".....", "XX...", "OO..."]
    game, film = guessing(before)
    film.show(".....", ".....", ".....", "XX...", "OOX..")  # B C1 captures A1 B1, left lying
    film.show("....O", ".....", ".....", "XX...", "OOX..")  # W E5
    film.show("....O", "....X", ".....", "XX...", "OOX..")  # B E4
    # White plays A1 or B1 in place of a dead stone, unseen; then Black D4 shows.
    out = film.show("....O", "...XX", ".....", "XX...", "OOX..")
    assert said(out) == [Kind.AMBIGUOUS] and game.number == 5
    assert moves(out) == ["W A1", "B D4"]
    # It was B1: the players say so, and the record follows.
    out = film.tracker.reorder(points("B1", "D4"))
    assert [f"{m.color.letter} {m.point.gtp()}" for m in out[0].moves] == ["W B1", "B D4"]  # type: ignore[union-attr]
    assert game.position == Position(["....O", "...XX", ".....", "XX...", ".OX.."])


# -- what cannot be explained still stops and asks ---------------------------------------------

def test_a_reading_no_sequence_of_legal_moves_explains_still_stops_and_asks() -> None:
    game, film = guessing([".....", ".....", ".....", ".....", "....O"])
    film.show(*DARK, seconds=2)
    out = film.show("X...X", ".....", "..X..", ".....", "....O")  # three black stones
    assert moves(out) == [] and said(out) == [Kind.WRONG_COLOUR]
    # A suicide hidden among legal moves: no order avoids it.
    before = [".....", ".....", ".O...", "O.O..", ".O..."]
    game, film = guessing(before)
    film.show(*DARK, seconds=2)
    out = film.show("X....", "....O", ".O...", "OXO..", ".O...")
    assert moves(out) == [] and said(out) == [Kind.ILLEGAL]
    assert game.number == 0
    # Put as it was, the game goes on.
    assert said(film.show(*before)) == [Kind.RESYNC]


# -- order ---------------------------------------------------------------------------------------

def test_order_re_records_the_last_moves_and_refuses_what_does_not_fit() -> None:
    game, film = guessing()
    film.show(*DARK, seconds=3)
    film.show("....X", ".....", "..O..", ".....", "X....")
    tracker = film.tracker
    assert moves(film.out) == ["B A1", "W C3", "B E5"]
    out = tracker.reorder(points("E5", "C3", "A1"))
    assert [type(o) for o in out] == [Reordered]
    assert [m.point.gtp() for m in out[0].moves] == ["E5", "C3", "A1"]  # type: ignore[union-attr]
    # Out of turn, or stones that are not there, or more moves than were recorded: refused,
    # and the record stays as it was.
    for wrong in (["C3", "A1", "E5"], ["A1", "B2", "E5"], ["A1", "C3", "E5", "D4"]):
        out = tracker.reorder(points(*wrong))
        assert said(out) == [Kind.REFUSED], wrong
        assert [f"{m.color.letter} {m.point.gtp()}" for m in tracker.recorded] == [  # type: ignore[union-attr]
            "B E5", "W C3", "B A1"]
    assert game.number == 3 and game.position == Position(["....X", ".....", "..O..", ".....", "X...."])


def test_the_keyboard_order_reaches_the_record_on_disk(tmp_path: Path) -> None:
    assert parse_command("order d4 q16 c3") == Command("order", vertices=("D4", "Q16", "C3"))
    game = Game("chinese", 5)
    writer = SgfWriter(tmp_path / "game.sgf", game)
    session = Session(Tracker(game, stable_for=0.0, max_moves=MAX_HIDDEN, guess=True), [writer])
    film = Film(session.tracker)
    film.show(*EMPTY)
    for obs_rows, t in ((DARK, 1.0), (["....X", ".....", "..O..", ".....", "X...."], 2.0)):
        obs = Observation.from_rows(obs_rows)
        session.handle(Observation(5, 5, obs.cells, time=t))
    assert [m[1].gtp() for m in writer.moves if m[1]] == ["A1", "C3", "E5"]
    session.handle(parse_command("order E5 C3 A1"))
    assert [m[1].gtp() for m in writer.moves if m[1]] == ["E5", "C3", "A1"]
    assert b";B[ea]" in writer.written and writer.written.count(b"KT[2.00]") == 3
    session.handle(parse_command("order A1 Z9"))
    assert isinstance(session.outputs[-1], Announcement) and session.outputs[-1].kind is Kind.REFUSED


def test_kifu_record_guesses_moves_seen_together_and_takes_the_order_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "game.txt"
    script.write_text(
        "@ 0.0-1.0\n.....\n.....\n.....\n.....\n.....\n"
        "@ 1.5-4.0\n?????\n?????\n?????\n?????\n?????\n"  # the camera blacks out
        "@ 4.5-6.0\n....X\n.....\n..O..\n.....\nX....\n"
        "order E5 C3 A1\n")
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5"]) == 0
    printed = capsys.readouterr().out
    assert "hidden-moves: 3 moves while the board was hidden: B A1, W C3, B E5" in printed
    assert "order: 3 moves re-recorded as B E5, W C3, B A1" in printed
    assert [m.point.gtp() for m in load(out).moves if m.point] == ["E5", "C3", "A1"]
