"""An event's boards as the hall sees them: what every board published to the broker
(see `kifu.mqtt`), kept per board, shown live to the organiser and ``delay`` seconds late to
everyone else. Pure: messages go in with the time they arrived, views come out.

A board's view is its published state (the JSON of ``/api/v1/boards/ID``) with the hall's
own fields added: ``status`` (online, offline, or unknown before its first word),
``players`` from the pairings where given, ``event_seq`` (the last event number taken) and
``missed`` (how many event numbers never came: a gap the broker lost).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Iterable
from typing import Any

from rules import CoordinateError, Point, Position

from .mqtt import PREFIX
from .svg import board_svg

KEEP_EVENTS = 50
"""Recent events kept per board for its full-size view."""


@dataclasses.dataclass(frozen=True)
class Pairing:
    """Who plays on a board: ``Pairing("7", "Ann", "Bo")``."""

    board: str
    black: str
    white: str


def read_pairings(text: str, name: str = "<pairings>") -> dict[str, Pairing]:
    """Pairings from CSV text with the columns board, black, white (a header row naming
    them is optional). ValueError naming ``name`` and the line on a bad row."""
    rows = list(csv.reader(io.StringIO(text)))
    out: dict[str, Pairing] = {}
    for n, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or (n == 1 and [c.lower() for c in cells[:3]] == ["board", "black", "white"]):
            continue
        if len(cells) < 3 or not cells[0]:
            raise ValueError(f"{name}:{n}: give board,black,white (got {row!r})")
        if cells[0] in out:
            raise ValueError(f"{name}:{n}: board {cells[0]} is paired twice")
        out[cells[0]] = Pairing(cells[0], cells[1], cells[2])
    return out


@dataclasses.dataclass
class _Seen:
    """One version of a board, as it stood from ``time`` on."""

    time: float
    state: dict[str, Any] | None
    sgf: bytes | None
    status: str


class HallBoard:
    """One board of the event: its versions over time, newest last, and its events."""

    def __init__(self, board_id: str) -> None:
        self.id = board_id
        self.versions: list[_Seen] = []
        self.events: list[dict[str, Any]] = []
        self.event_seq = 0
        self.missed = 0

    def latest(self) -> _Seen:
        return self.versions[-1] if self.versions else _Seen(0.0, None, None, "unknown")

    def as_of(self, time: float) -> _Seen | None:
        """The version shown at ``time`` (None: nothing published yet by then)."""
        for seen in reversed(self.versions):
            if seen.time <= time:
                return seen
        return None

    def change(self, time: float, **what: Any) -> None:
        self.versions.append(dataclasses.replace(self.latest(), time=time, **what))

    def forget_before(self, time: float) -> None:
        """Drop versions no view at ``time`` or later can show."""
        keep = next((i for i in range(len(self.versions) - 1, -1, -1)
                     if self.versions[i].time <= time), 0)
        del self.versions[:keep]


class Hall:
    """Every board of event ``event``. ``delay`` seconds: how late the public views are."""

    def __init__(self, event: str, *, delay: float = 0.0,
                 pairings: dict[str, Pairing] | None = None) -> None:
        self.event = event
        self.delay = delay
        self.pairings = dict(pairings or {})
        self.boards: dict[str, HallBoard] = {}

    @property
    def topic(self) -> str:
        """What to subscribe to: everything every board of the event publishes."""
        return f"{PREFIX}/{self.event}/+/+"

    def take(self, topic: str, payload: bytes, time: float) -> str | None:
        """Take one message that arrived at ``time``; the board it changed, or None if it
        was not one of the event's (or said nothing new: an event already taken)."""
        parts = topic.split("/")
        if len(parts) != 5 or "/".join(parts[:3]) != f"{PREFIX}/{self.event}":
            return None
        board_id, leaf = parts[3], parts[4]
        board = self.boards.get(board_id)
        if board is None:
            board = self.boards[board_id] = HallBoard(board_id)
        if leaf == "state":
            try:
                state = json.loads(payload)
            except ValueError:
                return None
            if not isinstance(state, dict):
                return None
            board.change(time, state=state)
        elif leaf == "sgf":
            board.change(time, sgf=bytes(payload))
        elif leaf == "status":
            board.change(time, status=payload.decode("utf-8", "replace").strip() or "unknown")
        elif leaf == "events":
            try:
                event = json.loads(payload)
                seq = int(event["seq"])
            except (ValueError, KeyError, TypeError):
                return None
            if seq <= board.event_seq:
                return None  # sent again after a lost acknowledgement: taken already
            board.missed += seq - board.event_seq - 1
            board.event_seq = seq
            board.events = (board.events + [event])[-KEEP_EVENTS:]
            return board_id
        else:
            return None
        board.forget_before(time - self.delay)
        return board_id

    def _shown(self, board: HallBoard, now: float, live: bool) -> _Seen | None:
        return board.latest() if live else board.as_of(now - self.delay)

    def view(self, board_id: str, now: float, *, live: bool) -> dict[str, Any] | None:
        """The board's JSON as a viewer sees it at ``now`` (``live``: the organiser, no
        delay); None if there is no such board, or nothing of it is public yet."""
        board = self.boards.get(board_id)
        if board is None:
            return None
        seen = self._shown(board, now, live)
        if seen is None or seen.state is None:
            return None
        out = dict(seen.state)
        out["id"] = board.id
        out["status"] = seen.status
        pairing = self.pairings.get(board.id)
        if pairing is not None:
            out["players"] = {"B": pairing.black, "W": pairing.white}
        if live:
            out["event_seq"] = board.event_seq
            out["missed"] = board.missed
        return out

    def views(self, now: float, *, live: bool) -> list[dict[str, Any]]:
        """Every board with something to show, in board order (7 before 10)."""
        out = (self.view(b, now, live=live) for b in sorted(self.boards, key=_board_order))
        return [v for v in out if v is not None]

    def sgf(self, board_id: str, now: float, *, live: bool) -> bytes | None:
        """The board's record as a viewer sees it at ``now``."""
        board = self.boards.get(board_id)
        seen = self._shown(board, now, live) if board is not None else None
        return seen.sgf if seen is not None else None

    def collection(self, now: float, *, live: bool) -> bytes:
        """Every board's record in board order, as one SGF collection (game trees one after
        another, as the SGF standard's collection is), for programs that poll it."""
        parts = (self.sgf(b, now, live=live) for b in sorted(self.boards, key=_board_order))
        return b"\n".join(p.strip() for p in parts if p) + b"\n"

    def results(self, now: float, *, live: bool) -> list[dict[str, Any]]:
        """One row per finished game: board, black, white, result (``B+6.5``, ``W+R``),
        winner (B, W or draw) and margin (None for a resignation)."""
        rows = []
        for v in self.views(now, live=live):
            if not v.get("result"):
                continue
            score = v.get("score") or {}
            players = v.get("players") or {}
            rows.append({
                "board": v["id"], "black": players.get("B", ""), "white": players.get("W", ""),
                "result": v["result"], "winner": score.get("winner") or str(v["result"])[:1],
                "margin": score.get("margin"),
            })
        return rows

    def results_csv(self, now: float, *, live: bool) -> str:
        """`results` as CSV with a header row."""
        out = io.StringIO()
        w = csv.DictWriter(out, ["board", "black", "white", "result", "winner", "margin"],
                           lineterminator="\n")
        w.writeheader()
        w.writerows(self.results(now, live=live))
        return out.getvalue()


