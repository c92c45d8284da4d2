"""``kifu record``: watch a game and write its record.

    kifu record (--camera N | --video FILE | --frames DIR | --url URL) --out GAME.sgf
                [--rules PRESET] [--size N] [--komi K] [--handicap H] [--first B|W]
                [--player-black NAME] [--player-white NAME] [--resume GAME.sgf]
                [--rotate 0|90|180|270] [--lighter-black]

Events are printed as they happen; the SGF is rewritten after each one. A camera's frames
go through one `vision.watch.BoardWatcher` for the whole recording (see
`kifu.camera_feed`): the board is located once, each frame read cheaply through it, hands
are unknown points, a bumped camera has the board located again. A folder's images are
photos of the board, one per move: each is held as a still view for ``--frame-interval``
seconds. Players say what the board cannot show at the keyboard: ``pass`` (or ``p``),
``pass B``, ``resign W``, ``done`` (dead stones lifted off: count), ``rotate 90`` (Black
sits at the right of the camera's picture: the game so far is turned to match; the record
keeps the orientation, and ``--resume`` reads the board so again), ``undo``
(the last move taken back), ``set D4 black`` (the camera's reading corrected), ``order D4
Q16 C3`` (moves recorded together while the board was hidden were played so); standard
input is read whether or not it is a terminal, so a pipe can script a recording (with
``--serial sim`` it ends at the end of the input). With ``--serve``, a camera's latest
frame with the grid and stones read is on the calibration page, where the orientation can
be turned and points corrected too; the page stays up ``--linger`` minutes afterwards. A hidden ``--observations FILE`` reads a
script of ASCII readings instead of a camera (see `kifu.session`), for tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import math
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rules import PRESETS, ROTATIONS, Color, Game, Observation, Point, preset
from rules.rotation import rotate_cells

from .announce import Speaker, speech_command
from .broker import LOCAL_URL, local_broker
from .clock import Clock, TimeControl
from .cmd_serve import add_web_flags
from .display.camera import CameraView
from .display.server import DisplayServer, parse_address
from .display.state import BoardSink, LiveBoard
from .mqtt import BoardPublisher, BrokerUrl, check_board_id, seq_file
from .session import HELP, Command, Item, Session, load_script, parse_command, resume
from .session import verb
from .sgf import Setup, rules_for
from .sgf import parse as parse_sgf
from .sinks import SgfWriter, Sink, SpokenAnnouncer, TerminalAnnouncer
from .tracker import MAX_HIDDEN, Kind, Output, Tracker

if TYPE_CHECKING:  # (imported where used: the serial path needs pyserial)
    from firmware_bridge.simulator import RealTimeBoard


def register(sub: Any) -> None:
    """Add ``record`` to the CLI's subcommands."""
    p = sub.add_parser("record", help="watch a game on a real board and write its record")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, metavar="N", help="camera device index")
    src.add_argument("--video", type=Path, metavar="FILE", help="a video file")
    src.add_argument("--frames", type=Path, metavar="DIR",
                     help="a folder of photos in name order (move_2 before move_10), such "
                     "as one taken after each move: each is held as a still view for "
                     "--frame-interval seconds, shown to the board watcher as 20 frames "
                     "spread over that time, so that its stones settle and then stay still "
                     "for --stable (the defaults record such a folder move by move)")
    src.add_argument("--url", metavar="URL", help="an RTSP or HTTP stream")
    src.add_argument("--serial", metavar="PORT|auto|sim",
                     help="a sensor board: a serial port or pyserial URL, 'auto' to find it "
                     "by its USB ids, or 'sim' for a simulated board driven from the "
                     "keyboard (place D4 b, lift D4)")
    src.add_argument("--observations", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, metavar="GAME.sgf",
                   help="the record to write (default: the --resume file)")
    p.add_argument("--resume", type=Path, metavar="GAME.sgf",
                   help="continue the game in this record")
    p.add_argument("--rules", help=f"rule set: {', '.join(PRESETS)} (default: chinese, or the "
                   "resumed record's)")
    p.add_argument("--size", type=int, default=19, help="board size (default 19)")
    p.add_argument("--komi", type=float, help="komi (default: the rules')")
    p.add_argument("--handicap", type=int, default=0, metavar="H",
                   help="handicap stones Black puts down before the first move")
    p.add_argument("--first", type=_colour, metavar="B|W",
                   help="who plays the first move of a new game without handicap stones "
                   "(default B; White moves first after handicap stones anyway)")
    p.add_argument("--player-black", metavar="NAME")
    p.add_argument("--player-white", metavar="NAME")
    p.add_argument("--stable", type=float, default=None, metavar="SECONDS",
                   help="how long the board must stay still to be read (default 0.5 for "
                   "cameras, 0 for a sensor board, which debounces itself); with --frames "
                   "it must fit in a photo's --frame-interval once its stones have "
                   "settled and been read: up to 0.65 for the default 1.0")
    p.add_argument("--min-confidence", type=float, default=0.0, metavar="Q",
                   help="read points seen with less confidence (0..1) as hidden (default 0)")
    p.add_argument("--frame-interval", type=float, default=1.0, metavar="SECONDS",
                   help="time between the photos of --frames, each held that long "
                   "(default 1.0)")
    p.add_argument("--json", action="store_true", help="one JSON object per event and line")
    p.add_argument("--serve", metavar="[HOST:]PORT",
                   help="show the game live in a browser (and its JSON at /api/v1/boards)")
    p.add_argument("--mqtt", metavar="mqtt://[USER:PASS@]HOST[:PORT]/EVENT",
                   help="also publish the board under kifu/v1/EVENT/ID/ on this MQTT broker "
                        "(mqtts:// for TLS), for the event's hall page; 'local': "
                        f"{LOCAL_URL}, started in this process if nothing listens there")
    p.add_argument("--board", metavar="ID", help="this board's number or name in the event "
                   "(with --mqtt)")
    p.add_argument("--mqtt-ca", metavar="FILE", help="with mqtts://, trust the broker's "
                   "certificate if this certificate authority (PEM) signed it")
    add_web_flags(p)
    p.add_argument("--speak", nargs="?", const="announcements",
                   choices=("announcements", "moves"),
                   help="speak the announcements (espeak-ng, where installed), the points as "
                   "words ('dee four'); '--speak moves' reads every move too")
    p.add_argument("--takeback", choices=("allowed", "refused"), default="refused",
                   help="lifting the last stone played before the opponent answers takes "
                   "the move back ('allowed', a club game) or is refused and announced "
                   "('refused', the default: tournament rules under every rule set, where "
                   "a stone let go of is played)")
    p.add_argument("--linger", type=float, default=10.0, metavar="MINUTES",
                   help="with --serve, keep the page up this long after the recording ends, "
                   "showing the final board and score (default 10; Ctrl-C stops at once)")
    p.add_argument("--rotate", type=int, choices=ROTATIONS, default=None,
                   metavar="{0,90,180,270}",
                   help="turn every reading this many degrees clockwise, so that Black's side "
                   "is row 1: 90 when Black sits at the right of the camera's picture, 180 at "
                   "the top, 270 at the left (default 0: at the bottom; with --resume, the "
                   "orientation the record was made in, which the record keeps)")
    p.add_argument("--time", type=_time_control, metavar="CONTROL",
                   help="the time control, to record each player's time left: 60m+3x30s "
                   "(byo-yomi: 3 periods of 30 s), 30m+20s (Fischer: 20 s added a move), 90m")
    add_lighter_black(p)
    p.set_defaults(func=cmd_record)


