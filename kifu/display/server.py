"""The HTTP server inside the kifu process: the page, the JSON API, the SGF, and the
server-sent event stream that pushes every board update to every viewer.

Addresses (all boards share one page and one event stream)::

    GET  /                                  the page (``?token=...`` shows the buttons)
    GET  /calibrate                         the calibration page (``?board=ID&token=...``):
                                            the camera's picture, the orientation
    GET  /api/v1/boards                     every board's state, as JSON
    GET  /api/v1/boards/ID                  one board's state
    GET  /api/v1/boards/ID/board.svg        the board drawn (``?rotate=90&size=600``)
    GET  /api/v1/boards/ID/game.sgf         the game record so far
    GET  /api/v1/boards/ID/camera           the camera: frame number, board found or why not
    GET  /api/v1/boards/ID/camera.jpg       the latest frame, grid, stones and coordinates
                                            drawn (``X-Frame``: its number)
    GET  /api/v1/events                     text/event-stream: ``event: board`` messages,
                                            each a board's state plus ``"svg"``
    POST /api/v1/boards/ID/pass|resign      a command; needs ``Authorization: Bearer TOKEN``
    POST /api/v1/boards/ID/done|undo        count after two passes, take the last move back
    POST /api/v1/boards/ID/set              ``{"point": "D4", "stone": "black"}``: correct
                                            the reading of a point (black, white, empty)
    POST /api/v1/boards/ID/orientation      ``{"rotate": 90}``: turn the readings (0, 90,
                                            180, 270 degrees clockwise); needs the token

Only the standard library: one thread per connection, a viewer's thread asleep on the feed
until there is something to send.
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rules import Color

from .feed import Feed, Message
from .state import CommandError, LiveBoard, Snapshot

API = "/api/v1"
HEARTBEAT = 15.0
"""Seconds between comment lines on an idle event stream (to find dead viewers)."""
RETRY_MS = 1000
"""How soon a browser reconnects after the stream breaks."""

MAX_BODY = 4096
"""Bytes a command's JSON body may have."""

STATIC_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "calibrate.html": "text/html; charset=utf-8",
    "calibrate.js": "text/javascript; charset=utf-8",
}


def _static(name: str) -> bytes:
    return (resources.files("kifu.display") / "static" / name).read_bytes()


