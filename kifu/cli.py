"""The ``kifu`` command.

Exit status: 0 done; 2 a usage or input error (a malformed game record, a missing file, a
bad option), one line on stderr naming the input; 1 any other failure.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn
from pathlib import Path

from rules import PRESETS, Game, IllegalMove, Point, preset
from rules.point import CoordinateError

from . import cmd_hall
from . import cmd_record
from . import cmd_serve
from . import cmd_snap
from . import replay as rp
from .broker import LOCAL_PORT
from .sgf import Record, SgfError, load, rules_for

EXIT_BAD_RECORD = 2
EXIT_USAGE = 2


def _dead_points(text: str | None, record: Record, game: Game) -> list[Point]:
    if text is None:  # the stones the record's own count took as dead
        return list(record.counted_dead(game.position))
    if not text:
        return []
    pts = []
    for v in text.split(","):
        v = v.strip()
        if v:
            pts.append(Point.from_gtp(v, height=record.height, width=record.width))
    return pts


def _emit(event: object, as_json: bool) -> None:
    if as_json:
        print(json.dumps(rp.to_json(event)))  # type: ignore[arg-type]
    else:
        print(rp.to_text(event))  # type: ignore[arg-type]


def cmd_replay(args: argparse.Namespace) -> int:
    record = load(args.game)
    rules = preset(args.rules or rules_for(record))
    game = rp.start(record, rules, args.komi)
    illegal = 0
    for event in rp.replay(game, record.nodes, record.name):
        illegal += isinstance(event, IllegalMove)
        _emit(event, args.json)
    if args.score or record.ends_with_two_passes():
        for event in rp.score_events(game, _dead_points(args.dead, record, game)):
            _emit(event, args.json)
    elif not args.json and record.properties.get("RE"):
        print(f"record ends without two passes; its result: {record.properties['RE']}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    record = load(args.game)
    rules = preset(args.rules or rules_for(record))
    game = rp.start(record, rules, args.komi)
    for event in rp.replay(game, record.nodes, record.name):
        if isinstance(event, IllegalMove):
            print(f"warning: {rp.to_text(event).strip()}", file=sys.stderr)
    score = game.score(_dead_points(args.dead, record, game))
    if args.json:
        print(json.dumps(rp.score_json(score)))
    else:
        if args.board:
            print(game.position.diagram())
        print(rp.score_text(score))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from . import demo

    if args.hall:
        from . import demo_hall

        return demo_hall.run(args.folder or demo.cache_dir() / "hall", port=args.port,
                             broker_port=args.broker_port, pace=args.pace, moves=args.moves,
                             linger=args.linger, films=args.films)
    return demo.run(args.folder)


def version() -> str:
    """kifu's version, as installed (``0+unknown`` when run from a bare source tree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("kifu")
    except PackageNotFoundError:
        return "0+unknown"


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="kifu", description="Watch a Go board and referee the game.")
    ap.add_argument("--version", action="version", version=f"kifu {version()}")
    sub = ap.add_subparsers(dest="command", required=True)
    rules_help = f"rule set: {', '.join(PRESETS)} (default: the record's RU, else chinese)"

    p = sub.add_parser("replay", help="play a game record through the referee")
    p.add_argument("game", type=Path)
    p.add_argument("--rules", help=rules_help)
    p.add_argument("--komi", type=float, help="override the record's komi")
    p.add_argument("--json", action="store_true", help="one JSON object per event and line")
    p.add_argument("--score", action="store_true", help="count the final position even "
                   "when the record does not end with two passes")
    p.add_argument("--dead", help="dead stones for the count, e.g. D4,E5 (default: those "
                   "the record's count took as dead)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("score", help="count the final position of a game record")
    p.add_argument("game", type=Path)
    p.add_argument("--rules", help=rules_help)
    p.add_argument("--komi", type=float, help="override the record's komi")
    p.add_argument("--dead", help="dead stones, e.g. D4,E5 (each marks its whole string; "
                   "default: those the record's count took as dead)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--board", action="store_true", help="print the final position too")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("demo", help="film a famous game on a board, record it from the film, "
                       "and check the record against the game")
    p.add_argument("--folder", type=Path, help="where the film and the record go "
                   "(default: ~/.cache/kifu/demo)")
    p.add_argument("--hall", action="store_true", help="instead, three games played side by "
                   "side on simulated sensor boards, each recorded and published to an MQTT "
                   "broker in the demo, and shown on one hall page (until Ctrl-C)")
    p.add_argument("--port", type=int, default=cmd_hall.DEFAULT_PORT, help="with --hall, the "
                   f"hall page's port (default {cmd_hall.DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--broker-port", type=int, default=LOCAL_PORT, help="with --hall, the MQTT "
                   f"broker's port (default {LOCAL_PORT}, joined if a broker listens there; 0 "
                   "picks a free one)")
    p.add_argument("--pace", type=float, default=1.0, metavar="SECONDS",
                   help="with --hall, seconds between a board's moves (default 1; "
                   "with --films, the films' own)")
    p.add_argument("--moves", type=int, metavar="N", help="with --hall, play only the first "
                   "N moves of each game")
    p.add_argument("--linger", type=float, metavar="SECONDS", help="with --hall, stop this "
                   "long after the games end (default: keep the hall up until Ctrl-C)")
    p.add_argument("--films", action="store_true", help="with --hall, film the three games "
                   "as cameras would see them and record each board from its film")
    p.set_defaults(func=cmd_demo)

    # Subcommands defined in their own modules register here, one line each.
    cmd_snap.register(sub)
    cmd_serve.register(sub)
    cmd_hall.register(sub)
    cmd_record.register(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except SgfError as exc:
        print(f"kifu: {exc}", file=sys.stderr)
        return EXIT_BAD_RECORD
    except (KeyError, CoordinateError, ValueError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"kifu: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
