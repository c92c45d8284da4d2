"""The event hall's web server: every board of an event on one page, the same JSON API as
``kifu serve`` (so a program that follows one board follows the hall the same way), the
results, and every game as one SGF collection.

Addresses (``?token=`` or a bearer token makes a viewer the organiser, who sees the boards
live; everyone else sees them ``Hall.delay`` seconds late):

- ``/``: the overview page (``/?board=ID`` opens one board at full size);
- ``/api/v1/boards``, ``/api/v1/boards/ID``: the boards' JSON (see `kifu.hall`);
- ``/api/v1/boards/ID/board.svg``, ``/api/v1/boards/ID/game.sgf``;
- ``/api/v1/boards/ID/events``: the organiser's recent events of that board;
- ``/api/v1/events``: server-sent events, one ``board`` event per change (the board's JSON,
  without the drawing ``kifu serve`` adds), ids ``EPOCH.SEQ`` for ``Last-Event-ID``; a
  board's changes between two rounds of writes (at once in a small hall, at most ``tick``
  seconds apart in a busy one) go out as its latest one, all boards' changes to a viewer in
  one write, gzipped for viewers that accept it (see `kifu.display.fanout`);
  ``?board=ID``: that board's only;
- ``/api/v1/results`` (JSON), ``/api/v1/results.csv``, ``/api/v1/games.sgf`` (all games).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from importlib import resources

from aiohttp import web

from ..hall import Hall, board_picture
from .fanout import TICK, Fanout
from .feed import Feed
from .policy import carries_token, event_seq
from .web import Timeouts, WebServer, error, json_response, reply, sse_frame

API = "/api/v1"

PAGES = {"hall.html": "text/html; charset=utf-8", "hall.js": "text/javascript; charset=utf-8",
         "hall.css": "text/css; charset=utf-8"}


def _page(name: str) -> bytes:
    return resources.files("kifu.display").joinpath("static", name).read_bytes()


class HallServer(WebServer):
    """Serves ``hall`` (taken from another thread under ``lock``) until `stop`. ``clock``
    gives the time the hall's messages were stamped with (time.monotonic by default);
    ``tick``: seconds between two writes to one viewer at most (fewer when the hall is at
    ease), and between looks for boards whose delayed (public) view has changed."""

    def __init__(self, hall: Hall, lock: threading.Lock, host: str = "127.0.0.1",
                 port: int = 0, *, token: str | None = None, allow_hosts: Iterable[str] = (),
                 cors: str | None = None, timeouts: Timeouts = Timeouts(),
                 clock: Callable[[], float] = time.monotonic, tick: float = TICK) -> None:
        super().__init__(host, port, allow_hosts=allow_hosts, cors=cors, timeouts=timeouts,
                         name="kifu-hall")
        self.hall = hall
        self.lock = lock
        self.clock = clock
        self.tick = tick
        self.token = token or secrets.token_urlsafe(12)
        self.epoch = secrets.token_hex(4)
        self.live = Feed()
        self.public = Feed()
        self._fanouts: dict[bool, Fanout] = {}
        self._versions: dict[tuple[bool, str], int] = {}
        self._shown: dict[tuple[bool, str], bytes] = {}
        self._public_seen: dict[str, object] = {}
        self._pages = {name: _page(name) for name in PAGES}
        self._ticker = threading.Thread(target=self._tick, name="kifu-hall-tick", daemon=True)
        self._ticking = threading.Event()
        self.app.router.add_route("*", "/{path:.*}", self._dispatch)

    @property
    def organiser_url(self) -> str:
        """The page's address with the token: the boards live."""
        return f"{self.url}?token={self.token}"

    def start(self) -> HallServer:
        super().start()
        self._ticking.set()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._ticking.clear()
        self.live.close()
        self.public.close()
        super().stop()

    # -- news -------------------------------------------------------------------------

    def changed(self, board_id: str) -> None:
        """Call after the hall took a message about ``board_id`` (under the lock or not):
        the organiser's viewers get it at once, the public ones when its delay is over."""
        self._push(board_id, live=True)
        if self.hall.delay <= 0:
            self._push(board_id, live=False)

    def _push(self, board_id: str, *, live: bool) -> None:
        with self.lock:
            view = self.hall.view(board_id, self.clock(), live=live)
        if view is None:
            return
        # No drawing in the stream (the page draws from the rows): a crowded 19x19 board
        # drawn is some 40 kB against 2 kB of JSON, times every viewer, times every move.
        data = json.dumps(view, separators=(",", ":")).encode()
        if self._shown.get((live, board_id)) == data:
            return  # the record changed, or an event came, but nothing shown did
        self._shown[(live, board_id)] = data
        version = self._versions.get((live, board_id), 0) + 1
        self._versions[(live, board_id)] = version
        (self.live if live else self.public).push(board_id, version, data)

    def _tick(self) -> None:
        while self._ticking.is_set():
            time.sleep(self.tick)
            if self.hall.delay > 0:
                for board_id in self._public_due():
                    self._push(board_id, live=False)

    def _public_due(self) -> list[str]:
        """The boards whose delayed view shows another version of the board than at the
        last look (only those are worth a view and its JSON)."""
        shown_at = self.clock() - self.hall.delay
        due = []
        with self.lock:
            for board in self.hall.boards.values():
                seen = board.as_of(shown_at)
                if seen is not self._public_seen.get(board.id):
                    self._public_seen[board.id] = seen
                    due.append(board.id)
        return due

    def _fanout(self, live: bool) -> Fanout:
        """The organiser's (``live``) or the public's streams (made in the server's loop)."""
        fanout = self._fanouts.get(live)
        if fanout is None:
            t = self.timeouts
            fanout = self._fanouts[live] = Fanout(
                self.live if live else self.public, lambda m: sse_frame(self.epoch, m),
                tick=self.tick, write_timeout=t.write, heartbeat=t.heartbeat)
        return fanout

    async def closing(self) -> None:
        """End the event streams (the server is stopping)."""
        for fanout in self._fanouts.values():
            fanout.close()

    # -- requests ---------------------------------------------------------------------

    def organiser(self, request: web.Request) -> bool:
        """Does the request carry the organiser's token?"""
        return carries_token(request.headers.get("Authorization"), request.query.get("token"),
                             self.token)

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return error(405, f"{request.method} is not served here")
        parts = [p for p in request.path.split("/") if p]
        if not parts or parts == ["index.html"]:
            return reply(200, self._pages["hall.html"], PAGES["hall.html"])
        if parts[0] == "static" and len(parts) == 2 and parts[1] in PAGES:
            return reply(200, self._pages[parts[1]], PAGES[parts[1]])
        if parts[:2] != ["api", "v1"]:
            return error(404, f"nothing at {request.path}")
        live = self.organiser(request)
        now = self.clock()
        rest = parts[2:]
        if not rest:
            return json_response(200, {
                "event": self.hall.event, "boards": f"{API}/boards", "events": f"{API}/events",
                "results": f"{API}/results", "games": f"{API}/games.sgf",
                "delay_minutes": self.hall.delay / 60, "live": live})
        if rest == ["events"]:
            return await self._fanout(live).stream(
                request, event_seq(request.headers.get("Last-Event-ID"), self.epoch),
                request.query.get("board"))
        with self.lock:
            if rest == ["boards"]:
                return json_response(200, self.hall.views(now, live=live))
            if rest == ["results"]:
                return json_response(200, self.hall.results(now, live=live))
            if rest == ["results.csv"]:
                return reply(200, self.hall.results_csv(now, live=live).encode(),
                             "text/csv; charset=utf-8")
            if rest == ["games.sgf"]:
                return reply(200, self.hall.collection(now, live=live), "application/x-go-sgf",
                             {"Content-Disposition":
                              f'inline; filename="{self.hall.event}.sgf"'})
            if rest[0] != "boards" or len(rest) > 3:
                return error(404, f"nothing at {request.path}")
            view = self.hall.view(rest[1], now, live=live)
            if view is None:
                return error(404, f"no board {rest[1]!r} (yet)")
            if len(rest) == 2:
                return json_response(200, view)
            if rest[2] == "game.sgf":
                data = self.hall.sgf(rest[1], now, live=live)
                if not data:
                    return error(404, f"board {rest[1]} has no game record yet")
                return reply(200, data, "application/x-go-sgf",
                             {"Content-Disposition": f'inline; filename="{rest[1]}.sgf"'})
            if rest[2] == "events":
                if not live:
                    return error(403, "a board's events are the organiser's (give the token)")
                return json_response(200, list(self.hall.boards[rest[1]].events))
        if rest[2] == "board.svg":
            try:
                size = int(request.query["size"]) if "size" in request.query else None
                svg = await self.run(lambda: board_picture(view, size))
            except ValueError as exc:
                return error(400, str(exc))
            return reply(200, svg.encode(), "image/svg+xml")
        return error(404, f"nothing at {request.path}")


__all__ = ["HallServer"]
