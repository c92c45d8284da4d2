"""``kifu record --serve``: the recording's own live page, its JSON, its SGF, and its
pass button going to the session like the keyboard's."""

from __future__ import annotations

import json
import queue
import urllib.error
import urllib.request
from pathlib import Path

from kifu.cmd_record import _display
from kifu.session import Command, Session
from kifu.sinks import SgfWriter, Sink
from kifu.tracker import Tracker
from rules import Color, Game, Observation, preset


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as r:
        return bytes(r.read())


def test_the_recording_serves_its_board_json_sgf_and_takes_commands(tmp_path: Path) -> None:
    game = Game(preset("japanese"), 9)
    writer = SgfWriter(tmp_path / "g.sgf", game)
    commands: queue.Queue[Command] = queue.Queue()
    sinks: list[Sink] = [writer]
    server = _display("127.0.0.1:0", game, writer, commands, {"PB": "Ann", "PW": "Bo"},
                      sinks, "table-1")
    try:
        session = Session(Tracker(game, stable_for=0.0), sinks)
        empty = ["." * 9] * 9
        session.handle(Observation.from_rows(empty, time=0.0))
        rows = ["." * 9] * 4 + ["....X...."] + ["." * 9] * 4
        session.handle(Observation.from_rows(rows, time=1.0))
        session.handle(Observation.from_rows(rows, time=1.5))
        assert game.number == 1

        boards = json.loads(_get(f"{server.url}api/v1/boards"))
        text = json.dumps(boards)
        assert "table-1" in text and "Ann" in text
        board = json.loads(_get(f"{server.url}api/v1/boards/board"))
        assert board["number"] == 1
        assert b"B[ee]" in _get(f"{server.url}api/v1/boards/board/game.sgf")

        post = urllib.request.Request(f"{server.url}api/v1/boards/board/pass?token={server.token}",
                                      data=b"", method="POST")
        urllib.request.urlopen(post, timeout=5).close()
        assert commands.get(timeout=2) == Command("pass", None)
        session.handle(Command("pass", None))
        assert game.to_move is Color.BLACK and game.number == 2
    finally:
        server.stop()


def _post(url: str, body: bytes = b"") -> tuple[int, dict[str, object]]:
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_undo_done_and_a_corrected_point_from_the_pages_go_to_the_session(tmp_path: Path) -> None:
    game = Game(preset("japanese"), 9)
    writer = SgfWriter(tmp_path / "g.sgf", game)
    commands: queue.Queue[Command] = queue.Queue()
    server = _display("127.0.0.1:0", game, writer, commands, {}, [writer], "table-1")
    try:
        base = f"{server.url}api/v1/boards/board/"
        token = f"?token={server.token}"
        for name in ("undo", "done"):
            assert _post(base + name + token)[0] == 200
            assert commands.get(timeout=2) == Command(name)
        status, _ = _post(base + "set" + token, b'{"point": "d4", "stone": "white"}')
        assert status == 202
        assert commands.get(timeout=2) == Command("set", Color.WHITE, vertex="D4")
        assert _post(base + "set" + token, b'{"point": "D4", "stone": "red"}')[0] == 400
        assert _post(base + "set" + token, b'{"point": "K10", "stone": "empty"}')[0] == 400
        assert _post(base + "set" + token, b'{"stone": "empty"}')[0] == 400
        assert _post(base + "set", b'{"point": "D4", "stone": "empty"}')[0] == 403
        assert commands.empty()
    finally:
        server.stop()


def test_a_correction_is_shown_on_the_page_with_the_game_as_corrected(tmp_path: Path) -> None:
    game = Game(preset("japanese"), 9)
    writer = SgfWriter(tmp_path / "g.sgf", game)
    commands: queue.Queue[Command] = queue.Queue()
    sinks: list[Sink] = [writer]
    server = _display("127.0.0.1:0", game, writer, commands, {}, sinks, "table-1")
    try:
        session = Session(Tracker(game, stable_for=0.0), sinks)
        empty = ["." * 9] * 9
        black = ["." * 9] * 4 + ["....X...."] + ["." * 9] * 4
        both = ["." * 9] * 3 + ["...O....."] + ["....X...."] + ["." * 9] * 4
        for t, rows in enumerate((empty, black, both)):
            session.handle(Observation.from_rows(rows, time=float(t)))
        assert game.number == 2
        session.handle(Command("undo"))
        board = json.loads(_get(f"{server.url}api/v1/boards/board"))
        assert board["number"] == 1 and board["last_move"] is None
        assert board["rows"][3] == "." * 9
        assert board["announcements"][0] == {
            "text": "White's D6 (move 2) taken back: take D6 off the board",
            "kind": "correction", "time": board["announcements"][0]["time"]}
        sgf_served = _get(f"{server.url}api/v1/boards/board/game.sgf")
        assert b"W[" not in sgf_served and b"C[kifu correction at 2.00 s: undo: " in sgf_served
    finally:
        server.stop()
