"""The live board's state and the ordered stream of its updates."""

from __future__ import annotations

import threading

import pytest

import dataclasses

from kifu.display import BoardSink, CommandError, Feed, LiveBoard, game_commands
from rules import Color, Game, IllegalMove, IllegalMoveError, Point, Position, Reason


def play(board: LiveBoard, game: Game, *moves: str) -> None:
    for v in moves:
        try:
            event = game.pass_() if v == "pass" else game.play(Point.from_gtp(v))
        except IllegalMoveError as exc:
            board.publish(IllegalMove(exc.color, exc.point, exc.reason))
        else:
            board.update(game, event)


KO = ["D4", "F5", "E5", "G4", "E3", "F3", "pass", "E4", "F4"]


def test_a_new_board_is_empty_with_black_to_play() -> None:
    s = LiveBoard("1", 9).snapshot.to_json()
    assert s["rows"] == ["." * 9] * 9 and s["to_move"] == "B" and s["number"] == 0
    assert s["last_move"] is None and s["announcements"] == [] and s["score"] is None


def test_moves_show_the_stones_the_turn_the_captures_and_the_last_move() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    play(b, g, *KO)
    s = b.snapshot.to_json()
    assert s["rows"][4:7] == ["....XO...", "...X.XO..", "....XO..."]
    assert s["number"] == 9 and s["to_move"] == "W"
    assert s["captures"] == {"B": 1, "W": 0}
    assert (s["last_move"], s["last_color"]) == ("F4", "B")
    assert [a["text"] for a in s["announcements"]] == [
        "Black captures a stone at E4", "Black passes"]


def test_a_ko_refusal_is_announced_and_marked_without_changing_the_stones() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    play(b, g, *KO)
    before = b.snapshot
    play(b, g, "E4")
    after = b.snapshot
    assert after.position == before.position and after.version == before.version + 1
    assert after.to_json()["highlight"] == "E4"
    assert after.announcements[-1].text == "Ko: White may not retake at E4 yet"
    assert after.announcements[-1].kind == "ko"
    play(b, g, "J9")
    assert b.snapshot.highlight is None


def test_a_pass_is_the_last_move() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    play(b, g, "E5", "pass")
    s = b.snapshot.to_json()
    assert (s["last_move"], s["last_color"]) == ("pass", "W")


def test_the_counted_game_carries_its_score_and_territory() -> None:
    g, b = Game("japanese", 5, komi=0.5), LiveBoard("1", 5)
    play(b, g, "C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5", "pass", "pass")
    score, ended = g.finish()
    b.update(g, ended, score)
    s = b.snapshot.to_json()
    assert s["phase"] == "over" and s["to_move"] is None
    assert s["result"] == "B+4.5"  # territory 10 against 5 and komi
    assert sorted(s["territory"]["B"]) == sorted(f"{c}{r}" for c in "AB" for r in range(1, 6))
    assert s["territory"]["W"] == ["E1", "E2", "E3", "E4", "E5"]
    assert 'class="territory black"' in b.snapshot.svg()


def test_announcements_keep_only_the_latest() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    for _ in range(30):
        b.update(g, g.pass_())
        g.undo()
    assert len(b.snapshot.announcements) == 12


def test_listeners_hear_every_change_in_order() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    seen: list[int] = []
    said: list[str] = []
    b.subscribe(lambda board, snap: seen.append(snap.version))
    b.on_announcement(lambda event, text: said.append(text))
    play(b, g, *KO, "E4")
    assert seen == list(range(1, 11))
    assert said == ["Black passes", "Black captures a stone at E4",
                    "Ko: White may not retake at E4 yet"]


def test_catching_up_quietly_announces_nothing() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    events = [g.play(Point.from_gtp(v)) if v != "pass" else g.pass_() for v in KO]
    b.update(g, *events, announce=False)
    assert b.snapshot.announcements == () and b.snapshot.last_move == Point.from_gtp("F4")


def test_commands_reach_the_game_through_the_handler() -> None:
    g = Game("japanese", 9)
    b = LiveBoard("1", 9)
    b.on_command = game_commands(b, g)
    b.command("pass")
    assert g.number == 1 and b.snapshot.to_json()["last_move"] == "pass"
    b.command("resign")
    s = b.snapshot.to_json()
    assert s["result"] == "B+R" and s["phase"] == "over"
    with pytest.raises(CommandError, match="the game is over"):
        b.command("pass")


def test_a_board_that_follows_a_record_refuses_commands() -> None:
    b = LiveBoard("game-1", 9)
    with pytest.raises(CommandError, match="board game-1 takes no commands") as exc:
        b.command("pass")
    assert exc.value.status == 409
    with pytest.raises(CommandError, match="unknown command 'teleport'"):
        b.command("teleport")


def test_a_bad_board_id_is_refused() -> None:
    with pytest.raises(ValueError, match="board id must be"):
        LiveBoard("a/b")


def test_a_game_command_out_of_turn_is_refused() -> None:
    g = Game("japanese", 9)
    b = LiveBoard("1", 9, on_command=None)
    b.on_command = game_commands(b, g)
    with pytest.raises(CommandError, match="pass refused: wrong-turn"):
        b.command("pass", Color.WHITE)


