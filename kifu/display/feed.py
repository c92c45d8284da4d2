"""The ordered stream of board updates that every viewer follows.

Each update is one complete message (the whole state of one board), numbered in the order
it happened. A viewer asks for what came after the last number it saw; one that fell too far
behind (or connects for the first time) gets the latest message of every board instead, so
it always ends up showing the present. Messages are encoded once, whatever the number of
viewers.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import deque
from collections.abc import Callable


@dataclasses.dataclass(frozen=True)
class Message:
    """One update: its place in the stream, the board it is about, its version of that
    board, and the bytes sent to a viewer."""

    seq: int
    board_id: str
    version: int
    data: bytes


class Feed:
    """A bounded log of messages with waiting for new ones. Thread-safe.

    ``keep`` is how many recent messages a late viewer can still catch up on one by one.
    """

    def __init__(self, keep: int = 512) -> None:
        if keep < 1:
            raise ValueError(f"keep must be at least 1, not {keep}")
        self._cond = threading.Condition()
        self._log: deque[Message] = deque(maxlen=keep)
        self._latest: dict[str, Message] = {}
        self._seq = 0
        self._listeners: list[Callable[[], None]] = []
        self.closed = False

    def listen(self, wake: Callable[[], None]) -> None:
        """Call ``wake()`` (in the pushing thread, outside the feed's lock) after every new
        message and when the feed closes: how an event loop learns there is news."""
        with self._cond:
            self._listeners.append(wake)

    def unlisten(self, wake: Callable[[], None]) -> None:
        """Stop calling ``wake``."""
        with self._cond:
            self._listeners.remove(wake)

    def _wake(self) -> None:
        with self._cond:
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    @property
    def seq(self) -> int:
        """The number of the newest message (0 before any)."""
        return self._seq

    def push(self, board_id: str, version: int, data: bytes) -> Message | None:
        """Append a message and wake the waiting viewers. A version of a board older than
        one already sent is dropped (returns None): updates made in two threads at once
        must not go out of order."""
        with self._cond:
            last = self._latest.get(board_id)
            if last is not None and version <= last.version:
                return None
            self._seq += 1
            m = Message(self._seq, board_id, version, data)
            self._log.append(m)
            self._latest[board_id] = m
            self._cond.notify_all()
        self._wake()
        return m

    def since(self, seq: int | None) -> list[Message]:
        """The messages after number ``seq``, oldest first. None (a new viewer), a number
        from the future (a server restarted) or one too old to catch up from give the
        latest message of each board instead."""
        with self._cond:
            return self._since(seq)

    def _since(self, seq: int | None) -> list[Message]:
        if seq is not None and seq == self._seq:
            return []
        if seq is None or seq > self._seq or not self._log or self._log[0].seq > seq + 1:
            return sorted(
                (m for m in self._latest.values() if seq is None or seq > self._seq
                 or m.seq > seq),
                key=lambda m: m.seq,
            )
        start = seq + 1 - self._log[0].seq
        return [self._log[i] for i in range(start, len(self._log))]

    def wait(self, seq: int, timeout: float) -> list[Message]:
        """Wait until there is something after ``seq`` (or ``timeout`` seconds pass, or the
        feed closes) and return it; [] on timeout or close."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._seq > seq or self.closed, timeout):
                return []
            if self.closed:
                return []
            return self._since(seq)

    def close(self) -> None:
        """Wake every viewer for good (the server is stopping)."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()
        self._wake()