def board_picture(view: dict[str, Any], size: int | None = None) -> str:
    """A board's view drawn as SVG (stones, last move, territory and dead stones once
    counted). ValueError if the view's rows or vertices are not a board's."""
    rows = view.get("rows")
    if not isinstance(rows, list) or not rows:
        raise ValueError("the board has no rows")
    position = Position([str(r) for r in rows])
    height, width = len(rows), len(str(rows[0]))

    def points(vertices: Iterable[Any]) -> list[Point]:
        return [Point.from_gtp(str(v), height, width) for v in vertices]

    try:
        last = view.get("last_move")
        territory = view.get("territory")
        return board_svg(
            position, size=size,
            last_move=points([last])[0] if last and last != "pass" else None,
            territory=((points(territory["B"]), points(territory["W"]))
                       if isinstance(territory, dict) else None),
            dead=points(view.get("dead") or ()),
            id_prefix=f"h{view.get('id', '')}",
        )
    except CoordinateError as exc:
        raise ValueError(str(exc)) from None


def _board_order(board_id: str) -> tuple[int, int, str]:
    return (0, int(board_id), "") if board_id.isdigit() else (1, 0, board_id)


__all__ = ["KEEP_EVENTS", "Hall", "HallBoard", "Pairing", "board_picture", "read_pairings"]
