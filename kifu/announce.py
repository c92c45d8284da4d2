"""What the referee says: plain English for the events of a game, printed and spoken.

    >>> from rules import Color, MovePlayed, Point
    >>> announce(MovePlayed(12, Color.WHITE, Point(4, 4), (Point(3, 3), Point(3, 4))))
    'White captures two stones at D4 and D5'

`announce` is pure: an event in, a sentence out (None for an event worth no words, such as a
move that captures nothing); `spoken` turns the vertices of a sentence into words for
speech ("D4" as "dee four"). `Speaker` reads sentences aloud with espeak-ng in a thread of
its own, so that a slow or missing speech program never holds up the game.
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TextIO

from rules import (
    Color, Event, GameEnded, IllegalMove, MovePlayed, Passed, Point, Reason, Resigned, Score,
    StonesRemoved,
)

_NUMBERS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)


def name(color: Color) -> str:
    """``"Black"`` or ``"White"``."""
    return "Black" if color is Color.BLACK else "White"


def count(n: int, noun: str) -> str:
    """``count(2, "stone")`` is ``"two stones"``; numbers past twenty stay in digits."""
    word = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{word} {noun}{'' if n == 1 else 's'}"


def vertices(points: Sequence[Point]) -> str:
    """GTP vertices joined as English: ``D4``, ``D4 and D5``, ``C3, D4 and D5``."""
    names = [p.gtp() for p in points]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def points_text(x: float) -> str:
    """A score margin in words a speech program reads well: ``half a point``, ``3.5 points``."""
    if x == 0.5:
        return "half a point"
    if x == 1:
        return "one point"
    return f"{x:g} points"


def announce(event: Event) -> str | None:
    """The sentence for an event, or None when it deserves none (a quiet move).

    Captures, suicides, refused moves (ko first among them), passes, resignations, dead
    stones, the end of the game and the score are announced. Vertices are in GTP form.
    """
    if isinstance(event, MovePlayed):
        who = name(event.color)
        if event.captured:
            n = len(event.captured)
            what = "a stone" if n == 1 else count(n, "stone")
            return f"{who} captures {what} at {vertices(event.captured)}"
        if event.suicided:
            n = len(event.suicided)
            return (f"{who} plays {event.point.gtp()}: suicide, "
                    f"{'one stone' if n == 1 else count(n, 'stone')} removed at "
                    f"{vertices(event.suicided)}")
        return None
    if isinstance(event, IllegalMove):
        return _illegal(event)
    if isinstance(event, Passed):
        return f"{name(event.color)} passes"
    if isinstance(event, Resigned):
        return f"{name(event.color)} resigns"
    if isinstance(event, StonesRemoved):
        if not event.points:
            return None
        n = len(event.points)
        if event.dead:
            return f"{count(n, 'stone').capitalize()} marked dead at {vertices(event.points)}"
        return f"{count(n, 'stone').capitalize()} alive again at {vertices(event.points)}"
    if isinstance(event, GameEnded):
        if event.how == "resignation" and event.winner is not None:
            return f"Game over: {name(event.winner)} wins by resignation"
        if event.how == "passes":
            return "Both players have passed: the game is over"
        return "The game is over"
    if isinstance(event, Score):
        b, w = event.black.total, event.white.total
        head = f"Black {b:g}, White {w:g}"
        if event.winner is None:
            return f"{head}: a draw"
        return f"{head}: {name(event.winner)} wins by {points_text(event.margin)}"
    raise TypeError(f"not an event: {event!r}")


def _illegal(event: IllegalMove) -> str:
    who = name(event.color)
    at = "pass" if event.point is None else event.point.gtp()
    r = event.reason
    if r is Reason.KO:
        return f"Ko: {who} may not retake at {at} yet"
    if r in (Reason.POSITIONAL_SUPERKO, Reason.SITUATIONAL_SUPERKO):
        return f"Superko: {who} may not play {at}, it repeats an earlier position"
    if r is Reason.OCCUPIED:
        return f"Illegal: {at} is already occupied"
    if r is Reason.SUICIDE:
        return f"Illegal: {who} at {at} would be suicide"
    if r is Reason.WRONG_TURN:
        return f"Wrong turn: it is {name(event.color.opponent)}'s move, not {who}'s"
    if r is Reason.OFF_BOARD:
        return f"Illegal: {at} is off the board"
    if r is Reason.GAME_OVER:
        return f"The game is over: {who}'s {'pass' if event.point is None else 'move at ' + at} does not count"
    return f"Illegal move by {who} at {at}: {r.value}"


def kind(event: Event) -> str:
    """A one-word class for an announced event, for a page to style it: ``capture``,
    ``ko``, ``illegal``, ``pass``, ``resign``, ``dead``, ``end`` or ``score``."""
    if isinstance(event, MovePlayed):
        return "capture"
    if isinstance(event, IllegalMove):
        return "ko" if event.reason is Reason.KO else "illegal"
    if isinstance(event, Passed):
        return "pass"
    if isinstance(event, Resigned):
        return "resign"
    if isinstance(event, StonesRemoved):
        return "dead"
    if isinstance(event, GameEnded):
        return "end"
    if isinstance(event, Score):
        return "score"
    raise TypeError(f"not an event: {event!r}")


_LETTERS = dict(zip(
    "ABCDEFGHJKLMNOPQRSTUVWXYZ",
    ("ay", "bee", "see", "dee", "ee", "eff", "jee", "aitch", "jay", "kay", "el", "em", "en",
     "oh", "pee", "cue", "ar", "ess", "tee", "you", "vee", "double-you", "ex", "why", "zed"),
))
_VERTEX = re.compile(r"\b([A-HJ-Z])([1-9][0-9]?)\b")


def number_words(n: int) -> str:
    """``4`` as ``"four"``, up to 25 (a board's rows); larger numbers stay in digits."""
    if 0 < n <= 20:
        return _NUMBERS[n]
    if 20 < n <= 25:
        return f"twenty-{_NUMBERS[n - 20]}"
    return str(n)


def spoken_vertex(point: Point) -> str:
    """A point as people say it: D4 as ``"dee four"``, Q16 as ``"cue sixteen"``."""
    v = point.gtp()
    return f"{_LETTERS[v[0]]} {number_words(int(v[1:]))}"


def spoken(text: str) -> str:
    """A sentence as a speech program should read it: every GTP vertex in words
    (``"Black captures a stone at D4"`` → ``"... at dee four"``)."""
    return _VERTEX.sub(lambda m: f"{_LETTERS[m.group(1)]} {number_words(int(m.group(2)))}",
                       text)


def spoken_move(event: MovePlayed | Passed) -> str:
    """A move read out, as ``--speak moves`` says it: ``"Black dee four"``."""
    if isinstance(event, Passed):
        return f"{name(event.color)} passes"
    return f"{name(event.color)} {spoken_vertex(event.point)}"


def speech_command() -> list[str] | None:
    """The command that speaks a sentence given as its last argument: espeak-ng (or
    espeak) where installed, else None."""
    for program in ("espeak-ng", "espeak"):
        path = shutil.which(program)
        if path:
            return [path]
    return None


class Speaker:
    """Speaks sentences one after another in a background thread.

    `say` returns at once. When sentences come faster than they can be spoken, the oldest
    waiting ones are dropped (a stale "Black captures" helps nobody); at most ``backlog``
    wait. ``command`` is the program and its options; the sentence is appended as the last
    argument.
    """

    def __init__(self, command: Sequence[str], backlog: int = 3,
                 run: Callable[[list[str]], object] | None = None) -> None:
        if not command:
            raise ValueError("Speaker needs a command, e.g. ['espeak-ng']")
        self.command = list(command)
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=backlog)
        self._run = run or self._subprocess
        self._thread = threading.Thread(target=self._work, name="kifu-speaker", daemon=True)
        self._thread.start()

    @staticmethod
    def _subprocess(argv: list[str]) -> object:
        return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=30, check=False)

    def say(self, text: str) -> None:
        """Queue ``text`` to be spoken; never blocks."""
        while True:
            try:
                self._queue.put_nowait(text)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    pass

    def _work(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                self._run(self.command + [text])
            except (OSError, subprocess.SubprocessError) as exc:
                print(f"kifu: speech failed: {exc}", file=sys.stderr)

    def close(self, timeout: float = 5.0) -> None:
        """Let the sentences already queued be spoken, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout)


class Announcer:
    """A sink for events: prints each announcement (to ``out``, unless ``echo`` is False)
    and speaks it when a `Speaker` is given. ``prefix`` starts each printed line."""

    def __init__(self, out: TextIO | None = None, speaker: Speaker | None = None,
                 prefix: str = "", echo: bool = True) -> None:
        self.out = out if out is not None else sys.stdout
        self.speaker = speaker
        self.prefix = prefix
        self.echo = echo

    def __call__(self, event: Event) -> str | None:
        """Announce ``event``; returns the sentence (None when there was nothing to say)."""
        text = announce(event)
        if text is not None:
            self.say(text)
        return text

    def say(self, text: str) -> None:
        """Print and speak a sentence."""
        if self.echo:
            print(f"{self.prefix}{text}", file=self.out, flush=True)
        if self.speaker is not None:
            self.speaker.say(text)
