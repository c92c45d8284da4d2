"""The sensor board protocol (hardware/PROTOCOL.md), as pure functions: frames, CRC,
messages in both directions, board states. No I/O here.

    >>> frame("C 7 3 15 X")
    b'C 7 3 15 X*CBD0\\n'
    >>> decode(b'C 7 3 15 X*CBD0\\n')
    Change(seq=7, x=3, y=15, state='X')
"""

from __future__ import annotations

import binascii
import dataclasses
import re
from collections.abc import Iterator, Sequence
from typing import Union

from rules.cell import CHARS, Cell

from .errors import ChecksumError, FrameError, ProtocolError

MAJOR = 1
MINOR = 0
MAX_LINE = 700
"""Longest line the host accepts, without its newline (a 25x25 dump is about 640)."""
MAX_COMMAND = 63
"""Longest command line the board accepts, without its newline."""
STATES = CHARS
"""State characters: empty, black, white, unknown; their index is the `rules.Cell` code
(the protocol's characters are the cells' own text forms)."""
SEQ_MODULO = 65536


def crc16(data: bytes) -> int:
    """CRC-16/XMODEM of ``data`` (as avr-libc's ``_crc_xmodem_update`` from 0)."""
    return binascii.crc_hqx(data, 0)


def frame(body: str) -> bytes:
    """The line for ``body``: body, ``*``, four hex digits of CRC, newline. The body must be
    printable ASCII without ``*``."""
    raw = body.encode("ascii")
    if any(b < 0x20 or b > 0x7E or b == 0x2A for b in raw):
        raise ValueError(f"frame body {body!r} holds a character that cannot be framed")
    return raw + b"*%04X\n" % crc16(raw)


_TAIL = re.compile(rb"\*([0-9A-F]{4})\Z")


def unframe(line: bytes) -> str:
    """The body of one line (with or without its ``\\n``/``\\r\\n``), checksum verified.
    Raises `FrameError` for a line that is not a frame, `ChecksumError` for a bad CRC."""
    text = line.rstrip(b"\n").rstrip(b"\r")
    if len(text) > MAX_LINE:
        raise FrameError(line, "line too long")
    star = text.rfind(b"*")
    if star < 0:
        raise FrameError(line, "no checksum")
    body, tail = text[:star], text[star:]
    if not _TAIL.match(tail):
        raise FrameError(line, "checksum is not four upper-case hex digits")
    if any(b < 0x20 or b > 0x7E or b == 0x2A for b in body):
        raise FrameError(line, "body holds a non-printable byte or a '*'")
    if int(tail[1:], 16) != crc16(body):
        raise ChecksumError(line, f"checksum {tail[1:].decode()} != {crc16(body):04X}")
    return body.decode("ascii")


# ---- board to host -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Identity:
    """``I``: who the board is: protocol version, size, firmware name."""

    major: int
    minor: int
    width: int
    height: int
    firmware: str

    def body(self) -> str:
        return f"I {self.major}.{self.minor} {self.width}x{self.height} {self.firmware}"


@dataclasses.dataclass(frozen=True)
class Dump:
    """``D``: every point's state in index order, and the last change's sequence number.
    ``states`` are the wire's characters; `cells` the points as `rules.Cell`."""

    seq: int
    states: str

    def body(self) -> str:
        return f"D {self.seq} {self.states}"

    @property
    def cells(self) -> tuple[Cell, ...]:
        """What each point holds."""
        return states_to_cells(self.states)


@dataclasses.dataclass(frozen=True)
class Change:
    """``C``: one debounced change of point (x, y) to ``state``."""

    seq: int
    x: int
    y: int
    state: str

    def body(self) -> str:
        return f"C {self.seq} {self.x} {self.y} {self.state}"

    @property
    def cell(self) -> Cell:
        """What the point holds now."""
        return Cell.from_char(self.state)


@dataclasses.dataclass(frozen=True)
class Heartbeat:
    """``H``: the last change's sequence number and the hash of the board's states."""

    seq: int
    hash: int

    def body(self) -> str:
        return f"H {self.seq} {self.hash:04X}"


@dataclasses.dataclass(frozen=True)
class Row:
    """``R`` (raw readings) or ``B`` (baselines) of row ``y``: 8-bit values left to right."""

    kind: str
    y: int
    values: tuple[int, ...]

    def body(self) -> str:
        return " ".join([self.kind, str(self.y), *map(str, self.values)])


@dataclasses.dataclass(frozen=True)
class Settings:
    """``S``: debounce scans, scan period (ms), threshold (ADC steps), heartbeat (ms)."""

    debounce: int = 3
    period: int = 10
    threshold: int = 24
    heartbeat: int = 1000

    def body(self) -> str:
        return f"S DEB={self.debounce} PER={self.period} THR={self.threshold} HB={self.heartbeat}"


