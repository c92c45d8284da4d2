"""Corrections with an audit trail: ``undo``, a take-back (allowed in a club game,
refused in a tournament) and ``set`` on a misread point; each one announced, sent to every
sink, and kept in the SGF as a comment on its node. And the referee's word on the two
passes and the counting phase."""

from __future__ import annotations

import io
import json
from pathlib import Path

from sgfmill import sgf  # type: ignore[import-untyped]

from kifu.corrections import Correction
from kifu.session import Command, Session, parse_command, parse_script
from kifu.sinks import SgfWriter, TerminalAnnouncer
from kifu.tracker import Announcement, Kind, Tracker
from rules import Color, Game, Phase, Point, preset


def table(tmp_path: Path, *, takeback: bool = False) -> tuple[Session, io.StringIO, Path]:
    """A 5x5 game judged at once (no stability wait), written and printed."""
    game = Game(preset("japanese"), 5)
    out = tmp_path / "game.sgf"
    text = io.StringIO()
    session = Session(Tracker(game, stable_for=0.0), [SgfWriter(out, game),
                                                      TerminalAnnouncer(text)],
                      takeback=takeback)
    return session, text, out


def play(session: Session, script: str) -> None:
    for item in parse_script(script):
        session.handle(item)


def nodes(path: Path) -> list[sgf.Tree_node]:
    return list(sgf.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence())


def said(session: Session, kind: Kind) -> list[str]:
    return [o.text for o in session.outputs if isinstance(o, Announcement) and o.kind is kind]


# Black C3, White D4.
TWO_MOVES = """
@ 0
.....
.....
.....
.....
.....
@ 1
.....
.....
..X..
.....
.....
@ 2
.....
...O.
..X..
.....
.....
"""


def test_undo_takes_the_last_move_back_and_expects_its_stone_lifted(tmp_path: Path) -> None:
    session, text, out = table(tmp_path)
    play(session, TWO_MOVES + "undo\n")
    game = session.game
    assert game.number == 1 and game.to_move is Color.WHITE
    assert game.position[Point.from_gtp("D4")] is None
    [c] = [o for o in session.outputs if isinstance(o, Correction)]
    assert (c.action, c.number, c.color, c.points) == ("undo", 2, Color.WHITE,
                                                      (Point.from_gtp("D4"),))
    assert c.text == "White's D4 (move 2) taken back: take D4 off the board"
    assert "  !  correction: White's D4 (move 2) taken back" in text.getvalue()
    # The stone still lying there is not White's move again; lifted, the board matches.
    play(session, "@ 3\n.....\n...O.\n..X..\n.....\n.....\n")
    assert game.number == 1
    play(session, "@ 4\n.....\n.....\n..X..\n.....\n.....\n")
    assert said(session, Kind.RESYNC) == ["the board matches the game again"]
    # The record lost the move and keeps the correction on the node now last (Black C3).
    root, c3 = nodes(out)
    assert c3.get_move() == ("b", (2, 2))
    assert c3.get("C") == ("kifu correction at 2.00 s: undo: White's D4 (move 2) taken "
                           "back: take D4 off the board")
    # White plays elsewhere instead.
    play(session, "@ 5\n.....\n.....\n..X..\n.O...\n.....\n")
    assert [n.get_move() for n in nodes(out)[1:]] == [("b", (2, 2)), ("w", (1, 1))]


# White's B3 is taken by Black's A3 (B3 surrounded by B2, C3, B4 and A3).
CAPTURE = """
@ 0
.....
.....
.....
.....
.....
@ 1
.....
.....
.....
.X...
.....
@ 2
.....
.....
.O...
.X...
.....
@ 3
.....
.....
.OX..
.X...
.....
@ 4
.....
...O.
.OX..
.X...
.....
@ 5
.....
.X.O.
.OX..
.X...
.....
@ 6
.....
.X.O.
.OX..
.X..O
.....
@ 7
.....
.X.O.
X.X..
.X..O
.....
"""


def test_undo_of_a_capture_asks_for_the_captured_stone_back(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path)
    play(session, CAPTURE + "undo\n")
    game = session.game
    assert game.number == 6 and game.position[Point.from_gtp("B3")] is Color.WHITE
    text = [o.text for o in session.outputs if isinstance(o, Correction)][0]
    assert text == "Black's A3 (move 7) taken back: take A3 off the board and put B3 back"


