"""The display's web server defends itself: against the running server on real loopback
sockets, each attack the issue "No game lost, no door left open" found in the old
standard-library server, refused."""

from __future__ import annotations

import json
import logging
import selectors
import socket
import struct
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kifu.display import DisplayServer, LiveBoard, game_commands
from kifu.display.camera import CameraView
from kifu.display.web import Timeouts
from rules import Game, Point

IDLE = 1.0
"""Seconds a connection may hold the test server without a whole request."""

QUICK = Timeouts(idle=IDLE, body=0.5, write=2.0, heartbeat=0.5)


@pytest.fixture
def live() -> Iterator[tuple[DisplayServer, LiveBoard, Game]]:
    game = Game("japanese", 9)
    board = LiveBoard("1", 9, title="Board one")
    board.on_command = game_commands(board, game)
    server = DisplayServer([board], token="s3cret", timeouts=QUICK).start()
    try:
        yield server, board, game
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def quiet_terminal(caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
                   ) -> Iterator[None]:
    """Whatever a client does, nothing is said above debug level and nothing is printed:
    the terminal belongs to the announcements."""
    caplog.set_level(logging.DEBUG)
    yield
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert loud == [], [r.getMessage() for r in loud]
    assert "Traceback" not in capfd.readouterr().err


def connect(server: DisplayServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=5)


def exchange(server: DisplayServer, data: bytes) -> bytes:
    """Send raw bytes on a new connection; everything the server says until it closes it
    (or goes quiet for 3 s)."""
    with connect(server) as s:
        s.sendall(data)
        s.settimeout(3)
        got = b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except TimeoutError:
            pass
        return got


def status(answer: bytes) -> int:
    """The status of the first answer (aiohttp's parser answers some refusals itself, in
    HTTP/1.0); 0 when there was none."""
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0


def host(server: DisplayServer) -> bytes:
    return f"Host: 127.0.0.1:{server.port}\r\n".encode()


