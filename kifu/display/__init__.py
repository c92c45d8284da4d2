"""The live board on a screen: state (`LiveBoard`), the ordered update stream (`Feed`), the
HTTP server with its page and JSON API (`DisplayServer`), the camera's latest frame for
the calibration page (`CameraView`), and the SGF follower.

A recording session shows its game like this::

    board = LiveBoard("1", 19, on_command=handler)
    with DisplayServer([board], "0.0.0.0", 8734) as server:
        print(server.url, server.control_url)
        ...
        board.update(game, *events)   # after every change

or, as one of a recording session's sinks, ``BoardSink(board, game)``.
"""

from .camera import CameraView
from .feed import Feed, Message
from .follow import SgfFollower, board_ids, follow
from .server import DisplayServer, parse_address
from .state import Announcement, BoardSink, CommandError, LiveBoard, Snapshot, game_commands

__all__ = [
    "Announcement", "BoardSink", "CameraView", "CommandError", "DisplayServer", "Feed",
    "LiveBoard", "Message",
    "SgfFollower", "Snapshot", "board_ids", "follow", "game_commands", "parse_address",
]
