"""``kifu hall mqtt://HOST/EVENT``: the event page, every board that ``kifu record --mqtt``
publishes to the broker, with results, pairings and a delay for the public (see
`kifu.hall` and `kifu.display.hall_server`).

The hall's MQTT session is persistent (client id ``kifu-hall-EVENT``, clean session off): a
hall that restarts is given, by the broker, the events it missed, and the retained state
and record of every board at once.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from .broker import LOCAL_URL, local_broker
from .cmd_serve import add_web_flags
from .display.hall_server import HallServer
from .hall import Hall, read_pairings
from .mqtt import KEEPALIVE, RECONNECT_MAX, BrokerUrl
from .sgf import write_atomically

DEFAULT_PORT = 8735


def register(sub: Any) -> None:
    """Add the ``hall`` subcommand to the CLI's subparsers."""
    p = sub.add_parser("hall", help="every board of an event on one page, from an MQTT broker")
    p.add_argument("broker", metavar="mqtt://[USER:PASS@]HOST[:PORT]/EVENT", nargs="?",
                   help="the broker the boards publish to, and the event's name (default: "
                        f"{LOCAL_URL}, started inside the hall if nothing listens there)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0 for the whole network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--delay", type=float, default=0.0, metavar="MINUTES",
                   help="public viewers see the boards this many minutes late (the "
                        "organiser's page, with the token, sees them live)")
    p.add_argument("--pairings", type=Path, metavar="FILE.csv",
                   help="board,black,white per line: the players of each board")
    p.add_argument("--results", type=Path, metavar="FILE.csv",
                   help="write the results here as they come in")
    p.add_argument("--mqtt-ca", metavar="FILE",
                   help="with mqtts://, trust the broker's certificate if this certificate "
                        "authority (PEM) signed it")
    add_web_flags(p)
    p.set_defaults(func=cmd_hall)


class Subscriber:
    """Feeds ``hall`` (under ``lock``) from the broker, telling ``server`` what changed."""

    def __init__(self, url: BrokerUrl, hall: Hall, lock: threading.Lock,
                 server: HallServer, results: Path | None = None) -> None:
        self.url = url
        self.hall = hall
        self.lock = lock
        self.server = server
        self.results = results
        self._written = ""
        self.subscribed = threading.Event()
        """Set once the broker has taken the hall's subscription."""
        self._fault: str | None = None
        """Why the last try to reach the broker was refused on this side, as said."""
        self.untrusted = threading.Event()
        """Set if the broker was refused on this side (its TLS certificate not trusted)
        before the hall ever subscribed: a setting to mend, not a broker away."""
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"kifu-hall-{url.event}", clean_session=False)
        url.setup(self.client)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.reconnect_delay_set(min_delay=1, max_delay=RECONNECT_MAX)

    def start(self) -> Subscriber:
        """Connect in the background, retrying until the broker answers."""
        self.client.connect_async(self.url.host, self.url.port, keepalive=KEEPALIVE)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            print(f"kifu: the broker refused the hall: {reason}", file=sys.stderr)
            return
        client.subscribe(self.hall.topic, qos=1)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        fault = self.url.tls_fault() if self.url.tls else None
        if fault is not None and fault != self._fault:  # the hall waits for the broker to mend
            print(f"kifu: {fault}", file=sys.stderr, flush=True)
        self._fault = fault
        if fault is not None and not self.subscribed.is_set():
            self.untrusted.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            board = self.hall.take(msg.topic, bytes(msg.payload), self.server.clock())
        if board is None or msg.topic.endswith(("/events", "/sgf")):
            return  # what viewers are shown comes with the board's state and status
        self.server.changed(board)
        if self.results is not None:
            self.write_results()

    def write_results(self) -> None:
        """Rewrite the results file if the results changed (as the public sees them)."""
        assert self.results is not None
        with self.lock:
            text = self.hall.results_csv(self.server.clock(), live=True)
        if text != self._written:
            write_atomically(self.results, text.encode())
            self._written = text


def cmd_hall(args: argparse.Namespace) -> int:
    url = BrokerUrl.parse(args.broker or LOCAL_URL, ca=args.mqtt_ca)
    if args.delay < 0:
        raise ValueError(f"--delay must not be negative: {args.delay}")
    pairings = {}
    if args.pairings is not None:
        try:
            text = args.pairings.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{args.pairings}: {getattr(exc, 'strerror', None) or exc}") from None
        pairings = read_pairings(text, str(args.pairings))
    hall = Hall(url.event, delay=args.delay * 60, pairings=pairings)
    lock = threading.Lock()
    try:
        server = HallServer(hall, lock, args.host, args.port, allow_hosts=args.allow_host,
                            cors=args.cors)
    except OSError as exc:
        raise ValueError(f"--port {args.port}: {exc.strerror or exc}") from None
    embedded = None
    if args.broker is None:
        try:
            embedded = local_broker()
        except OSError as exc:
            server.stop()
            raise ValueError(str(exc)) from None
        if embedded is not None:
            print(f"kifu: MQTT broker started on 127.0.0.1:{embedded.port} (boards: "
                  "kifu record ... --mqtt local --board N)", file=sys.stderr)
    server.start()
    subscriber = Subscriber(url, hall, lock, server, args.results).start()
    print(f"kifu: hall of {url.event} at {server.url} (organiser, live: "
          f"{server.organiser_url})", file=sys.stderr, flush=True)
    try:
        # A broker the hall cannot trust from the start is a setting to mend, said once
        # (as `kifu record` says it): status 2. Once subscribed, the hall waits out faults.
        while not subscriber.untrusted.wait(3600):
            pass
        return 2
    except KeyboardInterrupt:
        print("\nhall closed", file=sys.stderr)
    finally:
        subscriber.stop()
        server.stop()
        if embedded is not None:
            embedded.stop()
    return 0


__all__ = ["Subscriber", "cmd_hall", "register"]
