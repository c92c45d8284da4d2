"""The display server over real HTTP on loopback: pages, JSON, SGF, the event stream, and
the commands behind the token."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from kifu.display import DisplayServer, LiveBoard, game_commands, parse_address
from kifu.display.client import open_stream, read_events, stream
from rules import Game, Point


@pytest.fixture
def live() -> Iterator[tuple[DisplayServer, LiveBoard, Game]]:
    game = Game("japanese", 9)
    board = LiveBoard("1", 9, title="Board one")
    board.on_command = game_commands(board, game)
    server = DisplayServer([board], token="s3cret").start()
    try:
        yield server, board, game
    finally:
        server.stop()


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["Content-Type"], e.read()


def post(url: str, token: str | None = None, body: dict[str, Any] | None = None
         ) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(url, method="POST",
                                 data=json.dumps(body).encode() if body else b"")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_page_and_its_files_are_served(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    status, ctype, body = get(server.url)
    assert status == 200 and ctype.startswith("text/html") and b"/static/app.js" in body
    assert get(server.url + "static/app.js")[0] == 200
    assert get(server.url + "static/style.css")[1].startswith("text/css")
    assert get(server.url + "static/../server.py")[0] == 404


def test_the_state_as_json(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, board, game = live
    board.update(game, game.play(Point.from_gtp("E5")))
    status, ctype, body = get(server.url + "api/v1/boards/1")
    state = json.loads(body)
    assert status == 200 and ctype == "application/json"
    assert state["last_move"] == "E5" and state["rows"][4] == "....X...."
    assert state["title"] == "Board one" and "svg" not in state
    listing = json.loads(get(server.url + "api/v1/boards")[2])
    assert [b["id"] for b in listing] == ["1"]


def test_unknown_addresses_say_what_there_is(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    status, _, body = get(server.url + "api/v1/boards/7")
    assert status == 404 and json.loads(body)["error"] == "no board '7'; boards: 1"
    assert get(server.url + "favicon.ico")[0] == 404


def test_the_board_as_svg_turned_on_request(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    status, ctype, body = get(server.url + "api/v1/boards/1/board.svg?rotate=90&size=400")
    assert status == 200 and ctype == "image/svg+xml"
    assert b'data-rotate="90"' in body and b'width="400"' in body
    status, _, body = get(server.url + "api/v1/boards/1/board.svg?rotate=45")
    assert status == 400 and b"rotate must be one of" in body


def test_the_sgf_at_its_stable_address(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, board, _ = live
    url = server.url + "api/v1/boards/1/game.sgf"
    assert get(url)[0] == 404
    board.set_sgf(b"(;GM[1]SZ[9];B[ee])")
    status, ctype, body = get(url)
    assert (status, ctype, body) == (200, "application/x-go-sgf", b"(;GM[1]SZ[9];B[ee])")


def test_commands_need_the_token(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, game = live
    url = server.url + "api/v1/boards/1/pass"
    assert post(url)[0] == 403
    assert post(url, "guess")[0] == 403
    assert game.number == 0
    status, state = post(url, "s3cret")
    assert status == 200 and state["last_move"] == "pass" and game.number == 1
    status, state = post(server.url + "api/v1/boards/1/resign", "s3cret", {"color": "B"})
    assert status == 200 and state["result"] == "W+R"
    status, state = post(url, "s3cret")
    assert status == 409 and state["error"] == "the game is over"
    assert post(server.url + "api/v1/boards/1/teleport", "s3cret")[0] == 404
    assert post(server.url + "api/v1/boards/1/pass", "s3cret", {"color": "purple"})[0] == 400
    assert server.control_url.endswith("?token=s3cret")


def test_the_stream_starts_with_the_present_then_sends_each_update_in_order(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, board, game = live
    board.update(game, game.play(Point.from_gtp("C3")))
    events = stream(server.url, timeout=5)
    first = next(events)
    assert first.event == "board"
    state = json.loads(first.data)
    assert state["last_move"] == "C3" and state["svg"].startswith("<svg")
    for v in ("G7", "C7", "G3"):
        board.update(game, game.play(Point.from_gtp(v)))
    got = [json.loads(next(events).data) for _ in range(3)]
    assert [s["last_move"] for s in got] == ["G7", "C7", "G3"]
    assert [s["version"] for s in got] == [state["version"] + n for n in (1, 2, 3)]
    events.close()


def test_a_viewer_that_reconnects_gets_what_it_missed(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, board, game = live
    events = stream(server.url, timeout=5)
    seen = next(events)
    events.close()
    for v in ("C3", "G7"):
        board.update(game, game.play(Point.from_gtp(v)))
    again = stream(server.url, last_event_id=seen.id, timeout=5)
    missed = [json.loads(next(again).data)["last_move"] for _ in range(2)]
    assert missed == ["C3", "G7"]
    again.close()


def test_stopping_the_server_ends_the_streams() -> None:
    board = LiveBoard("1", 9)
    server = DisplayServer([board]).start()
    resp = open_stream(server.url, timeout=5)
    events = read_events(resp)
    next(events)
    server.stop()
    assert list(events) == []


def test_the_event_stream_format() -> None:
    raw = io.BytesIO(b"retry: 1000\n\n: ping\n\nid: 4\nevent: board\ndata: {\"a\":\ndata: 1}\n\n"
                     b"data: plain\n\n")
    got = list(read_events(raw))
    assert [(e.id, e.event, e.data) for e in got] == [
        ("4", "board", '{"a":\n1}'), ("4", "message", "plain")]


def test_two_boards_need_two_ids() -> None:
    with pytest.raises(ValueError, match="two boards with the id 'x'"):
        DisplayServer([LiveBoard("x"), LiveBoard("x")])


def test_an_event_id_from_an_earlier_run_gets_the_present(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, board, game = live
    board.update(game, game.play(Point.from_gtp("C3")))
    assert server.last_seen(f"{server.epoch}.7") == 7
    assert server.last_seen("0badc0de.1") is None and server.last_seen("junk") is None
    events = stream(server.url, last_event_id="0badc0de.1", timeout=5)
    assert json.loads(next(events).data)["last_move"] == "C3"
    events.close()


@pytest.mark.parametrize("text, address", [
    ("8734", ("127.0.0.1", 8734)), ("0.0.0.0:80", ("0.0.0.0", 80)), ("[::1]:8734", ("::1", 8734)),
    (":9000", ("127.0.0.1", 9000)),
])
def test_serve_addresses(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address


@pytest.mark.parametrize("text", ["", "host:", "host:http", "1:99999"])
def test_bad_serve_addresses_are_named(text: str) -> None:
    with pytest.raises(ValueError, match="not an address to serve on"):
        parse_address(text)


def test_a_port_in_use_is_reported(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{server.port}"):
        DisplayServer([LiveBoard("2")], port=server.port)
