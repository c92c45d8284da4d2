"""Finding the board among the serial ports by its USB ids."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from serial.tools import list_ports  # type: ignore[import-untyped]


class UsbId(NamedTuple):
    """A USB vendor and product id, and what carries it."""

    vid: int
    pid: int
    name: str


BOARD_IDS = (
    UsbId(0x2341, 0x0042, "Arduino Mega 2560 R3 (ATmega16U2)"),
    UsbId(0x2341, 0x0010, "Arduino Mega 2560 (ATmega8U2)"),
    UsbId(0x2A03, 0x0042, "Arduino.org Mega 2560"),
    UsbId(0x1A86, 0x7523, "CH340 USB-serial (Mega 2560 clones)"),
)
"""USB ids a kifu board shows. The CH340 is common to many devices, so a match is only a
candidate: the handshake confirms it."""


class PortInfo(NamedTuple):
    """The facts about a serial port that matter here (as `list_ports` reports them)."""

    device: str
    vid: int | None
    pid: int | None
    description: str = ""


def candidates(ports: Iterable[PortInfo], ids: Iterable[UsbId] = BOARD_IDS) -> list[str]:
    """Device names of the ports whose USB ids are a board's, best match first (ids in the
    order of ``ids``, then by device name)."""
    order = {(u.vid, u.pid): k for k, u in enumerate(ids)}
    found = [
        (order[(q.vid, q.pid)], q.device)
        for q in ports
        if q.vid is not None and q.pid is not None and (q.vid, q.pid) in order
    ]
    return [device for _, device in sorted(found)]


def system_ports() -> list[PortInfo]:
    """The serial ports this machine has, as pyserial lists them."""
    return [PortInfo(q.device, q.vid, q.pid, q.description or "") for q in list_ports.comports()]


def find_board() -> str | None:
    """The first port that looks like a kifu board, or None."""
    found = candidates(system_ports())
    return found[0] if found else None
