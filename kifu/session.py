"""A recording session: a source of readings and commands, the tracker, the game, and the
sinks every output goes to.

The source is any iterable of `Observation`s and `Command`s (passes, resignations, "done"
with the dead stones, the orientation of the readings). Keyboard commands may also arrive
on a queue while the source runs. `resume` rebuilds a game from the SGF a session wrote,
to continue it.

The observation script (``kifu record --observations FILE``, for tests and replays) is a
text file of readings and commands::

    @ 0.0-1.0     # a reading held from 0.0 s to 1.0 s (read at both times)
    .....
    ..X..         # rows top first: . empty, X black, O white, ? hidden
    .....
    @ 1.5         # a reading at 1.5 s
    .....
    ..X..
    ..?..
    pass          # the player to move passes (also: pass B, resign W, done, rotate 90,
                  # order D4 Q16 C3)
"""

from __future__ import annotations

import dataclasses
import queue
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Union

from rules import Color, Game, IllegalMove, MovePlayed, Observation, Phase, Point, Ruleset
from rules.observation import UNKNOWN
from rules.rotation import check_rotation, rotate_observation

from . import replay as rp
from .sgf import Record, SgfError, move_property, parse
from .sinks import TIME_PROPERTY, Sink
from .tracker import Announcement, Kind, Oriented, Output, Tracker


@dataclasses.dataclass(frozen=True)
class Command:
    """Something a player says rather than shows: ``pass``, ``resign`` (``color`` says
    who; the player to move when None), ``done`` (dead stones agreed: count) or
    ``orient`` (read the board turned ``degrees`` clockwise from now on) or ``order`` (the
    last moves recorded were played in the order of ``vertices``: `Tracker.reorder`)."""

    kind: str
    color: Color | None = None
    degrees: int | None = None
    vertices: tuple[str, ...] = ()

    KINDS = ("pass", "resign", "done", "orient", "order")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise ValueError(
                f"unknown command {self.kind!r}: expected one of {', '.join(self.KINDS)}"
            )
        if (self.kind == "orient") != (self.degrees is not None):
            needs = "an angle" if self.kind == "orient" else "no angle"
            raise ValueError(f"the command {self.kind} takes {needs}")
        if self.degrees is not None:
            check_rotation(self.degrees)
        if (self.kind == "order") != bool(self.vertices):
            needs = "points" if self.kind == "order" else "no points"
            raise ValueError(f"the command {self.kind} takes {needs}")


Item = Union[Observation, Command]

_COLOURS = {"b": Color.BLACK, "black": Color.BLACK, "w": Color.WHITE, "white": Color.WHITE}


def parse_command(line: str) -> Command:
    """``pass``, ``pass B``, ``resign white``, ``done`` (any case; ``p`` for pass),
    ``rotate 90`` (the orientation: 0, 90, 180 or 270 degrees clockwise), or ``order D4 Q16
    C3`` (the last moves recorded, in the order they were played)."""
    words = line.strip().lower().split()
    if not words:
        raise ValueError("empty command")
    kind = {"p": "pass", "score": "done", "count": "done", "rotate": "orient"}.get(
        words[0], words[0])
    if kind == "order":
        if len(words) < 3:
            raise ValueError(f"cannot read the command {line.strip()!r}: try 'order D4 Q16 C3'")
        return Command("order", vertices=tuple(w.upper() for w in words[1:]))
    if kind == "orient":
        if len(words) != 2 or not words[1].isdigit():
            raise ValueError(f"cannot read the command {line.strip()!r}: try 'rotate 90'")
        return Command("orient", degrees=int(words[1]))
    if len(words) > 2 or (len(words) == 2 and words[1] not in _COLOURS):
        raise ValueError(f"cannot read the command {line.strip()!r}: try 'pass', 'pass B', "
                         f"'resign W', 'done' or 'rotate 90'")
    return Command(kind, _COLOURS[words[1]] if len(words) == 2 else None)


_TIME = re.compile(r"^@\s*([0-9.]+)\s*(?:-\s*([0-9.]+))?$")
_ROW = re.compile(r"^[.XO?+BW ]+$")


def parse_script(text: str, name: str = "<script>") -> list[Item]:
    """Readings and commands from the text of an observation script (see the module's
    docstring). Raises ValueError naming ``name`` and the line."""
    items: list[Item] = []
    rows: list[str] = []
    times: tuple[float, ...] = ()
    shape: tuple[int, int] | None = None
    start = 0

    def flush() -> None:
        nonlocal rows, times, shape
        if not rows:
            return
        if not times:
            raise ValueError(
                f"{name}:{start}: a reading without a time (put '@ SECONDS' before it)"
            )
        try:
            obs = Observation.from_rows(rows, source=name)
        except ValueError as exc:
            raise ValueError(f"{name}:{start}: {exc}") from None
        if shape and shape != (obs.width, obs.height):
            raise ValueError(f"{name}:{start}: a {obs.width}x{obs.height} reading after "
                             f"{shape[0]}x{shape[1]} ones")
        shape = (obs.width, obs.height)
        for t in times:
            items.append(dataclasses.replace(obs, time=t))
        rows, times = [], ()

    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _TIME.match(line)
        if m:
            flush()
            t0 = float(m.group(1))
            times = (t0,) if m.group(2) is None else (t0, float(m.group(2)))
            start = n + 1
            continue
        if _ROW.match(line):
            if not rows:
                start = n
            rows.append(line)
            continue
        flush()
        times = ()
        try:
            items.append(parse_command(line))
        except ValueError as exc:
            raise ValueError(f"{name}:{n}: {exc}") from None
    flush()
    return items


