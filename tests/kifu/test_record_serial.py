"""``kifu record --serial``: a sensor board (here the pure-Python one, in real time) feeds
the same tracker, referee and SGF as a camera."""

from __future__ import annotations

import io
import queue
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge.simulator import RealTimeBoard
from kifu.cmd_record import _keyboard, _serial_readings, _sim_command
from kifu.session import Command, Session
from kifu.sgf import load
from kifu.sinks import SgfWriter, Sink
from kifu.tracker import Output, Tracker
from rules import Game, Move, MovePlayed, Passed, Point, Score, preset
from tests.kifu.recording import DEAD, GAME

# 9x9: Black captures the white stone on E5 after White's D4 elsewhere.
MOVES = ["B E4", "W E5", "B D5", "W D4", "B F5", "W C4", "B E6"]


def test_a_game_on_the_sensor_board_is_recorded_move_for_move(tmp_path: Path) -> None:
    out = tmp_path / "game.sgf"
    with RealTimeBoard(9) as sim:
        readings, _ = _serial_readings(sim.port)
        game = Game(preset("japanese"), 9)
        session = Session(Tracker(game, stable_for=0.0), [SgfWriter(out, game)])
        first = next(readings)  # the dump after the handshake: an empty board
        session.handle(first)
        for text in MOVES:
            move = Move.parse(text, 9, 9)
            assert move.point is not None
            assert _sim_command(sim, f"place {move.point.gtp()} {text[0].lower()}") == "ok"
            if text == "B E6":  # the capture: White's E5 comes off a moment later
                time.sleep(0.1)
                assert _sim_command(sim, "lift E5") == "ok"
            deadline = time.monotonic() + 5
            while game.number < MOVES.index(text) + 1 and time.monotonic() < deadline:
                session.handle(next(readings))
        deadline = time.monotonic() + 3
        while game.position.cells.count(2) != 2 and time.monotonic() < deadline:
            session.handle(next(readings))
        readings.close()  # type: ignore[attr-defined]
    recorded = [m.gtp() for m in load(out).moves]
    assert recorded == MOVES
    assert game.captures[1] == 1


def test_keyboard_lines_drive_the_simulated_board() -> None:
    with RealTimeBoard(9) as sim:
        assert _sim_command(sim, "place D4 b") == "ok"
        assert _sim_command(sim, "lift D4") == "ok"
        assert _sim_command(sim, "pass") is None  # a referee command, not the board's
        assert "error" in str(_sim_command(sim, "place Z99 b"))
        assert "error" in str(_sim_command(sim, "place D4 red"))


def test_without_pyserial_the_serial_path_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The serial path is imported as any module (so mypy checks it); without pyserial,
    ``--serial`` is a usage error naming what is missing, not a traceback."""
    for name in ("serial", "serial.tools", "serial.tools.list_ports"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("firmware_bridge.client", "firmware_bridge.ports"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(ValueError, match=r"--serial sim: pyserial is not installed"):
        _serial_readings("sim")


def test_a_session_that_falls_behind_the_keyboard_loses_no_move(tmp_path: Path) -> None:
    """``kifu record --serial sim`` fed a script through a pipe, its session stalled for
    longer than a few seconds after the first move (a starved computer, a slow disk
    under the SGF): every line still waits until the session has read the board as
    that line left it, so the end of the input does not end the recording before the
    last stones are read. (Before, a line waited 3 s at most and then let the next one
    go on, and the end of the input came one reading early: the last move was lost.)"""
    out = tmp_path / "game.sgf"
    stalled = threading.Event()

    def slow_disk(item: Output, time: float) -> None:
        """Each move takes a while to write; the first one, 3.5 s."""
        if isinstance(item, MovePlayed):
            threading.Event().wait(0.3 if stalled.is_set() else 3.5)
            stalled.set()

    piped(["place C3 b", "place G7 w", "place C7 b", "place G3 w", "place E5 b"], 9,
          slow_disk, out)
    assert stalled.is_set()
    assert [m.gtp() for m in load(out).moves] == ["B C3", "W G7", "B C7", "W G3", "B E5"]


def test_a_dead_stone_lifted_while_the_session_is_stalled_is_dead_when_counted(
        tmp_path: Path) -> None:
    """The counting of ``kifu record --serial sim`` from a pipe (as test_referee_e2e runs
    it), its session stalled 3.5 s at the second pass: the dead stone lifted next is read
    before ``done`` counts the game. (Before, ``done`` came first and counted it alive.)"""
    def slow_at_second_pass(item: Output, time: float) -> None:
        if isinstance(item, Passed) and item.number == len(GAME):
            threading.Event().wait(3.5)

    session = piped([*GAME, f"lift {DEAD}", "done"], 5, slow_at_second_pass,
                    tmp_path / "game.sgf")
    scores = [o for o in session.outputs if isinstance(o, Score)]
    assert [s.dead_stones for s in scores] == [(Point.from_gtp(DEAD),)]
    assert scores[0].result() == "W+2.5"


def piped(lines: list[str], size: int, sink: Sink, out: Path) -> Session:
    """Run a session of ``kifu record --serial sim --size SIZE --rules chinese`` on the
    ``lines`` typed into it through a pipe, as `kifu.cmd_record` wires them (the board
    simulated, the keyboard on its own thread), with ``sink`` hearing every output
    before the SGF writer; the session once the input has ended."""
    readings, sim = _serial_readings("sim", size)
    assert sim is not None
    game = Game(preset("chinese"), size)
    session = Session(Tracker(game, stable_for=0.0, max_moves=10, guess=True),
                      [sink, SgfWriter(out, game)])
    commands: queue.Queue[Command] = queue.Queue()
    stop = threading.Event()
    typed = threading.Thread(target=_keyboard, args=(
        commands, io.StringIO("".join(line + "\n" for line in lines)), io.StringIO(), sim,
        session, stop), daemon=True)
    typed.start()
    try:
        session.run(readings, commands, stop)
    finally:
        readings.close()  # type: ignore[attr-defined]
        typed.join(5)
    return session