@dataclasses.dataclass(frozen=True)
class Ack:
    """``OK``: a command without other answer was done."""

    command: str

    def body(self) -> str:
        return f"OK {self.command}"


@dataclasses.dataclass(frozen=True)
class ErrorReport:
    """``E``: the board reports an error (code CRC, LEN, CMD, ARG or CAL)."""

    code: str
    detail: str

    def body(self) -> str:
        return f"E {self.code} {self.detail}".rstrip()


Message = Union[Identity, Dump, Change, Heartbeat, Row, Settings, Ack, ErrorReport]

SETTING_KEYS = {"DEB": "debounce", "PER": "period", "THR": "threshold", "HB": "heartbeat"}
SETTING_RANGES = {"DEB": (1, 20), "PER": (2, 100), "THR": (4, 120), "HB": (100, 10000)}

_NUM = re.compile(r"(0|[1-9][0-9]{0,5})\Z")


def _num(line: bytes, text: str, what: str, limit: int = SEQ_MODULO - 1) -> int:
    if not _NUM.match(text):
        raise FrameError(line, f"{what} {text!r} is not a decimal number")
    value = int(text)
    if value > limit:
        raise FrameError(line, f"{what} {value} is out of range 0..{limit}")
    return value


def _fields(line: bytes, body: str, n: int) -> list[str]:
    parts = body.split(" ")
    if len(parts) != n:
        raise FrameError(line, f"{parts[0]!r} message needs {n - 1} fields, got {len(parts) - 1}")
    return parts


def parse_body(body: str, line: bytes = b"") -> Message:
    """The message a board sent, from a verified body. Raises `FrameError` naming the fault."""
    line = line or body.encode("ascii", "replace")
    kind = body.split(" ", 1)[0]
    if kind == "I":
        parts = body.split(" ", 3)
        if len(parts) != 4:
            raise FrameError(line, "identity needs version, size and firmware")
        m = re.match(r"([0-9]{1,3})\.([0-9]{1,3})\Z", parts[1])
        s = re.match(r"([0-9]{1,2})x([0-9]{1,2})\Z", parts[2])
        if not m or not s:
            raise FrameError(line, "identity version must be M.N and size WxH")
        w, h = int(s.group(1)), int(s.group(2))
        if not (2 <= w <= 25 and 2 <= h <= 25):
            raise FrameError(line, f"board size {w}x{h} is outside 2x2..25x25")
        return Identity(int(m.group(1)), int(m.group(2)), w, h, parts[3])
    if kind == "D":
        _, seq, states = _fields(line, body, 3)
        if not states or any(c not in STATES for c in states):
            raise FrameError(line, "dump states must be characters of . X O ?")
        return Dump(_num(line, seq, "sequence number"), states)
    if kind == "C":
        _, seq, x, y, state = _fields(line, body, 5)
        if state not in STATES or len(state) != 1:
            raise FrameError(line, f"state {state!r} is not one of . X O ?")
        return Change(_num(line, seq, "sequence number"), _num(line, x, "x", 24),
                      _num(line, y, "y", 24), state)
    if kind == "H":
        _, seq, digest = _fields(line, body, 3)
        if not re.match(r"[0-9A-F]{4}\Z", digest):
            raise FrameError(line, f"hash {digest!r} is not four hex digits")
        return Heartbeat(_num(line, seq, "sequence number"), int(digest, 16))
    if kind in ("R", "B"):
        parts = body.split(" ")
        if len(parts) < 3:
            raise FrameError(line, "a row needs its number and values")
        values = tuple(_num(line, v, "reading", 255) for v in parts[2:])
        return Row(kind, _num(line, parts[1], "row", 24), values)
    if kind == "S":
        found: dict[str, int] = {}
        for item in body.split(" ")[1:]:
            key, eq, value = item.partition("=")
            if key not in SETTING_KEYS or not eq or key in found:
                raise FrameError(line, f"setting {item!r} is not one of DEB PER THR HB, once")
            found[key] = _num(line, value, key)
        if set(found) != set(SETTING_KEYS):
            raise FrameError(line, "settings must give DEB, PER, THR and HB")
        return Settings(**{SETTING_KEYS[k]: v for k, v in found.items()})
    if kind == "OK":
        parts = body.split(" ", 1)
        if len(parts) != 2 or not parts[1]:
            raise FrameError(line, "OK needs the command it acknowledges")
        return Ack(parts[1])
    if kind == "E":
        parts = body.split(" ", 2)
        if len(parts) < 2 or not re.match(r"[A-Z]{2,4}\Z", parts[1]):
            raise FrameError(line, "error report needs an upper-case code")
        return ErrorReport(parts[1], parts[2] if len(parts) == 3 else "")
    raise FrameError(line, f"unknown message type {kind!r}")


