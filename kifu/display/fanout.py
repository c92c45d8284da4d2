"""One feed served to a crowd: the event streams of the hall, where a thousand viewers
follow two hundred boards.

Writing every board update to every viewer as it comes costs one write per update per
viewer, and a viewer that reads slowly owes an ever longer backlog. A `Fanout` instead
writes to the viewers in rounds: each round, one frame to each viewer holding every board
that changed since its last frame, each board once, in its latest state (`coalesce`). The
frame is encoded once and shared by every viewer at the same place in the feed, which,
keeping up, is nearly all of them. News goes out at once when the last round is more than
a pace ago (leading edge), else with the next round. The pace follows the rounds' own cost
(`pace`): a small hall's rounds are cheap and go out as often as every `BRISK` seconds,
changes barely held; a big or busy hall's take longer, and its changes are coalesced over
up to ``tick`` seconds, which bounds what the crowd costs.

A viewer that falls behind (what it was sent last still waits in its connection) is passed
over, and once it has taken that it gets one frame from where it was to the present: every
board's latest state, the states in between skipped (coalesced), never the last one lost.
Per board the states a viewer sees only ever go forward; a frame's events carry their feed
numbers as ids, so a viewer that reconnects with ``Last-Event-ID`` gets what it missed (see
`Feed.since`).

A viewer that accepts gzip gets the stream gzipped, each frame compressed once for all such
viewers (`deflated`): a busy event's updates shrink some sevenfold, what lets a thousand
phones share a club's Wi-Fi. The stream never gets gzip's trailer (it ends only when the
connection does); a browser shows what came, as with any broken stream, and reconnects.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
import struct
import time
import zlib
from collections.abc import Callable, Iterable

from aiohttp import web

from .feed import Feed, Message
from .web import RETRY_MS, open_event_stream

log = logging.getLogger("kifu.display")

TICK = 0.25
"""Seconds between two frames to one viewer, at most: the pace of a hall under load."""

BRISK = 0.02
"""Seconds between two frames to one viewer, at least: the pace of a hall at ease."""

DUTY = 0.1
"""The share of its time the server may spend writing frames: a round that took ``c``
seconds is followed by the next ``c / DUTY`` seconds after it began, at the soonest."""


def pace(cost: float, tick: float = TICK) -> float:
    """Seconds from one round of frames to the next, when a round costs ``cost`` seconds:
    what keeps the rounds to `DUTY` of the time, between `BRISK` (or ``tick`` if shorter)
    and ``tick``."""
    return min(tick, max(BRISK, cost / DUTY))

SEND_BUFFER = 32768
"""Bytes the kernel may hold for one viewer (Linux doubles it): about a second of a busy
event, plain, or some seconds gzipped; far less than the megabytes it would grow to on its
own. (64 kB in flight carry 600 kB/s at 100 ms from the hall: ten times the stream.)"""

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
"""The head of a gzip stream (deflate, no name, no time, unknown system)."""


def deflated(data: bytes) -> bytes:
    """``data`` as deflate blocks that stand alone (no reference to anything before them,
    none marked last, ended on a byte by a sync flush): they continue any deflate stream at
    a flush, so that one compression serves every viewer, wherever its stream stands."""
    packer = zlib.compressobj(1, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)


PING = b": ping\n\n"
PING_DEFLATED = deflated(PING)


def accepts_gzip(header: str | None) -> bool:
    """Does an ``Accept-Encoding`` header accept gzip (named, without ``q=0``)?"""
    for part in (header or "").split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() == "gzip":
            q = params.replace(" ", "").lower()
            return not (q.startswith("q=") and q[2:].strip("0.") == "")
    return False


def coalesce(messages: Iterable[Message], only: str | None = None) -> list[Message]:
    """The latest message of each board among ``messages`` (those of board ``only``, if
    given), in feed order: what a viewer needs to show the present, earlier states of a
    board skipped."""
    latest: dict[str, Message] = {}
    for m in messages:
        if only is None or m.board_id == only:
            latest[m.board_id] = m
    return sorted(latest.values(), key=lambda m: m.seq)


def _reset(transport: asyncio.WriteTransport) -> None:
    """Close a viewer's connection now, dropping what the kernel still holds for it
    (a reset, not the orderly close that would wait for a viewer taking nothing)."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


