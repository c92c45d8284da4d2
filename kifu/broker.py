"""An MQTT broker inside kifu's own process, for one laptop: a small club evening or the demo
needs no system package. It is amqtt (a pure-Python asyncio broker, kept up on PyPI),
listening on loopback only, in a thread with its own event loop. Anything bigger uses
Mosquitto (see README).

``local`` as a broker address means ``mqtt://127.0.0.1:1883/local``: the first kifu that
needs it and finds nothing listening there starts the embedded broker; the others join it.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from typing import Any

LOCAL_PORT = 1883
LOCAL_EVENT = "local"
LOCAL_URL = f"mqtt://127.0.0.1:{LOCAL_PORT}/{LOCAL_EVENT}"
"""What ``--mqtt local`` and a ``kifu hall`` given no broker stand for."""


def listening(port: int, host: str = "127.0.0.1") -> bool:
    """Does anything take connections on ``host``:``port``?"""
    try:
        socket.create_connection((host, port), timeout=0.3).close()
        return True
    except OSError:
        return False


class EmbeddedBroker:
    """amqtt on 127.0.0.1:``port`` until `stop` (anonymous clients, loopback only)."""

    def __init__(self, port: int = LOCAL_PORT) -> None:
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="kifu-broker", daemon=True)

    def start(self) -> EmbeddedBroker:
        """Start it; returns once it takes connections. OSError naming the port if it
        cannot listen there."""
        self._thread.start()
        self._ready.wait(15)
        if self._failure is not None:
            raise OSError(f"the embedded MQTT broker cannot listen on 127.0.0.1:{self.port}: "
                          f"{self._failure}")
        return self

    def _run(self) -> None:
        from amqtt.broker import Broker  # type: ignore[import-untyped]

        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.ERROR)
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                        {"allow_anonymous": True}},
        }
        try:
            self._broker = Broker(config, loop=loop)
            loop.run_until_complete(self._broker.start())
        except BaseException as exc:  # noqa: BLE001 - handed to start()'s caller
            self._failure = exc
            self._ready.set()
            return
        self._ready.set()
        loop.run_forever()
        loop.close()

    def stop(self) -> None:
        """Shut it down (clients see the connection close)."""
        loop = self._loop
        if loop is None or self._broker is None or not loop.is_running():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._broker.shutdown(), loop).result(10)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(10)


def local_broker(port: int = LOCAL_PORT) -> EmbeddedBroker | None:
    """Join the broker on 127.0.0.1:``port`` if one listens (None), else start one."""
    if listening(port):
        return None
    return EmbeddedBroker(port).start()


__all__ = ["LOCAL_EVENT", "LOCAL_PORT", "LOCAL_URL", "EmbeddedBroker", "listening",
           "local_broker"]