def parse_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """Read ``[HOST:]PORT`` (as ``--serve`` takes it): ``8734``, ``0.0.0.0:8734``,
    ``[::1]:8734``. Raises ValueError naming the text."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = default_host
    host = host.strip("[]") or default_host
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"not an address to serve on: {text!r} (expected [HOST:]PORT)")
    return host, int(port)


def event_frame(snap: Snapshot) -> bytes:
    """The SSE data of a board update: its JSON state with the SVG drawing."""
    payload = snap.to_json()
    payload["svg"] = snap.svg()
    return json.dumps(payload, separators=(",", ":")).encode()


class DisplayServer:
    """Serves some live boards over HTTP until `stop`.

    ``port`` 0 picks a free port (see `port`, `url`). ``token`` guards the commands; a
    random one is made when none is given (see `control_url`).
    """

    def __init__(self, boards: Iterable[LiveBoard], host: str = "127.0.0.1", port: int = 0,
                 *, token: str | None = None, keep: int = 512) -> None:
        self.boards: dict[str, LiveBoard] = {}
        for b in boards:
            if b.id in self.boards:
                raise ValueError(f"two boards with the id {b.id!r}")
            self.boards[b.id] = b
        if not self.boards:
            raise ValueError("a display needs at least one board")
        self.token = token or secrets.token_urlsafe(12)
        self.feed = Feed(keep)
        self.epoch = secrets.token_hex(4)
        """Tells this server's event ids from those of an earlier run on the same port."""
        self._pages = {name: _static(name) for name in STATIC_TYPES}
        for b in self.boards.values():
            self._send(b, b.snapshot)
            b.subscribe(self._send)
        handler = type("Handler", (_Handler,), {"display": self})
        try:
            self.httpd = _Server((host, port), handler)
        except OSError as exc:
            raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror}") from None
        self._thread: threading.Thread | None = None

    def _send(self, board: LiveBoard, snap: Snapshot) -> None:
        self.feed.push(board.id, snap.version, event_frame(snap))

    @property
    def port(self) -> int:
        """The port listened on."""
        return int(self.httpd.server_address[1])

    @property
    def url(self) -> str:
        """The page's address."""
        raw = self.httpd.server_address[0]
        host = raw.decode() if isinstance(raw, bytes) else str(raw)
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    @property
    def control_url(self) -> str:
        """The page's address with the token: the page that shows pass and resign."""
        return f"{self.url}?token={self.token}"

    def start(self) -> DisplayServer:
        """Serve in a background thread; returns self."""
        self._thread = threading.Thread(target=self.httpd.serve_forever,
                                        kwargs={"poll_interval": 0.2},
                                        name="kifu-display", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until `stop` is called from another."""
        self.httpd.serve_forever(poll_interval=0.2)

    def stop(self) -> None:
        """Close every event stream, stop serving and release the port."""
        for b in self.boards.values():
            try:
                b.unsubscribe(self._send)
            except ValueError:
                pass
        self.feed.close()
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> DisplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def last_seen(self, event_id: str | None) -> int | None:
        """The feed number in a viewer's ``Last-Event-ID`` (``EPOCH.SEQ``), or None when
        it is missing, malformed or from another run of the server."""
        epoch, _, seq = (event_id or "").partition(".")
        if epoch != self.epoch or not seq.isdigit():
            return None
        return int(seq)

    def authorised(self, header: str | None, query_token: str | None) -> bool:
        """Does the request carry the token (as a bearer token, or ``?token=``)?"""
        given = query_token or ""
        if header and header.lower().startswith("bearer "):
            given = header[7:].strip()
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


class _Handler(BaseHTTPRequestHandler):
    display: DisplayServer
    protocol_version = "HTTP/1.1"
    server_version = "kifu"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # the terminal belongs to the announcements

    # -- helpers ----------------------------------------------------------------------

    def _reply(self, status: int, body: bytes, ctype: str,
               headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        body = json.dumps(obj, indent=1).encode() + b"\n"
        self._reply(status, body, "application/json", {"Access-Control-Allow-Origin": "*"})

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": message, "status": status})

    def _board(self, board_id: str) -> LiveBoard | None:
        b = self.display.boards.get(board_id)
        if b is None:
            self._error(404, f"no board {board_id!r}; boards: {', '.join(self.display.boards)}")
        return b

    # -- GET --------------------------------------------------------------------------

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        parts = [p for p in url.path.split("/") if p]
        d = self.display
        if not parts or parts == ["index.html"]:
            return self._reply(200, d._pages["index.html"], STATIC_TYPES["index.html"])
        if parts == ["calibrate"]:
            return self._reply(200, d._pages["calibrate.html"], STATIC_TYPES["calibrate.html"])
        if parts[0] == "static" and len(parts) == 2 and parts[1] in STATIC_TYPES:
            return self._reply(200, d._pages[parts[1]], STATIC_TYPES[parts[1]])
        if parts[:2] != ["api", "v1"]:
            return self._error(404, f"nothing at {url.path}")
        rest = parts[2:]
        if not rest:
            return self._json(200, {"boards": f"{API}/boards", "events": f"{API}/events"})
        if rest == ["events"]:
            return self._events(query.get("board", [None])[0])
        if rest[0] != "boards":
            return self._error(404, f"nothing at {url.path}")
        if len(rest) == 1:
            return self._json(200, [b.snapshot.to_json() for b in d.boards.values()])
        board = self._board(rest[1])
        if board is None:
            return None
        if len(rest) == 2:
            return self._json(200, board.snapshot.to_json())
        if rest[2:] == ["board.svg"]:
            try:
                rotate = int(query.get("rotate", ["0"])[0])
                size = int(query["size"][0]) if "size" in query else None
                svg = board.snapshot.svg(rotate=rotate, size=size)
            except ValueError as exc:
                return self._error(400, str(exc))
            return self._reply(200, svg.encode(), "image/svg+xml")
        if rest[2:] == ["camera"] or rest[2:] == ["camera.jpg"]:
            return self._camera(board, rest[2] == "camera.jpg")
        if rest[2:] == ["game.sgf"]:
            data = board.sgf
            if data is None:
                return self._error(404, f"board {board.id} has no game record yet")
            return self._reply(200, data, "application/x-go-sgf",
                               {"Content-Disposition": f'inline; filename="{board.id}.sgf"'})
        return self._error(404, f"nothing at {url.path}")

    def _camera(self, board: LiveBoard, picture: bool) -> None:
        camera = board.camera
        if camera is None:
            return self._error(404, f"board {board.id} has no camera")
        if not picture:
            return self._json(200, camera.status())
        latest = camera.jpeg(board.snapshot.orientation)
        if latest is None:
            return self._error(404, f"board {board.id}: no frame from the camera yet")
        number, data = latest
        return self._reply(200, data, "image/jpeg", {"X-Frame": str(number)})

    def _events(self, only: str | None) -> None:
        d = self.display
        if only is not None and only not in d.boards:
            return self._error(404, f"no board {only!r}")
        seq = d.last_seen(self.headers.get("Last-Event-ID"))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return None
        feed = d.feed
        try:
            self.wfile.write(f"retry: {RETRY_MS}\n\n".encode())
            messages = feed.since(seq)
            while not feed.closed:
                if messages:
                    self.wfile.write(b"".join(_frame(d.epoch, m) for m in messages
                                              if only is None or m.board_id == only))
                    seq = messages[-1].seq
                else:
                    self.wfile.write(b": ping\n\n")
                self.wfile.flush()
                messages = feed.wait(seq if seq is not None else 0, HEARTBEAT)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            return None

    # -- POST -------------------------------------------------------------------------

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            return self._error(413, f"a command's body is at most {MAX_BODY} bytes")
        body = self.rfile.read(length) if length else b""
        if len(parts) != 5 or parts[:3] != ["api", "v1", "boards"]:
            return self._error(404, f"nothing to post to at {url.path}")
        board = self._board(parts[3])
        if board is None:
            return None
        token = parse_qs(url.query).get("token", [None])[0]
        if not self.display.authorised(self.headers.get("Authorization"), token):
            return self._error(403, "a command needs the display's token")
        color: Color | None = None
        degrees: Any = None
        point: Any = None
        stone: Any = None
        if body:
            try:
                data = json.loads(body)
                if data.get("color"):
                    color = Color.parse(str(data["color"]))
                degrees = data.get("rotate")
                point, stone = data.get("point"), data.get("stone")
            except (ValueError, AttributeError) as exc:
                return self._error(400, f"bad command body {body[:80]!r}: {exc}")
        try:
            if parts[4] == "orientation":
                if not isinstance(degrees, int):
                    return self._error(400, 'the orientation needs {"rotate": 0|90|180|270}')
                board.set_orientation(degrees)
                # Applied by the recording between two readings: the state shows it then.
                return self._json(202, board.snapshot.to_json())
            if parts[4] == "set":
                if not (isinstance(point, str) and isinstance(stone, str)):
                    return self._error(400, 'a correction needs {"point": "D4", "stone": '
                                            '"black|white|empty"}')
                board.correct(point, stone)
                return self._json(202, board.snapshot.to_json())
            board.command(parts[4], color)
        except CommandError as exc:
            return self._error(exc.status, str(exc))
        self._json(200, board.snapshot.to_json())


def _frame(epoch: str, m: Message) -> bytes:
    return b"id: %s.%d\nevent: board\ndata: %s\n\n" % (epoch.encode(), m.seq, m.data)

