"""A real Mosquitto broker for tests, on a free loopback port, and a subscriber that keeps
what it hears. Tests skip without Mosquitto (Debian package ``mosquitto``) except under CI."""

from __future__ import annotations

import contextlib
import getpass
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from kifu.cmd_hall import Subscriber
from kifu.display.hall_server import HallServer
from kifu.hall import Hall
from kifu.mqtt import BrokerUrl

from .conftest import need


def mosquitto_path() -> str | None:
    """Mosquitto's binary: on PATH, or where Debian puts it (/usr/sbin, not on every PATH)."""
    found = shutil.which("mosquitto")
    if found:
        return found
    debian = Path("/usr/sbin/mosquitto")
    return str(debian) if debian.exists() else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """One Mosquitto process on ``port``, configured by ``extra`` lines besides its
    listener; its state persists in ``folder`` across `restart`."""

    def __init__(self, folder: Path, port: int, extra: str = "allow_anonymous true\n") -> None:
        binary = mosquitto_path()
        need(binary is not None, "Mosquitto is not installed (Debian package mosquitto)")
        assert binary is not None
        self.binary = binary
        self.folder = folder
        self.port = port
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(
            f"listener {port} 127.0.0.1\nuser {getpass.getuser()}\n"
            f"persistence true\npersistence_location {folder}/\n"
            "log_dest none\n" + extra
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker:
        """Start it and wait until it takes connections."""
        self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"mosquitto exited: {err}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start listening")

    def stop(self) -> None:
        """Stop it as a service manager would (SIGTERM: it saves its sessions first)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path, free_port()).start()
    try:
        yield b
    finally:
        b.stop()


class Listener:
    """A subscriber on ``topic`` keeping (topic, payload, retained) in arrival order. Its
    session is persistent (a fixed client id, clean_session off), as a hall's is, so what is
    published while it is away reaches it when it is back."""

    def __init__(self, port: int, topic: str, client_id: str = "test-listener",
                 username: str | None = None, password: str | None = None) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.lock = threading.RLock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  clean_session=False)
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
        self.subscribed = threading.Event()
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.connect_async("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        # What is published before the broker has the subscription never reaches it.
        assert self.subscribed.wait(10), f"no subscription to {topic} on port {port}"

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append((msg.topic, msg.payload, bool(msg.retain)))

    def wait_for(self, test: object, timeout: float = 10.0) -> bool:
        """Wait until ``test(messages)`` is true; whether it became so in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if test(list(self.messages)):  # type: ignore[operator]
                    return True
            time.sleep(0.02)
        return False

    def on(self, leaf: str) -> list[bytes]:
        """Payloads heard on topics ending in ``/leaf``, in order."""
        with self.lock:
            return [p for t, p, _ in self.messages if t.endswith("/" + leaf)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@contextlib.contextmanager
def hall_page(url: BrokerUrl) -> Iterator[tuple[HallServer, Subscriber]]:
    """The hall of ``url``'s event, its page on a free port, subscribed to the broker (in
    the background) until the block ends."""
    hall = Hall(url.event)
    lock = threading.Lock()
    server = HallServer(hall, lock).start()
    subscriber = Subscriber(url, hall, lock, server).start()
    try:
        yield server, subscriber
    finally:
        subscriber.stop()
        server.stop()


class Cable:
    """A TCP relay from a free loopback ``port`` to the broker's, that a test can cut and
    mend: a board's network going. A plain `cut` drops every connection through it at once
    (both ends see it closed); a silent one leaves them open but carries nothing either way,
    as a pulled cable or a lost Wi-Fi does, so that each end must notice by itself (MQTT's
    keepalive). While cut, new connections are refused (closed at once)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = int(self.server.getsockname()[1])
        self.up = threading.Event()
        self.up.set()
        self.pairs: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        """Each connection's two sockets and whether it still carries data."""
        self.silenced: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            alive = threading.Event()
            alive.set()
            with self.lock:
                self.pairs.append((client, upstream, alive))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b, alive), daemon=True).start()

    def _carry(self, src: socket.socket) -> Iterator[bytes]:
        """What to pass on of what ``src`` sends, as it comes: all of it."""
        while data := src.recv(65536):
            yield data

    def _pipe(self, src: socket.socket, dst: socket.socket, alive: threading.Event) -> None:
        try:
            for data in self._carry(src):
                if alive.is_set():
                    dst.sendall(data)
        except OSError:
            pass
        if not alive.is_set():
            return  # a cut cable carries no word of one end's closing to the other
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self, silent: bool = False) -> None:
        """Cut every connection through the cable (dropped, or with ``silent`` left hanging)
        and refuse new ones until `mend`."""
        self.up.clear()
        with self.lock:
            pairs, self.pairs = self.pairs, []
            if silent:
                self.silenced += pairs
        for a, b, alive in pairs:
            alive.clear()
            if not silent:
                self._close(a, b)

    @staticmethod
    def _close(*sockets: socket.socket) -> None:
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def mend(self) -> None:
        """Carry new connections again (those cut silently stay dead, as they would)."""
        self.up.set()

    def close(self) -> None:
        self.cut()
        with self.lock:
            silenced, self.silenced = self.silenced, []
        for a, b, _ in silenced:
            self._close(a, b)
        self.server.close()


def _packet_header(data: bytes) -> tuple[int, int] | None:
    """The lengths of the fixed header and of the rest of the MQTT packet at the start of
    ``data``, or None if ``data`` does not yet hold the whole fixed header."""
    size, shift = 0, 0
    for i, byte in enumerate(data[1:5], start=2):
        size |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return i, size
    return None


class AckEater(Cable):
    """A Cable that swallows the broker's first acknowledgement (PUBACK) of the first QoS 1
    message a client publishes whose topic ends with ``topic_end`` and whose payload holds
    ``marker``: the broker takes the message, but the client never hears so, on a
    connection that stays up (a broker or proxy losing an acknowledgement). Everything else
    passes, packet by packet."""

    def __init__(self, target: int, topic_end: str, marker: bytes) -> None:
        self.topic_end = topic_end.encode()
        self.marker = marker
        self.wanted: int | None = None
        """The packet id of the message whose acknowledgement is to go, once seen."""
        self.swallowed = threading.Event()
        super().__init__(target)

    def _carry(self, src: socket.socket) -> Iterator[bytes]:
        from_client = src.getsockname()[1] == self.port
        held = b""
        for data in super()._carry(src):
            held += data
            while (header := _packet_header(held)) is not None and len(held) >= sum(header):
                packet, held = held[:sum(header)], held[sum(header):]
                if self._passes(packet[0], packet[header[0]:], from_client):
                    yield packet

    def _passes(self, first: int, body: bytes, from_client: bool) -> bool:
        """Whether to pass on the packet whose first byte is ``first``, the rest after its
        fixed header ``body``."""
        kind, qos = first >> 4, (first >> 1) & 3
        with self.lock:
            if from_client and kind == 3 and qos and self.wanted is None:
                topic_len = int.from_bytes(body[:2], "big")
                topic, rest = body[2:2 + topic_len], body[2 + topic_len:]
                if topic.endswith(self.topic_end) and self.marker in rest[2:]:
                    self.wanted = int.from_bytes(rest[:2], "big")
            elif (not from_client and kind == 4 and self.wanted is not None
                  and not self.swallowed.is_set() and body[:2] == self.wanted.to_bytes(2, "big")):
                self.swallowed.set()
                return False
        return True