def test_nothing_to_undo_is_refused(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path)
    session.handle(Command("undo"))
    assert said(session, Kind.REFUSED) == ["cannot undo: no move to take back"]


LIFTED = TWO_MOVES + "@ 3\n.....\n.....\n..X..\n.....\n.....\n"
"""White lifts D4 again before Black answers."""


def test_a_take_back_in_a_club_game(tmp_path: Path) -> None:
    session, text, out = table(tmp_path, takeback=True)
    play(session, LIFTED)
    assert session.game.number == 1 and session.game.to_move is Color.WHITE
    [c] = [o for o in session.outputs if isinstance(o, Correction)]
    assert (c.action, c.text) == ("take-back", "White's D4 (move 2) taken back")
    assert not said(session, Kind.UNEXPECTED_REMOVAL)
    assert [n.get_move() for n in nodes(out)[1:]] == [("b", (2, 2))]
    assert nodes(out)[1].get("C") == ("kifu correction at 3.00 s: take-back: White's D4 "
                                      "(move 2) taken back")
    play(session, "@ 4\n.....\n.....\n..X..\n....O\n.....\n")  # and plays elsewhere
    assert [n.get_move() for n in nodes(out)[1:]] == [("b", (2, 2)), ("w", (1, 4))]


def test_a_take_back_refused_in_a_tournament(tmp_path: Path) -> None:
    session, text, out = table(tmp_path, takeback=False)
    play(session, LIFTED)
    assert session.game.number == 2
    assert said(session, Kind.REFUSED) == [
        "no take-backs in this game (--takeback refused): put White's D4 (move 2) back"]
    assert not any(isinstance(o, Correction) for o in session.outputs)
    play(session, "@ 4\n.....\n...O.\n..X..\n.....\n.....\n")  # put back
    assert said(session, Kind.RESYNC) == ["the board matches the game again"]
    assert len(nodes(out)) == 3


def test_an_older_stone_lifted_is_no_take_back(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path, takeback=True)
    play(session, TWO_MOVES + "@ 3\n.....\n...O.\n.....\n.....\n.....\n")  # Black's C3
    assert session.game.number == 2
    assert said(session, Kind.UNEXPECTED_REMOVAL) == ["C3 taken off but not captured: put it back"]


def test_set_corrects_a_point_the_camera_misreads(tmp_path: Path) -> None:
    session, text, out = table(tmp_path)
    # Black's C3 is read as empty (glare): nothing happens until the player says so.
    play(session, "@ 0\n.....\n.....\n.....\n.....\n.....\n@ 1\n.....\n.....\n.....\n.....\n.....\n")
    assert session.game.number == 0
    session.handle(parse_command("set C3 black"))
    assert session.game.number == 1 and session.game.position[Point.from_gtp("C3")] is Color.BLACK
    [c] = [o for o in session.outputs if isinstance(o, Correction)]
    assert (c.action, c.color, c.text) == ("set", Color.BLACK,
                                           "C3 set to black (the camera read it empty)")
    # The correction holds while the camera reads the same there: White's answer is a move.
    play(session, "@ 2\n.....\n...O.\n.....\n.....\n.....\n")
    assert session.game.number == 2
    # Once the camera sees the stone itself, the correction is over.
    play(session, "@ 3\n.....\n...O.\n..X..\n.....\n.....\n")
    assert session.overrides == {}
    assert nodes(out)[0].get("C") == ("kifu correction at 1.00 s: set: C3 set to black "
                                      "(the camera read it empty)")
    assert "  !  correction: C3 set to black" in text.getvalue()


def test_set_reads_its_point_and_colour() -> None:
    assert parse_command("set d4 empty") == Command("set", None, vertex="D4")
    assert parse_command("SET Q16 W") == Command("set", Color.WHITE, vertex="Q16")
    for bad in ("set D4", "set D4 red", "set I4 black", "set 44 black", "undo 3"):
        try:
            parse_command(bad)
        except ValueError as exc:
            assert repr(bad.strip()) in str(exc)
        else:
            raise AssertionError(f"{bad!r} was read")


