"""The state of one live board, as the page and the JSON API show it.

A `LiveBoard` is what a recording session (or an SGF follower) tells about its game: it
calls ``update(game, *events)`` after each change, and the board keeps a snapshot (the
stones, whose turn, captures, the last move, the latest announcements, and at the end the
score with its territory). Whoever listens (the display server's feed, a terminal
announcer) is called with each new snapshot. Commands from the page (pass, resign, done,
undo) go back through ``on_command``; the orientation asked for on the calibration page
through ``on_orientation``, a point's reading corrected there through ``on_correction``.
In the counting phase (after two passes) the score is the count as it stands, with the
stones lifted so far as dead; once the game is over, the final count. A recording's board
may hold its camera's latest frame (`kifu.display.camera.CameraView`).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from rules import (
    Color, Event, Game, GameEnded, IllegalMove, MovePlayed, Passed, Phase, Point, Position,
    Reason, Resigned, Score, StonesRemoved,
)

from rules.point import CoordinateError
from rules.rotation import check_rotation, rotate_point

from .. import announce as an
from ..replay import score_json
from ..corrections import Correction
from ..svg import board_svg
from ..tracker import Oriented
from .camera import CameraView

MAX_ANNOUNCEMENTS = 12
COMMANDS = ("pass", "resign", "done", "undo")


class CommandError(Exception):
    """A command from the page that cannot be carried out. ``status`` is the HTTP status
    that says why (404 unknown command, 409 not possible now)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


@dataclasses.dataclass(frozen=True)
class Announcement:
    """A sentence the referee said, with its kind (see `kifu.announce.kind`) and when."""

    text: str
    kind: str
    time: float


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """Everything shown of one board at one moment. Immutable, so listeners in other
    threads can keep it."""

    id: str
    title: str
    position: Position
    to_move: Color | None
    number: int
    captures: tuple[int, int]
    phase: str
    version: int
    last_move: Point | None = None
    last_pass: Color | None = None
    highlight: Point | None = None
    announcements: tuple[Announcement, ...] = ()
    score: Score | None = None
    dead: tuple[Point, ...] = ()
    result: str | None = None
    players: tuple[str, str] = ("", "")
    rules: str = ""
    komi: float | None = None
    controllable: bool = False
    orientation: int = 0
    orientable: bool = False
    camera: bool = False
    clock: dict[str, Any] | None = None
    """Both players' time (`kifu.clock.ClockReading.json`) when a time control is kept."""

    def to_json(self) -> dict[str, Any]:
        """The snapshot as JSON for programs: rows top first (``.``/``X``/``O``), GTP
        vertices, colours as ``"B"``/``"W"``, the newest announcement first;
        ``counting`` true after two passes, when ``score`` is the count as it stands;
        ``orientation`` is the quarter turn (degrees clockwise) applied to the readings,
        ``camera`` the address of the latest camera frame (None without a camera)."""
        s = self.score
        return {
            "id": self.id,
            "title": self.title,
            "version": self.version,
            "width": self.position.width,
            "height": self.position.height,
            "rows": self.position.rows(),
            "to_move": self.to_move.letter if self.to_move else None,
            "number": self.number,
            "captures": {"B": self.captures[0], "W": self.captures[1]},
            "phase": self.phase,
            "last_move": (self.last_move.gtp() if self.last_move
                          else "pass" if self.last_pass else None),
            "last_color": (self.last_pass.letter if self.last_pass else
                           (c.letter if (c := self.position[self.last_move]) else None)
                           if self.last_move else None),
            "highlight": self.highlight.gtp() if self.highlight else None,
            "announcements": [
                {"text": a.text, "kind": a.kind, "time": a.time}
                for a in reversed(self.announcements)
            ],
            "score": score_json(s) if s else None,
            "counting": self.phase == Phase.COUNTING.value,
            "territory": ({"B": [p.gtp() for p in s.territory[0]],
                           "W": [p.gtp() for p in s.territory[1]]} if s else None),
            "dead": [p.gtp() for p in self.dead],
            "result": self.result,
            "players": {"B": self.players[0], "W": self.players[1]},
            "rules": self.rules,
            "komi": self.komi,
            "controllable": self.controllable,
            "orientation": self.orientation,
            "orientable": self.orientable,
            "camera": f"/api/v1/boards/{self.id}/camera.jpg" if self.camera else None,
            "clock": self.clock,
        }

    def svg(self, rotate: int = 0, size: int | None = None) -> str:
        """The board drawn (see `kifu.svg.board_svg`), territory and dead stones included
        once the game is counted."""
        s = self.score
        return board_svg(
            self.position,
            size=size,
            last_move=self.last_move,
            territory=s.territory if s else None,
            dead=s.dead_stones if s else self.dead,
            highlight=self.highlight,
            rotate=rotate,
            id_prefix=f"b{self.id}",
        )


