"""A board's faults over a real Mosquitto: its network cut for 30 s while the game goes
on, and its session killed outright. The broker tells the hall the board is offline (the
session's last will) within 1.5 keepalives; what was played meanwhile arrives once and in
order when the board is back."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from kifu.cmd_hall import Subscriber
from kifu.hall import Hall
import kifu.mqtt
from kifu.broker import EmbeddedBroker
from kifu.mqtt import KEEPALIVE, RECONNECT_MAX, BoardPublisher, BrokerUrl
from rules import Game, Point

from ..mqtt_broker import (AckEater, Broker, Cable, Listener, broker, free_port,  # noqa: F401
                           hall_page)

WILL_WITHIN = KEEPALIVE * 1.5 + 5
"""The broker gives up on a silent client 1.5 keepalives after its last word (MQTT 3.1.1,
3.1.2.10); then up to a few seconds more, on a busy machine, for the broker to look and for
the message to travel."""


def _wait(test: object, timeout: float) -> float | None:
    """Seconds until ``test()`` held, or None if it did not within ``timeout``."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if test():  # type: ignore[operator]
            return time.monotonic() - t0
        time.sleep(0.05)
    return None


def test_a_board_cut_off_for_30_s_marks_offline_then_delivers_every_event_once_in_order(
        broker: Broker) -> None:  # noqa: F811
    """The board's network goes silently (no word to either end, as a pulled cable) for 30 s,
    longer than the keepalive, while a move is played every 4 s."""
    cable = Cable(broker.port)
    hall = Listener(broker.port, "kifu/v1/club/6/#", client_id="hall-6")
    game = Game("chinese", 19)
    publisher = BoardPublisher(BrokerUrl("127.0.0.1", cable.port, "club"), "6", game,
                               lambda: b"(;)").start()
    vertices = ["D4", "Q16", "C16", "Q4", "R6", "P3", "O3", "R10", "E17", "C3"]
    played = 0

    def play(n: int) -> None:
        nonlocal played
        for v in vertices[played:played + n]:
            publisher(game.play(Point.from_gtp(v)), float(played))
            played += 1

    def events() -> list[int]:
        return [json.loads(p)["seq"] for p in hall.on("events")]

    try:
        assert hall.wait_for(lambda m: hall.on("status")[-1:] == [b"online"], 5)
        play(2)
        assert hall.wait_for(lambda m: len(events()) == 2)
        cable.cut(silent=True)
        cut_at = time.monotonic()
        offline_after = None
        while (since := time.monotonic() - cut_at) < 30:  # a move every 4 s, cut off
            if since >= 4 * (played - 1):
                play(1)
            if offline_after is None and hall.on("status")[-1:] == [b"offline"]:
                offline_after = since
            time.sleep(0.05)
        assert offline_after is not None, "the broker gave no last will during the cut"
        assert offline_after < WILL_WITHIN
        cable.mend()
        mended = time.monotonic()
        play(1)
        back = _wait(lambda: len(set(events())) == played, 30)
        assert back is not None, f"events after the cut: {events()}"
        assert hall.on("status")[-1] == b"online"
        taker = Hall("club")
        taken = [json.loads(p)["vertex"] for p in hall.on("events")
                 if taker.take("kifu/v1/club/6/events", p, 0)]
        assert taken == vertices, "each once, in order"
        seqs = events()
        assert all(b == a + 1 or b <= a for a, b in zip(seqs, seqs[1:])), seqs  # no overtaking
        print(f"\n30 s cut: {played} events sent, {len(seqs)} received ({len(set(seqs))} "
              f"distinct, {len(seqs) - len(set(seqs))} repeated), in order; offline "
              f"{offline_after:.1f} s into the cut; all back "
              f"{time.monotonic() - mended:.1f} s after the mend")
    finally:
        publisher.close()
        hall.close()
        cable.close()


