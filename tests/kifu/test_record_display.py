"""``kifu record --serve``: the recording's own live page, its JSON, its SGF, and its
pass button going to the session like the keyboard's."""

from __future__ import annotations

import json
import queue
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