def _time_control(text: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _colour(text: str) -> Color:
    """``B``/``W`` (or ``black``/``white``, any case) as a colour."""
    try:
        return Color.parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected B or W, not {text!r}") from None


def add_lighter_black(p: argparse.ArgumentParser) -> None:
    """The ``--lighter-black`` flag of the commands that read stones from a camera."""
    p.add_argument("--lighter-black", action="store_true",
                   help="a stone set of two colours (not black and white) whose lighter "
                        "stones are Black's (else the darker are)")


def _camera_readings(spec: int | str | Path, size: int, interval: float,
                     view: CameraView | None = None,
                     lighter_black: bool = False,
                     search: BoardSearch | None = None) -> Iterator[Observation]:
    """Readings of a camera, stream, video or folder, through one `BoardWatcher` (see
    `kifu.camera_feed`); the source is opened at once (ValueError naming it if it cannot
    be). The images of a folder are photos, each held as a still view for ``interval``
    seconds (`camera_feed.held`). While no board is found every point is unknown (a hand
    or a head in the way). ``view`` is handed every frame with what was seen of it (the
    calibration page). ``lighter_black``: see `vision.config.StoneConfig.lighter_black`.
    ``search`` is given the watcher, to tell whether the board is found."""
    # Loaded only when a camera source is used (the rest of kifu runs without OpenCV).
    from vision.capture import CaptureError, FolderSource, open_source
    from vision.config import STONES
    from vision.watch import BoardWatcher

    from .camera_feed import held, watched

    try:
        source = open_source(spec, interval=interval)
    except CaptureError as exc:
        raise ValueError(str(exc)) from None
    if view is not None:
        view.source = source.name
    watcher = BoardWatcher(size, source=source.name,
                           stone_config=dataclasses.replace(STONES, lighter_black=lighter_black))
    if search is not None:
        search.watcher = watcher
    if isinstance(source, FolderSource):  # (which holds nothing open)
        return watched(held(source, interval), watcher, view)
    return watched(source, watcher, view)


class BoardSearch:
    """Whether a camera's board has been found: after ``patience`` seconds of frames
    without it, `warn` is called once with ``no board found in N frames: REASON`` (again
    after the board was found and lost); `summary` says at the end why nothing was
    recorded. ``watcher`` (a `vision.watch.BoardWatcher`) is set once the camera is open."""

    def __init__(self, patience: float = 10.0) -> None:
        self.patience = patience
        self.watcher: Any = None
        self.frames = 0
        self.found = 0
        self.missing = 0
        self.since: float | None = None
        self.warned = False

    def follow(self, readings: Iterable[Item], warn: Callable[[str], None]) -> Iterator[Item]:
        """Pass the readings on, counting the frames with and without a board."""
        for obs in readings:
            if not isinstance(obs, Observation):
                yield obs
                continue
            self.frames += 1
            if self.watcher is not None and self.watcher.fit is None:
                self.missing += 1
                self.since = obs.time if self.since is None else self.since
                if not self.warned and obs.time - self.since >= self.patience - 1e-6:
                    self.warned = True
                    warn(f"no board found in {self.missing} frames: {self.reason}")
            else:
                self.found += 1
                self.missing, self.since, self.warned = 0, None, False
            yield obs

    @property
    def reason(self) -> str:
        """Why the board is not found (the watcher's words)."""
        why = getattr(self.watcher, "reason", None)
        return str(why) if why else "the grid was not found"

    def summary(self) -> str | None:
        """Why nothing could be recorded, when no frame showed a board; else None."""
        if self.found or self.watcher is None:
            return None
        if not self.frames:
            return "the camera gave no frames"
        return f"no board was found in any of the {self.frames} frames: {self.reason}"


def _check_still_hold(interval: float, stable: float) -> None:
    """Raise ValueError unless photos held ``interval`` seconds each are judged within a
    stability window of ``stable`` seconds (see `camera_feed.longest_stable`)."""
    from .camera_feed import longest_stable

    if interval <= 0:
        raise ValueError(f"--frame-interval must be positive: {interval}")
    longest = longest_stable(interval)
    if stable > longest:
        fix = (f"use --stable {math.floor(longest * 100) / 100:.2f} or less, or"
               if longest >= 0 else "use")
        raise ValueError(
            f"--stable {stable:g} is too long for photos held --frame-interval {interval:g} "
            f"seconds each: the stones of a photo settle and are read before it must stay "
            f"still that long; {fix} a longer --frame-interval")


def _serial_readings(
    spec: str, size: int = 19,
) -> tuple[Iterator[Observation], RealTimeBoard | None]:
    """Readings of a sensor board; and the simulated board for ``sim`` (else None), of
    ``size``. The port is opened at once (ValueError naming it if it cannot be, or if
    pyserial, which the serial path needs, is not installed)."""
    try:
        from firmware_bridge.client import board_for
        from firmware_bridge.errors import BoardNotFound, ConnectionLost
        from firmware_bridge.simulator import RealTimeBoard
    except ModuleNotFoundError as exc:
        if exc.name != "serial":
            raise
        raise ValueError(f"--serial {spec}: pyserial is not installed "
                         f"(pip install pyserial)") from None
    sim = None
    if spec == "sim":
        sim = RealTimeBoard(size)
        spec = sim.port
    board = board_for(spec)
    try:
        board.open()
    except (BoardNotFound, ConnectionLost) as exc:
        if sim is not None:
            sim.close()
        raise ValueError(f"serial {spec}: {exc}") from None

    def readings() -> Iterator[Observation]:
        try:
            yield from board.observations()
        finally:
            board.close()
            if sim is not None:
                sim.close()

    return readings(), sim


def _sim_command(sim: RealTimeBoard, line: str) -> str | None:
    """Carry out ``place D4 b`` / ``lift D4`` on the simulated board; None if the line is
    not such a command. The answer otherwise (``ok`` or ``error ...``)."""
    words = line.split()
    if not words or words[0].lower() not in ("place", "lift"):
        return None
    try:
        point = Point.from_gtp(words[1], height=sim.board.height, width=sim.board.width)
    except (IndexError, ValueError):
        return f"error: say 'place D4 b' or 'lift D4', not {line.strip()!r}"
    if words[0].lower() == "place":
        if len(words) != 3 or words[2].lower() not in ("b", "w"):
            return "error: say 'place D4 b' or 'place D4 w'"
        return str(sim.command(f"place {point.x} {point.y} {words[2].lower()}"))
    return str(sim.command(f"lift {point.x} {point.y}"))


def _speaker() -> Any:
    """A `Speaker` on espeak-ng, or None (said on stderr) where it is not installed."""
    command = speech_command()
    if command is None:
        print("kifu: --speak: neither espeak-ng nor espeak is installed; printing only",
              file=sys.stderr)
        return None
    return Speaker(command)


def _display(
    address: str, game: Game, writer: SgfWriter, commands: queue.Queue[Command],
    properties: dict[str, str], sinks: list[Sink], title: str, *,
    camera: CameraView | None = None, orientation: int = 0,
    allow_hosts: Iterable[str] = (), cors: str | None = None,
) -> DisplayServer:
    """Start the live page for this recording: the board follows the session's outputs
    (a sink added to ``sinks``), serves the SGF as written, and its pass, resign, done
    and undo buttons (behind a token) go to the session as commands, as the keyboard's
    do. So do the calibration page's corrected points and its orientation (the session's starting ``orientation``);
    ``camera`` serves the latest frame there."""
    host, port = parse_address(address)
    names = (properties.get("PB", "Black"), properties.get("PW", "White"))

    def on_command(name: str, color: Color | None) -> None:
        commands.put(Command(verb(name), color))

    def on_orientation(degrees: int) -> None:
        commands.put(Command("orient", degrees=degrees))

    def on_correction(vertex: str, color: Color | None) -> None:
        commands.put(Command("set", color, vertex=vertex))

    board = LiveBoard("board", game.width, game.height, title=title, on_command=on_command,
                      on_orientation=on_orientation, camera=camera,
                      on_correction=on_correction)
    board.describe(title=title, players=names, orientation=orientation)
    board.update(game)

    follow = BoardSink(board, game)

    def show(item: Output, time: float) -> None:
        follow(item, time)
        if writer.clock is not None:
            board.set_clock(writer.clock.reading(time).json())
        board.set_sgf(writer.written)

    sinks.append(show)
    if writer.clock is not None:
        board.set_clock(writer.clock.reading(writer.clock.since).json())
    board.set_sgf(writer.written)
    try:
        server = DisplayServer([board], host, port, allow_hosts=allow_hosts, cors=cors).start()
    except OSError as exc:
        raise ValueError(f"--serve {address}: {exc.strerror or exc}") from None
    print(f"kifu: live board at {server.url} (controls: {server.control_url})", file=sys.stderr)
    if camera is not None:
        print(f"kifu: camera calibration at {server.url}calibrate?token={server.token}",
              file=sys.stderr)
    return server


def _progress(items: Iterable[Item], session: Session, stream: TextIO) -> Iterator[Item]:
    """Pass the items on, keeping a progress line on a terminal."""
    last = 0.0
    for item in items:
        yield item
        if isinstance(item, Observation) and item.time - last >= 1.0:
            last = item.time
            stream.write(f"\r  {item.time:8.1f} s  {session.readings} readings  "
                         f"move {session.game.number}  ")
            stream.flush()
    stream.write("\n")


def _until(done: Callable[[], bool], timeout: float) -> bool:
    """Wait until ``done()`` (polled), at most ``timeout`` seconds; whether it came."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)
    return True


READ_PATIENCE = 60.0
"""Seconds a line typed for the simulated board waits for the session to read the board
as the line left it (`_keyboard`): a session slowed down (a starved computer, a slow disk)
reads it late, but reads it."""


def _read_as_it_lies(session: Session, sim: RealTimeBoard) -> Callable[[], bool]:
    """A test of whether the session's latest reading shows the simulated board as its
    stones lie now (each point as the board will report it once scanned), turned to the
    session's orientation at the time of the test."""
    from firmware_bridge.protocol import states_to_cells

    lying = states_to_cells(sim.settles_to())
    width, height = sim.board.width, sim.board.height

    def read() -> bool:
        last = session.last_reading
        return last is not None and last.cells == rotate_cells(
            lying, width, height, session.orientation)

    return read


def _keyboard(
    commands: queue.Queue[Command], stream: TextIO, err: TextIO,
    sim: RealTimeBoard | None = None,
    session: Session | None = None, stop: threading.Event | None = None,
) -> None:
    """Read commands from ``stream`` (a terminal or a pipe) until its end, and queue them
    for the session. With a simulated board, its ``place``/``lift`` lines are carried
    out here, and each line waits until the session has seen what the one before did (a
    reading of the board as the stones now lie, `_read_as_it_lies`; a command handled),
    so that a piped script is judged in its order however late the session reads; at the
    end of the input, ``stop`` is set (nothing else can move the simulated board). A
    board not read as it lies within `READ_PATIENCE` seconds is said on ``err``, and the
    next line goes on."""
    try:
        for line in stream:
            if not line.strip():
                continue
            if sim is not None:
                answer = _sim_command(sim, line)
                if answer is not None:
                    if answer != "ok":
                        print(f"kifu: {answer}", file=err, flush=True)
                    elif session is not None and not _until(
                            _read_as_it_lies(session, sim), READ_PATIENCE):
                        print(f"kifu: {line.strip()}: the board was not read as it lies "
                              f"within {READ_PATIENCE:g} s; going on", file=err, flush=True)
                    continue
            try:
                commands.put(parse_command(line))
            except ValueError as exc:
                print(f"kifu: {exc}", file=err, flush=True)
                continue
            if sim is not None:
                _until(commands.empty, 3.0)
    except (OSError, ValueError):  # no input to read (closed, or a test's)
        pass
    if sim is not None and stop is not None:
        stop.set()


def _linger(server: DisplayServer, minutes: float) -> None:
    """Keep the page up ``minutes`` after the recording (Ctrl-C ends it at once)."""
    if minutes <= 0:
        return
    print(f"kifu: the final board stays at {server.url} for {minutes:g} minutes "
          f"(Ctrl-C to stop)", file=sys.stderr, flush=True)
    try:
        threading.Event().wait(minutes * 60)
    except KeyboardInterrupt:
        pass


def _resumed_orientation(given: int | None, saved: int | None, record: Path) -> int:
    """The orientation to read a resumed game in: ``given`` (``--rotate``) where given,
    else ``saved``, the one the record was made in (0 where it does not say). Says on
    stderr which one holds when they differ."""
    if given is None:
        if saved:
            print(f"kifu: reading the board turned {saved}° as {record} was recorded "
                  f"(--rotate to change it)", file=sys.stderr, flush=True)
        return saved or 0
    if saved is not None and given != saved:
        print(f"kifu: --rotate {given} overrides the orientation {record} was recorded in "
              f"({saved}°)", file=sys.stderr, flush=True)
    return given


def cmd_record(args: argparse.Namespace) -> int:
    out = args.out or args.resume
    if out is None:
        raise ValueError("record needs --out GAME.sgf (or --resume GAME.sgf)")
    if args.resume is None and out.exists():
        raise ValueError(f"{out} exists: continue it with --resume {out}, or choose another --out")
    if args.stable is None:
        args.stable = 0.0 if args.serial is not None else 0.5
    if args.stable < 0:
        raise ValueError(f"--stable must not be negative: {args.stable}")
    if args.linger < 0:
        raise ValueError(f"--linger must not be negative: {args.linger}")
    if args.frames is not None:
        _check_still_hold(args.frame_interval, args.stable)
    if args.first is not None and (args.resume is not None or args.handicap):
        raise ValueError("--first is for a new game without handicap stones (a resumed "
                         "record says who is to play; White plays first after a handicap)")

    broker = BrokerUrl.parse(LOCAL_URL if args.mqtt == "local" else args.mqtt,
                             ca=args.mqtt_ca) if args.mqtt else None
    if args.mqtt_ca is not None and broker is None:
        raise ValueError(f"--mqtt-ca {args.mqtt_ca} is for --mqtt mqtts://...: give --mqtt too")
    if broker is not None and args.board is None:
        raise ValueError("--mqtt needs --board ID (the board's number or name in the event)")
    if args.board is not None:
        if broker is None:
            raise ValueError("--board names the board for --mqtt: give --mqtt too")
        check_board_id(args.board)

    properties: dict[str, str] = {}
    record: bytes | None = None  # a resumed record's bytes, written back as they are
    decided: dict[str, str] = {}  # what this session says on a resumed record's root
    clock = None if args.time is None else Clock(args.time)
    if args.resume is not None:
        try:
            data = args.resume.read_bytes()
        except OSError as exc:
            raise ValueError(f"{args.resume}: {exc.strerror or exc}") from None
        rules = preset(args.rules or rules_for(parse_sgf(data, str(args.resume))))
        done = resume(data, rules, str(args.resume), args.komi, args.time)
        game, record, clock = done.game, done.data, done.clock
        if args.komi is not None:
            decided["KM"] = f"{game.komi:g}"
        if args.rules:
            decided["RU"] = game.rules.name
        properties.update(done.record.properties)
        setup, moves, times = done.record.setup, done.moves, done.times
        captured = done.captured
        rotate = _resumed_orientation(args.rotate, done.record.orientation, args.resume)
    else:
        rotate = args.rotate or 0
        game = Game(preset(args.rules or "chinese"), args.size, komi=args.komi)
        properties["DT"] = datetime.date.today().isoformat()
        setup, moves, times, captured = Setup(), [], [], {}
        if args.first is Color.WHITE:
            game.setup(to_move=Color.WHITE)
            setup = Setup(to_move=Color.WHITE)
    if args.player_black:
        properties["PB"] = decided["PB"] = args.player_black
    if args.player_white:
        properties["PW"] = decided["PW"] = args.player_white
    if clock is not None and record is None:
        clock.running = game.to_move
    size = game.width
    items: Iterable[Item]
    sim = None
    view = None
    search: BoardSearch | None = None
    if args.serial is not None:
        items, sim = _serial_readings(args.serial, size)
    elif args.observations is not None:
        items = load_script(args.observations)
    else:
        spec = next(s for s in (args.camera, args.url, args.video, args.frames) if s is not None)
        view = CameraView() if args.serve else None
        search = BoardSearch()
        items = _camera_readings(spec, size, args.frame_interval, view, args.lighter_black,
                                 search)

    # The source is open: from now on the record is on disk.
    writer = SgfWriter(out, game, properties=properties if record is None else decided,
                       setup=setup, moves=moves, times=times, record=record, clock=clock,
                       orientation=rotate)
    tracker = Tracker(game, stable_for=args.stable, handicap=args.handicap,
                      min_confidence=args.min_confidence, captured=captured,
                      max_moves=MAX_HIDDEN, guess=True)
    sinks: list[Sink] = [writer, TerminalAnnouncer(as_json=args.json)]
    speaker = _speaker() if args.speak else None
    if speaker is not None:
        sinks.append(SpokenAnnouncer(speaker, moves=args.speak == "moves"))
    commands: queue.Queue[Command] = queue.Queue()
    server = None
    if args.serve:
        server = _display(args.serve, game, writer, commands, properties, sinks, out.stem,
                          camera=view, orientation=rotate,
                          allow_hosts=args.allow_host, cors=args.cors)
    publisher = None
    embedded = None
    if args.mqtt == "local":
        embedded = local_broker()
    if broker is not None and args.board is not None:
        publisher = BoardPublisher(
            broker, args.board, game, lambda: writer.written, title=out.stem,
            players=(properties.get("PB", "Black"), properties.get("PW", "White")),
            seq_path=seq_file(out),
        ).start()
        sinks.append(publisher)
    session = Session(tracker, sinks, orientation=rotate,
                      takeback=args.takeback == "allowed")
    if search is not None:
        items = search.follow(items, lambda text: session.announce(Kind.NO_BOARD, text))
    live = args.camera is not None or args.url is not None or args.serial is not None
    if not live and sys.stderr.isatty():
        items = _progress(items, session, sys.stderr)

    stop = threading.Event()
    if args.observations is None and sys.stdin is not None:
        reader = threading.Thread(
            target=_keyboard, args=(commands, sys.stdin, sys.stderr, sim, session, stop),
            daemon=True,
        )
        reader.start()
        if sys.stdin.isatty():
            print(f"say at the keyboard: {HELP}", file=sys.stderr)
        if sim is not None:
            print(f"simulated board on {sim.port}: place D4 b | place Q16 w | lift D4",
                  file=sys.stderr)
    interrupted = False
    try:
        session.run(items, commands, stop)
    except KeyboardInterrupt:
        interrupted = True
        print("\nstopped; the record is safe", file=sys.stderr)
    finally:
        if publisher is not None and not publisher.close() and publisher.failure is None:
            print(f"kifu: the broker at {publisher.url.host}:{publisher.url.port} did not "
                  "take every update before the end; the record is safe in the SGF",
                  file=sys.stderr)
        if embedded is not None:
            embedded.stop()
        if speaker is not None:
            speaker.close(timeout=2)
    if not args.json:
        why = search.summary() if search is not None and not game.number else None
        print(f"{game.number} moves recorded in {out}" + (f": {why}" if why else ""),
              file=sys.stderr)
    if server is not None:
        if not interrupted:
            _linger(server, args.linger)
        server.stop()
    if publisher is not None and publisher.failure is not None:
        print(f"kifu: {publisher.failure}", file=sys.stderr)
        return 2
    return 0


__all__ = ["cmd_record", "register"]