def get(server: DisplayServer, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(server.url.rstrip("/") + path,
                                 headers={k.replace("_", "-"): v for k, v in headers.items()})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def closed_within(sockets: list[socket.socket], seconds: float,
                  trickle: list[socket.socket] = ()) -> float:  # type: ignore[assignment]
    """Wait until the server has closed every socket (recv gives b"" or a reset); the
    seconds that took. The ``trickle`` sockets send one more byte of their head every
    0.2 s meanwhile, as a slow-loris attacker does."""
    start = time.monotonic()
    sel = selectors.DefaultSelector()
    for s in sockets:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    open_ = set(sockets)
    next_drip = start
    while open_ and time.monotonic() - start < seconds:
        if time.monotonic() >= next_drip:
            for s in trickle:
                if s in open_:
                    try:
                        s.send(b"X")
                    except OSError:
                        pass
            next_drip += 0.2
        for key, _ in sel.select(0.05):
            s = key.fileobj  # type: ignore[assignment]
            try:
                data = s.recv(65536)
            except (ConnectionResetError, BlockingIOError):
                data = b""
            if not data:
                open_.discard(s)
                sel.unregister(s)
    sel.close()
    assert not open_, f"{len(open_)} of {len(sockets)} connections still open"
    return time.monotonic() - start


def test_400_idle_and_slow_connections_are_closed_within_the_timeout_while_the_page_loads(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    """The old server gave each of 400 such connections a thread for over a minute."""
    server, _, _ = live
    threads = threading.active_count()
    idle = [connect(server) for _ in range(200)]
    half = [connect(server) for _ in range(200)]
    for s in half:  # a head begun and never ended, then trickled a byte at a time
        s.sendall(b"GET / HTTP/1.1\r\n" + host(server) + b"X-Slow: ")
    began = time.monotonic()
    code, headers, page = get(server, "/")
    assert code == 200 and b"/static/app.js" in page
    assert time.monotonic() - began < 1.0
    assert threading.active_count() < threads + 10  # no thread per connection
    took = closed_within(idle + half, IDLE + 3.0, trickle=half[:100])
    assert took < IDLE + 3.0
    for s in idle + half:
        s.close()
    assert get(server, "/api/v1/boards/1")[0] == 200


def test_a_kept_alive_connection_left_idle_is_closed(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    s = connect(server)
    s.sendall(b"GET /api/v1/boards/1 HTTP/1.1\r\n" + host(server) + b"\r\n")
    assert s.recv(65536).startswith(b"HTTP/1.1 200")
    closed_within([s], IDLE + 3.0)
    s.close()


def test_a_body_sent_too_slowly_is_given_up(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, game = live
    answer = exchange(server, b"POST /api/v1/boards/1/pass HTTP/1.1\r\n" + host(server)
                      + b"Authorization: Bearer s3cret\r\nContent-Length: 100\r\n\r\n{\"co")
    assert status(answer) == 408 and game.number == 0


def test_a_command_smuggled_in_a_gets_body_never_runs(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    """The old server read the GET's body as the next request: an authorised pass ran."""
    server, _, game = live
    inner = (b"POST /api/v1/boards/1/pass HTTP/1.1\r\n" + host(server)
             + b"Authorization: Bearer s3cret\r\nContent-Length: 0\r\n\r\n")
    answer = exchange(server, b"GET /api/v1/boards/1 HTTP/1.1\r\n" + host(server)
                      + b"Content-Length: %d\r\n\r\n" % len(inner) + inner)
    assert status(answer) == 400 and b"a GET request has no body" in answer
    assert answer.count(b"HTTP/1.") == 1  # one answer, then the connection is closed
    time.sleep(0.2)
    assert game.number == 0


@pytest.mark.parametrize("lengths", [(b"0", b"0"), (b"0", b"60")])
def test_two_content_lengths_are_refused(live: tuple[DisplayServer, LiveBoard, Game],
                                         lengths: tuple[bytes, bytes]) -> None:
    server, _, game = live
    answer = exchange(server, b"POST /api/v1/boards/1/pass HTTP/1.1\r\n" + host(server)
                      + b"Authorization: Bearer s3cret\r\n"
                      + b"".join(b"Content-Length: %s\r\n" % n for n in lengths) + b"\r\n")
    assert status(answer) == 400 and answer.count(b"HTTP/1.") == 1
    assert game.number == 0


def test_a_length_and_a_chunked_body_at_once_are_refused(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, game = live
    answer = exchange(server, b"POST /api/v1/boards/1/pass HTTP/1.1\r\n" + host(server)
                      + b"Authorization: Bearer s3cret\r\nContent-Length: 5\r\n"
                      + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    assert status(answer) == 400 and game.number == 0


@pytest.mark.parametrize("name, answered", [
    ("127.0.0.1", True), ("localhost", True), ("LOCALHOST.", True), ("[::1]", True),
    ("evil.example", False), ("127.0.0.1.nip.io", False), ("kifu.club.example", False),
])
def test_only_the_servers_own_names_are_answered(
        live: tuple[DisplayServer, LiveBoard, Game], name: str, answered: bool) -> None:
    """A page of evil.example whose name is made to point at 127.0.0.1 (DNS rebinding)
    reaches the server with its own name in Host: refused."""
    server, _, _ = live
    answer = exchange(server, f"GET /api/v1/boards HTTP/1.1\r\nHost: {name}:{server.port}"
                              f"\r\nConnection: close\r\n\r\n".encode())
    assert status(answer) == (200 if answered else 400)
    if not answered:
        assert b"--allow-host" in answer


def test_a_request_without_a_host_is_refused(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    assert status(exchange(server, b"GET /api/v1/boards HTTP/1.0\r\n\r\n")) == 400


def test_names_given_with_allow_host_are_answered() -> None:
    with DisplayServer([LiveBoard("1")], allow_hosts=["kifu.club.example"],
                       timeouts=QUICK) as server:
        answer = exchange(server, f"GET /api/v1/boards HTTP/1.1\r\nHost: kifu.club.example:"
                                  f"{server.port}\r\nConnection: close\r\n\r\n".encode())
        assert status(answer) == 200


def test_no_page_of_another_site_may_read_the_board(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, _ = live
    code, headers, body = get(server, "/api/v1/boards/1")
    assert code == 200 and "Access-Control-Allow-Origin" not in headers
    for path in ("/api/v1/boards/1", "/api/v1/events", "/api/v1/boards/1/game.sgf"):
        code, headers, body = get(server, path, Origin="http://evil.example")
        assert code == 403 and "Access-Control-Allow-Origin" not in headers
        assert b"--cors" in body
    own = f"http://127.0.0.1:{server.port}"
    assert get(server, "/api/v1/boards/1", Origin=own)[0] == 200  # the page's own fetches


def test_the_one_origin_given_with_cors_may_read() -> None:
    board = LiveBoard("1", 9)
    with DisplayServer([board], cors="http://club.example", timeouts=QUICK) as server:
        code, headers, _ = get(server, "/api/v1/boards/1", Origin="http://club.example")
        assert code == 200 and headers["Access-Control-Allow-Origin"] == "http://club.example"
        code, headers, _ = get(server, "/api/v1/boards/1", Origin="http://evil.example")
        assert code == 403 and "Access-Control-Allow-Origin" not in headers
        answer = exchange(server, b"OPTIONS /api/v1/boards/1/pass HTTP/1.1\r\n" + host(server)
                          + b"Origin: http://club.example\r\n"
                          + b"Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n")
        assert status(answer) == 204 and b"Access-Control-Allow-Methods: GET, HEAD, POST" in answer
        with urllib.request.urlopen(urllib.request.Request(
                server.url + "api/v1/events", headers={"Origin": "http://club.example"}),
                timeout=5) as r:
            assert r.headers["Access-Control-Allow-Origin"] == "http://club.example"


def post_raw(server: DisplayServer, path: str, body: bytes, token: str = "s3cret") -> bytes:
    return exchange(server, f"POST {path} HTTP/1.1\r\n".encode() + host(server)
                    + f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                    + body)


def test_a_2000_deep_json_body_is_a_400_not_a_crash(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    """The old server's json.loads raised RecursionError on it."""
    server, _, game = live
    deep = b"[" * 2000 + b"]" * 2000
    answer = post_raw(server, "/api/v1/boards/1/pass", deep)
    assert status(answer) == 400 and b"nested 2000 deep" in answer and game.number == 0
    assert status(post_raw(server, "/api/v1/boards/1/pass", b'{"color": "B"}')) == 200


def test_a_body_over_4_kb_is_refused(live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    server, _, game = live
    answer = post_raw(server, "/api/v1/boards/1/pass", b" " * 5000)
    assert status(answer) == 413 and game.number == 0


def test_a_viewer_that_goes_away_is_noted_once_at_debug_level(
        live: tuple[DisplayServer, LiveBoard, Game], caplog: pytest.LogCaptureFixture) -> None:
    """The old server printed a traceback for each, where announcements go."""
    server, board, game = live
    s = connect(server)
    s.sendall(b"GET /api/v1/events HTTP/1.1\r\n" + host(server) + b"\r\n")
    seen = b""
    while b"event: board" not in seen:
        seen += s.recv(65536)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()  # a reset, as from a phone that walked out of the room
    for v in ("C3", "G7", "C7", "G3"):
        board.update(game, game.play(Point.from_gtp(v)))
        time.sleep(0.1)
    time.sleep(0.6)  # a heartbeat too
    gone = [r for r in caplog.records if "went away" in r.getMessage()]
    assert len(gone) == 1 and gone[0].levelno == logging.DEBUG
    assert gone[0].name == "kifu.display"


def test_the_streams_go_on_past_the_idle_timeout(
        live: tuple[DisplayServer, LiveBoard, Game]) -> None:
    """The idle timeout is for connections without a request, not for viewers."""
    from kifu.display.client import stream

    server, board, game = live
    events = stream(server.url, timeout=5)
    next(events)
    time.sleep(IDLE + 0.5)
    board.update(game, game.play(Point.from_gtp("E5")))
    assert json.loads(next(events).data)["last_move"] == "E5"
    events.close()


def non_loopback_address() -> str | None:
    """An address of this machine that is not loopback, if it has one."""
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        names = []
    for a in names:
        if not a.startswith("127."):
            return a
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: only the route is looked up
            a = s.getsockname()[0]
            return None if a.startswith("127.") or a == "0.0.0.0" else str(a)
    except OSError:
        return None


def test_off_loopback_the_camera_needs_the_token() -> None:
    address = non_loopback_address()
    if address is None:
        pytest.skip("this machine has no address but loopback (see test_policy for the rule)")
    view = CameraView()
    view.show(np.zeros((120, 160, 3), np.uint8), 0.0, reason="dark")
    board = LiveBoard("1", 9, camera=view)
    with DisplayServer([board], address, 0, token="s3cret", timeouts=QUICK) as server:
        base = f"http://{address}:{server.port}"
        for path in ("/api/v1/boards/1/camera.jpg", "/api/v1/boards/1/camera",
                     "/calibrate?board=1"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path, timeout=5)
            assert refused.value.code == 403
            sep = "&" if "?" in path else "?"
            with urllib.request.urlopen(f"{base}{path}{sep}token=s3cret", timeout=5) as r:
                assert r.status == 200
        req = urllib.request.Request(base + "/api/v1/boards/1/camera.jpg",
                                     headers={"Authorization": "Bearer s3cret"})
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.headers["Content-Type"] == "image/jpeg"
        with urllib.request.urlopen(base + "/api/v1/boards/1", timeout=5) as r:
            assert r.status == 200  # the board itself stays public


def test_a_viewer_that_stops_reading_is_dropped_after_the_write_timeout(
        caplog: pytest.LogCaptureFixture) -> None:
    """It would otherwise hold what it is owed in the server's memory for ever."""
    board = LiveBoard("1", 9)
    with DisplayServer([board], timeouts=Timeouts(idle=IDLE, write=0.5)) as server:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", server.port))
        s.sendall(b"GET /api/v1/events HTTP/1.1\r\n" + host(server) + b"\r\n")
        head = s.recv(4096)
        assert b"200 OK" in head and b"Transfer-Encoding" not in head  # as before aiohttp
        version = board.snapshot.version
        for k in range(1, 200):  # 12.8 MB it never reads
            server.feed.push("1", version + k, b"x" * 65536)
        end = time.monotonic() + 5
        while time.monotonic() < end and not any(
                "went away" in r.getMessage() for r in caplog.records):
            time.sleep(0.05)
        gone = [r for r in caplog.records if "went away" in r.getMessage()]
        assert len(gone) == 1 and gone[0].levelno == logging.DEBUG
        s.close()


def test_kifu_serve_passes_allow_host_and_cors_to_its_server(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from kifu.cli import build_parser
    from kifu.cmd_serve import cmd_serve

    game = tmp_path / "game.sgf"
    game.write_bytes(b"(;GM[1]FF[4]SZ[9];B[ee])")
    args = build_parser().parse_args(["serve", str(game), "--port", "0", "--quiet",
                                      "--allow-host", "kifu.club.example",
                                      "--cors", "http://club.example"])
    stop = threading.Event()
    t = threading.Thread(target=cmd_serve, args=(args, stop))
    t.start()
    try:
        url = None
        end = time.monotonic() + 5
        while url is None and time.monotonic() < end:
            for line in capfd.readouterr().out.splitlines():
                if "showing 1 board at " in line:
                    url = line.split(" at ")[-1]
            time.sleep(0.05)
        assert url is not None
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(f"GET /api/v1/boards/game HTTP/1.1\r\nHost: kifu.club.example:{port}\r\n"
                      f"Origin: http://club.example\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        assert status(answer) == 200
        assert b"Access-Control-Allow-Origin: http://club.example" in answer
    finally:
        stop.set()
        t.join(5)


def test_serve_forever_in_a_thread_of_ones_own_stops_cleanly() -> None:
    server = DisplayServer([LiveBoard("1", 9)], timeouts=QUICK)
    t = threading.Thread(target=server.serve_forever)
    t.start()
    end = time.monotonic() + 5
    while True:
        try:
            assert get(server, "/api/v1/boards/1")[0] == 200
            break
        except urllib.error.URLError:
            assert time.monotonic() < end
            time.sleep(0.05)
    server.stop()
    t.join(5)
    assert not t.is_alive()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1)
