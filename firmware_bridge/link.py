"""The host's side of one connection to a sensor board, as a pure state machine: it is fed
bytes and the time, and says which Observations to emit and which commands to send. The
resync rules of hardware/PROTOCOL.md live here and nowhere else.

No I/O: `client.SensorBoard` moves the bytes.
"""

from __future__ import annotations

import dataclasses
import enum

from rules import Observation

from . import protocol as p
from .errors import ConnectionLost, ProtocolError, VersionError


class State(enum.Enum):
    """Where the link stands. Observations are emitted only when SYNCED."""

    HANDSHAKE = "handshake"  # asked for identity, waiting
    SYNCING = "syncing"      # asked for a dump, waiting; changes are ignored meanwhile
    SYNCED = "synced"        # the mirror is the board


@dataclasses.dataclass
class Counters:
    """What happened on the link, for logs and benchmarks."""

    bytes_in: int = 0
    lines: int = 0
    bad_lines: int = 0
    changes: int = 0
    dumps: int = 0
    resyncs: int = 0
    reconnects: int = 0
    line_bytes: dict[str, int] = dataclasses.field(default_factory=dict)
    """Bytes of valid lines received, by message type (``C``, ``H``, ``D``...)."""


RETRY_S = 0.5
"""A request without answer for this long is sent again."""


