"""The serial client: what it accepts as a port, and how it fails."""

from __future__ import annotations

import pytest
import serial  # type: ignore[import-untyped]

from firmware_bridge import protocol as p
from firmware_bridge.client import SensorBoard
from firmware_bridge.errors import BoardNotFound, ConnectionLost, VersionError
from firmware_bridge.simulator import SimulatedBoard


def lockstep(board: SimulatedBoard, port: object) -> SensorBoard:
    return SensorBoard(port, clock=lambda: board.now_ms() / 1000,  # type: ignore[arg-type]
                       idle=lambda: board.run(5))


def test_an_open_serial_port_is_accepted_and_reopened_by_name() -> None:
    board = SimulatedBoard()
    try:
        port = serial.Serial(board.port, 115200, timeout=0)
        client = lockstep(board, port)
        assert client.handshake().width == 19
        assert client.name == board.port
        client.close()
        assert not port.is_open
        client.open()  # by the name it had
        client.wait(lambda: client.link.mirror is not None, 1.0, "dump")
        client.close()
    finally:
        board.close()


def test_a_port_that_echoes_is_no_board_and_says_so() -> None:
    # pyserial's loop:// echoes our own commands back: they are not a board's answers
    clock = iter(range(10**6))
    client = SensorBoard("loop://", clock=lambda: next(clock) * 0.01, idle=lambda: None)
    with pytest.raises(ConnectionLost, match="loop://: no identity and dump within 1.0 s"):
        client.handshake(timeout=1.0)
    assert client.link.counters.bad_lines >= 1  # its echoes are not board messages
    assert client.link.identity is None and client.link.mirror is None
    client.close()


def test_a_missing_port_is_a_clear_error() -> None:
    client = SensorBoard("/dev/no-such-kifu-board")
    with pytest.raises(ConnectionLost, match="cannot open serial port '/dev/no-such-kifu-board'"):
        client.open()


def test_a_locator_that_finds_nothing_is_board_not_found() -> None:
    client = SensorBoard(lambda: None)
    with pytest.raises(BoardNotFound, match="no serial port with a kifu board"):
        client.open()


def test_a_board_of_another_major_version_stops_the_client() -> None:
    board = SimulatedBoard()
    try:
        client = lockstep(board, lambda: board.port)
        client.open()
        board.garble(p.frame("I 2.0 19x19 kifu-future"))
        with pytest.raises(VersionError, match="protocol 2.0"):
            client.handshake()
        client.close()
    finally:
        board.close()


def test_auto_looks_for_the_board_by_usb_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_bridge import ports
    from firmware_bridge.client import board_for

    monkeypatch.setattr(ports, "system_ports", lambda: [])
    with pytest.raises(BoardNotFound):
        board_for("auto").open()
    board = SimulatedBoard()
    try:
        monkeypatch.setattr(ports, "system_ports",
                            lambda: [ports.PortInfo(board.port, 0x2341, 0x0042, "Mega")])
        client = board_for("auto")
        client.open()
        assert client.name == board.port
        client.close()
        assert board_for(board.port).name == board.port
    finally:
        board.close()
