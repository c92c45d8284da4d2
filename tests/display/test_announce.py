"""What the referee says, from events a real game produces."""

from __future__ import annotations

import io
import sys
import threading
from pathlib import Path

import pytest

from kifu.announce import Announcer, Speaker, announce, count, kind, vertices
from rules import (
    Color, Game, GameEnded, IllegalMove, IllegalMoveError, Point, Reason, Resigned,
    StonesRemoved,
)


def play(game: Game, *moves: str):  # type: ignore[no-untyped-def]
    """Play GTP vertices (or "pass") in turn; the events of the last one."""
    event = None
    for v in moves:
        event = game.pass_() if v == "pass" else game.play(Point.from_gtp(v))
    return event


def refused(game: Game, vertex: str) -> IllegalMove:
    try:
        game.play(Point.from_gtp(vertex))
    except IllegalMoveError as exc:
        return IllegalMove(exc.color, exc.point, exc.reason)
    raise AssertionError(f"{vertex} was legal")


def test_a_two_stone_capture_names_both_stones() -> None:
    # . O O .        White D4 and D5 are taken when Black closes them in at D6.
    g = Game("japanese", 9)
    event = play(g, "C4", "D4", "C5", "D5", "E4", "A1", "E5", "A2", "D3", "A3", "D6")
    assert announce(event) == "Black captures two stones at D4 and D5"
    assert kind(event) == "capture"


def test_a_quiet_move_says_nothing() -> None:
    assert announce(play(Game("japanese", 9), "E5")) is None


def test_ko_is_announced_for_the_player_who_may_not_retake() -> None:
    g = Game("japanese", 9)
    play(g, "D4", "F5", "E5", "G4", "E3", "F3", "pass", "E4", "F4")
    event = refused(g, "E4")
    assert announce(event) == "Ko: White may not retake at E4 yet"
    assert kind(event) == "ko"


def test_other_refusals_say_why() -> None:
    g = Game("japanese", 9)
    play(g, "E5")
    assert announce(refused(g, "E5")) == "Illegal: E5 is already occupied"
    g = Game("japanese", 5)
    play(g, "B1", "E5", "A2")
    assert announce(refused(g, "A1")) == "Illegal: White at A1 would be suicide"
    assert announce(IllegalMove(Color.BLACK, Point(3, 3), Reason.WRONG_TURN)) == (
        "Wrong turn: it is White's move, not Black's")
    assert announce(IllegalMove(Color.WHITE, Point(3, 3), Reason.POSITIONAL_SUPERKO)) == (
        "Superko: White may not play D4, it repeats an earlier position")


def test_suicide_where_allowed_says_which_stones_went() -> None:
    g = Game("tromp-taylor", 5)
    play(g, "B1", "E5", "A2", "E4")
    assert announce(play(g, "A1")) is None  # Black's own stone: not a suicide
    g = Game("tromp-taylor", 5)
    play(g, "B1", "E5", "A2")
    assert announce(play(g, "A1")) == "White plays A1: suicide, one stone removed at A1"


def test_the_end_of_a_game_passes_score_and_resignation() -> None:
    g = Game("japanese", 5, komi=0.5)
    play(g, "C1", "pass", "C2", "pass", "C3", "pass", "C4", "pass", "C5")
    assert announce(play(g, "pass")) == "White passes"
    assert announce(play(g, "pass")) == "Black passes"
    score, ended = g.finish()
    assert announce(ended) == "Both players have passed: the game is over"
    assert announce(score) == "Black 20, White 0.5: Black wins by 19.5 points"
    assert announce(Resigned(Color.WHITE)) == "White resigns"
    assert announce(GameEnded("resignation", Color.BLACK)) == (
        "Game over: Black wins by resignation")


def test_half_a_point_is_said_as_words() -> None:
    g = Game("chinese", 5, komi=0.5)
    score, _ = g.finish(how="counted")
    assert announce(score) == "Black 0, White 0.5: White wins by half a point"


def test_dead_stones_marked() -> None:
    event = StonesRemoved((Point(0, 0), Point(1, 0), Point(2, 0)))
    assert announce(event) == "Three stones marked dead at A1, B1 and C1"
    assert announce(StonesRemoved((Point(0, 0),), dead=False)) == "One stone alive again at A1"


def test_english_helpers() -> None:
    assert count(1, "stone") == "one stone" and count(21, "stone") == "21 stones"
    assert vertices([Point(0, 0)]) == "A1"
    assert vertices([Point(0, 0), Point(8, 8), Point(7, 1)]) == "A1, J9 and H2"


def test_not_an_event_is_refused() -> None:
    with pytest.raises(TypeError, match="not an event"):
        announce("D4")  # type: ignore[arg-type]


def test_announcer_prints_and_hands_the_sentence_to_the_speaker() -> None:
    heard: list[list[str]] = []
    done = threading.Event()

    def run(argv: list[str]) -> None:
        heard.append(argv)
        done.set()

    out = io.StringIO()
    speaker = Speaker(["espeak-ng", "-s", "150"], run=run)
    a = Announcer(out, speaker, prefix="[1] ")
    g = Game("japanese", 9)
    play(g, "D4", "F5", "E5", "G4", "E3", "F3", "pass", "E4")
    assert a(g.play(Point.from_gtp("F4"))) == "Black captures a stone at E4"
    assert done.wait(5)
    speaker.close()
    assert out.getvalue() == "[1] Black captures a stone at E4\n"
    assert heard == [["espeak-ng", "-s", "150", "Black captures a stone at E4"]]


def test_a_slow_speaker_never_holds_up_the_game_and_drops_stale_sentences() -> None:
    release = threading.Event()
    spoken: list[str] = []

    def slow(argv: list[str]) -> None:
        release.wait(5)
        spoken.append(argv[-1])

    speaker = Speaker(["say"], backlog=2, run=slow)
    for n in range(10):
        speaker.say(f"sentence {n}")  # returns at once although nothing is spoken yet
    release.set()
    speaker.close()
    # The first was taken up at once; of the rest only the newest two were still waiting.
    assert spoken[-2:] == ["sentence 8", "sentence 9"]
    assert len(spoken) <= 3


def test_the_speaker_runs_its_program_with_the_sentence(tmp_path: Path) -> None:
    # A stand-in for espeak-ng: a program that writes down what it was asked to say.
    heard = tmp_path / "heard.txt"
    script = f"import sys; open({str(heard)!r}, 'a').write(sys.argv[-1] + '\\n')"
    speaker = Speaker([sys.executable, "-c", script])
    speaker.say("Ko: White may not retake at E4 yet")
    speaker.close(timeout=20)
    assert heard.read_text() == "Ko: White may not retake at E4 yet\n"
