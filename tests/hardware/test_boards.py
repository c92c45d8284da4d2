"""The board and the bridge together: every scenario runs against the real firmware under
simavr and against the pure-Python simulator, in lock-step simulated time."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import serial  # type: ignore[import-untyped]

from firmware_bridge import protocol as p
from firmware_bridge.link import State
from rules import Color, Observation

from .conftest import Board, client_for

B, W = Color.BLACK, Color.WHITE
MakeBoard = Callable[..., Board]


def rows(obs: Observation | None) -> list[str]:
    assert obs is not None
    return obs.rows()


def corner(obs: Observation, size: int = 3) -> list[str]:
    """The lower-left ``size`` x ``size`` corner, top row first."""
    return [r[:size] for r in obs.rows()[-size:]]


def test_the_host_asks_for_identity_since_the_banner_is_lost(make_board: MakeBoard) -> None:
    board = make_board()
    board.run(300)  # booted and sent its banner before anyone listened
    client = client_for(board)
    identity = client.handshake()
    assert (identity.major, identity.width, identity.height) == (1, 19, 19)
    assert client.link.settings == p.Settings(3, 10, 24, 1000)
    client.close()


def test_stones_already_on_the_board_at_power_up_come_in_the_dump(make_board: MakeBoard) -> None:
    board = make_board()
    board.unplug()
    board.place(0, 0, B)
    board.place(1, 0, W)
    board.plug()
    client = client_for(board)
    client.handshake()
    assert client.link.mirror is not None
    assert client.link.mirror[:3] == "XO."
    assert client.link.counters.changes == 0  # settled at boot, not reported as changes
    client.close()


def test_a_stone_is_reported_once_and_fast_and_a_bounce_not_at_all(make_board: MakeBoard) -> None:
    board = make_board()
    client = client_for(board, step_ms=1)
    client.handshake()
    # a bouncing contact: the magnet reads on and off every few ms, then goes away
    for _ in range(6):
        board.place(2, 2, B)
        board.run(7)
        board.lift(2, 2)
        board.run(7)
    board.run(50)
    client.poll()
    assert client.link.mirror == "." * 361
    assert client.link.counters.changes == 0
    # a stone put down and left
    start = board.now_ms()
    board.place(2, 2, B)
    client.wait(lambda: (client.link.mirror or "")[2 * 19 + 2] == "X", 1.0, "the stone")
    latency = board.now_ms() - start
    assert 20 <= latency < 100  # at least DEB-1 scan periods, and under the goal
    assert client.link.counters.changes == 1
    client.close()


def test_changes_build_the_board_and_heartbeats_confirm_it(make_board: MakeBoard) -> None:
    board = make_board()
    client = client_for(board)
    client.handshake()
    board.place(0, 0, B)
    board.place(1, 1, W)
    board.place(2, 0, B)
    seen = client.wait(lambda: client.link.counters.changes == 3, 1.0, "three changes")
    assert corner(seen[-1]) == ["...", ".O.", "X.X"]
    board.lift(0, 0)
    seen = client.wait(lambda: client.link.counters.changes == 4, 1.0, "the lift")
    assert corner(seen[-1]) == ["...", ".O.", "..X"]
    # heartbeats keep confirming the board: no resync, fresh observations
    before = board.now_ms()
    seen = client.wait(lambda: board.now_ms() - before > 2500, 5.0, "")
    assert len(seen) >= 2 and all(corner(o) == ["...", ".O.", "..X"] for o in seen)
    assert client.link.counters.resyncs == 0 and client.link.counters.bad_lines == 0
    client.close()


def test_garbage_on_the_line_is_survived_by_a_resync(make_board: MakeBoard) -> None:
    board = make_board()
    client = client_for(board)
    client.handshake()
    board.place(4, 4, W)
    client.wait(lambda: client.link.counters.changes == 1, 1.0, "a change")
    board.garble(b"\x00\xffnoise\xfe\n" + p.frame("C 1 2 3 X")[:5])
    board.place(5, 5, B)  # its change event follows the truncated line: lost with it
    board.run(100)
    client.poll()
    client.wait(lambda: client.link.state is State.SYNCED, 1.0, "resync")
    assert client.link.counters.bad_lines >= 1 and client.link.counters.resyncs >= 1
    assert client.link.mirror is not None
    assert client.link.mirror[4 * 19 + 4] == "O" and client.link.mirror[5 * 19 + 5] == "X"
    client.close()


def test_a_forged_change_out_of_sequence_is_never_applied(make_board: MakeBoard) -> None:
    board = make_board()
    client = client_for(board)
    client.handshake()
    board.garble(p.frame("C 999 0 0 X"))  # well formed, right CRC, wrong sequence number
    seen = client.wait(lambda: client.link.counters.resyncs == 1, 1.0, "resync")
    seen += client.wait(lambda: client.link.state is State.SYNCED, 1.0, "dump")
    assert all(o.cells[0] == 0 for o in seen)
    assert client.link.mirror == "." * 361
    client.close()


def test_unplugged_and_plugged_back_the_board_is_read_afresh(make_board: MakeBoard) -> None:
    board = make_board()
    client = client_for(board)
    client.handshake()
    board.place(3, 3, B)
    client.wait(lambda: client.link.counters.changes == 1, 1.0, "a change")
    board.unplug()
    seen = client.wait(lambda: not client.connected, 1.0, "the unplug to show")
    board.place(15, 15, W)  # played while the board was off
    board.run(1000)
    assert client.poll() == [] and not client.connected
    board.plug()
    seen = client.wait(
        lambda: client.connected and client.link.state is State.SYNCED, 3.0, "the reconnect")
    assert client.link.counters.reconnects == 1
    assert rows(seen[-1])[3][15] == "O" and rows(seen[-1])[15][3] == "X"
    client.close()


def test_calibration_removes_sensor_offsets_and_survives_a_power_cycle(make_board: MakeBoard) -> None:
    board = make_board(spread=900, seed=7)  # offsets up to ~46 ADC steps: some read as stones
    client = client_for(board)
    client.handshake()
    assert client.link.mirror is not None
    assert any(s in "XO" for s in client.link.mirror)
    assert [e.code for e in client.link.device_errors] == ["CAL"]  # said at power-up
    client.calibrate()
    baselines = client.rows("B")
    raw = client.rows("R")
    assert all(abs(b - r) <= 1 for rb, rr in zip(baselines, raw) for b, r in zip(rb, rr))
    client.wait(lambda: client.link.mirror == "." * 361, 1.0, "an empty board")
    board.unplug()
    client.wait(lambda: not client.connected, 1.0, "unplug")
    board.plug()
    client.handshake()
    assert client.link.mirror == "." * 361
    assert client.rows("B") == baselines
    # a stone moves its sensor's reading far from the baseline, by polarity
    board.place(0, 0, B)
    board.place(1, 0, W)
    board.run(30)
    raw = client.rows("R")
    assert raw[0][0] - baselines[0][0] > 50 and baselines[0][1] - raw[0][1] > 50
    client.close()


def test_settings_are_checked_and_kept_in_eeprom(make_board: MakeBoard) -> None:
    board = make_board()
    client = client_for(board)
    client.handshake()
    assert client.configure(DEB=5, HB=500) == p.Settings(5, 10, 24, 500)
    with pytest.raises(ValueError, match="THR=200 is out of range"):
        client.configure(THR=200)
    # what the board answers to bad commands that the client would never send
    raw = serial.serial_for_url(board.port, timeout=0)
    raw.write(p.frame("S DEB=99") + p.frame("X") + b"D*0000\n" + b"?" * 80 + b"\n")
    client.wait(lambda: len(client.link.device_errors) >= 5, 1.0, "four errors")
    raw.close()
    codes = [e.code for e in client.link.device_errors]
    assert codes == ["CAL", "ARG", "CMD", "CRC", "LEN"]
    board.unplug()
    client.wait(lambda: not client.connected, 1.0, "unplug")
    board.plug()
    client.handshake()
    assert client.link.settings == p.Settings(5, 10, 24, 500)
    client.close()


def test_the_board_survives_garbage_commands(make_board: MakeBoard) -> None:
    """Seeded random bytes and damaged commands sent to the board: it answers errors,
    and then still answers, scans and reports as before."""
    import random

    rng = random.Random(2026)
    board = make_board()
    client = client_for(board)
    client.handshake()
    noise = serial.serial_for_url(board.port, timeout=0)
    for _ in range(40):
        kind = rng.randrange(3)
        if kind == 0:
            chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 100)))
        elif kind == 1:
            good = bytearray(p.command(rng.choice(["?", "D", "S", "R"])))
            good[rng.randrange(len(good) - 1)] ^= 1 << rng.randrange(8)
            chunk = bytes(good)
        else:
            chunk = p.frame("S " + "".join(rng.choice("DEBPRTHZ=0123456789 ") for _ in range(20)))
        noise.write(chunk)
        board.run(20)
        client.poll()
    noise.write(b"\n")
    noise.close()
    board.run(200)
    client.poll()
    assert client.link.device_errors  # it complained...
    board.place(9, 9, W)
    client.wait(lambda: (client.link.mirror or "")[9 * 19 + 9] == "O", 3.0, "a change")
    assert client.link.state is State.SYNCED  # ...and carried on
    client.close()