Listener = Callable[["LiveBoard", Snapshot], None]
CommandHandler = Callable[[str, "Color | None"], None]
OrientationHandler = Callable[[int], None]
CorrectionHandler = Callable[[str, "Color | None"], None]
STONES = {"black": Color.BLACK, "white": Color.WHITE, "empty": None}
"""What the calibration page may set a point to."""


class LiveBoard:
    """One board's live state. Thread-safe: `update` may be called from the game's thread
    while the server reads `snapshot` from others.

    ``on_command`` (optional) carries out "pass" or "resign" (with the colour, None meaning
    the player to move) asked for from the page; it raises `CommandError` to refuse.
    ``on_orientation`` (optional) takes the orientation asked for from the calibration
    page (see `set_orientation`). ``camera`` (optional) holds the latest camera frame.
    ``on_correction`` (optional) takes a point's reading corrected on the calibration page
    (see `correct`).
    """

    def __init__(self, board_id: str, width: int = 19, height: int | None = None, *,
                 title: str = "", on_command: CommandHandler | None = None,
                 on_orientation: OrientationHandler | None = None,
                 camera: CameraView | None = None,
                 on_correction: CorrectionHandler | None = None) -> None:
        if not board_id or not all(c.isalnum() or c in "-_" for c in board_id):
            raise ValueError(f"board id must be letters, digits, '-' or '_': {board_id!r}")
        self.id = board_id
        self.on_command = on_command
        self.on_orientation = on_orientation
        self.on_correction = on_correction
        self.camera = camera
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._announcement_listeners: list[Callable[[Event | None, str], None]] = []
        self._sgf: bytes | None = None
        self._snap = Snapshot(
            id=board_id, title=title or board_id, position=Position.empty(width, height),
            to_move=Color.BLACK, number=0, captures=(0, 0), phase=Phase.PLAY.value,
            version=0, controllable=on_command is not None,
            orientable=on_orientation is not None, camera=camera is not None,
        )

    # -- reading ----------------------------------------------------------------------

    @property
    def snapshot(self) -> Snapshot:
        """The state now (an immutable value)."""
        return self._snap

    @property
    def sgf(self) -> bytes | None:
        """The game record as SGF bytes, if one was given with `set_sgf`."""
        return self._sgf

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(board, snapshot)`` after every change, in the changer's thread."""
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        with self._lock:
            self._listeners.remove(listener)

    def on_announcement(self, listener: Callable[[Event | None, str], None]) -> None:
        """Call ``listener(event, sentence)`` for each sentence announced (printing,
        speech); ``event`` is None for a sentence given to `say`."""
        with self._lock:
            self._announcement_listeners.append(listener)

    # -- changing ---------------------------------------------------------------------

    def _change(self, edit: Callable[[Snapshot], Snapshot],
                said: Sequence[tuple[Event | None, str, str]] = ()) -> Snapshot:
        """One change, as one new version: ``edit`` applied to the snapshot, then the
        sentences ``said`` (event, sentence, kind) added to its announcements. The
        announcement listeners, then the listeners, are told outside the lock."""
        with self._lock:
            s = edit(self._snap)
            for _, text, kind in said:
                item = Announcement(text, kind, time.time())
                s = dataclasses.replace(
                    s, announcements=(s.announcements + (item,))[-MAX_ANNOUNCEMENTS:])
            s = dataclasses.replace(s, version=self._snap.version + 1,
                                    controllable=self.on_command is not None)
            self._snap = s
            listeners = list(self._listeners)
            speakers = list(self._announcement_listeners)
        for event, text, _ in said:
            for hear in speakers:
                hear(event, text)
        for listener in listeners:
            listener(self, s)
        return s

    def update(self, game: Game | None, *events: Event, announce: bool = True,
               reset: bool = False) -> Snapshot:
        """Take the events (in order) and then the game's state, as one change.

        ``game`` None keeps the stones as they are (events alone: an illegal move refused,
        an announcement). ``announce`` False takes the events' effect on the state (last
        move, score) without adding announcements (e.g. catching up on a record at start).
        ``reset`` forgets the announcements, the score and the result first (a new game).
        """
        said: list[tuple[Event | None, str, str]] = []
        for event in events if announce else ():
            text = an.announce(event)
            if text is not None:
                said.append((event, text, an.kind(event)))

        def edit(s: Snapshot) -> Snapshot:
            if reset:
                s = dataclasses.replace(s, announcements=(), score=None, result=None,
                                        last_move=None, last_pass=None, highlight=None, dead=())
            for event in events:
                s = _apply(s, event)
            return s if game is None else _from_game(s, game)

        return self._change(edit, said)

    def say(self, text: str, kind: str = "note", points: Sequence[Point] = ()) -> Snapshot:
        """Announce a sentence that no rules event carries (a tracker's warning: "stones
        removed that no move captured", "cannot count yet"). The first of ``points``, if
        any, is marked on the board as a refused move is."""
        return self._change(
            lambda s: dataclasses.replace(s, highlight=points[0] if points else s.highlight),
            [(None, text, kind)])

    def oriented(self, game: Game, change: Oriented) -> Snapshot:
        """The readings' orientation was set (`kifu.session.Session.orient`): show the
        new orientation, ``game``'s stones as now turned, the marks (last move, refused
        point, dead stones) turned with them, and say so."""

        def turned(p: Point) -> Point:
            return rotate_point(p, change.width, change.height, change.turn)

        def edit(s: Snapshot) -> Snapshot:
            s = dataclasses.replace(
                s, orientation=change.orientation,
                last_move=turned(s.last_move) if s.last_move else None,
                highlight=turned(s.highlight) if s.highlight else None,
                dead=tuple(sorted(turned(p) for p in s.dead)))
            return _from_game(s, game)

        return self._change(edit, [(None, change.text, "orientation")])

    def corrected(self, game: Game, text: str, took_back: bool) -> Snapshot:
        """A correction was made (`kifu.corrections.Correction`): say ``text`` and show
        ``game`` as it now stands; when a move was taken back, its marks (the last move,
        a refused point) go with it."""

        def edit(s: Snapshot) -> Snapshot:
            if took_back:
                s = dataclasses.replace(s, last_move=None, last_pass=None, highlight=None)
            return _from_game(s, game)

        return self._change(edit, [(None, text, "correction")])

    def publish(self, *events: Event) -> Snapshot:
        """The events alone, the stones unchanged: ``update(None, *events)``."""
        return self.update(None, *events)

    def describe(self, *, title: str | None = None, players: tuple[str, str] | None = None,
                 rules: str | None = None, komi: float | None = None,
                 result: str | None = None, orientation: int | None = None) -> Snapshot:
        """Set what the page shows about the game (only the values given); listeners hear
        of it when something changed."""
        given: dict[str, Any] = {"title": title, "players": players, "rules": rules, "komi": komi,
                 "result": result, "orientation": orientation}
        with self._lock:
            s = self._snap
            changes = {k: v for k, v in given.items() if v is not None and getattr(s, k) != v}
            if not changes:
                return s
            s = dataclasses.replace(s, version=s.version + 1, **changes)
            self._snap = s
            listeners = list(self._listeners)
        for listener in listeners:
            listener(self, s)
        return s

    def set_clock(self, reading: dict[str, Any] | None) -> None:
        """Show both players' time (`kifu.clock.ClockReading.json`); an update only when
        it changed."""
        if reading != self.snapshot.clock:
            self._change(lambda s: dataclasses.replace(s, clock=reading))

    def set_sgf(self, data: bytes) -> None:
        """The record served at the board's stable SGF address."""
        self._sgf = bytes(data)

    def command(self, name: str, color: Color | None = None) -> None:
        """Carry out a command from the page through ``on_command``. Raises `CommandError`
        when the command is unknown or this board takes none."""
        if name not in COMMANDS:
            raise CommandError(f"unknown command {name!r}: expected one of {COMMANDS}", 404)
        if self.on_command is None:
            raise CommandError(f"board {self.id} takes no commands (it follows a record)")
        self.on_command(name, color)

    def correct(self, vertex: str, stone: str) -> None:
        """Ask, through ``on_correction``, that the reading of ``vertex`` (``D4``) be taken
        as ``stone`` (``black``, ``white`` or ``empty``): `kifu.session.Session.set_point`.
        Raises `CommandError` for a point off the board or another stone (400), or when
        this board takes no corrections (409)."""
        s = self._snap
        try:
            Point.from_gtp(vertex, height=s.position.height, width=s.position.width)
        except CoordinateError as exc:
            raise CommandError(str(exc), 400) from None
        if stone not in STONES:
            raise CommandError(f"a point is set to black, white or empty, not {stone!r}", 400)
        if self.on_correction is None:
            raise CommandError(f"board {self.id} takes no corrections (it follows a record)")
        self.on_correction(vertex.strip().upper(), STONES[stone])

    def set_orientation(self, degrees: int) -> None:
        """Ask, through ``on_orientation``, that the readings be turned ``degrees``
        clockwise (0, 90, 180 or 270) from now on; the snapshot shows it once the
        recording has done so (see `oriented`). Raises `CommandError` when the angle is
        not a quarter turn (400) or this board has no orientation to set (409)."""
        try:
            check_rotation(degrees)
        except ValueError as exc:
            raise CommandError(str(exc), 400) from None
        if self.on_orientation is None:
            raise CommandError(f"board {self.id} has no orientation to set (it follows a record)")
        self.on_orientation(degrees)


