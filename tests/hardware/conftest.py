"""Boards to test against: the real firmware under simavr (built once per session with
``make -C hardware``) and the pure-Python simulator, driven in lock-step."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Union

import pytest

from firmware_bridge.client import SensorBoard
from firmware_bridge.simavr import FIRMWARE, HARDWARE, HARNESS, SimavrBoard
from firmware_bridge.simulator import SimulatedBoard
from tests.conftest import need

Board = Union[SimavrBoard, SimulatedBoard]


@pytest.fixture(scope="session")
def built() -> Path:
    """The firmware and harness, built from source (the build is what CI checks too)."""
    need(shutil.which("avr-gcc") is not None, "avr-gcc (Debian gcc-avr) is not installed")
    need(Path("/usr/include/simavr/sim_avr.h").exists(), "libsimavr-dev is not installed")
    done = subprocess.run(["make", "-C", str(HARDWARE)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert HARNESS.exists() and FIRMWARE.exists()
    return FIRMWARE


@pytest.fixture(params=["simavr", "python"])
def make_board(request: pytest.FixtureRequest) -> Iterator[Callable[..., Board]]:
    """A factory of boards of one kind (both kinds in turn); every board made is closed."""
    made: list[Board] = []

    def make(spread: int = 0, seed: int = 1) -> Board:
        board: Board
        if request.param == "simavr":
            request.getfixturevalue("built")
            board = SimavrBoard(spread=spread, seed=seed)
        else:
            board = SimulatedBoard(spread=spread, seed=seed)
        made.append(board)
        return board

    yield make
    for board in made:
        board.close()


def client_for(board: Board, step_ms: int = 5) -> SensorBoard:
    """A client on the board's port, living on the board's simulated clock: whenever it
    waits, the simulation advances ``step_ms``. The port is looked up again on reconnect."""
    return SensorBoard(lambda: board.port, clock=lambda: board.now_ms() / 1000,
                       idle=lambda: board.run(step_ms))
