"""A sensor board in pure Python, speaking the protocol on a pseudo-terminal: for users and
tests without the AVR toolchain. It follows the firmware (hardware/firmware/main.c) step
for step: the same scans, debounce, boot settling, commands and heartbeat, and the same
hall sensor model as the simavr harness (hardware/sim/kifu_sim.c).

Time advances only when asked (`SimulatedBoard.run`), so tests are deterministic;
``python -m firmware_bridge.simulator`` runs it in real time and takes the harness's
commands on stdin (place X Y b|w, lift X Y, run MS, unplug, plug, quit).
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import random
import struct
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable

from rules import Cell, Color

from . import protocol as p
from .errors import ProtocolError

QUIESCENT_MV = 2500
STONE_MV = 1200
BAUD_BYTES_PER_MS = 115200 / 10 / 1000
BOOT_SCANS = 20
FIRMWARE = "kifu-py-sim-0.1"

SensorReader = Callable[[int], int]
"""Sensor index -> its output in millivolts."""


def adc8(mv: int) -> int:
    """The 8-bit reading (ADCH, left adjusted, 5 V reference) of ``mv`` millivolts."""
    return min(1023, max(0, mv) * 1023 // 5000) >> 2


@dataclasses.dataclass
class Eeprom:
    """What survives a power cycle: settings and baselines (None until stored)."""

    settings: p.Settings | None = None
    baseline: list[int] | None = None


class FirmwareModel:
    """The firmware's behaviour, one millisecond at a time. ``read(i)`` gives sensor i's
    output in millivolts; bytes to send accumulate in ``tx``."""

    def __init__(self, width: int, height: int, eeprom: Eeprom, read: SensorReader) -> None:
        self.width, self.height = width, height
        self.n = width * height
        self.eeprom = eeprom
        self.read = read
        self.settings = eeprom.settings or p.Settings()
        self.calibrated = eeprom.baseline is not None
        self.baseline = list(eeprom.baseline) if eeprom.baseline else [128] * self.n
        self.state = [Cell.UNKNOWN.char] * self.n
        self.candidate = [Cell.UNKNOWN.char] * self.n
        self.agree = [0] * self.n
        self.raw = [0] * self.n
        self.seq = 0
        self.ms = 0
        self.tx = bytearray()
        self._rx = p.LineSplitter(limit=p.MAX_COMMAND)
        self._pending_rx = bytearray()
        self._last_scan = 0
        self._last_beat = 0
        self._booting = True
        self._boot_scans = 0

    def _send(self, body: str) -> None:
        self.tx += p.frame(body)

    def _classify(self, i: int, raw: int) -> str:
        """The state character (the wire's) of sensor ``i`` reading ``raw``."""
        d = raw - self.baseline[i]
        if d >= self.settings.threshold:
            return Cell.BLACK.char
        if d <= -self.settings.threshold:
            return Cell.WHITE.char
        return Cell.EMPTY.char

    def _scan(self, report: bool) -> int:
        unsettled = 0
        self.raw = [adc8(self.read(i)) for i in range(self.n)]
        for i in range(self.n):
            now = self._classify(i, self.raw[i])
            if now == self.state[i]:
                self.agree[i] = 0
                continue
            if now == self.candidate[i] and self.agree[i]:
                self.agree[i] = min(255, self.agree[i] + 1)
            else:
                self.candidate[i] = now
                self.agree[i] = 1
            if self.agree[i] >= self.settings.debounce:
                self.state[i] = now
                self.agree[i] = 0
                if report:
                    self.seq = (self.seq + 1) % p.SEQ_MODULO
                    self._send(p.Change(self.seq, i % self.width, i // self.width, now).body())
            else:
                unsettled += 1
        return unsettled

    def settles_to(self) -> str:
        """The states (the wire's characters, as in a dump) the board will report once its
        scans have agreed ``debounce`` times with the sensors as they read now."""
        return "".join(self._classify(i, adc8(self.read(i))) for i in range(self.n))

    def receive(self, data: bytes) -> None:
        """Bytes from the host (kept until boot is over, as in the UART buffer)."""
        self._pending_rx += data

    def tick(self) -> None:
        """One millisecond."""
        self.ms += 1
        if self._booting:
            if self.ms - self._last_scan >= self.settings.period or self._boot_scans == 0:
                self._last_scan = self.ms
                self._boot_scans += 1
                left = self._scan(report=False)
                if (left == 0 and self._boot_scans >= self.settings.debounce) or (
                    self._boot_scans >= BOOT_SCANS
                ):
                    self._booting = False
                    self._last_scan = self._last_beat = self.ms
                    self._send(p.Identity(p.MAJOR, p.MINOR, self.width, self.height, FIRMWARE).body())
                    if not self.calibrated:
                        self._send("E CAL no calibration stored")
            return
        data, self._pending_rx = bytes(self._pending_rx), bytearray()
        for line in self._rx.feed(data):
            if isinstance(line, ProtocolError):
                self._send("E LEN command too long")
            elif line:
                self._command(line)
        if self.ms - self._last_scan >= self.settings.period:
            self._last_scan = self.ms
            self._scan(report=True)
        if self.ms - self._last_beat >= self.settings.heartbeat:
            self._last_beat = self.ms
            self._send(p.Heartbeat(self.seq, p.board_hash("".join(self.state))).body())

    def _command(self, line: bytes) -> None:
        try:
            body = p.unframe(line)
        except ProtocolError:
            self._send("E CRC bad checksum or frame")
            return
        if body == "?":
            self._send(p.Identity(p.MAJOR, p.MINOR, self.width, self.height, FIRMWARE).body())
        elif body == "D":
            self._send(p.Dump(self.seq, "".join(self.state)).body())
        elif body in ("R", "B"):
            values = self.raw if body == "R" else self.baseline
            for y in range(self.height):
                row = tuple(values[y * self.width:(y + 1) * self.width])
                self._send(p.Row(body, y, row).body())
        elif body == "S":
            self._send(self.settings.body())
        elif body.startswith("S "):
            self._set(body)
        elif body == "Z":
            sums = [0] * self.n
            for _ in range(8):
                for i in range(self.n):
                    sums[i] += adc8(self.read(i))
            self.baseline = [(s + 4) // 8 for s in sums]
            self.eeprom.baseline = list(self.baseline)
            self.calibrated = True
            self._send("OK Z")
        else:
            self._send("E CMD unknown command")

    def _set(self, body: str) -> None:
        try:
            cmd = p.decode_command(p.frame(body))
        except ProtocolError:
            self._send("E ARG unknown setting or out of range")
            return
        values = dataclasses.asdict(self.settings)
        for key, value in cmd.settings:
            values[p.SETTING_KEYS[key]] = value
        self.settings = p.Settings(**values)
        self.eeprom.settings = self.settings
        self._send(self.settings.body())


class SimulatedBoard:
    """A board on a pseudo-terminal, its stones placed and lifted by the caller, its time
    advanced by `run`. ``spread`` (mV) gives each sensor a seeded offset, as real sensors
    have; calibration (``Z``) removes it."""

    def __init__(self, width: int = 19, height: int = 19, spread: int = 0, seed: int = 1) -> None:
        self.width, self.height = width, height
        rng = random.Random(seed)
        n = width * height
        self.quiescent = [QUIESCENT_MV + (rng.randint(-spread, spread) if spread else 0) for _ in range(n)]
        self.field = [0] * n
        self.forced: dict[int, int] = {}
        self.eeprom = Eeprom()
        self._ms = 0
        self._off = False
        self._tx_budget = 0.0
        self._open()

    def _read(self, i: int) -> int:
        return self.forced.get(i, self.quiescent[i] + self.field[i])

    def _open(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave, termios.TCSANOW)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self.model = FirmwareModel(self.width, self.height, self.eeprom, self._read)

    def _index(self, x: int, y: int) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"point ({x}, {y}) is off a {self.width}x{self.height} board")
        return y * self.width + x

    def place(self, x: int, y: int, color: Color) -> None:
        """Put a stone of ``color`` on (x, y)."""
        self.field[self._index(x, y)] = STONE_MV if color == Color.BLACK else -STONE_MV

    def lift(self, x: int, y: int) -> None:
        """Take the stone off (x, y)."""
        self.field[self._index(x, y)] = 0

    def set_mv(self, x: int, y: int, mv: int | None) -> None:
        """Force sensor (x, y)'s output to ``mv`` millivolts (None: back to its stone)."""
        i = self._index(x, y)
        if mv is None:
            self.forced.pop(i, None)
        else:
            self.forced[i] = mv

    def now_ms(self) -> int:
        """Simulated milliseconds since start."""
        return self._ms

    def run(self, ms: int) -> None:
        """Advance ``ms`` simulated milliseconds: take the host's bytes, scan, answer, and
        send at the line's speed (115200 baud)."""
        before = self._slave_queue()
        written = 0
        for _ in range(ms):
            self._ms += 1
            if self._off:
                continue
            try:
                self.model.receive(os.read(self._master, 4096))
            except (BlockingIOError, OSError):
                pass
            self.model.tick()
            self._tx_budget = min(self._tx_budget + BAUD_BYTES_PER_MS, 64.0)
            n = min(len(self.model.tx), int(self._tx_budget))
            if n:
                try:
                    n_out = os.write(self._master, bytes(self.model.tx[:n]))
                except (BlockingIOError, OSError):
                    n_out = 0
                del self.model.tx[:n_out]
                self._tx_budget -= n_out
                written += n_out
        self._settle(before, written)

    def _slave_queue(self) -> int:
        if self._off:
            return -1
        queued: int = struct.unpack("i", fcntl.ioctl(self._slave, termios.FIONREAD, b"\0\0\0\0"))[0]
        return queued

    def _settle(self, before: int, written: int) -> None:
        """Wait (briefly) until the kernel has moved what was written to the pty's other
        side, so the host reads exactly what was sent by this simulated time."""
        if before < 0 or not written:
            return
        for _ in range(2000):
            if self._slave_queue() >= before + written:
                return
            time.sleep(0.00005)

    def garble(self, data: bytes) -> None:
        """Send ``data`` to the host as if the line had produced it."""
        if not self._off:
            before = self._slave_queue()
            self._settle(before, os.write(self._master, data))

    def unplug(self) -> None:
        """Power off and close the pty: the host sees the port vanish."""
        if not self._off:
            self._off = True
            os.close(self._master)
            os.close(self._slave)

    def plug(self) -> str:
        """Power on (a reset: settings and baselines come back from EEPROM) on a new pty."""
        if self._off:
            self._off = False
            self._tx_budget = 0.0
            self._open()
        return self.port

    def close(self) -> None:
        """Release the pty."""
        self.unplug()


def handle(board: SimulatedBoard, line: str) -> str:
    """One harness command (the stdin language of hardware/sim/kifu_sim.c); its answer."""
    words = line.split()
    if not words:
        return ""
    verb, args = words[0], words[1:]
    try:
        if verb == "run" and len(args) == 1:
            board.run(int(args[0]))
            return f"ok {board.now_ms()}"
        if verb == "time":
            return f"ok {board.now_ms()}"
        if verb == "place" and len(args) == 3 and args[2] in ("b", "w"):
            board.place(int(args[0]), int(args[1]), Color.BLACK if args[2] == "b" else Color.WHITE)
            return "ok"
        if verb == "lift" and len(args) == 2:
            board.lift(int(args[0]), int(args[1]))
            return "ok"
        if verb == "set" and len(args) == 3:
            mv = int(args[2])
            board.set_mv(int(args[0]), int(args[1]), None if mv < 0 else mv)
            return "ok"
        if verb == "garble" and len(args) == 1:
            board.garble(bytes.fromhex(args[0]))
            return "ok"
        if verb == "unplug":
            board.unplug()
            return "ok"
        if verb == "plug":
            return f"pty {board.plug()}"
    except ValueError as exc:
        return f"error {exc}"
    return f"error cannot do {line.strip()!r}"


class RealTimeBoard:
    """A `SimulatedBoard` whose time follows the wall clock, on its own thread; harness
    commands (see `handle`) may come from any thread. Use as a context manager."""

    def __init__(self, size: int = 19, spread: int = 0) -> None:
        self.board = SimulatedBoard(size, size, spread=spread)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="simulated board", daemon=True)
        self._thread.start()

    @property
    def port(self) -> str:
        """The pty the host opens."""
        return self.board.port

    def _run(self) -> None:
        start = time.monotonic()
        while not self._stop.is_set():
            with self._lock:
                behind = int((time.monotonic() - start) * 1000) - self.board.now_ms()
                if behind > 0:
                    self.board.run(min(behind, 50))
            time.sleep(0.001)

    def settles_to(self) -> str:
        """The states the board will report once its stones, as they lie now, have been
        scanned (`FirmwareModel.settles_to`)."""
        with self._lock:
            return self.board.model.settles_to()

    def command(self, line: str) -> str:
        """Carry out one harness command; its answer."""
        with self._lock:
            return handle(self.board, line)

    def close(self) -> None:
        """Stop the clock and release the pty."""
        self._stop.set()
        self._thread.join(timeout=2.0)
        self.board.close()

    def __enter__(self) -> RealTimeBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    """Run a simulated board in real time; print its pty; take commands on stdin."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.simulator",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--spread", type=int, default=0, help="sensor offsets, mV")
    args = parser.parse_args(argv)
    with RealTimeBoard(args.size, spread=args.spread) as sim:
        print(f"pty {sim.port}", flush=True)
        for line in sys.stdin:
            if line.strip() == "quit":
                break
            print(sim.command(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