def test_a_set_point_off_the_board_is_refused(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path)
    play(session, "@ 0\n.....\n.....\n.....\n.....\n.....\n")
    session.handle(parse_command("set T19 black"))
    assert said(session, Kind.REFUSED)[0].startswith("cannot set T19:")


def test_two_passes_are_refused_while_the_board_disagrees(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path)
    # Black's C3 is lifted (not captured): the board is wrong.
    play(session, TWO_MOVES + "@ 3\n.....\n...O.\n.....\n.....\n.....\n" + "pass\npass\n")
    game = session.game
    assert game.phase is Phase.PLAY and game.consecutive_passes == 1
    assert said(session, Kind.REFUSED) == [
        "two passes end the game only when the board matches it; put the board right first: "
        "C3 taken off but not captured: put it back"]
    play(session, "@ 4\n.....\n...O.\n..X..\n.....\n.....\npass\n")
    assert game.phase is Phase.COUNTING


def test_counting_is_announced_with_the_score_as_it_stands(tmp_path: Path) -> None:
    session, text, out = table(tmp_path)
    play(session, TWO_MOVES + "pass\npass\n")
    assert said(session, Kind.COUNTING) == ["take the dead stones off, then press Done"]
    assert "  !  counting: take the dead stones off, then press Done" in text.getvalue()
    play(session, "@ 5\n.....\n.....\n..X..\n.....\n.....\n")  # White's D4 lifted: dead
    assert said(session, Kind.COUNTING)[-1] == (
        "as it stands: Black 25, White 6.5 (B+18.5); press Done when the dead stones are off")
    # A stone put down instead resumes play (D4 back first, then Black's E5).
    play(session, "@ 6\n.....\n...O.\n..X..\n.....\n.....\n@ 7\n....X\n...O.\n..X..\n.....\n.....\n")
    assert session.game.phase is Phase.PLAY and session.game.number == 5
    assert said(session, Kind.COUNTING)[-1].startswith("play resumes")


def test_undo_of_the_second_pass_resumes_play(tmp_path: Path) -> None:
    session, _, out = table(tmp_path)
    play(session, TWO_MOVES + "pass\npass\nundo\n")
    game = session.game
    assert game.phase is Phase.PLAY and game.number == 3 and game.to_move is Color.WHITE
    assert [o.text for o in session.outputs if isinstance(o, Correction)] == [
        "White's pass (move 4) taken back"]
    assert said(session, Kind.COUNTING)[-1] == "play resumes; counting starts again after two passes"
    assert [n.get_move() for n in nodes(out)[1:]] == [("b", (2, 2)), ("w", (3, 3)), ("b", None)]


TAKEN_BACK = "@ 8\n.....\n.X.O.\n.OX..\n.X..O\n.....\n"
"""Black lifts A3 again and puts White's captured B3 back."""


def test_a_capture_taken_back_in_a_club_game(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path, takeback=True)
    play(session, CAPTURE + TAKEN_BACK)
    game = session.game
    assert game.number == 6 and game.position[Point.from_gtp("B3")] is Color.WHITE
    assert game.captures[Color.BLACK] == 0
    assert [o.text for o in session.outputs if isinstance(o, Correction)] == [
        "Black's A3 (move 7) taken back"]


def test_a_capture_taken_back_is_refused_in_a_tournament(tmp_path: Path) -> None:
    session, _, _ = table(tmp_path)
    play(session, CAPTURE + TAKEN_BACK)
    assert session.game.number == 7 and session.game.captures[Color.BLACK] == 1
    assert said(session, Kind.REFUSED) == [
        "no take-backs in this game (--takeback refused): put Black's A3 (move 7) back and "
        "take B3 off again"]


def test_a_correction_as_json_for_other_programs(tmp_path: Path) -> None:
    game = Game(preset("japanese"), 5)
    text = io.StringIO()
    session = Session(Tracker(game, stable_for=0.0), [TerminalAnnouncer(text, as_json=True)])
    play(session, TWO_MOVES + "undo\n")
    assert json.loads(text.getvalue().splitlines()[-1]) == {
        "event": "correction", "action": "undo", "number": 2, "color": "W", "points": ["D4"],
        "text": "White's D4 (move 2) taken back: take D4 off the board", "time": 2.0}
