"""Spoken as people speak: points as words ("D 4" as "dee four"), every move read out
with ``--speak moves``, the counted result spoken."""

from __future__ import annotations

from kifu.announce import Speaker, spoken, spoken_vertex
from kifu.sinks import SpokenAnnouncer
from kifu.tracker import Announcement, Kind
from rules import Color, Game, MovePlayed, Passed, Point


def test_points_are_said_as_words() -> None:
    assert spoken_vertex(Point.from_gtp("D4")) == "dee four"
    assert spoken_vertex(Point.from_gtp("Q16")) == "cue sixteen"
    assert spoken_vertex(Point.from_gtp("T19")) == "tee nineteen"
    assert spoken_vertex(Point.from_gtp("Z25")) == "zed twenty-five"
    assert spoken("White captures two stones at D4 and D5") == (
        "White captures two stones at dee four and dee five")
    assert spoken("Ko: White may not retake at E4 yet") == "Ko: White may not retake at ee four yet"
    # Results and words are left alone.
    assert spoken("W+R, B+7.5: Black 184, White 177") == "W+R, B+7.5: Black 184, White 177"


class Heard:
    def __init__(self) -> None:
        self.said: list[str] = []

    def __call__(self, argv: list[str]) -> None:
        self.said.append(argv[-1])


def spoken_for(moves: bool, *items: object) -> list[str]:
    heard = Heard()
    speaker = Speaker(["say"], backlog=100, run=heard)
    announcer = SpokenAnnouncer(speaker, moves=moves)
    for item in items:
        announcer(item, 0.0)  # type: ignore[arg-type]
    speaker.close()
    return heard.said


def test_speak_moves_reads_every_move_and_speak_only_what_is_announced() -> None:
    quiet = MovePlayed(1, Color.BLACK, Point.from_gtp("D4"))
    capture = MovePlayed(2, Color.WHITE, Point.from_gtp("E4"), (Point.from_gtp("D4"),))
    warning = Announcement(Kind.WAITING_FOR_REMOVAL, "captured: take D4 off the board")
    passed = Passed(3, Color.BLACK)
    assert spoken_for(True, quiet, capture, warning, passed) == [
        "Black dee four", "White ee four", "White captures a stone at dee four",
        "captured: take dee four off the board", "Black passes"]
    assert spoken_for(False, quiet, capture, warning, passed) == [
        "White captures a stone at dee four", "captured: take dee four off the board",
        "Black passes"]


def test_the_counted_result_is_spoken() -> None:
    game = Game("japanese", 5)
    game.play(Point.from_gtp("C3"))
    game.pass_(), game.pass_()
    score, ended = game.finish()
    assert spoken_for(False, ended, score) == [
        "Both players have passed: the game is over",
        "Black 24, White 6.5: Black wins by 17.5 points"]