# -- the feed -----------------------------------------------------------------------------

def test_a_viewer_gets_every_message_after_the_last_it_saw() -> None:
    f = Feed(keep=10)
    for v in range(1, 6):
        f.push("1", v, b"%d" % v)
    assert [m.data for m in f.since(2)] == [b"3", b"4", b"5"]
    assert f.since(5) == []


def test_a_new_or_lagging_viewer_gets_the_latest_of_each_board() -> None:
    f = Feed(keep=3)
    for v in range(1, 8):
        f.push("a", v, b"a%d" % v)
        f.push("b", v, b"b%d" % v)
    assert [m.data for m in f.since(None)] == [b"a7", b"b7"]
    assert [m.data for m in f.since(2)] == [b"a7", b"b7"]  # messages 3..11 are gone
    assert [m.data for m in f.since(13)] == [b"b7"]
    assert [m.data for m in f.since(99)] == [b"a7", b"b7"]  # from before a restart


def test_an_older_version_of_a_board_is_never_sent_after_a_newer_one() -> None:
    f = Feed()
    assert f.push("1", 2, b"new") is not None
    assert f.push("1", 1, b"old") is None
    assert [m.data for m in f.since(None)] == [b"new"]


def test_waiting_viewers_wake_on_a_push_and_on_close() -> None:
    f = Feed()
    got: list[list[bytes]] = []
    t = threading.Thread(target=lambda: got.append([m.data for m in f.wait(0, 5)]))
    t.start()
    f.push("1", 1, b"x")
    t.join(5)
    assert got == [[b"x"]]
    t = threading.Thread(target=lambda: got.append([m.data for m in f.wait(1, 5)]))
    t.start()
    f.close()
    t.join(5)
    assert got[-1] == [] and not t.is_alive()


def test_the_snapshot_holds_the_games_stones() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    play(b, g, "C3", "G7")
    assert b.snapshot.position == Position.from_stones(
        9, 9, {Point(2, 2): Color.BLACK, Point(6, 6): Color.WHITE})


def test_describing_the_game_is_heard_only_when_it_changes() -> None:
    b = LiveBoard("1", 9)
    seen: list[str] = []
    b.subscribe(lambda board, snap: seen.append(snap.title))
    b.describe(title="Final", players=("Ann", "Bob"))
    b.describe(title="Final")
    assert seen == ["Final"]
    assert b.snapshot.to_json()["players"] == {"B": "Ann", "W": "Bob"}


@dataclasses.dataclass(frozen=True)
class TrackerNote:
    """The shape of a tracker's announcement, as a session hands it to its sinks."""

    kind: str
    text: str
    points: tuple[Point, ...] = ()
    reason: Reason | None = None


def test_a_session_sink_shows_events_and_the_trackers_warnings() -> None:
    g, b = Game("japanese", 9), LiveBoard("1", 9)
    sink = BoardSink(b, g)
    said: list[str] = []
    b.on_announcement(lambda event, text: said.append(text))
    for v in KO:
        sink(g.pass_() if v == "pass" else g.play(Point.from_gtp(v)), 0.0)
    assert b.snapshot.position == g.position and b.snapshot.last_move == Point.from_gtp("F4")
    e4 = Point.from_gtp("E4")
    sink(TrackerNote("illegal", "White E4 is ko: take it back", (e4,), Reason.KO), 1.0)
    sink(TrackerNote("unexpected-removal", "C3 was taken off but not captured"), 2.0)
    s = b.snapshot
    assert [(a.kind, a.text) for a in s.announcements[-2:]] == [
        ("ko", "White E4 is ko: take it back"),
        ("unexpected-removal", "C3 was taken off but not captured")]
    assert s.highlight == e4
    assert said[-2:] == ["White E4 is ko: take it back", "C3 was taken off but not captured"]
    g.setup(black=[Point.from_gtp("A1")])
    sink(object(), 3.0)  # setup stones: the board shows the game as it is
    assert b.snapshot.position == g.position


def test_the_page_counts_and_takes_back_on_a_game_of_its_own() -> None:
    game = Game("japanese", 5)
    board = LiveBoard("t", 5)
    board.on_command = game_commands(board, game)
    game.play(Point.from_gtp("C3"))
    board.update(game)
    board.command("undo")
    s = board.snapshot.to_json()
    assert s["number"] == 0 and s["announcements"][0]["text"] == "move 1 taken back"
    with pytest.raises(CommandError, match="no move to take back"):
        board.command("undo")
    with pytest.raises(CommandError, match="counted only after two passes"):
        board.command("done")
    game.play(Point.from_gtp("C3"))
    board.command("pass")
    board.command("pass")
    s = board.snapshot.to_json()
    assert s["counting"] and s["score"]["result"] == "B+17.5"  # the count as it stands
    board.command("done")
    s = board.snapshot.to_json()
    assert not s["counting"] and s["phase"] == "over" and s["result"] == "B+17.5"
