"""Following an SGF file that another program rewrites as its game goes on.

`SgfFollower.poll` looks at the file's modification time and size; when they changed it
reads the record, replays it through the referee and updates its `LiveBoard`: the new
events are announced (captures, ko, passes ...), the stones shown as the record has them.
A record that is caught half-written (unreadable) leaves the board as it was until the
next poll. A record that no longer extends what was shown (a take-back, a new game) resets
the board.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from rules import Event, Game, Phase, preset

from .. import replay as rp
from ..sgf import Record, SgfError, parse, rules_for
from .state import LiveBoard


class SgfFollower:
    """Keeps ``board`` showing the game in the SGF file at ``path``.

    ``rules`` names a preset (default: the record's ``RU``, else chinese). ``warn`` gets a
    line when the file cannot be read (once per distinct fault).
    """

    def __init__(self, path: str | os.PathLike[str], board: LiveBoard, rules: str | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self.board = board
        self.rules = rules
        self.warn = warn or (lambda line: print(f"kifu: {line}", file=sys.stderr))
        self._stamp: tuple[int, int] | None = None
        self._events: list[Event] = []
        self._shown = False
        self._last_fault: str | None = None

    def poll(self) -> bool:
        """Read the file again if it changed; True when the board was updated."""
        try:
            st = self.path.stat()
        except OSError as exc:
            self._fault(f"{self.path}: {exc.strerror or exc}")
            return False
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp == self._stamp:
            return False
        try:
            data = self.path.read_bytes()
            record = parse(data, str(self.path))
            game, events = self._replay(record)
        except OSError as exc:
            self._fault(f"{self.path}: {exc.strerror or exc}")
            return False
        except (SgfError, ValueError) as exc:
            self._fault(str(exc))
            return False  # try again on the next change, or the next poll if unchanged
        self._stamp = stamp
        self._last_fault = None
        self._show(record, data, game, events)
        return True

    def _replay(self, record: Record) -> tuple[Game, list[Event]]:
        game = rp.start(record, preset(self.rules or rules_for(record)))
        events = list(rp.replay(game, record.nodes))
        if record.ends_with_two_passes():
            events += rp.score_events(game, record.counted_dead(game.position))
        return game, events

    def _show(self, record: Record, data: bytes, game: Game, events: list[Event]) -> None:
        b = self.board
        props = record.properties
        b.describe(
            title=props.get("GN") or props.get("EV") or self.path.stem,
            players=(props.get("PB", "Black"), props.get("PW", "White")),
        )
        b.set_sgf(data)
        old = self._events
        if self._shown and events[: len(old)] == old:
            b.update(game, *events[len(old):])
        else:
            # First sight of the record, or a different one: show it without reading
            # its whole history aloud, but keep the effect of its last events.
            b.update(game, *events, announce=False, reset=True)
        if game.phase is not Phase.OVER and props.get("RE"):
            b.describe(result=props["RE"])
        self._events = events
        self._shown = True

    def _fault(self, text: str) -> None:
        if text != self._last_fault:
            self._last_fault = text
            self.warn(text)


def board_ids(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """Board ids for files: their stems made safe (``game-1``), numbered when two clash."""
    ids: list[str] = []
    for p in paths:
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in Path(p).stem) or "board"
        candidate, n = stem, 2
        while candidate in ids:
            candidate, n = f"{stem}-{n}", n + 1
        ids.append(candidate)
    return ids


def follow(followers: Sequence[SgfFollower], stop: threading.Event, interval: float = 0.25) -> None:
    """Poll the files every ``interval`` seconds until ``stop`` is set."""
    while not stop.is_set():
        for f in followers:
            f.poll()
        stop.wait(interval)
