"""The web server under kifu's pages: an aiohttp application served from a thread of its
own, with its own event loop, so that the synchronous recording around it only calls
`WebServer.start` and `WebServer.stop`. The live display (`DisplayServer`) is one; the event
hall can be another.

Every request passes the same guard (see `kifu.display.policy` for the rules):

- a connection that has not sent a whole request within ``Timeouts.idle`` seconds (idle, or
  its head half sent) is closed; so is one whose body takes longer than ``Timeouts.body``,
  and an event stream whose viewer accepts nothing for ``Timeouts.write`` seconds;
- a request that could be read two ways is refused with 400 and the connection closed: a
  GET or HEAD with a body, two ``Content-Length`` headers, ``Content-Length`` with
  ``Transfer-Encoding`` (aiohttp's parser refuses most of these before the guard sees them);
- a ``Host`` the server does not answer to is refused with 400, a foreign ``Origin`` with
  403 (unless it is the ``--cors`` one, which gets ``Access-Control-Allow-Origin``);
- bodies are at most ``max_body`` bytes (413);
- a viewer that goes away is noted once at debug level; aiohttp's own complaints go to the
  ``kifu.display.http`` logger at debug level too, never as a traceback on the terminal,
  which belongs to the announcements.

Errors are JSON: ``{"error": "...", "status": N}``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from aiohttp import web

from .feed import Feed, Message
from .policy import Policy

log = logging.getLogger("kifu.display")
"""Where the web server notes what is worth noting (viewers gone, at debug level)."""

RETRY_MS = 1000
"""How soon a browser reconnects after an event stream breaks."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclasses.dataclass(frozen=True)
class Timeouts:
    """Seconds the server waits: for a whole request on a connection (``idle``: a new or
    kept-alive connection that sends nothing, or half a head, is closed after it), for a
    request's body (``body``), for a viewer to accept what it is sent (``write``), and
    between comment lines on a quiet event stream (``heartbeat``, which finds viewers
    that are gone)."""

    idle: float = 15.0
    body: float = 10.0
    write: float = 30.0
    heartbeat: float = 15.0


