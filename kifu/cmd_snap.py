"""``kifu snap IMAGE``: read a Go board from a photo and print, save or draw what was read.

Exit status 3 when there is no board in the photo (one line on stderr saying why). Vision
and OpenCV are loaded only when a photo is read: kifu's other commands run without them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rules import BLACK, WHITE, Game, preset

from .cmd_record import add_lighter_black
from .sgf import Setup, serialise, write_atomically

if TYPE_CHECKING:
    import vision
    from vision.config import StoneConfig

EXIT_NO_BOARD = 3


def snap_json(reading: vision.Reading) -> dict[str, object]:
    """The reading as the JSON object ``--json`` prints."""
    return {
        "size": reading.size,
        "board": reading.rows(),
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in reading.corners],
        "confidence": round(reading.board_confidence, 3),
        "timings_ms": {k: round(v, 1) for k, v in reading.timings.items()},
    }


def snap_sgf(reading: vision.Reading) -> bytes:
    """The position as an SGF record of setup stones (AB/AW) and no moves."""
    pos = reading.position
    game = Game(preset("chinese"), pos.width)
    setup = Setup(black=tuple(pos.stones(BLACK)), white=tuple(pos.stones(WHITE)))
    return serialise(game, [], setup=setup, properties={"C": "Read from a photo by kifu snap"})


def stone_config(args: argparse.Namespace) -> StoneConfig:
    """The stone reading's settings that ``args`` asks for."""
    from vision.config import STONES
    return dataclasses.replace(STONES, lighter_black=bool(args.lighter_black))


def cmd_snap(args: argparse.Namespace) -> int:
    import cv2

    import vision
    from vision.overlay import draw

    image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{args.image}: not an image file that OpenCV can read")
    try:
        reading = vision.read_board(image, args.size, stone_cfg=stone_config(args))
    except vision.BoardNotFound as exc:
        print(f"kifu snap: {args.image}: {exc}", file=sys.stderr)
        return EXIT_NO_BOARD
    if args.json:
        print(json.dumps(snap_json(reading)))
    else:
        print(reading.position.diagram())
        print(f"{reading.size}x{reading.size}, grid confidence {reading.board_confidence:.2f}, "
              f"{reading.timings['total']:.0f} ms")
    if args.sgf:
        write_atomically(args.sgf, snap_sgf(reading))
    if args.overlay:
        if not cv2.imwrite(str(args.overlay), draw(image, reading)):
            raise ValueError(f"{args.overlay}: cannot write an image there")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``snap`` to the ``kifu`` command's subcommands."""
    p = sub.add_parser("snap", help="read a Go board from a photo")
    p.add_argument("image", type=Path)
    p.add_argument("--size", type=int, choices=(9, 13, 19), help="the board size (else decided)")
    p.add_argument("--json", action="store_true", help="print the reading as one JSON object")
    p.add_argument("--sgf", type=Path, help="write the position as setup stones to this file")
    p.add_argument("--overlay", type=Path, help="draw the grid and stones on the photo here")
    add_lighter_black(p)
    p.set_defaults(func=cmd_snap)