def _apply(s: Snapshot, event: Event) -> Snapshot:
    """What an event changes in a snapshot, the stones apart."""
    r = dataclasses.replace
    if isinstance(event, MovePlayed):
        return r(s, last_move=event.point, last_pass=None, highlight=None)
    if isinstance(event, Passed):
        return r(s, last_move=None, last_pass=event.color, highlight=None)
    if isinstance(event, IllegalMove):
        return r(s, highlight=event.point)
    if isinstance(event, StonesRemoved):
        dead = set(s.dead)
        dead = dead | set(event.points) if event.dead else dead - set(event.points)
        return r(s, dead=tuple(sorted(dead)))
    if isinstance(event, Resigned):
        return r(s, result=f"{event.color.opponent.letter}+R", highlight=None)
    if isinstance(event, GameEnded):
        return r(s, phase=Phase.OVER.value, highlight=None)
    if isinstance(event, Score):
        return r(s, score=event, result=event.result(), dead=event.dead_stones, highlight=None)
    raise TypeError(f"not an event: {event!r}")


def _from_game(s: Snapshot, game: Game) -> Snapshot:
    geo = game.board.geo
    dead = tuple(sorted(geo.points[i] for i in game.dead)) if game.dead else s.dead
    score = (s.score if game.phase is Phase.OVER else
             game.score() if game.phase is Phase.COUNTING else None)
    return dataclasses.replace(
        s,
        position=game.position,
        to_move=None if game.phase is Phase.OVER else game.to_move,
        number=game.number,
        captures=(game.captures[Color.BLACK], game.captures[Color.WHITE]),
        phase=game.phase.value,
        dead=dead if game.phase is not Phase.PLAY else (),
        score=score,
        rules=game.rules.name,
        komi=game.komi,
    )