class _Frame:
    """What viewers at one place in the feed are sent next (as plain text, and deflated on
    first need), and the feed number it brings them to."""

    __slots__ = ("plain", "end", "_deflated")

    def __init__(self, plain: bytes, end: int) -> None:
        self.plain = plain
        self.end = end
        self._deflated: bytes | None = None

    def body(self, deflate: bool) -> bytes:
        """The frame as a plain (``deflate`` False) or a gzipped viewer is sent it."""
        if not deflate or not self.plain:
            return self.plain
        if self._deflated is None:
            self._deflated = deflated(self.plain)
        return self._deflated


@dataclasses.dataclass(eq=False)
class _Viewer:
    """One open stream: its connection, the board it follows (None: all), the feed number
    it has been sent everything up to, when it was last written to, and whether its stream
    is gzipped (``deflate``). ``held``/``stuck``: the bytes still waiting in its connection
    at the last look, and since when that has not shrunk (None: nothing waits)."""

    transport: asyncio.WriteTransport
    only: str | None
    seq: int
    done: asyncio.Future[None]
    wrote: float
    deflate: bool = False
    held: int = 0
    stuck: float | None = None


class Fanout:
    """Serves ``feed`` as event streams from the running loop, each message written as
    ``frame`` makes it (see the module). ``tick``: the longest pace, seconds between two
    rounds of frames under load. ``write_timeout``: a viewer whose connection takes
    nothing for that long is dropped; ``heartbeat``: a comment line goes to a viewer sent
    nothing for that long (which finds viewers that are gone)."""

    def __init__(self, feed: Feed, frame: Callable[[Message], bytes], *, tick: float = TICK,
                 write_timeout: float = 30.0, heartbeat: float = 15.0) -> None:
        self.feed = feed
        self.frame = frame
        self.tick = tick
        self.cost = 0.0
        """Seconds a round of frames takes, as last measured (fast up, slowly down): its
        wall time, and how late it began, which is how busy the server and its machine
        are."""
        self.write_timeout = write_timeout
        self.heartbeat = heartbeat
        self.loop = asyncio.get_running_loop()
        self.viewers: set[_Viewer] = set()
        self._flush_at: asyncio.TimerHandle | None = None
        self._due = 0.0
        """When the round `_flush_at` holds was meant to begin (loop time)."""
        self._last_flush = float("-inf")
        self._sweep_at = self.loop.call_later(min(1.0, heartbeat), self._sweep)
        feed.listen(self._wake)

    # -- viewers -------------------------------------------------------------------------

    async def stream(self, request: web.Request, since: int | None,
                     only: str | None = None) -> web.StreamResponse:
        """Answer ``request`` with the event stream: ``retry``, what came after feed number
        ``since`` (every board's latest state for a new viewer, see `Feed.since`), then
        frames as the feed moves on, until the feed closes or the viewer goes. ``only``:
        the one board this viewer follows. Gzipped if the request accepts it."""
        # What the viewer is owed is settled before it learns it is connected.
        messages = self.feed.since(since)
        if messages:
            start = messages[-1].seq
        else:
            start = since if since is not None and since <= self.feed.seq else 0
        deflate = accepts_gzip(request.headers.get("Accept-Encoding"))
        resp = await open_event_stream(request, {"Content-Encoding": "gzip"} if deflate else None)
        transport = request.transport
        if request.method == "HEAD" or not isinstance(transport, asyncio.WriteTransport):
            return resp
        sock = transport.get_extra_info("socket")
        if sock is not None:
            # What the kernel holds for a viewer is bytes it cannot skip: keep it short, so
            # that a viewer on a slow line is soon behind, and then skips to the present.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        first = f"retry: {RETRY_MS}\n\n".encode() + self._encode(messages, only)
        if deflate:
            first = GZIP_HEADER + deflated(first)
        guard = self.loop.call_later(self.write_timeout, _reset, transport)
        try:
            await resp.write(first)  # the head goes with it; after it, the transport
        except ConnectionError:
            return resp
        finally:
            guard.cancel()
        viewer = _Viewer(transport, only, start, self.loop.create_future(), self.loop.time(),
                         deflate)
        if self.feed.closed:
            return resp
        self.viewers.add(viewer)
        if start < self.feed.seq:
            self._wake_in_loop()
        try:
            await viewer.done
        finally:
            self.viewers.discard(viewer)
        return resp

    def _end(self, viewer: _Viewer, why: str) -> None:
        self.viewers.discard(viewer)
        if not viewer.done.done():
            viewer.done.set_result(None)
        if why:
            log.debug("event stream: a viewer %s", why)

    def close(self) -> None:
        """End every stream and stop the timers (the server is stopping)."""
        for viewer in list(self.viewers):
            self._end(viewer, "")
        for handle in (self._flush_at, self._sweep_at):
            if handle is not None:
                handle.cancel()
        try:
            self.feed.unlisten(self._wake)
        except ValueError:
            pass

    # -- news ----------------------------------------------------------------------------

    def _wake(self) -> None:
        """The feed has news (called in the pushing thread)."""
        try:
            self.loop.call_soon_threadsafe(self._wake_in_loop)
        except RuntimeError:
            pass  # the loop has stopped: nobody is waiting any more

    def _wake_in_loop(self) -> None:
        if self.feed.closed:
            self.close()
            return
        if self._flush_at is None:
            self._round_in(self._last_flush + pace(self.cost, self.tick) - self.loop.time())

    def _round_in(self, seconds: float) -> None:
        self._due = self.loop.time() + max(0.0, seconds)
        self._flush_at = self.loop.call_at(self._due, self._flush)

    def _encode(self, messages: Iterable[Message], only: str | None) -> bytes:
        return b"".join(self.frame(m) for m in coalesce(messages, only))

    def _flush(self) -> None:
        """One frame to every viewer that has taken its last one and is owed something."""
        self._flush_at = None
        now = self._last_flush = self.loop.time()
        started = time.perf_counter()
        newest = self.feed.seq
        frames: dict[tuple[str | None, int], _Frame] = {}
        behind = wrote = False
        for viewer in list(self.viewers):
            if viewer.seq >= newest:
                continue
            if not self._ready(viewer, now):
                behind = behind or not viewer.done.done()
                continue
            key = (viewer.only, viewer.seq)
            frame = frames.get(key)
            if frame is None:
                messages = self.feed.since(viewer.seq)
                end = messages[-1].seq if messages else viewer.seq
                frame = frames[key] = _Frame(self._encode(messages, viewer.only), end)
            data, viewer.seq = frame.body(viewer.deflate), frame.end
            if data:
                viewer.transport.write(data)
                viewer.wrote = now
                wrote = True
        if wrote:  # a busy server or machine (a late round, a slow one) slows the pace
            cost = time.perf_counter() - started + max(0.0, now - self._due)
            self.cost = max(cost, 0.75 * self.cost + 0.25 * cost)
        if behind:
            self._round_in(pace(self.cost, self.tick))

    def _ready(self, viewer: _Viewer, now: float) -> bool:
        """May ``viewer`` be written to now: its connection open and empty? Ends the ones
        gone, and the ones that took nothing for ``write_timeout`` seconds."""
        transport = viewer.transport
        if transport.is_closing():
            self._end(viewer, "went away")
            return False
        held = transport.get_write_buffer_size()
        if held == 0:
            viewer.held, viewer.stuck = 0, None
            return True
        if viewer.stuck is None or held < viewer.held:
            viewer.stuck = now  # it is taking what it was sent: not stuck since before
        viewer.held = held
        if now - viewer.stuck >= self.write_timeout:
            _reset(transport)
            self._end(viewer, f"took nothing for {self.write_timeout:g} s and was dropped")
        return False

    def _sweep(self) -> None:
        """Every second: end streams that are gone or stuck, and ping the quiet ones."""
        now = self.loop.time()
        for viewer in list(self.viewers):
            if self._ready(viewer, now) and now - viewer.wrote >= self.heartbeat:
                viewer.transport.write(PING_DEFLATED if viewer.deflate else PING)
                viewer.wrote = now
        if self._flush_at is None and any(v.seq < self.feed.seq for v in self.viewers):
            self._round_in(0.0)
        self._sweep_at = self.loop.call_later(min(1.0, self.heartbeat), self._sweep)


__all__ = ["BRISK", "DUTY", "TICK", "Fanout", "accepts_gzip", "coalesce", "deflated", "pace"]
