"""Sinks: where a session's outputs go. Each sink is called with every output (a rules
event, a `SetupStones`, an `Announcement`) and the time it happened, in the same order.

* `SgfWriter` keeps the game record and rewrites the SGF file atomically after every
  output that changes it (a turn of the orientation turns the whole record), so a crash
  or a power cut loses nothing; a resumed record keeps every byte it was read with. Each
  move node carries
  the time it was seen, in seconds on the source's clock, as the custom property ``KT``
  ("kifu time"): ``;B[pd]KT[12.40]``. The root keeps the orientation the board is read
  in, where not 0, as ``KR`` ("kifu rotation"): ``KR[90]``.
* `TerminalAnnouncer` prints one line per output, as text or as JSON.
* `SpokenAnnouncer` speaks what players should hear (``--speak``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from rules import Color, Game, IllegalMove, MovePlayed, Passed, Point, Resigned, Score
from rules.rotation import rotate_point

from . import replay as rp
from .announce import Speaker, announce, spoken, spoken_move
from .clock import Clock
from .corrections import Correction, comment
from .sgf import DEAD_PROPERTY, ORIENTATION_PROPERTY, TIME_PROPERTY, Setup, serialise
from .sgf import write_atomically
from .sgf_text import RecordText, escape, main_line, rotate
from .tracker import Announcement, Oriented, Output, Reordered, SetupStones

class Sink(Protocol):
    """Anything that takes a session's outputs."""

    def __call__(self, item: Output, time: float) -> None: ...


