"""``kifu hall``: every board of an event on one page, fed by a real Mosquitto broker.

The hall's model (`kifu.hall`) first, with no broker: what a viewer sees of the messages
the boards publish, live for the organiser and late for the public. Then the whole chain:
boards publishing to Mosquitto, the hall subscribed, its JSON API and its page in Chromium.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kifu.cmd_hall import Subscriber
from kifu.display.hall_server import HallServer
from kifu.hall import Hall, Pairing, read_pairings
from kifu.mqtt import BoardPublisher, BrokerUrl
from rules import Game, Point
from tests.display.conftest import ARTIFACTS
from tests.mqtt_broker import Broker, broker  # noqa: F401

STATE = {"id": "7", "rows": [".....", ".....", "..X..", ".....", "....."], "number": 1,
         "to_move": "W", "captures": {"B": 0, "W": 0}, "players": {"B": "Black", "W": "White"},
         "result": None, "score": None, "announcements": [], "last_move": "C3",
         "territory": None, "dead": []}


def state(**changes: Any) -> bytes:
    return json.dumps({**STATE, **changes}).encode()


def test_the_organiser_sees_a_board_at_once_and_the_public_after_the_delay() -> None:
    hall = Hall("club", delay=60)
    assert hall.take("kifu/v1/club/7/state", state(number=1), time=100) == "7"
    assert hall.view("7", 100, live=True)["number"] == 1  # type: ignore[index]
    assert hall.view("7", 100, live=False) is None  # nothing public for a minute
    hall.take("kifu/v1/club/7/state", state(number=2), time=130)
    assert hall.view("7", 160, live=False)["number"] == 1  # type: ignore[index]
    assert hall.view("7", 160, live=True)["number"] == 2  # type: ignore[index]
    assert hall.view("7", 190, live=False)["number"] == 2  # type: ignore[index]


def test_events_are_taken_once_and_a_gap_is_counted() -> None:
    hall = Hall("club")
    hall.take("kifu/v1/club/7/state", state(), 0)
    for seq in (1, 2, 2, 1, 4):  # 2 and 1 again after a lost acknowledgement; 3 never came
        hall.take("kifu/v1/club/7/events", json.dumps({"seq": seq, "event": "move"}).encode(), 0)
    board = hall.boards["7"]
    assert [e["seq"] for e in board.events] == [1, 2, 4]
    assert board.missed == 1
    assert hall.view("7", 0, live=True)["missed"] == 1  # type: ignore[index]


def test_messages_of_other_events_and_garbage_change_nothing() -> None:
    hall = Hall("club")
    assert hall.take("kifu/v1/open/7/state", state(), 0) is None
    assert hall.take("kifu/v1/club/7/state", b"{not json", 0) is None
    assert hall.take("kifu/v1/club/7/events", b'{"no": "seq"}', 0) is None
    assert hall.take("elsewhere", b"", 0) is None
    assert hall.views(0, live=True) == []


def test_pairings_name_the_players_and_results_list_finished_games() -> None:
    pairings = read_pairings("board,black,white\n7,Ann,Bo\n10,Cy,Di\n", "p.csv")
    assert pairings["7"] == Pairing("7", "Ann", "Bo")
    hall = Hall("club", pairings=pairings)
    hall.take("kifu/v1/club/10/state", state(id="10", result="W+R"), 0)
    hall.take("kifu/v1/club/7/state", state(result="B+6.5",
                                            score={"winner": "B", "margin": 6.5}), 0)
    hall.take("kifu/v1/club/9/state", state(id="9"), 0)
    assert [v["id"] for v in hall.views(0, live=False)] == ["7", "9", "10"]
    assert hall.view("7", 0, live=False)["players"] == {"B": "Ann", "W": "Bo"}  # type: ignore[index]
    assert hall.results_csv(0, live=False) == (
        "board,black,white,result,winner,margin\n7,Ann,Bo,B+6.5,B,6.5\n10,Cy,Di,W+R,W,\n")


@pytest.mark.parametrize("text", ["7,Ann\n", "7,Ann,Bo\n7,Cy,Di\n", ",Ann,Bo\n"])
def test_bad_pairings_name_the_file_and_line(text: str) -> None:
    with pytest.raises(ValueError, match=r"p\.csv:\d"):
        read_pairings(text, "p.csv")


def test_all_games_are_one_sgf_collection() -> None:
    hall = Hall("club")
    hall.take("kifu/v1/club/2/sgf", b"(;GM[1]SZ[9];B[ee])\n", 0)
    hall.take("kifu/v1/club/1/sgf", b"(;GM[1]SZ[9];B[cc])", 0)
    assert hall.collection(0, live=True) == b"(;GM[1]SZ[9];B[cc])\n(;GM[1]SZ[9];B[ee])\n"


# -- the whole chain, over a real broker ---------------------------------------------------


class Event:
    """A hall on a broker with some boards publishing to it."""

    def __init__(self, port: int, delay: float = 0.0) -> None:
        self.url = BrokerUrl("127.0.0.1", port, "club")
        self.hall = Hall("club", delay=delay, pairings={"1": Pairing("1", "Ann", "Bo")})
        self.lock = threading.Lock()
        self.server = HallServer(self.hall, self.lock).start()
        self.subscriber = Subscriber(self.url, self.hall, self.lock, self.server).start()
        assert self.subscriber.subscribed.wait(10)
        self.boards: dict[str, tuple[BoardPublisher, Game]] = {}

    def board(self, board_id: str, size: int = 9) -> BoardPublisher:
        game = Game("japanese", size)
        pub = BoardPublisher(self.url, board_id, game, lambda: b"(;GM[1]SZ[9])").start()
        self.boards[board_id] = (pub, game)
        return pub

    def play(self, board_id: str, vertex: str) -> None:
        pub, game = self.boards[board_id]
        pub(game.play(Point.from_gtp(vertex)), time.monotonic())

    def get(self, path: str, token: bool = False) -> Any:
        url = self.server.url.rstrip("/") + path + (f"?token={self.server.token}" if token else "")
        with urllib.request.urlopen(url, timeout=5) as r:
            body = r.read()
        return json.loads(body) if "json" in r.headers["Content-Type"] else body

    def wait(self, test: Any, timeout: float = 10) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if test():
                return True
            time.sleep(0.02)
        return False

    def why(self) -> str:
        """What each side of the event had done, for a wait that timed out: did the boards
        reach the broker and have it take their messages, and what the hall has heard."""
        boards = ", ".join(
            f"board {b}: connected {pub.connected.is_set()}, {pub.unsent} unacknowledged"
            for b, (pub, _) in self.boards.items())
        with self.lock:
            heard = {b: (v or {}).get("last_move") for b in self.hall.boards
                     for v in [self.hall.view(b, self.server.clock(), live=True)]}
        return (f"hall subscribed {self.subscriber.subscribed.is_set()}, connected "
                f"{self.subscriber.client.is_connected()}; {boards}; the hall heard {heard}")

    def close(self) -> None:
        for pub, _ in self.boards.values():
            pub.close()
        self.subscriber.stop()
        self.server.stop()


@pytest.fixture
def event(broker: Broker) -> Iterator[Event]:  # noqa: F811
    e = Event(broker.port)
    try:
        yield e
    finally:
        e.close()


def test_the_hall_lists_every_board_of_the_event_as_kifu_serve_does(event: Event) -> None:
    event.board("1")
    event.board("2")
    event.play("1", "E5")
    event.play("2", "C3")
    event.play("2", "G7")
    assert event.wait(lambda: [b["number"] for b in event.get("/api/v1/boards")] == [1, 2]), \
        event.why()
    one = event.get("/api/v1/boards/1")
    assert one["players"] == {"B": "Ann", "W": "Bo"} and one["status"] == "online"
    assert one["last_move"] == "E5"
    assert event.get("/api/v1/boards/2/board.svg").startswith(b"<svg")
    assert event.get("/api/v1")["event"] == "club"


def test_a_move_reaches_the_event_stream_within_a_second(event: Event) -> None:
    event.board("1")
    assert event.wait(lambda: event.get("/api/v1/boards") != [])
    stream = urllib.request.urlopen(event.server.url + "api/v1/events", timeout=5)
    try:
        assert stream.readline().startswith(b"retry:")
        delays = []
        for vertex in ("C3", "D4", "E5"):
            played = time.monotonic()
            event.play("1", vertex)
            while True:
                line = stream.readline()
                if line.startswith(b"data:") and json.loads(line[5:])["last_move"] == vertex:
                    delays.append(time.monotonic() - played)
                    break
        assert max(delays) < 1.0, delays
    finally:
        stream.close()


def test_a_board_that_goes_away_is_marked_offline(event: Event) -> None:
    pub = event.board("3")
    assert event.wait(lambda: event.get("/api/v1/boards") != [])
    pub.close()
    del event.boards["3"]
    assert event.wait(lambda: event.get("/api/v1/boards/3")["status"] == "offline")


def test_a_finished_game_reaches_the_results_and_the_collection(event: Event, tmp_path: Path) -> None:
    from kifu.cli import main

    script = tmp_path / "s.txt"
    script.write_text("@ 0.0-0.5\n.....\n.....\n.....\n.....\n.....\n"
                      "@ 1.0-1.5\n.....\n.....\n..X..\n.....\n.....\nresign W\n")
    out = tmp_path / "g.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--mqtt", f"mqtt://127.0.0.1:{event.url.port}/club", "--board", "1"]) == 0
    assert event.wait(lambda: event.get("/api/v1/results") != [])
    assert event.get("/api/v1/results") == [
        {"board": "1", "black": "Ann", "white": "Bo", "result": "B+R", "winner": "B",
         "margin": None}]
    assert event.get("/api/v1/games.sgf").strip() == out.read_bytes().strip()
    assert event.get("/api/v1/boards/1/game.sgf") == out.read_bytes()


def last_move(boards: list[dict[str, Any]]) -> str | None:
    """The last move of the one board in a hall's ``/api/v1/boards``; None where no board is
    shown yet, or none with a move."""
    return None if not boards else boards[0]["last_move"]


def test_public_viewers_wait_out_the_delay_the_organiser_does_not(broker: Broker) -> None:  # noqa: F811
    e = Event(broker.port, delay=1.5)
    try:
        e.board("1")
        e.play("1", "E5")
        # The organiser sees the move at once; the public, 1.5 s late, has not seen it yet
        # (the board itself may reach the hall before its move: wait for the move).
        assert e.wait(lambda: last_move(e.get("/api/v1/boards", token=True)) == "E5")
        assert last_move(e.get("/api/v1/boards")) is None
        assert e.wait(lambda: last_move(e.get("/api/v1/boards")) == "E5", timeout=5)
        with pytest.raises(urllib.error.HTTPError) as refused:
            e.get("/api/v1/boards/1/events")
        assert refused.value.code == 403
        assert [x["vertex"] for x in e.get("/api/v1/boards/1/events", token=True)] == ["E5"]
    finally:
        e.close()


def test_the_hall_page_shows_both_boards_and_follows_their_moves(event: Event, browser: Any) -> None:
    event.board("1")
    event.board("2")
    event.play("2", "C3")
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(event.server.url)
        page.wait_for_selector("#status.live", timeout=5000)
        page.wait_for_function("document.querySelectorAll('.card').length === 2", timeout=5000)
        assert page.inner_text(".card >> nth=0").startswith("1")
        event.play("1", "E5")
        page.wait_for_function(
            "document.querySelector('.card .facts').textContent.startsWith('move 1')",
            timeout=1000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "hall-1920.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(ARTIFACTS / "hall-390.png"), full_page=True)
    finally:
        page.close()


def test_an_embedded_broker_serves_a_small_evening_with_no_system_package() -> None:
    """`kifu hall` with no broker (and `--mqtt local`) start amqtt inside the process when
    nothing listens on the port, and join what does."""
    from kifu.broker import listening, local_broker
    from tests.mqtt_broker import free_port

    port = free_port()
    embedded = local_broker(port)
    assert embedded is not None and listening(port)
    try:
        assert local_broker(port) is None  # the second one joins
        e = Event(port)
        try:
            e.board("5")
            e.play("5", "D4")
            assert e.wait(lambda: [b["last_move"] for b in e.get("/api/v1/boards")] == ["D4"]), \
                e.why()
        finally:
            e.close()
    finally:
        embedded.stop()
    assert not listening(port)
