"""A recording session published to an MQTT broker, for an event's hall page.

Under ``kifu/v1/EVENT/BOARD/`` a board publishes:

* ``state``: retained, QoS 1: the board as ``/api/v1/boards/BOARD`` gives it (JSON);
* ``events``: QoS 1, not retained: every output of the session, as ``kifu record --json``
  prints it, plus ``seq`` (1, 2, 3 ... with no gap, so a viewer sees one missed) and
  ``board``;
* ``sgf``: retained, QoS 1: the record as written so far;
* ``status``: retained: ``online`` once connected, ``offline`` when the session ends, and
  ``offline`` from the broker itself (MQTT's last will) when the board vanishes.

The client is paho-mqtt: it is the Eclipse project's reference client for Python, kept up
to date with MQTT 5, and it keeps every QoS 1 message it has not had acknowledged, across a
lost connection, resending them when the broker is back (a message whose acknowledgement
was lost may come twice, which its number tells). The board hands it one message at a
time, the next once the broker has acknowledged the one before, which keeps them in order:
paho's own limit on messages in flight does not, as one published while it reconnects can
go out before those it holds. So a board that loses the broker keeps recording (publishing
never blocks and never raises) and catches up when it can. An acknowledgement lost on a
connection that stays up is never asked for again (MQTT 3.1.1 resends only on
reconnecting), and would hold back every later message: a message unacknowledged for
ACK_WAIT seconds has the board reconnect, and paho send it again. The numbering is kept
beside the record (``GAME.sgf.mqtt-seq``), so a session resumed with ``--resume`` carries
on from the last number it used.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from rules import Game

from .display.state import BoardSink, LiveBoard
from .sgf import write_atomically
from .sinks import event_json
from .tracker import Output

KEEPALIVE = 10
"""Seconds between signs of life on an idle connection. A board whose network goes silently
is given up by the broker after 1.5 of them (its last will, ``offline``, then reaches the
hall); the board itself notices after at most two and reconnects as soon as it can."""

RECONNECT_MAX = 2
"""The longest wait, in seconds, between two tries to reach a broker that is away (the
first after 1 s, doubling): a restarted broker has every board and hall back within about
that of taking connections again, and a few hundred clients trying every 2 s are nothing
to it."""

ACK_WAIT = 3 * KEEPALIVE
"""Seconds the one message a board holds may wait for the broker's acknowledgement on a live
connection before the board reconnects, which has paho send it again (marked a duplicate,
which the hall drops by its number). A broker acknowledges in milliseconds; an
acknowledgement lost on a connection that stays up (a broker or proxy that drops it) is
never sent again by MQTT 3.1.1 until a reconnect, and would hold back every later message
for good. Three keepalives: past the two in which paho itself gives up a silent connection,
so this only acts on one that is alive but lost the acknowledgement."""

PREFIX = "kifu/v1"
"""The root of every topic kifu publishes; the version changes with an incompatible
payload."""

_LEVEL = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
"""A topic level kifu names itself (event, board): no '/', '+', '#' or spaces, which MQTT
gives meanings or which shells and URLs mangle."""


@dataclasses.dataclass(frozen=True)
class BrokerUrl:
    """Where to publish: ``mqtt://[USER:PASS@]HOST[:PORT]/EVENT``, or ``mqtts://`` for TLS
    (port 8883 unless given). ``repr`` prints the code that makes it."""

    host: str
    port: int
    event: str
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None
    """With TLS, the file of the certificate authority to trust for the broker's certificate
    (None: the system's)."""

    @classmethod
    def parse(cls, text: str, ca: str | None = None) -> BrokerUrl:
        """The broker address in ``text``, trusting the certificate authority in the file
        ``ca`` for mqtts://; ValueError naming ``text`` if it is not one, or ``ca`` if it is
        given for plain mqtt:// or cannot be read."""
        try:
            u = urllib.parse.urlsplit(text)
            port = u.port
        except ValueError as exc:
            raise ValueError(f"--mqtt {text}: {exc}") from None
        if u.scheme not in ("mqtt", "mqtts"):
            raise ValueError(f"--mqtt {text}: give mqtt://HOST[:PORT]/EVENT or mqtts://...")
        if not u.hostname:
            raise ValueError(f"--mqtt {text}: no broker host")
        event = u.path.strip("/")
        if not _LEVEL.match(event):
            raise ValueError(f"--mqtt {text}: the event name (the path) must be one word of "
                             "letters, digits, '-', '_' or '.'")
        tls = u.scheme == "mqtts"
        if ca is not None:
            if not tls:
                raise ValueError(f"--mqtt-ca {ca}: a CA is for mqtts:// (TLS), not {text}")
            try:
                ssl.create_default_context(cafile=ca)
            except (OSError, ssl.SSLError) as exc:
                raise ValueError(f"--mqtt-ca {ca}: {getattr(exc, 'strerror', None) or exc}"
                                 ) from None
        return cls(
            host=u.hostname, port=port or (8883 if tls else 1883), event=event,
            username=urllib.parse.unquote(u.username) if u.username else None,
            password=urllib.parse.unquote(u.password) if u.password is not None else None,
            tls=tls, ca=ca,
        )

    @property
    def address(self) -> str:
        """The broker as people name it (no password): ``mqtts://HOST:PORT``."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    def tls_context(self) -> ssl.SSLContext:
        """The TLS settings for this broker: its certificate checked against ``ca`` (or the
        system's authorities) and its name."""
        return ssl.create_default_context(cafile=self.ca)

    def tls_fault(self) -> str | None:
        """Why a TLS connection to the broker is refused on this side, for good (its
        certificate not trusted, or not its name), or None: it is fine, or the broker is
        only out of reach, which passes. Asks the broker once."""
        try:
            with socket.create_connection((self.host, self.port), timeout=5) as raw, \
                    self.tls_context().wrap_socket(raw, server_hostname=self.host):
                return None
        except ssl.SSLCertVerificationError as exc:
            return (f"{self.address}: the broker's certificate is not trusted "
                    f"({exc.verify_message}); give its CA with --mqtt-ca FILE")
        except (OSError, ssl.SSLError):
            return None

    def setup(self, client: mqtt.Client) -> None:
        """Give ``client`` this broker's user, password and TLS settings."""
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set_context(self.tls_context())

    def topic(self, board: str, leaf: str) -> str:
        """The topic of ``leaf`` (state, events, sgf, status) for board ``board``."""
        return f"{PREFIX}/{self.event}/{board}/{leaf}"


def check_board_id(board: str) -> str:
    """``board`` if it can be a topic level; ValueError naming it otherwise."""
    if not _LEVEL.match(board):
        raise ValueError(f"--board {board!r}: one word of letters, digits, '-', '_' or '.'")
    return board


def seq_file(record: Path) -> Path:
    """Where the last event number published for ``record`` is kept."""
    return record.with_name(record.name + ".mqtt-seq")


def read_seq(path: Path) -> int:
    """The last event number kept in ``path``; 0 if there is none. ValueError naming the
    file if it holds anything but a number."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return 0
    if not text.isdigit():
        raise ValueError(f"{path}: not an event number: {text[:20]!r}")
    return int(text)


_SENDING = -1
"""`BoardPublisher._pending` while a message is being handed to paho (no mid yet)."""


class BoardPublisher:
    """A session's sink that publishes the board to an MQTT broker (see the module).

    ``sgf`` gives the record's bytes as last written; ``seq_path`` keeps the numbering
    (None: start at 1 and keep nothing). ``client`` is for tests; by default a paho
    client is made. Call `start` before the first output and `close` after the last.
    """

    def __init__(
        self, url: BrokerUrl, board: str, game: Game, sgf: Callable[[], bytes], *,
        title: str = "", players: tuple[str, str] = ("Black", "White"),
        seq_path: Path | None = None, client: mqtt.Client | None = None,
    ) -> None:
        self.url = url
        self.board = check_board_id(board)
        self.game = game
        self.sgf = sgf
        self.seq_path = seq_path
        self.seq = read_seq(seq_path) if seq_path is not None else 0
        self.live = LiveBoard(board, game.width, game.height, title=title or board)
        self.live.describe(title=title or board, players=players)
        self.live.update(game)
        self._follow = BoardSink(self.live, game)
        self.connected = threading.Event()
        self.client = client or mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"kifu-{url.event}-{board}",
            clean_session=True,
        )
        self._outbox: collections.deque[tuple[str, bytes, bool]] = collections.deque()
        """(topic, payload, retain) not yet handed to paho, oldest first."""
        self._pending: int | None = None
        """The mid of the one message paho holds, until the broker acknowledges it;
        _SENDING while it is being handed over."""
        self._early: set[int] = set()
        """Acknowledged before `_pump` had noted them (the ack outran the return)."""
        self._timer: threading.Timer | None = None
        """Runs `_overdue` once the held message has waited ACK_WAIT on a live connection."""
        self._armed = 0
        """How many times `_timer` was set or stopped: a timer that finds another number
        was replaced or stopped after it began to run, and does nothing."""
        self._closed = False
        self._lock = threading.Lock()
        self.failure: str | None = None
        """Why the broker cannot be reached for good (a TLS certificate refused), once seen."""

    def _status(self) -> str:
        return self.url.topic(self.board, "status")

    def start(self) -> BoardPublisher:
        """Connect in the background (retrying until the broker answers) and publish the
        board as it stands. Never blocks on the broker."""
        c = self.client
        self.url.setup(c)
        c.will_set(self._status(), b"offline", qos=1, retain=True)
        c.reconnect_delay_set(min_delay=1, max_delay=RECONNECT_MAX)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_publish = self._on_publish
        c.on_connect_fail = self._on_connect_fail
        c.connect_async(self.url.host, self.url.port, keepalive=KEEPALIVE)
        c.loop_start()
        self._publish_board()
        return self

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if not reason.is_failure:
            client.publish(self._status(), b"online", qos=1, retain=True)
            with self._lock:
                if self._pending not in (None, _SENDING):
                    self._arm()  # paho sends it again now: its wait starts again
            self.connected.set()

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        # Out of reach passes; a certificate this side refuses does not: say so at once,
        # once, and stop trying (the session records on, in its SGF only).
        if not self.url.tls or self.failure is not None:
            return
        fault = self.url.tls_fault()
        if fault is not None:
            self.failure = fault
            print(f"kifu: {fault}; recording on, in the SGF only", file=sys.stderr, flush=True)
            client.disconnect()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        with self._lock:
            if mid != self._pending:
                self._early.add(mid)
                return
            self._pending = None
            self._disarm()
        self._pump()

    def _arm(self) -> None:
        """Call `_overdue` ACK_WAIT seconds from now, instead of any earlier call set.
        Holding the lock."""
        self._disarm()
        self._timer = threading.Timer(ACK_WAIT, self._overdue, args=(self._armed,))
        self._timer.daemon = True
        self._timer.start()

    def _disarm(self) -> None:
        """Stop the call `_arm` set, if any, even one already running. Holding the lock."""
        self._armed += 1
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _overdue(self, armed: int) -> None:
        """The held message has had no acknowledgement for ACK_WAIT seconds: if it still
        has none and the connection is up, drop the connection (its socket, as a network
        going would), so that paho reconnects and sends the message again."""
        with self._lock:
            if armed != self._armed or self._closed or self._pending in (None, _SENDING):
                return  # acknowledged, sent again, or closed since
        if not self.connected.is_set():
            return  # paho sends it again when back, and on_connect times it afresh
        sock = self.client.socket()
        if not isinstance(sock, socket.socket):
            return
        print(f"kifu: {self.url.address} has not acknowledged a message for {ACK_WAIT} s; "
              "reconnecting to send it again", file=sys.stderr, flush=True)
        try:
            # The bare socket's shutdown, not TLS's (which would unhook it under paho's
            # loop): paho's loop reads the end of the connection and reconnects.
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        except OSError:
            pass  # closed already: paho is reconnecting anyway

    def __call__(self, item: Output, time: float) -> None:
        """Publish one output as the next numbered event, then the board and the record
        as they now stand."""
        self._follow(item, time)
        self.seq += 1
        body = {"seq": self.seq, "board": self.board, **event_json(item), "time": round(time, 3)}
        self._send("events", json.dumps(body).encode(), retain=False)
        if self.seq_path is not None:
            write_atomically(self.seq_path, b"%d\n" % self.seq)
        self._publish_board()

    def _publish_board(self) -> None:
        state = json.dumps(self.live.snapshot.to_json()).encode()
        self._send("state", state, retain=True)
        self._send("sgf", self.sgf(), retain=True)

    def _send(self, leaf: str, payload: bytes, *, retain: bool) -> None:
        with self._lock:
            self._outbox.append((self.url.topic(self.board, leaf), payload, retain))
        self._pump()

    def _pump(self) -> None:
        """Hand paho the next message if it holds none. One at a time, each once the one
        before is acknowledged: paho keeps a message it holds (QoS 1) across a lost
        connection and sends it again when the broker is back, but a message handed to it
        while it reconnects may go out before the one it holds, so it is given no second.
        paho calls on_publish holding its own lock, so ours is never held across publish."""
        while True:
            with self._lock:
                if self._pending is not None or not self._outbox:
                    return
                topic, payload, retain = self._outbox.popleft()
                self._pending = _SENDING
            try:
                mid = self.client.publish(topic, payload, qos=1, retain=retain).mid
            except BaseException:
                with self._lock:
                    self._pending = None
                raise
            with self._lock:
                early = mid in self._early
                self._early.clear()  # the rest were acks of messages `_pump` never held
                if not early:
                    self._pending = mid
                    self._arm()
                    return
                self._pending = None

    @property
    def unsent(self) -> int:
        """How many messages the broker has not yet acknowledged."""
        with self._lock:
            return len(self._outbox) + (self._pending is not None)

    def close(self, timeout: float = 5.0) -> bool:
        """Say the board is offline, wait up to ``timeout`` seconds for the broker to take
        what is still held back, and disconnect. True if nothing was left unsent."""
        self._send("status", b"offline", retain=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.unsent and self.failure is None:
            time.sleep(0.02)
        done = not self.unsent
        with self._lock:
            self._closed = True
            self._disarm()
        self.client.disconnect()
        self.client.loop_stop()
        return done


__all__ = ["ACK_WAIT", "KEEPALIVE", "PREFIX", "RECONNECT_MAX", "BoardPublisher", "BrokerUrl",
           "check_board_id", "read_seq", "seq_file"]