class SgfWriter:
    """The game record on disk, rewritten atomically after every change.

    A new record: ``moves`` and ``times`` are the moves already played and when;
    ``properties`` the root's text properties (PB, PW, DT, ...); ``setup`` its setup stones.
    A resumed one: ``record`` is the file's bytes, kept as they are (comments, variations,
    unknown properties, names in any encoding), the moves played added at the main line's
    end, and ``properties`` the root properties this session decided (names given, another
    komi) set on its root; ``setup`` is its root's setup. Adding a move costs that move's
    bytes, not the record's: see `kifu.sgf_text.RecordText`.

    With a ``clock``, each move node also has the time its player had left (``BL``/``WL``;
    in byo-yomi, of the period, with ``OB``/``OW`` the periods left), and the root the
    time control (``TM``, ``OT``). At the count, the last node gets the territory
    (``TB``/``TW``) and the stones counted dead (``KD``), the root the result (``RE``).
    ``orientation`` is how the board is read (`kifu.session.Session`'s): kept on the root
    as ``KR`` where not 0, and changed there when the session turns it.
    The file is written at once, so the record exists on disk from the start. ``moves``
    lists the moves of this record that the writer was given or heard.
    """

    def __init__(
        self,
        path: str | Path,
        game: Game,
        *,
        properties: dict[str, str] | None = None,
        setup: Setup = Setup(),
        moves: Sequence[tuple[Color, Point | None]] = (),
        times: Sequence[float | None] = (),
        record: bytes | None = None,
        clock: Clock | None = None,
        orientation: int = 0,
    ) -> None:
        self.path = Path(path)
        self.game = game
        self.setup = setup
        self.clock = clock
        self.moves: list[tuple[Color, Point | None]] = list(moves)
        self.writes = 0
        resumed = record is not None
        if record is None:
            timed = list(times) + [None] * (len(moves) - len(times))
            record = serialise(
                game, self.moves, setup=setup, properties=properties,
                move_properties=[{} if t is None else {TIME_PROPERTY: f"{t:.2f}"} for t in timed],
            )
            properties = {}
        self.text = RecordText(record)
        for key, value in (properties or {}).items():
            self.text.set_root(key, [escape(value, self.text.encoding)])
        if clock is not None:
            self.text.set_root("TM", [f"{clock.control.main:g}".encode()])
            if clock.control.overtime:
                self.text.set_root("OT", [escape(clock.control.overtime)])
        if orientation or resumed:  # (a resumed record may say another)
            self.orient(orientation)
        self.write()

    def __call__(self, item: Output, time: float) -> None:
        """Take an output; rewrite the file if it changed the record."""
        if isinstance(item, Correction):
            self.correct(item, time)
        elif isinstance(item, Announcement) or (isinstance(item, Oriented) and not item.turn):
            return
        if isinstance(item, Oriented):
            self.turn(item.turn, item.width, item.height)
            self.orient(item.orientation)
        elif isinstance(item, (MovePlayed, Passed)):
            self.add_move(item.color, item.point if isinstance(item, MovePlayed) else None, time)
        elif isinstance(item, Reordered):  # the same moves, at the same times, re-ordered
            self.reorder(item)
        elif isinstance(item, SetupStones):
            self.setup = Setup(
                black=self.setup.black + item.black, white=self.setup.white + item.white,
                to_move=self.game.to_move,
            )
            h = self.game.height
            self.text.set_root("AB", [_sgf_point(p, h) for p in self.setup.black] or None)
            self.text.set_root("AW", [_sgf_point(p, h) for p in self.setup.white] or None)
            self.text.set_root("PL", [self.game.to_move.letter.encode()])
            if self.game.handicap_stones:
                self.text.set_root("HA", [str(self.game.handicap_stones).encode()])
        elif isinstance(item, IllegalMove) and item.counted_as_pass:
            self.illegal_as_pass(item, time)
        elif isinstance(item, Resigned):
            self._stop(time)
            self.text.set_root("RE", [f"{item.color.opponent.letter}+R".encode()])
        elif isinstance(item, Score):
            self._stop(time)
            self.count(item)
        self.write()

    def correct(self, item: Correction, time: float) -> None:
        """Keep a correction as a comment on its node (a move taken back goes, its
        comment then on the node now last), then rewrite the file."""
        if item.takes_back and self.moves:
            self.take_back()
        self.note(comment(item, time))
        self.write()

    def add_move(self, color: Color, point: Point | None, time: float | None) -> None:
        """Add a move (``point`` None: a pass) seen at ``time`` to the main line."""
        self.moves.append((color, point))
        node = b";" + color.letter.encode() + b"[" + (
            b"" if point is None else _sgf_point(point, self.game.height)) + b"]"
        if time is not None:
            node += f"{TIME_PROPERTY}[{time:.2f}]".encode()
        if self.clock is not None and time is not None:
            left = self.clock.moved(color, time)
            node += f"{color.letter}L[{left.seconds:.1f}]".encode()
            if left.overtime:  # (as KGS writes it: periods are said once in byo-yomi)
                node += f"O{color.letter}[{left.periods}]".encode()
        self.text.append(node)

    def illegal_as_pass(self, item: IllegalMove, time: float | None) -> None:
        """An illegal move counted as a pass (AGA rule 8): a pass node (any earlier move
        taken back with it goes first), commented ``illegal B D4 (ko): counted as a pass``,
        so that every reader sees the board as it stands and `kifu.session.resume` reads a
        pass."""
        if item.taken_back is not None and self.moves:
            self.take_back()
        self.add_move(item.color, None, time)
        where = "pass" if item.point is None else item.point.gtp()
        self.note(f"illegal {item.color.letter} {where} ({item.reason.value}): counted as a "
                  f"pass (AGA rule 8)")

    def reorder(self, item: Reordered) -> None:
        """The last ``len(item.moves)`` moves replaced by ``item.moves``: each node keeps
        its time and clock, only the stone it records changes."""
        k = len(item.moves)
        nodes = [self.text.pop() for _ in range(k)][::-1]
        del self.moves[len(self.moves) - k:]
        h = self.game.height
        for node, move in zip(nodes, item.moves):
            stone = move.color.letter.encode() + b"[" + (
                b"" if move.point is None else _sgf_point(move.point, h)) + b"]"
            self.text.append(_MOVE.sub(lambda _: stone, node, count=1))
            self.moves.append((move.color, move.point))

    def count(self, score: Score) -> None:
        """The count: the result on the root; the territory and the dead stones on the
        last node."""
        h = self.game.height
        self.text.set_root("RE", [score.result().encode()])
        for ident, points in (("TB", score.territory[0]), ("TW", score.territory[1]),
                              (DEAD_PROPERTY, score.dead_stones)):
            if points:
                self.text.set_last(ident, [_sgf_point(p, h) for p in points])

    def note(self, text: str) -> None:
        """Add ``text`` to the comment of the main line's last node (after any comment
        it has): a correction, say, where it happened."""
        self._note(escape(text, self.text.encoding))

    def _note(self, value: bytes) -> None:
        old = b"\n".join(self.text.last("C"))
        self.text.set_last("C", [old + b"\n" + value if old else value])

    def take_back(self) -> None:
        """Take the last move (or pass) out of the record, a resumed record's own too;
        its node's comment goes to the node now last. ValueError when the record has no
        move to take back."""
        node = self.text.pop()
        if self.moves:
            self.moves.pop()
        for comment in main_line(b"(" + node + b")")[0].get("C"):
            self._note(comment)

    def _stop(self, time: float) -> None:
        if self.clock is not None:
            self.clock.stop(time)

    def turn(self, degrees: int, width: int, height: int) -> None:
        """Turn the record's stones and moves ``degrees`` clockwise on their ``width`` x
        ``height`` board (the game itself was turned the same way: see `Session.orient`)."""

        def turned(points: tuple[Point, ...]) -> tuple[Point, ...]:
            return tuple(rotate_point(p, width, height, degrees) for p in points)

        if width != height:
            raise ValueError("SGF records of rectangular boards are not supported by sgfmill")
        self.moves = [(c, None if p is None else rotate_point(p, width, height, degrees))
                      for c, p in self.moves]
        s = self.setup
        self.setup = Setup(turned(s.black), turned(s.white), turned(s.empty), s.to_move)
        self.text = RecordText(rotate(self.text.render(), degrees, width))

    def orient(self, degrees: int) -> None:
        """Keep ``degrees``, the orientation the board is read in, on the root (``KR``;
        none for 0)."""
        self.text.set_root(ORIENTATION_PROPERTY, [str(degrees).encode()] if degrees else None)

    def data(self) -> bytes:
        """The record as SGF bytes."""
        return self.text.render()

    def write(self) -> None:
        """Replace the file with the record as it stands (kept in ``written``)."""
        self.written = self.data()
        write_atomically(self.path, self.written)
        self.writes += 1