class _Downgrade(logging.Filter):
    """Makes aiohttp's server messages debug lines without a traceback (the exception's
    text stays in the line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()}: {record.exc_info[1]!r}"
            record.args = ()
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


_aiohttp_log = logging.getLogger("kifu.display.http")
_aiohttp_log.addFilter(_Downgrade())


def _loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    exc = context.get("exception")
    log.debug("%s%s", context.get("message", "event loop"), f": {exc!r}" if exc else "")


def json_response(status: int, obj: Any, headers: dict[str, str] | None = None
                  ) -> web.Response:
    """``obj`` as an indented JSON reply."""
    body = json.dumps(obj, indent=1).encode() + b"\n"
    return reply(status, body, "application/json", headers)


def error(status: int, message: str, *, close: bool = False) -> web.Response:
    """An error as JSON: ``{"error": message, "status": status}``; ``close`` ends the
    connection after it."""
    resp = json_response(status, {"error": message, "status": status})
    if close:
        resp.force_close()
    return resp


def reply(status: int, body: bytes, ctype: str, headers: dict[str, str] | None = None
          ) -> web.Response:
    """A reply of ``body`` as ``ctype``, never cached."""
    h = {"Content-Type": ctype, "Cache-Control": "no-store", **(headers or {})}
    return web.Response(status=status, body=body, headers=h)


def sse_frame(epoch: str, m: Message) -> bytes:
    """A feed message as one ``board`` server-sent event, its id ``EPOCH.SEQ`` (see
    `kifu.display.policy.event_seq`)."""
    return b"id: %s.%d\nevent: board\ndata: %s\n\n" % (epoch.encode(), m.seq, m.data)


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port``; OSError naming both."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host in ("::", ""):
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


class _Stream(web.StreamResponse):
    """A response whose body ends when the connection closes: no chunked framing, as
    event streams were sent before aiohttp and as aiohttp's own websockets and files
    are (the class attribute below is how those subclasses say so). A viewer's HTTP
    client then reads the stream straight through its buffer."""

    _length_check = False


async def open_event_stream(request: web.Request, headers: dict[str, str] | None = None
                            ) -> web.StreamResponse:
    """The head of a text/event-stream answer to ``request`` (with ``headers`` added),
    sent (prepared): the body runs until the connection closes. Write its first bytes with
    the response's ``write`` (which sends the head with them); after that they may go to
    the transport directly."""
    resp = _Stream(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-store",
        "X-Accel-Buffering": "no", **(headers or {})})
    resp.force_close()
    await resp.prepare(request)
    return resp


_HIGH_WATER = 65536
"""Bytes a transport holds back before a writer must wait (asyncio's default limit)."""


def _abort(transport: asyncio.BaseTransport | None) -> None:
    if isinstance(transport, asyncio.WriteTransport):
        transport.abort()


class _News:
    """Wakes the coroutines waiting on a feed when it has a new message (the feed is pushed
    to from other threads; this lives in the server's loop), and every ``heartbeat``
    seconds in any case (so that quiet streams send a comment line)."""

    def __init__(self, feed: Feed, loop: asyncio.AbstractEventLoop, heartbeat: float) -> None:
        self.feed = feed
        self.loop = loop
        self.heartbeat = heartbeat
        self._event = asyncio.Event()
        self._beat = loop.call_later(heartbeat, self._pulse)
        feed.listen(self._wake)

    def _wake(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self._ring)
        except RuntimeError:
            pass  # the loop has stopped: nobody is waiting any more

    def _ring(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    def _pulse(self) -> None:
        self._ring()
        self._beat = self.loop.call_later(self.heartbeat, self._pulse)

    async def wait(self, seq: int) -> list[Message]:
        """What came after ``seq``, once there is something; [] at a heartbeat with
        nothing new, or when the feed closes. (One wake-up for every waiting viewer: no
        timer of its own for each.)"""
        if self.feed.seq <= seq and not self.feed.closed:
            await self._event.wait()  # taken before any await: a push from now on sets it
        if self.feed.closed:
            return []
        return self.feed.since(seq)

    def close(self) -> None:
        self._beat.cancel()
        try:
            self.feed.unlisten(self._wake)
        except ValueError:
            pass


class WebServer:
    """An aiohttp application (``app``: add routes to its router) served on ``host``:``port``
    (0 picks a free port) from its own thread until `stop`, behind the guard described in
    this module. ``allow_hosts``: more names to answer to; ``cors``: the one foreign origin
    allowed to read; ``max_body``: the largest request body in bytes. The port is taken at
    once (OSError naming the address when it cannot be)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *,
                 allow_hosts: Iterable[str] = (), cors: str | None = None,
                 timeouts: Timeouts = Timeouts(), max_body: int = 4096,
                 name: str = "kifu-web") -> None:
        self.policy = Policy(host, tuple(allow_hosts), cors)
        self.timeouts = timeouts
        self.max_body = max_body
        self.name = name
        self.app = web.Application(middlewares=[self._guard], client_max_size=max_body)
        self.app.on_response_prepare.append(self._headers)
        self._sock = _listen(host, port)
        self._address: tuple[str, int] = self._sock.getsockname()[:2]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._news: dict[int, _News] = {}
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._done = threading.Event()
        self._failure: BaseException | None = None

    # -- where ------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port listened on."""
        return int(self._address[1])

    @property
    def url(self) -> str:
        """The server's address as a browser on another machine would use it (this
        machine's name when bound to every interface)."""
        host = self._address[0]
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    # -- running ----------------------------------------------------------------------

    def start(self) -> WebServer:
        """Serve in a background thread; returns self once the server answers."""
        self._thread = threading.Thread(target=self._background, name=self.name, daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._failure is not None:
            raise self._failure
        return self

    def _background(self) -> None:
        try:
            self.serve_forever()
        except BaseException as exc:  # noqa: BLE001 - handed to start()'s caller
            self._failure = exc
            self._ready.set()

    def serve_forever(self) -> None:
        """Serve in this thread until `stop` is called from another."""
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_loop_exception)
        try:
            loop.run_until_complete(self._serve(loop))
        finally:
            loop.close()
            self._done.set()

    async def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        self._stopping = asyncio.Event()
        self._loop = loop
        t = self.timeouts
        runner = web.AppRunner(self.app, handle_signals=False, access_log=None,
                               keepalive_timeout=t.idle, lingering_time=min(t.body, 2.0),
                               logger=_aiohttp_log, shutdown_timeout=2.0)
        await runner.setup()
        try:
            await web.SockSite(runner, self._sock, backlog=1024).start()
            self._ready.set()
            await self._stopping.wait()
            await self.closing()
        finally:
            for news in self._news.values():
                news.close()
            await runner.cleanup()

    async def closing(self) -> None:
        """Called in the server's loop when `stop` begins, before the connections are
        closed: end what runs for long (event streams) here."""

    def stop(self) -> None:
        """Stop serving, close every connection and release the port."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:
                pass  # already stopped
            self._done.wait(10)  # the loop's thread owns the socket until then
        if self._thread is not None:
            self._thread.join(10)
        self._sock.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the guard --------------------------------------------------------------------

    def refusal(self, request: web.Request) -> web.Response | None:
        """The reply refusing ``request`` under the rules of this module, or None when it
        may be answered."""
        headers = request.headers
        lengths = headers.getall("Content-Length", [])
        if len(lengths) > 1:
            return error(400, "two Content-Length headers", close=True)
        if lengths and "Transfer-Encoding" in headers:
            return error(400, "both Content-Length and Transfer-Encoding", close=True)
        has_body = "Transfer-Encoding" in headers or (request.content_length or 0) > 0
        if request.method in ("GET", "HEAD", "OPTIONS") and has_body:
            return error(400, f"a {request.method} request has no body", close=True)
        hosts = headers.getall("Host", [])
        if len(hosts) != 1 or not self.policy.host_allowed(hosts[0]):
            named = hosts[0] if hosts else "no host"
            return error(400, f"this server does not answer to {named!r} "
                              f"(name it with --allow-host)", close=True)
        origin = headers.get("Origin")
        if not self.policy.origin_allowed(origin, hosts[0]):
            return error(403, f"requests from pages of {origin} are refused "
                              f"(allow that origin with --cors)")
        if (request.content_length or 0) > self.max_body:
            return error(413, f"a request's body is at most {self.max_body} bytes", close=True)
        return None

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = self.refusal(request)
        if refused is not None:
            return refused
        if request.method == "OPTIONS":
            return self._preflight(request)
        try:
            return await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return error(413, f"a request's body is at most {self.max_body} bytes", close=True)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            what = f"nothing at {request.path}" if exc.status == 404 else exc.reason
            return error(exc.status, what, close=exc.status == 408)
        except ConnectionError as exc:
            self.dropped(request, exc)
            return web.Response(status=499)  # nobody left to read it

    def _preflight(self, request: web.Request) -> web.Response:
        headers = self.policy.cors_headers(request.headers.get("Origin"))
        if not headers:
            return error(403, "no cross-origin requests here (see --cors)")
        headers.update({
            "Access-Control-Allow-Methods": "GET, HEAD, POST",
            "Access-Control-Allow-Headers": "Authorization, Content-Type, Last-Event-ID",
            "Access-Control-Max-Age": "600",
        })
        return web.Response(status=204, headers=headers)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Server"] = "kifu"  # as before: no versions to look up flaws by
        response.headers.update(self.policy.cors_headers(request.headers.get("Origin")))

    async def _write(self, resp: web.StreamResponse, loop: asyncio.AbstractEventLoop,
                     transport: asyncio.BaseTransport | None, data: bytes) -> None:
        """Write to a stream; the stream is dropped when the viewer does not take it
        within ``Timeouts.write`` seconds."""
        if (isinstance(transport, asyncio.WriteTransport) and len(data) <= _HIGH_WATER
                and transport.get_write_buffer_size() == 0):
            # Nothing held back: the write cannot fill the buffer and wait (the common
            # case of a viewer keeping up), so it needs no timer.
            await resp.write(data)
            return
        guard = loop.call_later(self.timeouts.write, _abort, transport)
        try:
            await resp.write(data)
        finally:
            guard.cancel()

    def dropped(self, request: web.Request, exc: BaseException) -> None:
        """Note once, at debug level, that the client of ``request`` went away."""
        log.debug("%s %s: %s went away (%s)", request.method, request.path,
                  request.remote, type(exc).__name__)

    async def body(self, request: web.Request) -> bytes:
        """The request's body, read within ``Timeouts.body`` seconds (HTTPRequestTimeout
        after it) and at most ``max_body`` bytes long."""
        try:
            return await asyncio.wait_for(request.read(), self.timeouts.body)
        except asyncio.TimeoutError:
            raise web.HTTPRequestTimeout() from None

    async def run(self, work: Callable[[], Any]) -> Any:
        """``work()`` in a worker thread (for what could hold up the loop: drawing,
        encoding, the recording's commands)."""
        return await asyncio.get_running_loop().run_in_executor(None, work)

    # -- event streams ----------------------------------------------------------------

    async def event_stream(self, request: web.Request, feed: Feed, since: int | None,
                           frame: Callable[[Message], bytes]) -> web.StreamResponse:
        """Answer ``request`` with a text/event-stream of ``feed``: ``retry``, then the
        messages after number ``since`` (see `Feed.since`), then each new one as it comes,
        each written as ``frame`` makes it (b"" to skip it); a comment line when nothing
        came for ``Timeouts.heartbeat`` seconds. Ends when the feed closes or the viewer
        goes (noted once at debug level), or when the viewer accepts nothing for
        ``Timeouts.write`` seconds."""
        # What the viewer is owed is settled before it learns it is connected: every
        # message from then on reaches it.
        messages = feed.since(since)
        resp = await open_event_stream(request)
        if request.method == "HEAD":
            return resp
        loop = asyncio.get_running_loop()
        news = self._news.get(id(feed))
        if news is None:
            news = self._news[id(feed)] = _News(feed, loop, self.timeouts.heartbeat)
        transport = request.transport
        seq = since
        write = functools.partial(self._write, resp, loop, transport)
        try:
            await write(f"retry: {RETRY_MS}\n\n".encode())
            while not feed.closed:
                for m in messages:
                    # One at a time: a viewer that falls behind holds at most aiohttp's
                    # buffer of what it owes; the rest waits in the feed, shared.
                    data = frame(m)
                    if data:
                        await write(data)
                if messages:
                    seq = messages[-1].seq
                messages = await news.wait(seq if seq is not None else 0)
                if not messages and not feed.closed:
                    await write(b": ping\n\n")
        except ConnectionError as exc:
            self.dropped(request, exc)
        return resp
