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

Served by `kifu.display.web.WebServer` (aiohttp, in a thread of its own): the guard there
(timeouts, Host allow-list, no cross-origin reads but the ``--cors`` one, bounded bodies)
applies to every address. Off loopback the camera's picture, its status and the calibration
page need the token too (``?token=`` or the bearer header): they show the room.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from aiohttp import web

from rules import Color

from .feed import Feed, Message
from .policy import carries_token, event_seq, parse_json
from .state import CommandError, LiveBoard, Snapshot
from .web import Timeouts, WebServer, error, json_response, reply, sse_frame

API = "/api/v1"

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


class DisplayServer(WebServer):
    """Serves some live boards over HTTP until `stop`.

    ``port`` 0 picks a free port (see `port`, `url`). ``token`` guards the commands (and,
    off loopback, the camera); a random one is made when none is given (see
    `control_url`). ``allow_hosts``, ``cors`` and ``timeouts``: see `WebServer`.
    """

    def __init__(self, boards: Iterable[LiveBoard], host: str = "127.0.0.1", port: int = 0,
                 *, token: str | None = None, keep: int = 512,
                 allow_hosts: Iterable[str] = (), cors: str | None = None,
                 timeouts: Timeouts = Timeouts()) -> None:
        self.boards: dict[str, LiveBoard] = {}
        for b in boards:
            if b.id in self.boards:
                raise ValueError(f"two boards with the id {b.id!r}")
            self.boards[b.id] = b
        if not self.boards:
            raise ValueError("a display needs at least one board")
        super().__init__(host, port, allow_hosts=allow_hosts, cors=cors, timeouts=timeouts,
                         max_body=MAX_BODY, name="kifu-display")
        self.token = token or secrets.token_urlsafe(12)
        self.feed = Feed(keep)
        self.epoch = secrets.token_hex(4)
        """Tells this server's event ids from those of an earlier run on the same port."""
        self._pages = {name: _static(name) for name in STATIC_TYPES}
        for b in self.boards.values():
            self._send(b, b.snapshot)
            b.subscribe(self._send)
        self.app.router.add_route("*", "/{path:.*}", self._dispatch)

    def _send(self, board: LiveBoard, snap: Snapshot) -> None:
        self.feed.push(board.id, snap.version, event_frame(snap))

    @property
    def control_url(self) -> str:
        """The page's address with the token: the page that shows pass and resign."""
        return f"{self.url}?token={self.token}"

    def start(self) -> DisplayServer:
        """Serve in a background thread; returns self."""
        super().start()
        return self

    async def closing(self) -> None:
        """End every event stream."""
        self._unsubscribe()

    def _unsubscribe(self) -> None:
        for b in self.boards.values():
            try:
                b.unsubscribe(self._send)
            except ValueError:
                pass
        self.feed.close()

    def stop(self) -> None:
        """Close every event stream, stop serving and release the port."""
        self._unsubscribe()
        super().stop()

    def __enter__(self) -> DisplayServer:
        return self.start()

    def last_seen(self, event_id: str | None) -> int | None:
        """The feed number in a viewer's ``Last-Event-ID`` (``EPOCH.SEQ``), or None when
        it is missing, malformed or from another run of the server."""
        return event_seq(event_id, self.epoch)

    def authorised(self, header: str | None, query_token: str | None) -> bool:
        """Does the request carry the token (as a bearer token, or ``?token=``)?"""
        return carries_token(header, query_token, self.token)

    def _authorised(self, request: web.Request) -> bool:
        return self.authorised(request.headers.get("Authorization"),
                               request.query.get("token"))

    def _camera_refused(self, request: web.Request) -> web.Response | None:
        if self.policy.camera_needs_token and not self._authorised(request):
            return error(403, "the camera is shown beyond this machine only with the "
                              "display's token")
        return None

    def _board(self, board_id: str) -> LiveBoard | web.Response:
        b = self.boards.get(board_id)
        if b is None:
            return error(404, f"no board {board_id!r}; boards: {', '.join(self.boards)}")
        return b

    # -- requests ---------------------------------------------------------------------

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        parts = [p for p in request.path.split("/") if p]
        if request.method in ("GET", "HEAD"):
            return await self._get(request, parts)
        if request.method == "POST":
            return await self._post(request, parts)
        return error(405, f"{request.method} is not served here")

    async def _get(self, request: web.Request, parts: list[str]) -> web.StreamResponse:
        query = parse_qs(request.query_string)
        if not parts or parts == ["index.html"]:
            return reply(200, self._pages["index.html"], STATIC_TYPES["index.html"])
        if parts == ["calibrate"]:
            return self._camera_refused(request) or reply(
                200, self._pages["calibrate.html"], STATIC_TYPES["calibrate.html"])
        if parts[0] == "static" and len(parts) == 2 and parts[1] in STATIC_TYPES:
            return reply(200, self._pages[parts[1]], STATIC_TYPES[parts[1]])
        if parts[:2] != ["api", "v1"]:
            return error(404, f"nothing at {request.path}")
        rest = parts[2:]
        if not rest:
            return json_response(200, {"boards": f"{API}/boards", "events": f"{API}/events"})
        if rest == ["events"]:
            only = query.get("board", [None])[0]
            if only is not None and only not in self.boards:
                return error(404, f"no board {only!r}")
            return await self.event_stream(
                request, self.feed, self.last_seen(request.headers.get("Last-Event-ID")),
                lambda m: sse_frame(self.epoch, m) if only is None or m.board_id == only else b"")
        if rest[0] != "boards":
            return error(404, f"nothing at {request.path}")
        if len(rest) == 1:
            return json_response(200, [b.snapshot.to_json() for b in self.boards.values()])
        board = self._board(rest[1])
        if isinstance(board, web.Response):
            return board
        if len(rest) == 2:
            return json_response(200, board.snapshot.to_json())
        if rest[2:] == ["board.svg"]:
            try:
                rotate = int(query.get("rotate", ["0"])[0])
                size = int(query["size"][0]) if "size" in query else None
                svg = board.snapshot.svg(rotate=rotate, size=size)
            except ValueError as exc:
                return error(400, str(exc))
            return reply(200, svg.encode(), "image/svg+xml")
        if rest[2:] == ["camera"] or rest[2:] == ["camera.jpg"]:
            return self._camera_refused(request) or await self._camera(
                board, rest[2] == "camera.jpg")
        if rest[2:] == ["game.sgf"]:
            data = board.sgf
            if data is None:
                return error(404, f"board {board.id} has no game record yet")
            return reply(200, data, "application/x-go-sgf",
                         {"Content-Disposition": f'inline; filename="{board.id}.sgf"'})
        return error(404, f"nothing at {request.path}")

    async def _camera(self, board: LiveBoard, picture: bool) -> web.Response:
        camera = board.camera
        if camera is None:
            return error(404, f"board {board.id} has no camera")
        if not picture:
            return json_response(200, camera.status())
        orientation = board.snapshot.orientation
        latest = await self.run(lambda: camera.jpeg(orientation))
        if latest is None:
            return error(404, f"board {board.id}: no frame from the camera yet")
        number, data = latest
        return reply(200, data, "image/jpeg", {"X-Frame": str(number)})

    async def _post(self, request: web.Request, parts: list[str]) -> web.Response:
        body = await self.body(request)
        if len(parts) != 5 or parts[:3] != ["api", "v1", "boards"]:
            return error(404, f"nothing to post to at {request.path}")
        board = self._board(parts[3])
        if isinstance(board, web.Response):
            return board
        if not self._authorised(request):
            return error(403, "a command needs the display's token")
        color: Color | None = None
        degrees: Any = None
        point: Any = None
        stone: Any = None
        if body:
            try:
                data = parse_json(body)
                if data.get("color"):
                    color = Color.parse(str(data["color"]))
                degrees = data.get("rotate")
                point, stone = data.get("point"), data.get("stone")
            except (ValueError, AttributeError) as exc:
                return error(400, f"bad command body {body[:80]!r}: {exc}")
        name = parts[4]
        try:
            if name == "orientation":
                if not isinstance(degrees, int):
                    return error(400, 'the orientation needs {"rotate": 0|90|180|270}')
                await self.run(lambda: board.set_orientation(degrees))
                # Applied by the recording between two readings: the state shows it then.
                return json_response(202, board.snapshot.to_json())
            if name == "set":
                if not (isinstance(point, str) and isinstance(stone, str)):
                    return error(400, 'a correction needs {"point": "D4", "stone": '
                                      '"black|white|empty"}')
                await self.run(lambda: board.correct(point, stone))
                return json_response(202, board.snapshot.to_json())
            await self.run(lambda: board.command(name, color))
        except CommandError as exc:
            return error(exc.status, str(exc))
        return json_response(200, board.snapshot.to_json())

