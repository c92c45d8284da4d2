"""Which side of the camera's picture is Black's: readings turned before the tracker, and
a game in progress turned with them when the orientation is corrected, its record on
disk included."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kifu.cli import main
from kifu.session import Command, Session, parse_command, parse_script
from kifu.sgf import load, move_property
from kifu.sinks import SgfWriter, TerminalAnnouncer
from kifu.tracker import Announcement, Kind, Oriented, Tracker
from kifu import replay as rp
from rules import Color, Game, Observation, Point, rotate_position
from tests.rules.diagrams import play


def seen(*rows: str, t: float) -> Observation:
    """A camera's reading: rows top of the picture first."""
    return Observation.from_rows(list(rows), time=t, source="camera")


def recorded(path: Path) -> list[str]:
    return [m.gtp() for m in load(path).moves]


# Black sits at the right of the picture. Camera readings, top of the picture first:
BLACK_CORNER = seen(
    ".....",
    ".....",
    ".....",
    ".....",
    "....X",  # the picture's bottom-right corner: Black's lower left, A1
    t=1.0)


def black_in_the_corner(out: Path, orientation: int) -> tuple[Session, SgfWriter]:
    """A recording read with ``orientation`` in which Black has played at the picture's
    bottom-right corner."""
    game = Game("japanese", 5)
    writer = SgfWriter(out, game)
    session = Session(Tracker(game, stable_for=0.0), [writer], orientation=orientation)
    session.handle(seen(*["....."] * 5, t=0.0))
    session.handle(BLACK_CORNER)
    return session, writer


def test_readings_are_turned_before_the_tracker(tmp_path: Path) -> None:
    black_in_the_corner(tmp_path / "g.sgf", 90)
    assert recorded(tmp_path / "g.sgf") == ["B A1"]
    black_in_the_corner(tmp_path / "h.sgf", 0)
    assert recorded(tmp_path / "h.sgf") == ["B E1"]


def test_turning_a_game_in_progress_turns_the_game_the_tracker_and_the_record(
        tmp_path: Path) -> None:
    """The camera was taken to see Black at the bottom; Black sits at the right. Five
    moves in, with a captured stone still lying on the board, the orientation is turned
    a quarter clockwise: the game so far is the same game turned, the SGF on disk says
    so at once, and the recording goes on with the stone still lying there and the
    next move where Black sees it."""
    out = tmp_path / "game.sgf"
    game = Game("japanese", 5)
    writer = SgfWriter(out, game)
    printed = io.StringIO()
    session = Session(Tracker(game, stable_for=0.0), [writer, TerminalAnnouncer(printed)])
    readings = [
        seen(".....", ".....", ".....", ".....", ".....", t=0),
        seen(".....", ".....", ".....", ".....", "....X", t=1),
        seen("....O", ".....", ".....", ".....", "....X", t=2),
        seen("...XO", ".....", ".....", ".....", "....X", t=3),
        seen("...XO", ".....", ".....", ".....", "O...X", t=4),
        seen("...XO", "....X", ".....", ".....", "O...X", t=5),  # takes the corner stone
    ]
    for r in readings:
        session.handle(r)
    assert recorded(out) == ["B E1", "W E5", "B D5", "W A1", "B E4"]
    assert game.captures[Color.BLACK] == 1
    before, writes = game.position, writer.writes

    session.handle(Command("orient", degrees=90))

    assert game.position == rotate_position(before, 90)
    assert recorded(out) == ["B A1", "W E1", "B E2", "W A5", "B D1"]
    assert writer.writes == writes + 1
    assert move_property(out.read_bytes(), "KT") == ["1.00", "2.00", "3.00", "4.00", "5.00"]
    assert game.captures[Color.BLACK] == 1 and game.to_move is Color.WHITE
    replayed = rp.start(load(out), game.rules)
    list(rp.replay(replayed, load(out).nodes))
    assert replayed.position == game.position
    said = session.outputs[-1]
    assert isinstance(said, Oriented) and said.orientation == 90 and said.turn == 90
    assert said.text == (
        "Orientation now 90°: the 5 moves so far turned a quarter clockwise to match")
    assert "orientation: Orientation now 90°" in printed.getvalue()

    # The captured stone still lies there, then is lifted; White plays at the picture's
    # left edge, which is the top edge for Black: C5.
    session.handle(seen("...XO", "....X", ".....", ".....", "O...X", t=6))
    session.handle(seen("...X.", "....X", ".....", ".....", "O...X", t=7))
    session.handle(seen("...X.", "....X", "O....", ".....", "O...X", t=8))
    assert recorded(out) == ["B A1", "W E1", "B E2", "W A5", "B D1", "W C5"]
    after = session.outputs[session.outputs.index(said) + 1:]
    assert not [o for o in after if isinstance(o, Announcement)]


