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
                  # undo, set D4 black, order D4 Q16 C3)
"""

from __future__ import annotations

import dataclasses
import queue
import re
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal, NoReturn, Union, get_args

from rules import (
    Cell, Color, Game, IllegalMove, MovePlayed, Observation, Passed, Phase, Point, Ruleset,
    StonesRemoved,
)
from rules.game import RulesError
from rules.point import CoordinateError
from rules.rotation import check_rotation, rotate_observation

from . import replay as rp
from .clock import Clock, TimeControl, TimeLeft
from .corrections import correction
from .sgf import TIME_PROPERTY, Record, SgfError, parse
from .sgf_text import NodeText, main_line
from .sinks import Sink
from .tracker import Announcement, Kind, Oriented, Output, Tracker


Verb = Literal["pass", "resign", "done", "orient", "undo", "set", "order"]
"""What a `Command` asks: the words of the keyboard's commands (``rotate`` says ``orient``;
``p``, ``score`` and ``count`` are other words for ``pass`` and ``done``)."""

VERBS: tuple[Verb, ...] = get_args(Verb)


def _unknown(kind: NoReturn) -> NoReturn:
    """(mypy: every `Verb` is handled before this; ``typing.assert_never`` is 3.11+.)"""
    raise AssertionError(f"unhandled command {kind!r}")


def verb(word: str) -> Verb:
    """``word`` as a `Verb` (the page's and the keyboard's command names); ValueError
    naming it for any other word."""
    for v in VERBS:
        if v == word:
            return v
    raise ValueError(f"unknown command {word!r}: expected one of {', '.join(VERBS)}")


@dataclasses.dataclass(frozen=True)
class Command:
    """Something a player says rather than shows: ``pass``, ``resign`` (``color`` says
    who; the player to move when None), ``done`` (dead stones agreed: count), ``orient``
    (read the board turned ``degrees`` clockwise from now on), ``undo`` (take the last
    move or pass back), ``set`` (the camera's reading of ``vertex`` corrected to a
    stone of ``color``, None for empty) or ``order`` (the last moves recorded were played
    in the order of ``vertices``: `Tracker.reorder`)."""

    kind: Verb
    color: Color | None = None
    degrees: int | None = None
    vertex: str | None = None
    vertices: tuple[str, ...] = ()

    KINDS = VERBS

    def __post_init__(self) -> None:
        verb(self.kind)  # (a Verb for mypy; checked here for callers it does not see)
        if (self.kind == "orient") != (self.degrees is not None):
            needs = "an angle" if self.kind == "orient" else "no angle"
            raise ValueError(f"the command {self.kind} takes {needs}")
        if self.degrees is not None:
            check_rotation(self.degrees)
        if (self.kind == "set") != (self.vertex is not None):
            raise ValueError(f"the command {self.kind} takes "
                             f"{'a point' if self.kind == 'set' else 'no point'}")
        if (self.kind == "order") != bool(self.vertices):
            needs = "points" if self.kind == "order" else "no points"
            raise ValueError(f"the command {self.kind} takes {needs}")


Item = Union[Observation, Command]

_SYNONYMS = {"p": "pass", "score": "done", "count": "done", "rotate": "orient"}
_EMPTY = ("e", "empty", ".", "none")
HELP = ("pass | pass B | resign W | done | undo | set D4 black|white|empty | rotate 90 | "
        "order D4 Q16 C3")
"""The commands, as the keyboard takes them."""


def _colour(word: str) -> Color | None:
    """The colour a word names (``b``, ``black``, ``w``, ``white``), or None if it names none."""
    try:
        return Color.parse(word)
    except ValueError:
        return None


def parse_command(line: str) -> Command:
    """``pass``, ``pass B``, ``resign white``, ``done`` (any case; ``p`` for pass),
    ``rotate 90`` (the orientation: 0, 90, 180 or 270 degrees clockwise), ``undo``,
    ``set D4 black|white|empty`` (the point's reading corrected), or ``order D4 Q16 C3``
    (the last moves recorded, in the order they were played)."""
    words = line.strip().lower().split()
    if not words:
        raise ValueError("empty command")
    kind = verb(_SYNONYMS.get(words[0], words[0]))
    if kind == "set":
        if len(words) != 3 or not (_colour(words[2]) is not None or words[2] in _EMPTY):
            raise ValueError(f"cannot read the command {line.strip()!r}: try 'set D4 black', "
                             f"'set D4 white' or 'set D4 empty'")
        try:
            Point.from_gtp(words[1])
        except CoordinateError as exc:
            raise ValueError(f"cannot read the command {line.strip()!r}: {exc}") from None
        return Command("set", _colour(words[2]), vertex=words[1].upper())
    if kind == "undo" and len(words) > 1:
        raise ValueError(f"cannot read the command {line.strip()!r}: 'undo' takes nothing more")
    if kind == "order":
        if len(words) < 3:
            raise ValueError(f"cannot read the command {line.strip()!r}: try 'order D4 Q16 C3'")
        return Command("order", vertices=tuple(w.upper() for w in words[1:]))
    if kind == "orient":
        if len(words) != 2 or not words[1].isdigit():
            raise ValueError(f"cannot read the command {line.strip()!r}: try 'rotate 90'")
        return Command("orient", degrees=int(words[1]))
    colour = _colour(words[1]) if len(words) == 2 else None
    if len(words) > 2 or (len(words) == 2 and colour is None):
        raise ValueError(f"cannot read the command {line.strip()!r}: try {HELP}")
    return Command(kind, colour)


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
    data: bytes = b""
    """The record's bytes, to be written back as they are with the new moves added."""
    clock: Clock | None = None
    """The clocks as the record left them, when ``time`` was given to `resume`."""


def resume(data: bytes, rules: Ruleset, name: str = "<sgf>", komi: float | None = None,
           time: TimeControl | None = None) -> Resumed:
    """The game an SGF record holds, replayed through the referee, with each move's time
    (``KT``) when the record has it; ``komi`` overrides the record's. With a time control,
    the clocks start from the time each player had left at their last move (``BL``/``WL``,
    ``OB``/``OW``), in full where the record does not say. An illegal move the rules
    count as a pass (AGA rule 8) is read as that pass, whether the record holds the move
    itself or, as `kifu.sinks.SgfWriter` writes it, a pass with the illegal move in its
    comment. Raises `SgfError` naming the record if it cannot be read, ValueError if a
    move is illegal (and not a pass under the rules) or the game already has a result."""
    record = parse(data, name)
    if record.properties.get("RE"):
        raise ValueError(f"{name}: the game is over ({record.properties['RE']}): nothing to resume")
    game = rp.start(record, rules, komi)
    events = list(rp.replay(game, record.nodes))
    for event in events:
        if isinstance(event, IllegalMove) and not event.counted_as_pass:
            raise ValueError(f"{name}: cannot resume: {rp.to_text(event).strip()}")
    captured: dict[Point, Color] = {}
    for event in events[-2:]:
        if isinstance(event, MovePlayed):
            captured.update({p: event.color.opponent for p in event.captured})
            captured.update({p: event.color for p in event.suicided})
    moves = [(m.color, m.point) for m in record.moves]
    times: list[float | None] = []
    for value in record.seen:
        try:
            times.append(None if value is None else float(value))
        except ValueError:
            raise SgfError(name, f"{TIME_PROPERTY}[{value}] is not a time in seconds") from None
    clock = None
    if time is not None:
        move_nodes = [n for n in main_line(data)[1:] if n.get("B") or n.get("W")]
        clock = _clock(time, move_nodes, game.to_move, name)
    return Resumed(game, record, moves, times, captured, data, clock)


def _clock(control: TimeControl, nodes: Sequence[NodeText], to_move: Color, name: str) -> Clock:
    """A clock under ``control``, each player's time as their last move's node left it."""
    clock = Clock(control, to_move=to_move)
    for color in (Color.BLACK, Color.WHITE):
        last = next((n for n in reversed(nodes) if n.get(color.letter)), None)
        if last is None or not last.get(f"{color.letter}L"):
            continue
        left, periods = last.get(f"{color.letter}L")[0], last.get(f"O{color.letter}")
        try:
            seconds = float(left)
            counted = int(periods[0]) if periods else None
        except ValueError:
            raise SgfError(name, f"{color.letter}L[{left!r}]: not a time left") from None
        if periods:  # in byo-yomi: the period starts again for the next move
            clock.left[color] = TimeLeft(0.0, counted, overtime=True)
        else:
            clock.left[color] = TimeLeft(seconds, control.periods or None)
    return clock


COUNTING_TEXT = "take the dead stones off, then press Done"
"""What the players hear after two passes (the terminal prints it as ``counting: ...``)."""


class Session:
    """Feeds the items of a source to the tracker and hands every output to every sink,
    with its time: a move's time is when its stone was first seen; anything else happens
    at the time of the latest reading.

    ``orientation`` (0, 90, 180 or 270) turns every reading that many degrees clockwise
    before the tracker sees it: the side of the camera's picture (or of the sensor board)
    where Black sits becomes the bottom, row 1. `orient` changes it during the game.

    ``takeback``: lifting the last stone played before the opponent answers takes the
    move back (a club game); when False such a lift is refused, announced, and the stone
    must be put back (a tournament).

    The referee's part beyond the tracker's: after two passes it says what to do (lift
    the dead stones, then Done) and, after each stone lifted, the score as it stands; a
    second pass is refused while the board does not match the game; corrections (`undo`,
    `set`, a take-back) are `kifu.corrections.Correction` outputs that every sink hears.
    """

    def __init__(self, tracker: Tracker, sinks: Sequence[Sink], orientation: int = 0, *,
                 takeback: bool = False) -> None:
        self.tracker = tracker
        self.sinks = list(sinks)
        self.orientation = check_rotation(orientation)
        self.takeback = takeback
        tracker.takebacks = takeback
        self.readings = 0
        self.outputs: list[Output] = []
        self.last_reading: Observation | None = None
        """The latest reading, turned to the orientation, before any correction."""
        self.overrides: dict[int, tuple[Cell, Cell]] = {}
        """Points whose reading is corrected (`set`): cell index -> (what the camera read
        there when corrected, what it is taken to be while it reads that)."""
        self._trouble = ""

    @property
    def game(self) -> Game:
        return self.tracker.game

    def _emit(self, items: Iterable[Output], move_time: float | None = None) -> None:
        for item in items:
            is_move = move_time is not None and isinstance(item, MovePlayed)
            t = move_time if is_move and move_time is not None else self.tracker.now
            self.outputs.append(item)
            if isinstance(item, Announcement) and item.kind not in _QUIET:
                self._trouble = item.text
            for sink in self.sinks:
                sink(item, t)

    def handle(self, item: Item) -> None:
        """One reading or command."""
        phase = self.game.phase
        if isinstance(item, Observation):
            self.readings += 1
            self.last_reading = rotate_observation(item, self.orientation)
            self._feed(self.last_reading)
        else:
            self._command(item)
        self._phase_changed(phase)

    def _command(self, item: Command) -> None:
        kind = item.kind
        if kind == "orient":
            assert item.degrees is not None
            self.orient(item.degrees)
        elif kind == "pass":
            self._pass(item.color)
        elif kind == "order":
            try:
                points = [Point.from_gtp(v, height=self.game.height, width=self.game.width)
                          for v in item.vertices]
            except ValueError as exc:
                self._emit([Announcement(Kind.REFUSED, f"order: {exc}")])
            else:
                self._emit(self.tracker.reorder(points))
        elif kind == "resign":
            self._emit(self.tracker.resign(item.color or self.game.to_move))
        elif kind == "undo":
            self._emit(self.undo())
        elif kind == "set":
            assert item.vertex is not None
            self.set_point(item.vertex, item.color)
        elif kind == "done":
            try:
                self._emit(self.tracker.finish())
            except ValueError as exc:
                self._emit([Announcement(Kind.REFUSED, f"cannot count yet: {exc}")])
        else:
            _unknown(kind)

    def announce(self, kind: Kind, text: str) -> None:
        """Say something that no reading or command made happen (the camera's warning
        that no board is found) to every sink."""
        self._emit([Announcement(kind, text)])

    def _feed(self, obs: Observation) -> None:
        tr = self.tracker
        outputs = tr.feed(self._corrected(obs))
        if len(outputs) == 1 and isinstance(outputs[0], Announcement):
            outputs = self._take_back(outputs[0]) or outputs
        self._emit(outputs, tr.state_time)

    def _pass(self, color: Color | None) -> None:
        """A pass; the second of two refused while the board does not match the game."""
        tr, game = self.tracker, self.game
        if game.phase is Phase.PLAY and game.consecutive_passes == 1 and (
                color is None or color is game.to_move):
            why = self._trouble if tr.troubled else ""
            if not why and tr.pending:
                pts = tr.lying()
                why = f"the captured stones at {' '.join(p.gtp() for p in pts)} are still on it"
            if why:
                self._emit([Announcement(
                    Kind.REFUSED, f"two passes end the game only when the board matches it; "
                    f"put the board right first: {why}")])
                return
        self._emit(tr.pass_(color))

    def _phase_changed(self, before: Phase) -> None:
        """Say what the counting phase asks of the players, and the score as it stands."""
        game = self.game
        if game.phase is not Phase.COUNTING:
            if before is Phase.COUNTING and game.phase is Phase.PLAY:
                self._emit([Announcement(
                    Kind.COUNTING, "play resumes; counting starts again after two passes")])
            return
        if before is not Phase.COUNTING:
            self._emit([Announcement(Kind.COUNTING, COUNTING_TEXT)])
        elif isinstance(self.outputs[-1], StonesRemoved):
            score = game.score()
            self._emit([Announcement(
                Kind.COUNTING, f"as it stands: Black {score.black.total:g}, White "
                f"{score.white.total:g} ({score.result()}); press Done when the dead stones "
                f"are off")])

    # -- corrections --------------------------------------------------------------------

    def _last_move(self) -> MovePlayed | Passed | None:
        """The last move or pass of the game, when this session saw it made."""
        for item in reversed(self.outputs):
            if isinstance(item, (MovePlayed, Passed)):
                return item if item.number == self.game.number else None
        return None

    def _take_back(self, said: Announcement) -> list[Output] | None:
        """The tracker's complaint about the board (a stone lifted but not captured, say),
        when the board shows the game as it was before the last move (its stone lifted,
        any stones it captured put back): a take-back, carried out if ``takeback`` allows
        it, refused otherwise. None for any other complaint."""
        last = self._last_move()
        game, seen = self.game, self.tracker.accepted
        if (said.kind in _QUIET or not self.tracker.troubled or not isinstance(last, MovePlayed)
                or game.phase is not Phase.PLAY or seen is None
                or seen[self.tracker.index(last.point)] != Cell.EMPTY):
            return None
        game.undo()
        before = game.position.cells
        if before != seen or not self.takeback:
            game.play(last.point, last.color)  # the move stands
        if before != seen:
            return None
        who = f"{_name(last.color)}'s {last.point.gtp()} (move {last.number})"
        if not self.takeback:
            again = (f" and take {' '.join(p.gtp() for p in last.captured)} off again"
                     if last.captured else "")
            return [Announcement(
                Kind.REFUSED, f"no take-backs in this game (--takeback refused): put {who} "
                f"back{again}", (last.point,))]
        tr = self.tracker
        tr.troubled = False
        tr.prune()
        return [correction("take-back", f"{who} taken back", last.number, last.color,
                           last.point)]

    def undo(self) -> list[Output]:
        """Take the last move or pass back in the record (``undo``). A stone of it still on
        the board is expected to be lifted (not read as a move again); stones it captured
        are back in the game and expected to be put back."""
        game, tr = self.game, self.tracker
        if game.phase is Phase.OVER or game.number == 0:
            why = "the game is over" if game.phase is Phase.OVER else "no move to take back"
            return [Announcement(Kind.REFUSED, f"cannot undo: {why}")]
        before = game.position
        number, color = game.number, game.last_to_play()
        try:
            game.undo()
        except RulesError as exc:
            return [Announcement(Kind.REFUSED, f"cannot undo: {exc}")]
        after = game.position
        lifted = [p for p in before.points() if before[p] is not None and after[p] is None]
        restored = [p for p in after.points() if after[p] is not None and before[p] is None]
        tr.prune()
        seen = tr.accepted
        todo = []
        for p in lifted:
            i = tr.index(p)
            stone = Cell.of(before[p])
            if seen is not None and seen[i] == stone:
                tr.pending[i] = stone
                todo.append(f"take {p.gtp()} off the board")
        if restored:
            todo.append(f"put {' '.join(p.gtp() for p in restored)} back")
        if todo:
            tr.troubled = True
        point = lifted[0] if lifted else None
        who = f"{_name(color)}'s" if color else "the"
        text = f"{who} {point.gtp() if point else 'pass'} (move {number}) taken back"
        return [correction("undo", text + (": " + " and ".join(todo) if todo else ""), number,
                           color, point)]

    def set_point(self, vertex: str, color: Color | None) -> None:
        """Correct the camera's reading of ``vertex`` to a stone of ``color`` (None:
        empty) for as long as the camera goes on reading there what it reads now; the
        latest reading is judged again with it."""
        game = self.game
        try:
            p = Point.from_gtp(vertex, height=game.height, width=game.width)
        except CoordinateError as exc:
            self._emit([Announcement(Kind.REFUSED, f"cannot set {vertex}: {exc}")])
            return
        last = self.last_reading
        if last is None:
            self._emit([Announcement(Kind.REFUSED, f"cannot set {p.gtp()}: nothing read yet")])
            return
        i = self.tracker.index(p)
        read = last.cell(p)
        wanted = Cell.of(color)
        said = {Cell.EMPTY: "empty", Cell.BLACK: "black", Cell.WHITE: "white",
                Cell.UNKNOWN: "unreadable"}
        if read is Cell.UNKNOWN:
            self._emit([Announcement(
                Kind.REFUSED, f"cannot set {p.gtp()}: the camera cannot see it now (a hand?)",
                (p,))])
            return
        self.overrides[i] = (read, wanted)
        self._emit([correction(
            "set", f"{p.gtp()} set to {said[wanted]} (the camera read it {said[read]})",
            color=color, point=p)])
        self._feed(dataclasses.replace(last, time=self.tracker.now))

    def _corrected(self, obs: Observation) -> Observation:
        """The reading with the corrected points as set, for as long as the camera reads
        there what it read when they were set; a correction ends once it reads otherwise."""
        if not self.overrides:
            return obs
        cells = list(obs.cells)
        for i, (read, wanted) in list(self.overrides.items()):
            if cells[i] == read:
                cells[i] = wanted
            elif cells[i] != Cell.UNKNOWN:
                del self.overrides[i]
        return dataclasses.replace(obs, cells=tuple(cells))

    def orient(self, degrees: int) -> None:
        """Read the board turned ``degrees`` clockwise from now on. When that differs from
        the orientation so far, the game recorded so far is turned by the difference (a
        turn maps a legal game to the same game on the turned board), so that it still
        lies where the readings show it. The sinks hear an `Oriented` either way: the
        SGF writer turns its record, the display its board. Corrected readings are
        forgotten."""
        turn = (check_rotation(degrees) - self.orientation) % 360
        game = self.game
        width, height = game.width, game.height
        if turn:
            self.tracker.turn(turn)
            self.overrides.clear()
            self.last_reading = None
        self.orientation = degrees
        self._emit([Oriented(degrees, turn, width, height, game.number)])

    def run(self, source: Iterable[Item], commands: queue.Queue[Command] | None = None,
            stop: threading.Event | None = None) -> Game:
        """Handle every item of ``source`` (and any command waiting on ``commands`` before
        each one) until it ends, the game is over or ``stop`` is set; then `close`."""
        for item in source:
            while commands is not None and not commands.empty():
                self.handle(commands.get_nowait())
            self.handle(item)
            if self.game.phase is Phase.OVER or (stop is not None and stop.is_set()):
                break
        while commands is not None and not commands.empty():
            self.handle(commands.get_nowait())
        self.close()
        return self.game

    def close(self) -> None:
        """The source has ended: a game this session brought to its counting phase is
        counted now (a resumed record that already ended in two passes is left as it was:
        nobody said to count it)."""
        if self.game.phase is Phase.COUNTING and any(isinstance(o, Passed) for o in self.outputs):
            self._emit(self.tracker.finish())


_QUIET = (Kind.RESYNC, Kind.COUNTING, Kind.CORRECTION, Kind.REFUSED, Kind.WAITING_FOR_REMOVAL,
          Kind.NO_BOARD)
"""Announcements that are not a complaint about the board."""


def _name(color: Color) -> str:
    return "Black" if color is Color.BLACK else "White"


def hidden(width: int, height: int, time: float, source: str = "") -> Observation:
    """A reading in which nothing could be seen (no board found: a hand, a bumped camera)."""
    return Observation(width, height, (Cell.UNKNOWN,) * (width * height), time=time,
                       source=source)