def game_commands(board: LiveBoard, game: Game, lock: threading.Lock | None = None
                  ) -> CommandHandler:
    """A command handler that passes, resigns, counts (``done``, after two passes) or
    takes the last move back (``undo``) on ``game`` itself and updates ``board`` (what the
    terminal keys of a recording do). ``lock`` guards the game if another thread plays on
    it too."""
    guard = lock or threading.Lock()

    def handle(name: str, color: Color | None) -> None:
        from rules import IllegalMoveError

        with guard:
            if game.phase is Phase.OVER:
                raise CommandError("the game is over")
            events: list[Event] = []
            try:
                if name == "pass":
                    events.append(game.pass_(color or game.to_move))
                elif name == "resign":
                    events.extend(game.resign(color or game.to_move))
                elif name == "done":
                    if game.phase is not Phase.COUNTING:
                        raise CommandError("the game is counted only after two passes")
                    score, ended = game.finish()
                    events += [ended, score]
                elif game.number:
                    game.undo()
                    board.corrected(game, f"move {game.number + 1} taken back", True)
                    return
                else:
                    raise CommandError("no move to take back")
            except IllegalMoveError as exc:
                raise CommandError(f"{name} refused: {exc.reason.value}") from None
            board.update(game, *events)

    return handle



EVENTS = (MovePlayed, Passed, IllegalMove, StonesRemoved, Resigned, GameEnded, Score)


class BoardSink:
    """A recording session's sink (called with each output and its time) that shows the
    game on ``board``: rules events update it; a change of orientation turns it; a
    correction shows the game as corrected; an
    announcement of the tracker's (anything with a ``text``, and optionally ``kind``,
    ``reason`` and ``points``) is said on it; any other output (setup stones) shows the
    game's stones as they are now."""

    def __init__(self, board: LiveBoard, game: Game) -> None:
        self.board = board
        self.game = game

    def __call__(self, item: object, time: float) -> None:
        """Show one output."""
        if isinstance(item, EVENTS):
            self.board.update(self.game, item)
            return
        if isinstance(item, Oriented):
            self.board.oriented(self.game, item)
            return
        if isinstance(item, Correction):
            self.board.corrected(self.game, item.text, item.takes_back)
            return
        text = getattr(item, "text", None)
        if isinstance(text, str):
            reason = getattr(item, "reason", None)
            kind = "ko" if reason is Reason.KO else str(getattr(item, "kind", "note"))
            self.board.say(text, kind, tuple(getattr(item, "points", ())))
            return
        self.board.update(self.game)