_MOVE = re.compile(rb"(?<![A-Z])[BW]\[[a-z]{0,2}\]")
"""A node's move property: ``B[pd]``, ``W[]``."""


def _sgf_point(p: Point, height: int) -> bytes:
    return bytes((97 + p.x, 97 + height - 1 - p.y))


def event_json(item: Output) -> dict[str, Any]:
    """The output as one JSON object, as ``--json`` prints it (without its time)."""
    if isinstance(item, Correction):
        return {"event": "correction", "action": item.action, "number": item.number,
                "color": item.color.letter if item.color else None,
                "points": [p.gtp() for p in item.points], "text": item.text}
    if isinstance(item, Announcement):
        d: dict[str, Any] = {
            "event": "announcement", "kind": item.kind.value, "text": item.text,
            "points": [p.gtp() for p in item.points],
        }
        if item.reason is not None:
            d["reason"] = item.reason.value
        return d
    if isinstance(item, SetupStones):
        return {"event": "setup", "black": [p.gtp() for p in item.black],
                "white": [p.gtp() for p in item.white]}
    if isinstance(item, Reordered):
        return {"event": "reordered", "moves": [rp.to_json(m) for m in item.moves],
                "text": item.line()}
    if isinstance(item, Oriented):
        return {"event": "orientation", "orientation": item.orientation, "turn": item.turn,
                "moves": item.moves, "text": item.text}
    return rp.to_json(item)


def text(item: Output) -> str:
    """One line for a person."""
    if isinstance(item, Announcement):
        return f"  !  {item.kind.value}: {item.text}"
    if isinstance(item, Oriented):
        return f"  !  orientation: {item.text}"
    if isinstance(item, Reordered):
        return f"  !  {item.line()}"
    if isinstance(item, SetupStones):
        parts = [f"{len(item.black)} black"] if item.black else []
        parts += [f"{len(item.white)} white"] if item.white else []
        pts = " ".join(p.gtp() for p in item.black + item.white)
        plural = "s" * (len(item.black + item.white) > 1)
        return f"setup: {' and '.join(parts)} stone{plural}: {pts}"
    return rp.to_text(item)


class TerminalAnnouncer:
    """Prints each output as it happens: a line of text, or a JSON object per line."""

    def __init__(self, stream: TextIO | None = None, *, as_json: bool = False) -> None:
        self.stream = stream
        self.as_json = as_json

    def __call__(self, item: Output, time: float) -> None:
        out = self.stream or sys.stdout
        if self.as_json:
            d = event_json(item)
            d["time"] = round(time, 3)
            print(json.dumps(d), file=out, flush=True)
        else:
            print(text(item), file=out, flush=True)


class SpokenAnnouncer:
    """Speaks each output a player should hear, in plain English: the rules' events as
    `kifu.announce` words them, and the tracker's announcements as they are written, the
    points in words ("dee four")."""

    def __init__(self, speaker: Speaker, *, moves: bool = False) -> None:
        self.speaker = speaker
        self.moves = moves
        """Read every move out too (``--speak moves``), not only what is announced."""

    def __call__(self, item: Output, time: float) -> None:
        if isinstance(item, (Announcement, Oriented)):
            self.speaker.say(spoken(item.text))
        elif isinstance(item, Reordered):
            self.speaker.say(spoken(item.line()))
        elif not isinstance(item, SetupStones):
            sentence = announce(item)
            if self.moves and isinstance(item, (MovePlayed, Passed)) and not (
                    isinstance(item, Passed) and sentence):
                self.speaker.say(spoken_move(item))
            if sentence:
                self.speaker.say(spoken(sentence))
