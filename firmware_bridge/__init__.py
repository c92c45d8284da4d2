"""The serial sensor board on the host: protocol codec (`protocol`), the resync rules
(`link`), the serial client (`client.SensorBoard`), port discovery (`ports`), and boards
to test against without hardware (`simulator` in pure Python, `simavr` for the real
firmware). Imports nothing of kifu but the value types of `rules`.
"""

from .errors import (
    BoardNotFound, BridgeError, ChecksumError, ConnectionLost, DeviceError, FrameError,
    ProtocolError, VersionError,
)

__all__ = [
    "BoardNotFound", "BridgeError", "ChecksumError", "ConnectionLost", "DeviceError",
    "FrameError", "ProtocolError", "VersionError",
]
