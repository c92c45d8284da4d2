"""Game clocks: a time control (``--time 60m+3x30s`` byo-yomi, ``--time 30m+20s`` Fischer,
``--time 90m`` absolute) and each player's time left, counted from the moments the moves
were seen.

    >>> from rules import Color
    >>> clock = Clock(TimeControl.parse("1m+2x10s"))
    >>> clock.moved(Color.BLACK, 50.0)     # Black thought 50 s
    TimeLeft(seconds=10.0, periods=2, overtime=False, expired=False)
    >>> clock.moved(Color.WHITE, 55.0)     # White 5 s
    TimeLeft(seconds=55.0, periods=2, overtime=False, expired=False)
    >>> clock.moved(Color.BLACK, 78.0)     # Black 23 s: 10 s of main time, then 13 s of
    ...                                    # byo-yomi: one period used up, 7 s left of the next
    TimeLeft(seconds=7.0, periods=1, overtime=True, expired=False)
    >>> clock.reading(80.0).white          # White's clock has run 2 s since
    TimeLeft(seconds=53.0, periods=2, overtime=False, expired=False)

Pure logic: the times are the source's seconds, given by the caller.
"""

from __future__ import annotations

import dataclasses
import math
import re

from rules import Color

_PART = re.compile(r"(\d+(?:\.\d+)?)(h|m|s)?")
_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0}


def _seconds(text: str, spec: str, unit: str) -> float:
    """``text`` (``60m``, ``30s``, ``1h``; a bare number is in ``unit``) in seconds."""
    m = _PART.fullmatch(text)
    if not m:
        raise ValueError(f"--time {spec}: cannot read {text!r} as a time (e.g. 60m, 30s, 1h)")
    return float(m.group(1)) * _UNITS[m.group(2) or unit]


def _text(seconds: float) -> str:
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g}{unit}"
    return f"{seconds:g}s"


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """Each player's ``main`` time in seconds, then either ``periods`` byo-yomi periods of
    ``period`` seconds (a move within a period keeps it; a period that runs out is lost),
    or an ``increment`` added after each move (Fischer), or neither (absolute time)."""

    main: float
    periods: int = 0
    period: float = 0.0
    increment: float = 0.0

    @classmethod
    def parse(cls, spec: str) -> TimeControl:
        """``60m+3x30s`` (byo-yomi), ``30m+20s`` (Fischer), ``90m`` (absolute); a bare
        number is minutes for the main time, seconds after the ``+``. ValueError naming
        ``spec`` otherwise."""
        main, plus, extra = spec.strip().lower().partition("+")
        control = cls(_seconds(main, spec, "m"))
        if plus and "x" in extra:
            n, _, each = extra.partition("x")
            if not n.isdigit() or int(n) < 1:
                raise ValueError(f"--time {spec}: the number of periods must be 1 or more, "
                                 f"as in 60m+3x30s")
            control = cls(control.main, int(n), _seconds(each, spec, "s"))
        elif plus:
            control = cls(control.main, increment=_seconds(extra, spec, "s"))
        if control.main <= 0 and control.period <= 0 and control.increment <= 0:
            raise ValueError(f"--time {spec}: no time at all")
        return control

    def __str__(self) -> str:
        if self.periods:
            return f"{_text(self.main)}+{self.periods}x{_text(self.period)}"
        if self.increment:
            return f"{_text(self.main)}+{_text(self.increment)}"
        return _text(self.main)

    @property
    def overtime(self) -> str | None:
        """The overtime as SGF's ``OT`` writes it: ``3x30 byo-yomi``, ``20 fischer``."""
        if self.periods:
            return f"{self.periods}x{self.period:g} byo-yomi"
        if self.increment:
            return f"{self.increment:g} fischer"
        return None


@dataclasses.dataclass(frozen=True)
class TimeLeft:
    """What a player's clock shows: ``seconds`` of main time left, or, in byo-yomi, of
    the current period; ``periods`` of byo-yomi left (None without byo-yomi); ``overtime``
    once in byo-yomi; ``expired`` once the time is up."""

    seconds: float
    periods: int | None = None
    overtime: bool = False
    expired: bool = False


@dataclasses.dataclass(frozen=True)
class ClockReading:
    """Both clocks at one moment, and whose runs (None before the game starts or after it
    ends): a plain value for the page."""

    black: TimeLeft
    white: TimeLeft
    running: Color | None

    def json(self) -> dict[str, object]:
        """As JSON: ``{"black": {"seconds": 3541.2, "periods": 3, "expired": false}, ...,
        "running": "B"}``."""
        def side(t: TimeLeft) -> dict[str, object]:
            return {"seconds": round(t.seconds, 1), "periods": t.periods,
                    "overtime": t.overtime, "expired": t.expired}
        return {"black": side(self.black), "white": side(self.white),
                "running": None if self.running is None else self.running.letter}


class Clock:
    """Both players' time under ``control``. Each move is charged the time since the
    move before it (or since ``start``, for the first): `moved`. ``to_move`` is whose
    clock runs first."""

    def __init__(self, control: TimeControl, start: float = 0.0,
                 to_move: Color = Color.BLACK) -> None:
        self.control = control
        fresh = TimeLeft(control.main, control.periods if control.periods else None)
        self.left: dict[Color, TimeLeft] = {Color.BLACK: fresh, Color.WHITE: fresh}
        self.since = start
        self.running: Color | None = to_move

    def _spend(self, left: TimeLeft, elapsed: float) -> tuple[TimeLeft, TimeLeft]:
        """The clock after ``elapsed`` more seconds on it: as shown at that moment, and
        as kept for the next move (a byo-yomi period starts again)."""
        c = self.control
        if elapsed <= left.seconds:  # main time (none is left once in byo-yomi)
            shown = dataclasses.replace(left, seconds=left.seconds - elapsed)
            return shown, dataclasses.replace(shown, seconds=shown.seconds + c.increment)
        over = elapsed - left.seconds
        if not c.periods:
            out = TimeLeft(0.0, None, expired=True)
            return out, out
        lost = math.floor(over / c.period)
        periods = (left.periods or 0) - lost
        if periods <= 0:
            out = TimeLeft(0.0, 0, overtime=True, expired=True)
            return out, out
        shown = TimeLeft(c.period - (over - lost * c.period), periods, overtime=True)
        return shown, TimeLeft(0.0, periods, overtime=True)

    def moved(self, color: Color, time: float) -> TimeLeft:
        """``color`` moved (or passed) at ``time``: the time left on its clock then, as
        SGF's ``BL``/``WL`` (and ``OB``/``OW``) record it."""
        shown, kept = self._spend(self.left[color], max(0.0, time - self.since))
        self.left[color] = kept
        self.since = time
        self.running = color.opponent
        return kept if self.control.increment else shown

    def stop(self, time: float) -> None:
        """The game is over at ``time``: the running clock is charged and stops."""
        if self.running is not None:
            _, self.left[self.running] = self._spend(self.left[self.running], max(0.0, time - self.since))
            self.since = time
            self.running = None

    def show(self, color: Color, time: float) -> TimeLeft:
        """What ``color``'s clock shows at ``time`` (it runs while that player is to move)."""
        left = self.left[color]
        if color is not self.running:
            return dataclasses.replace(left, seconds=self.control.period) if left.overtime else left
        return self._spend(left, max(0.0, time - self.since))[0]

    def reading(self, time: float) -> ClockReading:
        """Both clocks at ``time``."""
        return ClockReading(self.show(Color.BLACK, time), self.show(Color.WHITE, time), self.running)