def decode(line: bytes) -> Message:
    """One line from the board as a message. Raises only `ProtocolError` subclasses:
    `ChecksumError` for a bad CRC, `FrameError` for anything else wrong."""
    return parse_body(unframe(line), line)


def encode(message: Message) -> bytes:
    """The line a board sends for ``message``."""
    return frame(message.body())


# ---- host to board -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Command:
    """A command to the board: ``?``, ``D``, ``R``, ``B``, ``S`` (with settings to change,
    possibly none) or ``Z``."""

    name: str
    settings: tuple[tuple[str, int], ...] = ()

    def body(self) -> str:
        return " ".join([self.name, *(f"{k}={v}" for k, v in self.settings)])


COMMANDS = ("?", "D", "R", "B", "S", "Z")


def command(name: str, **settings: int) -> bytes:
    """The line for a command, e.g. ``command("S", DEB=4)``. Raises ValueError for an
    unknown command or setting, or a value out of range."""
    cmd = Command(name, tuple(settings.items()))
    check_command(cmd)
    return frame(cmd.body())


def check_command(cmd: Command) -> None:
    """Raise ValueError naming the fault unless ``cmd`` is a valid command."""
    if cmd.name not in COMMANDS:
        raise ValueError(f"unknown board command {cmd.name!r}")
    if cmd.settings and cmd.name != "S":
        raise ValueError(f"command {cmd.name!r} takes no settings")
    for key, value in cmd.settings:
        if key not in SETTING_RANGES:
            raise ValueError(f"unknown setting {key!r}; known: DEB PER THR HB")
        lo, hi = SETTING_RANGES[key]
        if not lo <= value <= hi:
            raise ValueError(f"setting {key}={value} is out of range {lo}..{hi}")


def decode_command(line: bytes) -> Command:
    """A command line as the board reads it. Raises `ProtocolError` like `decode`, and
    `FrameError` for an unknown command or a bad setting."""
    body = unframe(line)
    if len(body) > MAX_COMMAND:
        raise FrameError(line, "command too long")
    parts = body.split(" ")
    settings = []
    for item in parts[1:]:
        key, eq, value = item.partition("=")
        if not eq:
            raise FrameError(line, f"setting {item!r} is not KEY=value")
        settings.append((key, _num(line, value, key)))
    cmd = Command(parts[0], tuple(settings))
    try:
        check_command(cmd)
    except ValueError as exc:
        raise FrameError(line, str(exc)) from None
    return cmd


# ---- states and lines ------------------------------------------------------------------


def states_to_cells(states: str) -> tuple[Cell, ...]:
    """The `rules.Cell` of each of a dump's states (ValueError for any other character)."""
    return tuple(Cell.from_char(c) if c in STATES else _bad_state(c) for c in states)


def _bad_state(c: str) -> Cell:
    raise ValueError(f"{c!r} is not a board state: one of {STATES}")


def cells_to_states(cells: Sequence[int]) -> str:
    """The dump states of `rules.Cell` codes (the wire's characters)."""
    return "".join(Cell(c).char for c in cells)


def board_hash(states: str) -> int:
    """The heartbeat hash of a board's states."""
    return crc16(states.encode("ascii"))


class LineSplitter:
    """Cuts a byte stream into lines. `feed` returns complete lines (without ``\\n``) and,
    in their place, a `FrameError` for any line that grew longer than ``limit`` (its bytes
    are skipped up to the next newline)."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> list[bytes | ProtocolError]:
        out: list[bytes | ProtocolError] = []
        for chunk in _split_keep(data):
            if chunk == b"\n":
                if self._overlong:
                    out.append(FrameError(bytes(self._buf[:80]), "line too long"))
                else:
                    out.append(bytes(self._buf).rstrip(b"\r"))
                self._buf.clear()
                self._overlong = False
                continue
            if self._overlong:
                continue
            self._buf += chunk
            if len(self._buf) > self.limit:
                self._overlong = True
                self._buf = self._buf[:80]
        return out

    def pending(self) -> bytes:
        """Bytes of a line not yet ended (a truncated line, if the stream stops here)."""
        return bytes(self._buf)

    def reset(self) -> None:
        """Forget any partial line (after a reconnect)."""
        self._buf.clear()
        self._overlong = False


def _split_keep(data: bytes) -> Iterator[bytes]:
    start = 0
    while True:
        nl = data.find(b"\n", start)
        if nl < 0:
            if start < len(data):
                yield data[start:]
            return
        if nl > start:
            yield data[start:nl]
        yield b"\n"
        start = nl + 1