def test_a_killed_session_shows_offline_by_its_last_will(
        tmp_path: Path, broker: Broker) -> None:  # noqa: F811
    """``kifu record --serial sim`` killed with SIGKILL (no goodbye): the broker publishes
    its last will and the hall's page shows the board offline within 1.5 keepalives."""
    with hall_page(BrokerUrl("127.0.0.1", broker.port, "club")) as (server, subscriber):
        assert subscriber.subscribed.wait(10)

        def status() -> str | None:
            try:
                with urllib.request.urlopen(server.url.rstrip("/") + "/api/v1/boards/9") as r:
                    return str(json.loads(r.read())["status"])
            except urllib.error.HTTPError:
                return None  # not heard of yet

        proc = subprocess.Popen(
            [sys.executable, "-m", "kifu.cli", "record", "--serial", "sim", "--size", "9",
             "--out", str(tmp_path / "g.sgf"), "--mqtt",
             f"mqtt://127.0.0.1:{broker.port}/club", "--board", "9"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert _wait(lambda: status() == "online", 20) is not None, proc.poll()
            assert proc.stdin is not None
            proc.stdin.write(b"place E5 b\n")
            proc.stdin.flush()
            assert _wait(lambda: (tmp_path / "g.sgf").exists()
                         and b"B[ee]" in (tmp_path / "g.sgf").read_bytes(), 10) is not None
            proc.send_signal(signal.SIGKILL)
            proc.wait(5)
            took = _wait(lambda: status() == "offline", WILL_WITHIN)
            assert took is not None, "no last will from the broker"
            print(f"\nSIGKILL: offline on the hall's page {took:.2f} s later")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_a_lost_acknowledgement_holds_the_board_back_for_ack_wait_not_for_good(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A proxy between board and broker swallows the broker's acknowledgement of event 2,
    on a connection that stays up: MQTT 3.1.1 never asks for it again, so without more the
    board would hold every later message back for good. After ACK_WAIT it reconnects and
    paho sends event 2 again; the moves played meanwhile reach the hall, which shows each
    event once, with no gap. (kifu's embedded broker: it needs no system package.)"""
    monkeypatch.setattr(kifu.mqtt, "ACK_WAIT", 2.0)
    embedded = EmbeddedBroker(free_port()).start()
    proxy = AckEater(embedded.port, "/events", b'"seq": 2,')
    raw = Listener(embedded.port, "kifu/v1/club/5/events", client_id="raw-5")
    game = Game("chinese", 9)
    publisher = BoardPublisher(BrokerUrl("127.0.0.1", proxy.port, "club"), "5", game,
                               lambda: b"(;)")
    try:
        with hall_page(BrokerUrl("127.0.0.1", embedded.port, "club")) as (_, subscriber):
            assert subscriber.subscribed.wait(10)
            publisher.start()
            for v in ["D4", "E5"]:
                publisher(game.play(Point.from_gtp(v)), 0.0)
            assert proxy.swallowed.wait(10), "event 2 was never acknowledged by the broker"
            for v in ["C3", "F6"]:
                publisher(game.play(Point.from_gtp(v)), 0.0)

            def hall_seq() -> int:
                with subscriber.lock:
                    board = subscriber.hall.boards.get("5")
                    return board.event_seq if board is not None else 0

            # ACK_WAIT, the first try to reconnect (1 s), and some seconds on a busy machine.
            took = _wait(lambda: hall_seq() == 4, 2.0 + RECONNECT_MAX + 10)
            assert took is not None, f"the hall got to event {hall_seq()}, not 4"
            with subscriber.lock:
                board = subscriber.hall.boards["5"]
                assert [e["seq"] for e in board.events] == [1, 2, 3, 4]
                assert board.missed == 0
            assert raw.wait_for(lambda m: len(m) >= 5, 5)
            heard = [json.loads(p)["seq"] for p in raw.on("events")]
            assert sorted(heard) == [1, 2, 2, 3, 4], heard  # event 2 sent again, once
            print(f"\nlost acknowledgement: events 3 and 4 on the hall {took:.2f} s after "
                  "being played (ACK_WAIT 2 s)")
            assert publisher.close()
    finally:
        raw.close()
        proxy.close()
        embedded.stop()


class Shown:
    """Stands in for the hall's web server: the move numbers of board 1, as shown."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.numbers: list[int] = []

    def clock(self) -> float:
        return time.monotonic()

    def changed(self, board: str) -> None:
        state = self.hall.boards[board].latest().state
        if state is not None:
            self.numbers.append(state["number"])


def test_a_hall_back_on_its_session_never_shows_a_board_going_back(
        broker: Broker) -> None:  # noqa: F811
    """The hall away (a restart, the broker's or its own) while a board plays 30 moves: the
    broker kept them for the hall's session and gives them in order when it is back; the
    board's retained state, newer than all but the last of them, must not come first."""
    url = BrokerUrl("127.0.0.1", broker.port, "club")
    hall = Hall("club")
    shown = Shown(hall)
    lock = threading.Lock()
    first = Subscriber(url, hall, lock, shown).start()  # type: ignore[arg-type]
    assert first.subscribed.wait(10)
    game = Game("chinese", 19)
    board = BoardPublisher(url, "1", game, lambda: b"(;)").start()
    moves = [Point(x, y) for y in range(0, 19, 2) for x in range(0, 19, 2)]
    try:
        for point in moves[:3]:
            board(game.play(point), 0.0)
        assert _wait(lambda: shown.numbers[-1:] == [3], 10) is not None
        first.stop()
        for point in moves[3:33]:
            board(game.play(point), 0.0)
        assert _wait(lambda: board.unsent == 0, 10) is not None
        again = Subscriber(url, hall, lock, shown).start()  # type: ignore[arg-type]
        try:
            assert _wait(lambda: shown.numbers[-1:] == [33], 10) is not None, shown.numbers
        finally:
            again.stop()
        assert shown.numbers == sorted(shown.numbers), f"the board went back: {shown.numbers}"
    finally:
        board.close()


class Recording(mqtt.Client):
    """A paho client never connected, that notes what it is handed."""

    def __init__(self) -> None:
        super().__init__(CallbackAPIVersion.VERSION2, client_id="recording")
        self.handed: list[tuple[str, int]] = []

    def publish(self, topic: str, payload: Any = None, qos: int = 0, retain: bool = False,
                properties: Any = None) -> mqtt.MQTTMessageInfo:
        info = super().publish(topic, payload, qos, retain, properties)
        self.handed.append((topic, info.mid))
        return info


def test_paho_is_handed_one_message_at_a_time_the_next_once_the_broker_took_it() -> None:
    """So that nothing published while paho reconnects goes out before what it holds."""
    client = Recording()
    game = Game("chinese", 9)
    board = BoardPublisher(BrokerUrl("127.0.0.1", 1, "club"), "2", game, lambda: b"(;)",
                           client=client)
    for v in ["D4", "E5", "C3"]:
        board(game.play(Point.from_gtp(v)), 0.0)
    assert [t for t, _ in client.handed] == ["kifu/v1/club/2/events"]
    assert board.unsent == 3 * 3  # each move's event, state and record
    for leaf in ["state", "sgf", "events", "state", "sgf"]:
        board._on_publish(client, None, client.handed[-1][1], None, None)  # the broker's ack
        assert client.handed[-1][0] == f"kifu/v1/club/2/{leaf}"
    assert len(client.handed) == 6 and board.unsent == 9 - 5


class Wired(Recording):
    """A Recording whose connection is one end of a socket pair, the broker's end ``far``:
    the far end reads the connection's end when the board drops it."""

    def __init__(self) -> None:
        super().__init__()
        self.near, self.far = socket.socketpair()

    def socket(self) -> socket.socket:  # type: ignore[override]
        return self.near


def test_only_a_message_unacknowledged_for_ack_wait_drops_the_connection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages each acknowledged within ACK_WAIT, though together they take longer, leave
    the connection up; the next one, never acknowledged, has it dropped after ACK_WAIT."""
    monkeypatch.setattr(kifu.mqtt, "ACK_WAIT", 1.0)
    client = Wired()
    game = Game("chinese", 9)
    board = BoardPublisher(BrokerUrl("127.0.0.1", 1, "club"), "2", game, lambda: b"(;)",
                           client=client)
    board.connected.set()
    try:
        board(game.play(Point.from_gtp("D4")), 0.0)
        for _ in range(3):  # its event, state and record, each in half of ACK_WAIT
            time.sleep(0.5)
            board._on_publish(client, None, client.handed[-1][1], None, None)
        assert board.unsent == 0
        client.far.settimeout(0.5)
        with pytest.raises(TimeoutError):
            client.far.recv(1)  # still connected
        board(game.play(Point.from_gtp("E5")), 0.0)
        t0 = time.monotonic()
        client.far.settimeout(10)
        assert client.far.recv(1) == b""  # the board dropped the connection
        assert time.monotonic() - t0 >= 1.0 - 0.05
    finally:
        board.close(timeout=0)
        client.near.close()
        client.far.close()