class Link:
    """The mirror of one board and the rules for keeping it true.

    An Observation is emitted for every dump, every change applied, and every heartbeat
    that confirms the mirror (so a consumer waiting for a stable board hears of it at
    least once a heartbeat period).

    ``start(now)`` begins (or restarts, after a reconnect) the handshake; ``feed(data, now)``
    takes received bytes and returns the Observations to emit; ``tick(now)`` applies the
    silence rule and retries, raising `ConnectionLost` when the board has gone quiet;
    ``outgoing()`` hands over the command lines to send. A wrong protocol major version
    raises `VersionError` from ``feed``.
    """

    def __init__(self, source: str = "serial") -> None:
        self.source = source
        self.state = State.HANDSHAKE
        self.identity: p.Identity | None = None
        self.settings: p.Settings | None = None
        self.mirror: str | None = None
        self.expected = 0
        self.counters = Counters()
        self.device_errors: list[p.ErrorReport] = []
        self.rows: dict[str, dict[int, tuple[int, ...]]] = {"R": {}, "B": {}}
        self.acks: list[str] = []
        self._splitter = p.LineSplitter()
        self._out: list[bytes] = []
        self._asked: dict[str, float] = {}
        self._last_rx = 0.0
        self._probe_at: float | None = None

    # ---- driving ---------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Begin the handshake: forget partial input, ask who the board is."""
        self._splitter.reset()
        self._asked.clear()
        self.state = State.HANDSHAKE
        self._last_rx = now
        self._probe_at = None
        self._ask("?", now)

    def outgoing(self) -> list[bytes]:
        """Command lines to send now (each once)."""
        out, self._out = self._out, []
        return out

    def request(self, name: str, now: float, **settings: int) -> None:
        """Queue a command (``R``, ``B``, ``S``, ``Z``...) for the board."""
        self._out.append(p.command(name, **settings))
        self._asked[name] = now

    @property
    def heartbeat_s(self) -> float:
        """The board's heartbeat period, once known (1 s until then)."""
        return self.settings.heartbeat / 1000 if self.settings else 1.0

    def tick(self, now: float) -> None:
        """Retries and the silence rule (PROTOCOL.md, host rule 5)."""
        quiet = now - self._last_rx
        if self._probe_at is not None and now - self._probe_at > self.heartbeat_s:
            raise ConnectionLost(f"{self.source}: no answer for {quiet:.1f} s")
        if self._probe_at is None and quiet > 3 * self.heartbeat_s:
            self._probe_at = now
            self._ask("?", now)
        for name in ("?", "D"):
            asked = self._asked.get(name)
            if asked is not None and now - asked > RETRY_S:
                self._ask(name, now)

    def feed(self, data: bytes, now: float) -> list[Observation]:
        """Take received bytes; return the Observations they make (zero or more)."""
        self.counters.bytes_in += len(data)
        emitted: list[Observation] = []
        for item in self._splitter.feed(data):
            self._last_rx = now
            self._probe_at = None
            if isinstance(item, ProtocolError):
                self._bad_line(now)
                continue
            self.counters.lines += 1
            try:
                message = p.decode(item)
            except ProtocolError:
                self._bad_line(now)
                continue
            kind = item[:2].split(b" ")[0].decode("ascii")
            self.counters.line_bytes[kind] = self.counters.line_bytes.get(kind, 0) + len(item) + 1
            obs = self._handle(message, now)
            if obs is not None:
                emitted.append(obs)
        return emitted

    # ---- the rules -------------------------------------------------------------------

    def _ask(self, name: str, now: float) -> None:
        self._out.append(p.command(name))
        self._asked[name] = now

    def _resync(self, now: float) -> None:
        if self.state is State.HANDSHAKE:
            return
        if self.state is State.SYNCED:
            self.counters.resyncs += 1
        self.state = State.SYNCING
        if "D" not in self._asked:
            self._ask("D", now)

    def _bad_line(self, now: float) -> None:
        self.counters.bad_lines += 1
        self._resync(now)

    def _observation(self, now: float) -> Observation:
        assert self.identity is not None and self.mirror is not None
        return Observation(
            self.identity.width, self.identity.height, p.states_to_cells(self.mirror),
            time=now, source=self.source,
        )

    def _handle(self, m: p.Message, now: float) -> Observation | None:
        if isinstance(m, p.Identity):
            self._asked.pop("?", None)
            if m.major != p.MAJOR:
                raise VersionError(m.major, m.minor, p.MAJOR)
            if self.identity is not None and (m.width, m.height) != (
                self.identity.width, self.identity.height
            ):
                self.mirror = None
            self.identity = m
            if self.state is State.HANDSHAKE:
                self.state = State.SYNCING
                self._ask("S", now)
                self._ask("D", now)
            return None
        if self.identity is None or self.state is State.HANDSHAKE:
            return None  # nothing counts before the board has said who it is
        if isinstance(m, p.Dump):
            if len(m.states) != self.identity.width * self.identity.height:
                self._bad_line(now)
                return None
            self._asked.pop("D", None)
            self.counters.dumps += 1
            self.mirror = m.states
            self.expected = (m.seq + 1) % p.SEQ_MODULO
            self.state = State.SYNCED
            return self._observation(now)
        if isinstance(m, p.Change):
            if self.state is not State.SYNCED or self.mirror is None:
                return None  # the dump asked for will include it
            if m.seq != self.expected or m.x >= self.identity.width or m.y >= self.identity.height:
                self._resync(now)
                return None
            i = m.y * self.identity.width + m.x
            self.mirror = self.mirror[:i] + m.state + self.mirror[i + 1:]
            self.expected = (m.seq + 1) % p.SEQ_MODULO
            self.counters.changes += 1
            return self._observation(now)
        if isinstance(m, p.Heartbeat):
            if self.state is State.SYNCED and self.mirror is not None:
                last = (self.expected - 1) % p.SEQ_MODULO
                if m.seq != last or m.hash != p.board_hash(self.mirror):
                    self._resync(now)
                else:
                    return self._observation(now)  # confirmed: the board as it stands now
            return None
        if isinstance(m, p.Settings):
            self._asked.pop("S", None)
            self.settings = m
        elif isinstance(m, p.Row):
            self.rows[m.kind][m.y] = m.values
        elif isinstance(m, p.Ack):
            self._asked.pop(m.command, None)
            self.acks.append(m.command)
        elif isinstance(m, p.ErrorReport):
            self.device_errors.append(m)
            if m.code in ("CRC", "LEN"):
                # a command of ours arrived damaged: ask again for what we still wait for
                for name in list(self._asked):
                    if name in ("?", "D", "S"):
                        self._ask(name, now)
        return None
