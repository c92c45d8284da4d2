"""`SensorBoard`: the sensor board on a serial port, as a source of Observations.

The one place that does serial I/O. It accepts a port name, a pyserial URL, an open
`serial.Serial`, or a callable that finds the port (used again after an unplug, when the
board may come back under another name). Protocol rules are in `link.Link`.

    board = SensorBoard("/dev/ttyACM0")
    board.open()
    for observation in board.observations():
        tracker.observe(observation)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Union

import serial  # type: ignore[import-untyped]

from rules import Observation

from . import protocol as p
from .errors import BoardNotFound, ConnectionLost, DeviceError
from .link import Link, State
from .ports import find_board

PortSpec = Union[str, serial.SerialBase, Callable[[], Union[str, None]]]
BAUDRATE = 115200


class SensorBoard:
    """A connection to one board that survives unplugging.

    ``clock`` gives the time in seconds (``time.monotonic`` by default); ``idle`` is called
    while a blocking method waits (a short sleep by default; a lock-step simulation passes
    a function that advances simulated time instead, together with its own clock).
    """

    def __init__(
        self,
        port: PortSpec,
        *,
        baudrate: int = BAUDRATE,
        clock: Callable[[], float] = time.monotonic,
        idle: Callable[[], None] | None = None,
        reconnect_interval: float = 0.5,
    ) -> None:
        self._spec = port
        self._baudrate = baudrate
        self._clock = clock
        self._idle = idle or (lambda: time.sleep(0.005))
        self._reconnect_interval = reconnect_interval
        self._serial: serial.SerialBase | None = None
        self._next_attempt = 0.0
        self.name = port.port if isinstance(port, serial.SerialBase) else (
            port if isinstance(port, str) else "auto"
        )
        self.link = Link(source=f"serial:{self.name}")
        self.connected = False

    # ---- connection ------------------------------------------------------------------

    def _locate(self) -> str:
        spec = self._spec
        if isinstance(spec, serial.SerialBase):
            if spec.port is None:
                raise BoardNotFound("the serial port given has no name to reopen it by")
            return str(spec.port)
        if isinstance(spec, str):
            return spec
        found = spec()
        if not found:
            raise BoardNotFound("no serial port with a kifu board found")
        return found

    def open(self) -> None:
        """Open the port and start the handshake. Raises `ConnectionLost` if the port
        cannot be opened, `BoardNotFound` if a locator finds none."""
        now = self._clock()
        spec = self._spec
        if isinstance(spec, serial.SerialBase) and spec.is_open and self._serial is None:
            spec.timeout = 0
            self._serial = spec
        else:
            name = self._locate()
            try:
                self._serial = serial.serial_for_url(name, baudrate=self._baudrate, timeout=0)
            except (serial.SerialException, OSError, ValueError) as exc:
                raise ConnectionLost(f"cannot open serial port {name!r}: {exc}") from exc
            self.name = name
            self.link.source = f"serial:{name}"
        self.connected = True
        self.link.start(now)
        self._flush()

    def close(self) -> None:
        """Close the port (the mirror and counters are kept)."""
        if self._serial is not None:
            try:
                self._serial.close()
            except (serial.SerialException, OSError):
                pass
        self._serial = None
        self.connected = False

    def _lost(self, now: float) -> None:
        self.close()
        self._next_attempt = now + self._reconnect_interval

    def _flush(self) -> None:
        assert self._serial is not None
        for line in self.link.outgoing():
            self._serial.write(line)

    # ---- the stream ------------------------------------------------------------------

    def poll(self) -> list[Observation]:
        """Read what has arrived, without waiting; return the Observations it makes.
        After an unplug this returns nothing and tries to reconnect every
        ``reconnect_interval`` seconds; the board is then dumped afresh."""
        now = self._clock()
        if not self.connected:
            if now < self._next_attempt:
                return []
            try:
                self.open()
                self.link.counters.reconnects += 1
            except (ConnectionLost, BoardNotFound):
                self._next_attempt = now + self._reconnect_interval
                return []
        assert self._serial is not None
        try:
            waiting = self._serial.in_waiting
            data = self._serial.read(waiting or 1) if waiting else b""
            emitted = self.link.feed(data, now) if data else []
            self.link.tick(now)
            self._flush()
        except (serial.SerialException, OSError, ConnectionLost):
            self._lost(now)
            return []
        return emitted

    def observations(self, timeout: float | None = None) -> Iterator[Observation]:
        """Observations as they come, forever or until ``timeout`` seconds pass."""
        end = None if timeout is None else self._clock() + timeout
        while end is None or self._clock() < end:
            yield from self.poll()
            self._idle()

    def wait(self, done: Callable[[], bool], timeout: float, what: str) -> list[Observation]:
        """Poll until ``done()``; the Observations seen meanwhile. Raises `ConnectionLost`
        naming ``what`` after ``timeout`` seconds."""
        seen: list[Observation] = []
        end = self._clock() + timeout
        while not done():
            if self._clock() > end:
                raise ConnectionLost(f"{self.name}: no {what} within {timeout} s")
            self._idle()
            seen += self.poll()
        return seen

    def handshake(self, timeout: float = 3.0) -> p.Identity:
        """Open if needed and wait until the mirror is valid; the board's identity."""
        if not self.connected:
            self.open()
        self.wait(lambda: self.link.state is State.SYNCED, timeout, "identity and dump")
        assert self.link.identity is not None
        return self.link.identity

    # ---- commands --------------------------------------------------------------------

    def _command(self, name: str, **settings: int) -> int:
        errors_before = len(self.link.device_errors)
        if not self.connected:
            raise ConnectionLost(f"{self.name}: not connected")
        self.link.request(name, self._clock(), **settings)
        return errors_before

    def _check(self, errors_before: int) -> None:
        for report in self.link.device_errors[errors_before:]:
            if report.code in ("ARG", "CMD"):
                raise DeviceError(report.code, report.detail)

    def rows(self, kind: str = "R", timeout: float = 2.0) -> list[tuple[int, ...]]:
        """Raw readings (``R``) or baselines (``B``) of every sensor, bottom row first."""
        if self.link.identity is None:
            raise ConnectionLost(f"{self.name}: no handshake yet")
        height = self.link.identity.height
        self.link.rows[kind].clear()
        before = self._command(kind)
        self.wait(lambda: len(self.link.rows[kind]) == height, timeout, f"{kind} rows")
        self._check(before)
        return [self.link.rows[kind][y] for y in range(height)]

    def configure(self, timeout: float = 2.0, **settings: int) -> p.Settings:
        """Change settings (``DEB``, ``PER``, ``THR``, ``HB``); the board's new settings.
        Raises ValueError before sending a bad setting, `DeviceError` if the board refuses."""
        self.link.settings = None
        before = self._command("S", **settings)
        self.wait(
            lambda: self.link.settings is not None or len(self.link.device_errors) > before,
            timeout, "settings",
        )
        self._check(before)
        assert self.link.settings is not None
        return self.link.settings

    def calibrate(self, timeout: float = 2.0) -> None:
        """Take the current readings as the empty board's baselines (the board must be empty)."""
        count = self.link.acks.count("Z")
        self._command("Z")
        self.wait(lambda: self.link.acks.count("Z") > count, timeout, "calibration")


def board_for(spec: str, **options: object) -> SensorBoard:
    """The client for a command-line port spec: ``auto`` finds the board by its USB ids
    (again after each unplug); anything else is a port name or pyserial URL. For a
    simulated board, start ``python -m firmware_bridge.simulator`` and pass the pty it
    prints."""
    if spec == "auto":
        return SensorBoard(find_board, **options)  # type: ignore[arg-type]
    return SensorBoard(spec, **options)  # type: ignore[arg-type]
