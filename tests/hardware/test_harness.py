"""The build and the simulation harness itself: what it answers, and its real-time mode."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.client import SensorBoard
from firmware_bridge.simavr import HARNESS, HarnessError, SimavrBoard
from firmware_bridge.simulator import SimulatedBoard, handle


def test_the_firmware_fits_the_atmega2560(built: Path) -> None:
    sizes = subprocess.run(["avr-size", str(built)], capture_output=True, text=True, check=True)
    text, data, bss = (int(v) for v in sizes.stdout.splitlines()[1].split()[:3])
    assert text + data < 256 * 1024
    assert data + bss < 8 * 1024 - 1024  # leave 1 KB of SRAM for the stack


def test_the_harness_carries_the_gpl(built: Path) -> None:
    source = (HARNESS.parent.parent / "sim" / "kifu_sim.c").read_text()
    assert "GNU General Public License, version 3 or later" in source


def test_the_harness_refuses_bad_commands_by_name(built: Path) -> None:
    board = SimavrBoard()
    try:
        with pytest.raises(HarnessError, match="place needs X Y b.w on a 19x19 board"):
            board._say("place 19 0 b")
        with pytest.raises(HarnessError, match="unknown command 'jump'"):
            board._say("jump")
        with pytest.raises(HarnessError, match="run needs milliseconds"):
            board._say("run soon")
        board.run(10)
        assert board.now_ms() == 10
    finally:
        board.close()


def test_the_python_simulator_answers_the_same_commands() -> None:
    board = SimulatedBoard()
    try:
        assert handle(board, "run 10") == "ok 10"
        assert handle(board, "place 19 0 b").startswith("error point (19, 0) is off")
        assert handle(board, "jump").startswith("error cannot do")
        assert handle(board, "place 3 3 w") == "ok"
    finally:
        board.close()


def realtime_handshake(argv: list[str]) -> None:
    """Start a real-time board process, handshake over its pty in wall-clock time."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = proc.stdout.readline().split()
        assert first[0] == "pty"
        proc.stdin.write("place 0 0 b\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "ok"
        client = SensorBoard(first[1])
        client.handshake(timeout=5.0)
        client.wait(lambda: client.link.mirror is not None and client.link.mirror[0] == "X",
                    2.0, "the stone")
        client.close()
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_harness_runs_in_real_time(built: Path) -> None:
    start = time.monotonic()
    realtime_handshake([str(HARNESS), "--realtime", str(built)])
    assert time.monotonic() - start < 10


def test_the_python_simulator_runs_in_real_time() -> None:
    realtime_handshake([sys.executable, "-m", "firmware_bridge.simulator"])
