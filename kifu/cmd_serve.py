"""``kifu serve GAME.sgf [GAME2.sgf ...]``: show games being recorded elsewhere on one page.

Each file is followed as it is rewritten (by a recording on another machine, a shared
folder, a Go program writing its live SGF); the page and the JSON API are those of the live
display (`kifu.display`).
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from collections.abc import Callable
from typing import Any

from rules import PRESETS, Event

from .announce import Announcer, Speaker, speech_command
from .display import DisplayServer, LiveBoard, SgfFollower, board_ids, follow
from .display.policy import check_host_name, check_origin

DEFAULT_PORT = 8734


def register(sub: Any) -> None:
    """Add the ``serve`` subcommand to the CLI's subparsers."""
    p = sub.add_parser("serve", help="show SGF files being written, live, in a browser")
    p.add_argument("games", type=Path, nargs="+", metavar="GAME.sgf",
                   help="SGF files to follow (each gets a board on the page)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0 for the whole network; "
                        "default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    add_web_flags(p)
    p.add_argument("--rules", help=f"rule set: {', '.join(PRESETS)} (default: each record's RU)")
    p.add_argument("--interval", type=float, default=0.25,
                   help="seconds between looks at the files (default 0.25)")
    p.add_argument("--speak", action="store_true",
                   help="speak the announcements (espeak-ng, where installed)")
    p.add_argument("--quiet", action="store_true", help="do not print the announcements")
    p.set_defaults(func=cmd_serve)


def _argument(check: Callable[[str], str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        try:
            return check(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return parse


def add_web_flags(p: argparse.ArgumentParser) -> None:
    """``--allow-host NAME`` (repeatable) and ``--cors ORIGIN``, for every command that
    serves a page."""
    p.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                   type=_argument(check_host_name),
                   help="also answer to requests that name this server NAME (a DNS name "
                        "pointing here; repeat for more); the bound address, this machine's "
                        "name and, on loopback, localhost always work")
    p.add_argument("--cors", metavar="ORIGIN", type=_argument(check_origin),
                   help="let pages of this one origin (http[s]://HOST[:PORT]) read the API "
                        "and the event stream; none by default")


def _saying(announcer: Announcer) -> Callable[[Event | None, str], None]:
    def hear(_event: Event | None, text: str) -> None:
        announcer.say(text)
    return hear


def cmd_serve(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    """Follow the files and serve the page until interrupted (or ``stop`` is set)."""
    if args.rules and args.rules not in PRESETS:
        raise ValueError(f"unknown rule set {args.rules!r}: expected one of {', '.join(PRESETS)}")
    if args.interval <= 0:
        raise ValueError(f"--interval must be positive, not {args.interval}")
    speaker = None
    if args.speak:
        command = speech_command()
        if command is None:
            print("kifu: --speak: neither espeak-ng nor espeak is installed; printing only",
                  file=sys.stderr)
        else:
            speaker = Speaker(command)
    ids = board_ids(args.games)
    boards = [LiveBoard(i, title=path.stem) for i, path in zip(ids, args.games)]
    followers = [SgfFollower(path, b, args.rules) for path, b in zip(args.games, boards)]
    for f in followers:
        f.poll()
    if not args.quiet or speaker:
        for b in boards:
            announcer = Announcer(speaker=speaker, echo=not args.quiet,
                                  prefix=f"[{b.id}] " if len(boards) > 1 else "")
            b.on_announcement(_saying(announcer))
    try:
        server = DisplayServer(boards, args.host, args.port, allow_hosts=args.allow_host,
                               cors=args.cors)
    except OSError as exc:
        print(f"kifu: {exc.strerror or exc}", file=sys.stderr)
        if speaker is not None:
            speaker.close(timeout=2)
        return 1
    stop = stop or threading.Event()
    print(f"kifu: showing {len(boards)} board{'s' * (len(boards) > 1)} at {server.url}", flush=True)
    print(f"kifu: API at {server.url}api/v1/boards", flush=True)
    server.start()
    try:
        follow(followers, stop, args.interval)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        if speaker is not None:
            speaker.close(timeout=2)
    return 0