def load_script(path: str | Path) -> list[Item]:
    """Read an observation script file; errors name the file and the line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{p}: {exc.strerror or exc}") from None
    return parse_script(text, str(p))


@dataclasses.dataclass
class Resumed:
    """A game rebuilt from its record, ready to go on."""

    game: Game
    record: Record
    moves: list[tuple[Color, Point | None]]
    times: list[float | None]
    captured: dict[Point, Color]
    """The stones the last two moves captured: they may still lie on the board."""


def resume(data: bytes, rules: Ruleset, name: str = "<sgf>", komi: float | None = None) -> Resumed:
    """The game an SGF record holds, replayed through the referee, with each move's time
    (``KT``) when the record has it; ``komi`` overrides the record's. Raises ValueError
    naming the record if a move is illegal or the game already has a result."""
    record = parse(data, name)
    if record.properties.get("RE"):
        raise ValueError(f"{name}: the game is over ({record.properties['RE']}): nothing to resume")
    game = rp.start(record, rules, komi)
    events = list(rp.replay(game, record.nodes))
    for event in events:
        if isinstance(event, IllegalMove):
            raise ValueError(f"{name}: cannot resume: {rp.to_text(event).strip()}")
    captured: dict[Point, Color] = {}
    for event in events[-2:]:
        if isinstance(event, MovePlayed):
            captured.update({p: event.color.opponent for p in event.captured})
            captured.update({p: event.color for p in event.suicided})
    moves = [(m.color, m.point) for m in record.moves]
    times: list[float | None] = []
    for value in move_property(data, TIME_PROPERTY, name):
        try:
            times.append(None if value is None else float(value))
        except ValueError:
            raise SgfError(name, f"{TIME_PROPERTY}[{value}] is not a time in seconds") from None
    return Resumed(game, record, moves, times, captured)


class Session:
    """Feeds the items of a source to the tracker and hands every output to every sink,
    with its time: a move's time is when its stone was first seen; anything else happens
    at the time of the latest reading.

    ``orientation`` (0, 90, 180 or 270) turns every reading that many degrees clockwise
    before the tracker sees it: the side of the camera's picture (or of the sensor board)
    where Black sits becomes the bottom, row 1. `orient` changes it during the game."""

    def __init__(self, tracker: Tracker, sinks: Sequence[Sink], orientation: int = 0) -> None:
        self.tracker = tracker
        self.sinks = list(sinks)
        self.orientation = check_rotation(orientation)
        self.readings = 0
        self.outputs: list[Output] = []

    @property
    def game(self) -> Game:
        return self.tracker.game

    def _emit(self, items: Iterable[Output], move_time: float | None = None) -> None:
        for item in items:
            is_move = move_time is not None and isinstance(item, MovePlayed)
            t = move_time if is_move and move_time is not None else self.tracker.now
            self.outputs.append(item)
            for sink in self.sinks:
                sink(item, t)

    def handle(self, item: Item) -> None:
        """One reading or command."""
        tr = self.tracker
        if isinstance(item, Observation):
            self.readings += 1
            self._emit(tr.feed(rotate_observation(item, self.orientation)), tr.state_time)
            return
        if item.kind == "orient":
            assert item.degrees is not None
            self.orient(item.degrees)
        elif item.kind == "pass":
            self._emit(tr.pass_(item.color))
        elif item.kind == "order":
            try:
                points = [Point.from_gtp(v, height=self.game.height, width=self.game.width)
                          for v in item.vertices]
            except ValueError as exc:
                self._emit([Announcement(Kind.REFUSED, f"order: {exc}")])
            else:
                self._emit(tr.reorder(points))
        elif item.kind == "resign":
            self._emit(tr.resign(item.color or self.game.to_move))
        else:
            try:
                self._emit(tr.finish())
            except ValueError as exc:
                self._emit([Announcement(Kind.REFUSED, f"cannot count yet: {exc}")])

    def orient(self, degrees: int) -> None:
        """Read the board turned ``degrees`` clockwise from now on. When that differs from
        the orientation so far, the game recorded so far is turned by the difference (a
        turn maps a legal game to the same game on the turned board), so that it still
        lies where the readings show it. The sinks hear an `Oriented` either way: the
        SGF writer turns its record, the display its board."""
        turn = (check_rotation(degrees) - self.orientation) % 360
        game = self.game
        width, height = game.width, game.height
        if turn:
            self.tracker.turn(turn)
        self.orientation = degrees
        self._emit([Oriented(degrees, turn, width, height, game.number)])

    def run(self, source: Iterable[Item], commands: queue.Queue[Command] | None = None) -> Game:
        """Handle every item of ``source`` (and any command waiting on ``commands`` before
        each one) until it ends or the game is over; then `close`."""
        for item in source:
            while commands is not None and not commands.empty():
                self.handle(commands.get_nowait())
            self.handle(item)
            if self.game.phase is Phase.OVER:
                break
        while commands is not None and not commands.empty():
            self.handle(commands.get_nowait())
        self.close()
        return self.game

    def close(self) -> None:
        """The source has ended: a game in its counting phase is counted now."""
        if self.game.phase is Phase.COUNTING:
            self._emit(self.tracker.finish())


def hidden(width: int, height: int, time: float, source: str = "") -> Observation:
    """A reading in which nothing could be seen (no board found: a hand, a bumped camera)."""
    return Observation(width, height, (UNKNOWN,) * (width * height), time=time, source=source)
