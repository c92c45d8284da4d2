"""Game clocks for ``kifu record --time``: the time controls as written on the command
line, and each player's time left from the moments the moves were seen."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from kifu import clock as clock_module
from kifu.clock import Clock, ClockReading, TimeControl, TimeLeft
from rules import Color

B, W = Color.BLACK, Color.WHITE


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(clock_module).failed == 0


@pytest.mark.parametrize("spec, control, overtime", [
    ("60m+3x30s", TimeControl(3600, periods=3, period=30), "3x30 byo-yomi"),
    ("30m+20s", TimeControl(1800, increment=20), "20 fischer"),
    ("90m", TimeControl(5400), None),
    ("1h+5x30", TimeControl(3600, periods=5, period=30), "5x30 byo-yomi"),
    ("45", TimeControl(2700), None),       # a bare number is minutes
    ("0+1x10s", TimeControl(0, periods=1, period=10), "1x10 byo-yomi"),
])
def test_a_time_control_is_read_as_written(spec: str, control: TimeControl,
                                           overtime: str | None) -> None:
    assert TimeControl.parse(spec) == control
    assert control.overtime == overtime
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("spec, fault", [
    ("60m+0x30s", "the number of periods must be 1 or more"),
    ("an hour", "cannot read 'an hour' as a time"),
    ("60m+3x", "cannot read ''"),
    ("0m", "no time at all"),
])
def test_a_time_control_kifu_cannot_read_is_refused_naming_it(spec: str, fault: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"--time {spec}: ") + ".*" + re.escape(fault)):
        TimeControl.parse(spec)


def test_in_byo_yomi_a_move_within_its_period_keeps_it() -> None:
    clock = Clock(TimeControl(10, periods=3, period=5))
    assert clock.moved(B, 12.0) == TimeLeft(3.0, 3, overtime=True)   # 10 s, then 2 of a period
    assert clock.moved(W, 13.0) == TimeLeft(9.0, 3)
    assert clock.moved(B, 17.5) == TimeLeft(0.5, 3, overtime=True)   # 4.5 s of 5: kept
    assert clock.moved(W, 18.0) == TimeLeft(8.5, 3)


def test_in_byo_yomi_each_period_that_runs_out_is_lost_and_the_last_ends_the_time() -> None:
    clock = Clock(TimeControl(0, periods=3, period=5))
    assert clock.moved(B, 11.0) == TimeLeft(4.0, 1, overtime=True)   # two periods gone
    assert clock.moved(W, 12.0) == TimeLeft(4.0, 3, overtime=True)
    assert clock.moved(B, 17.0) == TimeLeft(0.0, 0, overtime=True, expired=True)


def test_fischer_adds_the_increment_after_each_move_and_the_flag_falls_at_zero() -> None:
    clock = Clock(TimeControl(10, increment=2))
    assert clock.moved(B, 4.0) == TimeLeft(8.0)
    assert clock.moved(W, 14.0) == TimeLeft(2.0)
    assert clock.moved(B, 15.0) == TimeLeft(9.0)
    assert clock.moved(W, 17.5) == TimeLeft(0.0, expired=True)


def test_the_clock_of_the_player_to_move_runs_and_the_page_reads_both() -> None:
    clock = Clock(TimeControl(60, periods=1, period=10), start=100.0)
    assert clock.reading(130.0) == ClockReading(TimeLeft(30.0, 1), TimeLeft(60.0, 1), B)
    assert clock.moved(B, 169.0) == TimeLeft(1.0, 1, overtime=True)  # 60 s, then 9 of 10
    reading = clock.reading(175.0)
    assert reading.running is W and reading.white == TimeLeft(54.0, 1)
    assert reading.black == TimeLeft(10.0, 1, overtime=True)  # a fresh period when to move
    assert reading.json() == {
        "black": {"seconds": 10.0, "periods": 1, "overtime": True, "expired": False},
        "white": {"seconds": 54.0, "periods": 1, "overtime": False, "expired": False},
        "running": "W",
    }
    clock.stop(180.0)  # the game is over: White's 11 s are charged, and nothing runs
    assert clock.reading(500.0) == ClockReading(TimeLeft(10.0, 1, overtime=True),
                                                TimeLeft(49.0, 1), None)


def test_the_live_page_shows_both_players_time_after_each_move(tmp_path: Path) -> None:
    """`kifu record --time 10m+3x30s --serve`: the board's JSON (what the page draws) has
    both clocks, Black's charged for the 42 s before B D4 and White's now running."""
    import json
    import queue
    import urllib.request

    from kifu.cmd_record import _display
    from kifu.sinks import SgfWriter, Sink
    from rules import Game, Point

    game = Game("japanese", 9)
    clock = Clock(TimeControl.parse("10m+3x30s"))
    writer = SgfWriter(tmp_path / "g.sgf", game, clock=clock)
    sinks: list[Sink] = [writer]
    server = _display("127.0.0.1:0", game, writer, queue.Queue(), {}, sinks, "g")
    try:
        def state() -> dict[str, object]:
            with urllib.request.urlopen(server.url + "api/v1/boards/board", timeout=5) as r:
                return json.loads(r.read())  # type: ignore[no-any-return]

        assert state()["clock"] == {
            "black": {"seconds": 600.0, "periods": 3, "overtime": False, "expired": False},
            "white": {"seconds": 600.0, "periods": 3, "overtime": False, "expired": False},
            "running": "B"}
        move = game.play(Point.from_gtp("D4"))
        for sink in sinks:
            sink(move, 42.0)
        shown = state()["clock"]
        assert isinstance(shown, dict)
        assert shown["black"]["seconds"] == 558.0 and shown["running"] == "W"
    finally:
        server.stop()
