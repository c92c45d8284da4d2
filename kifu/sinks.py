"""Sinks: where a session's outputs go. Each sink is called with every output (a rules
event, a `SetupStones`, an `Announcement`) and the time it happened, in the same order.

* `SgfWriter` keeps the game record and rewrites the SGF file atomically after every
  output that changes it (a turn of the orientation turns the whole record), so a crash
  or a power cut loses nothing. Each move node carries
  the time it was seen, in seconds on the source's clock, as the custom property ``KT``
  ("kifu time"): ``;B[pd]KT[12.40]``.
* `TerminalAnnouncer` prints one line per output, as text or as JSON.
* `SpokenAnnouncer` speaks what players should hear (``--speak``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from rules import Color, Game, MovePlayed, Passed, Point, Resigned, Score
from rules.rotation import rotate_point

from . import replay as rp
from .announce import Speaker, announce
from .sgf import Setup, serialise, write_atomically
from .tracker import Announcement, Oriented, Output, Reordered, SetupStones

TIME_PROPERTY = "KT"
"""The SGF property that holds the time a move was seen."""


class Sink(Protocol):
    """Anything that takes a session's outputs."""

    def __call__(self, item: Output, time: float) -> None: ...


class SgfWriter:
    """The game record on disk, rewritten atomically after every change.

    ``moves`` and ``times`` are the moves already played (a resumed game) and when;
    ``properties`` the root's text properties (PB, PW, DT, ...); ``setup`` its setup
    stones. The file is written at once, so an empty game exists on disk from the start.
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
    ) -> None:
        self.path = Path(path)
        self.game = game
        self.properties = dict(properties or {})
        self.setup = setup
        self.moves: list[tuple[Color, Point | None]] = list(moves)
        self.times: list[float | None] = list(times) + [None] * (len(moves) - len(times))
        self.writes = 0
        self.write()

    def __call__(self, item: Output, time: float) -> None:
        """Take an output; rewrite the file if it changed the record."""
        if isinstance(item, Announcement) or (isinstance(item, Oriented) and not item.turn):
            return
        if isinstance(item, Oriented):
            self.turn(item.turn, item.width, item.height)
        elif isinstance(item, MovePlayed):
            self.moves.append((item.color, item.point))
            self.times.append(time)
        elif isinstance(item, Passed):
            self.moves.append((item.color, None))
            self.times.append(time)
        elif isinstance(item, Reordered):  # the same moves, at the same times, re-ordered
            del self.moves[len(self.moves) - len(item.moves):]
            self.moves += [(m.color, m.point) for m in item.moves]
        elif isinstance(item, SetupStones):
            self.setup = Setup(
                black=self.setup.black + item.black, white=self.setup.white + item.white,
                to_move=self.game.to_move,
            )
        elif isinstance(item, Resigned):
            self.properties["RE"] = f"{item.color.opponent.letter}+R"
        elif isinstance(item, Score):
            self.properties["RE"] = item.result()
        self.write()

    def turn(self, degrees: int, width: int, height: int) -> None:
        """Turn the record's stones and moves ``degrees`` clockwise on their ``width`` x
        ``height`` board (the game itself was turned the same way: see `Session.orient`)."""

        def turned(points: tuple[Point, ...]) -> tuple[Point, ...]:
            return tuple(rotate_point(p, width, height, degrees) for p in points)

        self.moves = [(c, None if p is None else rotate_point(p, width, height, degrees))
                      for c, p in self.moves]
        s = self.setup
        self.setup = Setup(turned(s.black), turned(s.white), turned(s.empty), s.to_move)

    def data(self) -> bytes:
        """The record as SGF bytes."""
        return serialise(
            self.game, self.moves, setup=self.setup, properties=self.properties,
            move_properties=[{} if t is None else {TIME_PROPERTY: f"{t:.2f}"} for t in self.times],
        )

    def write(self) -> None:
        """Replace the file with the record as it stands (kept in ``written``)."""
        self.written = self.data()
        write_atomically(self.path, self.written)
        self.writes += 1


def _json(item: Output) -> dict[str, Any]:
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
            d = _json(item)
            d["time"] = round(time, 3)
            print(json.dumps(d), file=out, flush=True)
        else:
            print(text(item), file=out, flush=True)


class SpokenAnnouncer:
    """Speaks each output a player should hear, in plain English: the rules' events as
    `kifu.announce` words them, and the tracker's announcements as they are written."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker

    def __call__(self, item: Output, time: float) -> None:
        if isinstance(item, (Announcement, Oriented)):
            self.speaker.say(item.text)
        elif isinstance(item, Reordered):
            self.speaker.say(item.line())
        elif not isinstance(item, SetupStones):
            sentence = announce(item)
            if sentence:
                self.speaker.say(sentence)
