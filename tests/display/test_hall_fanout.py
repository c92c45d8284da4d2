"""The hall's event streams under a crowd (`kifu.display.fanout`): a board's changes that
come faster than a viewer is written to reach it as the board's latest state, in order; a
viewer that reads nothing holds up no one and, once it reads again, skips to the present;
a viewer that comes back with ``Last-Event-ID`` gets what changed while it was away.

No broker here: the tests hand the hall its boards' messages directly, as the hall's MQTT
subscriber does.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import zlib
from collections.abc import Iterator

import pytest

from kifu.display.client import ServerEvent, open_stream, read_events
from kifu.display.fanout import BRISK, DUTY, GZIP_HEADER, accepts_gzip, coalesce, deflated, pace
from kifu.display.feed import Message
from kifu.display.hall_server import HallServer
from kifu.display.web import Timeouts
from kifu.hall import Hall


def m(seq: int, board: str, version: int) -> Message:
    return Message(seq, board, version, b"")


def test_coalescing_keeps_each_boards_latest_state_in_feed_order() -> None:
    #   seq:    1      2      3      4      5
    #   board:  1@1    2@1    1@2    3@1    2@2   ->   1@2, 3@1, 2@2
    messages = [m(1, "1", 1), m(2, "2", 1), m(3, "1", 2), m(4, "3", 1), m(5, "2", 2)]
    assert [(x.board_id, x.version) for x in coalesce(messages)] == [
        ("1", 2), ("3", 1), ("2", 2)]
    assert [(x.board_id, x.version) for x in coalesce(messages, only="2")] == [("2", 2)]
    assert coalesce([]) == []


def test_frames_deflated_apart_make_one_gzip_stream_wherever_it_stands() -> None:
    frames = [b"id: a.1\nevent: board\ndata: {}\n\n" * n for n in (1, 40, 3)]
    stream = GZIP_HEADER + b"".join(deflated(f) for f in frames)
    assert zlib.decompressobj(31).decompress(stream) == b"".join(frames)
    later = GZIP_HEADER + deflated(frames[2]) + deflated(frames[0])  # another viewer's order
    assert zlib.decompressobj(31).decompress(later) == frames[2] + frames[0]


@pytest.mark.parametrize("header, gzip", [
    ("gzip, deflate, br, zstd", True), ("GZIP;q=0.5", True), ("gzip;q=0", False),
    ("deflate, gzip; q=0.0", False), ("identity", False), ("", False), (None, False)])
def test_who_accepts_gzip(header: str | None, gzip: bool) -> None:
    assert accepts_gzip(header) is gzip


class Crowd:
    """A hall server whose boards' states the test publishes (number: the move number;
    ``pad``: bytes of title, to make states as big as a test needs)."""

    def __init__(self, tick: float, timeouts: Timeouts = Timeouts(), delay: float = 0.0
                 ) -> None:
        self.hall = Hall("club", delay=delay)
        self.lock = threading.Lock()
        self.server = HallServer(self.hall, self.lock, tick=tick, timeouts=timeouts).start()

    def move(self, board: str, number: int, pad: int = 0) -> None:
        state = {"id": board, "title": "x" * pad, "rows": ["....."] * 5, "number": number,
                 "captures": {"B": 0, "W": 0}}
        with self.lock:
            self.hall.take(f"kifu/v1/club/{board}/state", json.dumps(state).encode(),
                           self.server.clock())
        self.server.changed(board)

    def viewer(self, last_event_id: str | None = None, timeout: float = 10.0
               ) -> Iterator[ServerEvent]:
        resp = open_stream(self.server.url + "api/v1/events", last_event_id, timeout)
        return read_events(resp)

    def close(self) -> None:
        self.server.stop()


def moves(events: Iterator[ServerEvent], until: dict[str, int]) -> list[tuple[str, int]]:
    """(board, number) of each event read, until every board in ``until`` reached its
    number there."""
    seen: list[tuple[str, int]] = []
    reached: dict[str, int] = {}
    while any(reached.get(b, -1) < n for b, n in until.items()):
        event = next(events)
        assert event.event == "board"
        state = json.loads(event.data)
        seen.append((state["id"], state["number"]))
        reached[state["id"]] = state["number"]
    return seen


def in_order(seen: list[tuple[str, int]]) -> bool:
    """Does every board's number only go up?"""
    last: dict[str, int] = {}
    for board, number in seen:
        if number <= last.get(board, -1):
            return False
        last[board] = number
    return True