def test_confirming_the_orientation_changes_nothing_but_is_said(tmp_path: Path) -> None:
    session, writer = black_in_the_corner(tmp_path / "g.sgf", 90)
    writes = writer.writes
    session.handle(Command("orient", degrees=90))
    assert recorded(tmp_path / "g.sgf") == ["B A1"] and writer.writes == writes
    assert session.outputs[-1] == Oriented(90, 0, 5, 5, 1)
    assert session.outputs[-1].text == "Orientation 90° confirmed"  # type: ignore[union-attr]


def test_turned_round_and_back_the_game_is_as_it_was() -> None:
    game = Game("chinese", 9, handicap=2)
    play(game, "D3 D4 pass")
    before = game.position
    session = Session(Tracker(game, stable_for=0.0), [])
    for degrees in (270, 180, 0):
        session.handle(Command("orient", degrees=degrees))
    assert game.position == before and game.to_move is Color.BLACK
    assert [o.turn for o in session.outputs if isinstance(o, Oriented)] == [270, 270, 180]


def test_the_orientation_at_the_keyboard_and_in_scripts() -> None:
    assert parse_command("rotate 90") == Command("orient", degrees=90)
    assert parse_command("ROTATE 0") == Command("orient", degrees=0)
    with pytest.raises(ValueError, match="rotate must be one of 0, 90, 180, 270"):
        parse_command("rotate 45")
    with pytest.raises(ValueError, match="try 'rotate 90'"):
        parse_command("rotate")
    with pytest.raises(ValueError, match="takes an angle"):
        Command("orient")
    assert parse_script("@ 0\n...\n...\n...\nrotate 180\n")[-1] == Command("orient", degrees=180)


SCRIPT = """\
@ 0-1
.....
.....
.....
.....
.....
@ 2-3           # Black at the picture's bottom right
.....
.....
.....
.....
....X
rotate 90       # Black sits at the right: that was A1
@ 4-5           # White at the picture's top right: E1 for Black
....O
.....
.....
.....
....X
"""


def test_kifu_record_turns_the_game_when_told_to(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--json"]) == 0
    assert recorded(out) == ["B A1", "W E1"]
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    turned = [line for line in lines if line["event"] == "orientation"]
    assert turned == [{"event": "orientation", "orientation": 90, "turn": 90, "moves": 1,
                       "text": "Orientation now 90°: the move so far turned a quarter "
                               "clockwise to match", "time": 3.0}]


def test_kifu_record_rotate_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT.replace("rotate 90", ""))
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--rotate", "90"]) == 0
    assert recorded(out) == ["B A1", "W E1"]
    with pytest.raises(SystemExit):
        main(["record", "--observations", str(script), "--out", str(tmp_path / "x.sgf"),
              "--rotate", "45"])
    assert "invalid choice: 45" in capsys.readouterr().err


def test_the_bottom_left_of_the_picture_under_each_orientation() -> None:
    """With Black at the right of the picture (90), its bottom left is Black's far left:
    A5; at the top (180), Black's far right; at the left (270), Black's near right."""
    corner = {0: "A1", 90: "A5", 180: "E5", 270: "E1"}
    for degrees, vertex in corner.items():
        game = Game("japanese", 5)
        session = Session(Tracker(game, stable_for=0.0), [], orientation=degrees)
        session.handle(seen(*["....."] * 5, t=0))
        session.handle(seen(".....", ".....", ".....", ".....", "X....", t=1))
        assert game.position.stones(Color.BLACK) == [Point.from_gtp(vertex)], degrees
