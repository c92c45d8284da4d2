"""The bridge's errors, split by who failed: the host saw a bad frame (`ProtocolError`),
the board said something went wrong (`DeviceError`), or the link itself failed
(`ConnectionLost`, `BoardNotFound`)."""

from __future__ import annotations


class BridgeError(Exception):
    """Anything the serial bridge reports."""


class ProtocolError(BridgeError):
    """The host received something that is not a valid protocol line. ``line`` holds the
    offending bytes (possibly cut short) for the message and the log."""

    def __init__(self, line: bytes, fault: str) -> None:
        self.line = line
        self.fault = fault
        shown = line[:80]
        more = "..." if len(line) > 80 else ""
        super().__init__(f"bad line {shown!r}{more}: {fault}")


class ChecksumError(ProtocolError):
    """The line's CRC does not match its body."""


class FrameError(ProtocolError):
    """The line is not a frame (no checksum, bad characters, too long) or its body does not
    parse as any message."""


class VersionError(BridgeError):
    """The board speaks a protocol major version this host does not understand."""

    def __init__(self, major: int, minor: int, supported: int) -> None:
        self.major = major
        self.minor = minor
        super().__init__(
            f"board speaks protocol {major}.{minor}; this host understands {supported}.x only"
        )


class DeviceError(BridgeError):
    """The board reported an error (an ``E`` line)."""

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"board error {code}: {detail}")


class ConnectionLost(BridgeError):
    """The serial port went away (unplugged) or the board fell silent."""


class BoardNotFound(BridgeError):
    """No serial port carries a kifu board."""