@pytest.fixture
def crowd() -> Iterator[Crowd]:
    c = Crowd(tick=1.0)
    try:
        yield c
    finally:
        c.close()


def test_a_burst_of_moves_reaches_a_viewer_coalesced_in_order_ending_on_each_last(
        crowd: Crowd) -> None:
    events = crowd.viewer()
    for number in range(1, 21):  # 60 changes within a fraction of one tick
        for board in ("1", "2", "3"):
            crowd.move(board, number)
    seen = moves(events, {"1": 20, "2": 20, "3": 20})
    assert in_order(seen), seen
    assert len(seen) < 60, "a board's changes within a tick go out as its latest one"


def test_a_small_halls_changes_go_out_at_once_not_a_tick_apart() -> None:
    # The tick is 5 s: changes written only once a tick would take 10 s for these three.
    crowd = Crowd(tick=5.0)
    try:
        events = crowd.viewer(timeout=30)
        started = time.monotonic()
        for number in range(1, 4):
            crowd.move("1", number)
            assert moves(events, {"1": number}) == [("1", number)]
        assert time.monotonic() - started < 5.0
    finally:
        crowd.close()


def test_the_pace_of_rounds_follows_their_cost_between_brisk_and_the_tick() -> None:
    assert pace(0.0001) == BRISK, "a cheap round: the next one soon after"
    assert pace(0.02) == pytest.approx(0.02 / DUTY), "rounds kept to their share of time"
    assert pace(1.0) == 0.25 and pace(1.0, tick=0.5) == 0.5, "never slower than the tick"
    assert pace(0.0, tick=0.01) == 0.01


def test_a_viewer_that_reads_nothing_holds_up_no_one_then_skips_to_the_present() -> None:
    crowd = Crowd(tick=0.05)
    slow = socket.socket()
    try:
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.settimeout(10)
        slow.connect(("127.0.0.1", crowd.server.port))
        slow.sendall(b"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        fast = crowd.viewer()
        for number in range(1, 41):  # 3 MB for a viewer that takes nothing
            for board in ("1", "2", "3"):
                crowd.move(board, number, pad=25_000)
            time.sleep(0.01)
        started = time.monotonic()
        seen = moves(fast, {"1": 40, "2": 40, "3": 40})
        assert time.monotonic() - started < 3, "the fast viewer waited for the slow one"
        assert in_order(seen)
        late = moves(read_events(slow.makefile("rb")), {"1": 40, "2": 40, "3": 40})
        assert in_order(late)
        assert len(late) < 120, "the slow viewer skipped the states it fell behind on"
    finally:
        slow.close()
        crowd.close()


def test_a_viewer_that_takes_nothing_for_the_write_timeout_is_dropped() -> None:
    crowd = Crowd(tick=0.05, timeouts=Timeouts(write=0.5))
    stuck = socket.socket()
    try:
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", crowd.server.port))
        stuck.sendall(b"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        for number in range(1, 21):
            crowd.move("1", number, pad=50_000)
            time.sleep(0.01)
        time.sleep(2.5)  # the write timeout, and the once-a-second look at every viewer
        stuck.settimeout(10)
        with pytest.raises(ConnectionResetError):
            while stuck.recv(65536):
                pass  # what it was sent before the server gave up on it, if anything
    finally:
        stuck.close()
        crowd.close()


def test_a_viewer_back_with_last_event_id_gets_what_changed_while_it_was_away(
        crowd: Crowd) -> None:
    for board, number in (("1", 1), ("2", 1), ("3", 1)):
        crowd.move(board, number)
    resp = open_stream(crowd.server.url + "api/v1/events", timeout=10)
    first = [next(read_events(resp)) for _ in range(3)]
    resp.close()
    assert [json.loads(e.data)["id"] for e in first] == ["1", "2", "3"]
    last_id = first[-1].id
    crowd.move("2", 2)
    crowd.move("3", 2)
    crowd.move("3", 3)
    events = crowd.viewer(last_id)
    assert moves(events, {"2": 2, "3": 3}) == [("2", 2), ("3", 3)]
    crowd.move("1", 2)
    assert moves(events, {"1": 2}) == [("1", 2)], "board 1 was not sent again in between"


def test_a_viewer_back_from_too_long_away_gets_each_boards_latest(crowd: Crowd) -> None:
    crowd.move("1", 1)
    crowd.move("2", 1)
    resp = open_stream(crowd.server.url + "api/v1/events", timeout=10)
    last_id = [next(read_events(resp)) for _ in range(2)][-1].id
    resp.close()
    for number in range(2, 602):  # more than the feed keeps one by one
        crowd.move("1", number)
    assert moves(crowd.viewer(last_id), {"1": 601}) == [("1", 601)]
    epoch, _, _ = (last_id or "").partition(".")
    assert moves(crowd.viewer("other-run.3"), {"1": 601, "2": 1}) == [("2", 1), ("1", 601)]
    assert epoch == crowd.server.epoch


def inflated_lines(resp: http.client.HTTPResponse) -> Iterator[bytes]:
    """A gzipped stream's lines, as they come."""
    inflate = zlib.decompressobj(31)
    pending = b""
    while chunk := resp.read1(65536):
        pending += inflate.decompress(chunk)
        *lines, pending = pending.split(b"\n")
        yield from (line + b"\n" for line in lines)


def test_a_viewer_that_accepts_gzip_gets_the_same_updates_gzipped(crowd: Crowd) -> None:
    crowd.move("1", 1)
    plain = crowd.viewer()
    conn = http.client.HTTPConnection("127.0.0.1", crowd.server.port, timeout=10)
    conn.request("GET", "/api/v1/events", headers={"Accept-Encoding": "gzip, deflate"})
    resp = conn.getresponse()
    try:
        assert resp.getheader("Content-Encoding") == "gzip"
        packed = read_events(inflated_lines(resp))  # type: ignore[arg-type]
        for number in range(2, 11):
            crowd.move("1", number)
            crowd.move("2", number)
        seen = moves(packed, {"1": 10, "2": 10})
        assert in_order(seen)
        assert seen[-2:] == moves(plain, {"1": 10, "2": 10})[-2:]
    finally:
        conn.close()


def test_a_quiet_stream_gets_a_comment_line_every_heartbeat() -> None:
    crowd = Crowd(tick=0.05, timeouts=Timeouts(heartbeat=0.2))
    try:
        resp = open_stream(crowd.server.url + "api/v1/events", timeout=5)
        lines = [resp.readline() for _ in range(4)]  # retry, its blank line, then pings
        assert lines[2:] == [b": ping\n", b"\n"]
        resp.close()
    finally:
        crowd.close()


def events_at(crowd: Crowd, path: str) -> Iterator[ServerEvent]:
    conn = http.client.HTTPConnection("127.0.0.1", crowd.server.port, timeout=10)
    conn.request("GET", path)
    return read_events(conn.getresponse())


def test_a_viewer_of_one_board_gets_that_board_only(crowd: Crowd) -> None:
    crowd.move("1", 1)
    crowd.move("2", 1)
    one = events_at(crowd, "/api/v1/events?board=2")
    crowd.move("1", 2)
    crowd.move("2", 2)
    crowd.move("1", 3)
    assert moves(one, {"2": 2}) == [("2", 1), ("2", 2)]


def test_the_organiser_stream_is_live_and_the_public_one_late() -> None:
    crowd = Crowd(tick=0.05, delay=1.0)
    try:
        public = events_at(crowd, "/api/v1/events")
        organiser = events_at(crowd, f"/api/v1/events?token={crowd.server.token}")
        played = time.monotonic()
        crowd.move("1", 1)
        assert moves(organiser, {"1": 1}) == [("1", 1)]
        live = time.monotonic() - played
        assert moves(public, {"1": 1}) == [("1", 1)]
        assert time.monotonic() - played >= 1.0 > live
    finally:
        crowd.close()
