"""``kifu demo --hall``: a club evening on one laptop.

Three games of the 2016 match (Lee Sedol vs AlphaGo, games 1, 2 and 4, bundled as data) are
played side by side on three simulated sensor boards. Each board is recorded by its own
``kifu record --serial sim --mqtt ... --board N`` process, as each board of a club has its
own small computer; they publish to an MQTT broker started inside the demo (amqtt, or the
one already listening on the port), and one hall page, whose address is printed, shows the
three. The demo plays each record's stones onto its board (captured stones lifted after the
capturing move, a resignation where the record ends with one), then checks each recorded
SGF against its source, and keeps the hall up until Ctrl-C (or ``linger`` seconds).

With ``films``, the three games are instead filmed as cameras would see them played (hands
over the moves, captured stones lifted late, the light changing; rendered once, then
cached), and each board is recorded from its film through the camera path, ``kifu record
--video FILM --mqtt ... --board N``, as fast as the computer reads the frames; the referee is
told the resignation once the board has seen the last move, the film holding the final
position still for `TAIL` seconds so that it is heard.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import IO, TextIO

from rules import Game, preset

from .broker import LOCAL_PORT, local_broker
from .cmd_hall import DEFAULT_PORT, Subscriber
from .display.hall_server import HallServer
from .hall import Hall, Pairing
from .mqtt import BrokerUrl
from .sgf import Record, load

GAMES = ("lee-sedol-alphago-1.sgf", "lee-sedol-alphago-2.sgf", "lee-sedol-alphago-4.sgf")
EVENT = "demo"
TAIL = 4.0
"""Seconds a board's film holds the final position: time for the resignation to be said."""


def bundled(name: str) -> Record:
    """A bundled game record."""
    with resources.as_file(resources.files("kifu") / "data" / name) as path:
        return load(path)


def moves_script(record: Record, moves: int | None = None) -> Iterator[list[str]]:
    """What a player does at a simulated board to play ``record`` (its first ``moves``
    moves, or all): for each move, the lines for ``kifu record --serial sim`` (the stone
    placed, then each stone it captures lifted; or ``pass``); at the end of a whole record
    that ends by resignation, the resignation."""
    game = Game(preset("chinese"), record.width, komi=record.komi)
    for move in record.moves[:moves]:
        if move.point is None:
            game.pass_()
            yield [f"pass {move.color.letter}"]
            continue
        event = game.play(move.point)
        yield [f"place {move.point.gtp()} {move.color.letter.lower()}"] + \
            [f"lift {p.gtp()}" for p in event.captured]
    resign = resignation(record, moves)
    if resign is not None:
        yield [resign]


def resignation(record: Record, moves: int | None = None) -> str | None:
    """The command that ends ``record`` (``resign W``, say) when its first ``moves`` moves
    (or all) are the whole game and it ends by resignation; None otherwise."""
    result = str(record.properties.get("RE", ""))
    if len(record.moves[:moves]) == len(record.moves) and result[2:].lower().startswith("r"):
        return f"resign {'W' if result.startswith('B') else 'B'}"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _resign_at_end(proc: subprocess.Popen[bytes], last: int, resign: str | None) -> None:
    """Read a filmed board's session (``--json`` lines) and, once it has seen move number
    ``last``, give it ``resign``; then end its input."""
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for line in proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if resign is not None and event.get("event") in ("move", "pass") \
                    and event.get("number") == last:
                proc.stdin.write(resign.encode() + b"\n")
                break
        proc.stdin.close()
        for _ in proc.stdout:
            pass
    except OSError:  # the session is gone; its log says why
        pass


def _play(proc: subprocess.Popen[bytes], script: Iterator[list[str]], pace: float,
          stop: threading.Event) -> None:
    """Feed ``script`` to a recording session, one move every ``pace`` seconds; then end
    its input (the session ends with it)."""
    assert proc.stdin is not None
    try:
        for lines in script:
            if stop.wait(pace):
                break
            proc.stdin.write("".join(line + "\n" for line in lines).encode())
            proc.stdin.flush()
        proc.stdin.close()
    except OSError:  # the session is gone; its log says why
        pass


def run(folder: Path, *, port: int = DEFAULT_PORT, broker_port: int = LOCAL_PORT,
        pace: float = 1.0, moves: int | None = None, linger: float | None = None,
        films: bool = False, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Play the three games on three recorded boards and show them in one hall (see the
    module). ``port`` is the hall page's (0: a free one), ``broker_port`` the broker's (0:
    a free one); ``moves`` plays only the first moves of each game. After the games the
    hall stays up ``linger`` seconds (None: until Ctrl-C). 0 when every record equals its
    source game, 1 otherwise. ``films``: the boards are recorded from films (see the
    module); ``err`` hears how the filming goes."""
    out = out or sys.stdout
    err = err or sys.stderr
    for flag, value, least in (("--pace", pace, 0), ("--moves", moves, 1), ("--linger", linger, 0)):
        if value is not None and value < least:
            raise ValueError(f"{flag} must be at least {least}: {value:g}")
    folder.mkdir(parents=True, exist_ok=True)
    records = [bundled(name) for name in GAMES]
    videos = [_film(n, record, folder, moves, err) for n, record in enumerate(records, start=1)
              ] if films else []
    pairings = {str(n): Pairing(str(n), str(r.properties.get("PB", "Black")),
                                str(r.properties.get("PW", "White")))
                for n, r in enumerate(records, start=1)}
    broker_port = broker_port or free_port()
    try:
        embedded = local_broker(broker_port)
    except OSError as exc:
        raise ValueError(str(exc)) from None
    url = BrokerUrl("127.0.0.1", broker_port, EVENT)
    hall = Hall(EVENT, pairings=pairings)
    lock = threading.Lock()
    try:
        server = HallServer(hall, lock, "127.0.0.1", port).start()
    except OSError as exc:
        if embedded is not None:
            embedded.stop()
        raise ValueError(f"--port {port}: {exc.strerror or exc}") from None
    subscriber = Subscriber(url, hall, lock, server).start()
    subscriber.subscribed.wait(10)
    boards = "three films, as cameras see them," if films else "three simulated sensor boards,"
    print(f"kifu demo --hall: Lee Sedol vs AlphaGo (2016), games 1, 2 and 4 side by side on "
          f"{boards} each recorded by its own kifu record --mqtt "
          f"mqtt://127.0.0.1:{broker_port}/{EVENT}\nhall: {server.url}  (organiser: "
          f"{server.organiser_url})", file=out, flush=True)
    stop = threading.Event()
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[IO[bytes]] = []
    sgfs = [folder / f"board{n}.sgf" for n in range(1, len(records) + 1)]
    status = 0
    try:
        for n, (record, sgf) in enumerate(zip(records, sgfs), start=1):
            for old in (sgf, sgf.with_name(sgf.name + ".mqtt-seq")):
                old.unlink(missing_ok=True)
            p = pairings[str(n)]
            logs.append((folder / f"board{n}.log").open("wb"))
            source = ["--video", str(videos[n - 1]), "--json"] if films else ["--serial", "sim"]
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "kifu.cli", "record", *source, "--size",
                 str(record.width), "--out", str(sgf), "--rules", "chinese", "--komi",
                 f"{record.komi if record.komi is not None else 7.5:g}", "--player-black",
                 p.black, "--player-white", p.white, "--mqtt", f"{url.address}/{EVENT}",
                 "--board", str(n)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE if films else subprocess.DEVNULL,
                stderr=logs[-1], env={**os.environ, "PYTHONUNBUFFERED": "1"}))
        players = [
            threading.Thread(target=_resign_at_end, args=(
                proc, len(r.moves[:moves]), resignation(r, moves)), daemon=True) if films else
            threading.Thread(target=_play, args=(proc, moves_script(r, moves), pace, stop),
                             daemon=True)
            for proc, r in zip(procs, records)]
        for t in players:
            t.start()
        for proc in procs:
            proc.wait()
        for n, (record, sgf, proc) in enumerate(zip(records, sgfs, procs), start=1):
            status = max(status, _check(n, record, sgf, proc.returncode, moves, out))
        print(f"the hall stays at {server.url} "
              + ("(Ctrl-C to stop)" if linger is None else f"for {linger:g} s"),
              file=out, flush=True)
        stop.wait(linger)
    except KeyboardInterrupt:
        stop.set()
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
        print("\ndemo stopped; the records are safe in " + str(folder), file=out)
    finally:
        for log in logs:
            log.close()
        subscriber.stop()
        server.stop()
        if embedded is not None:
            embedded.stop()
    return status


def _film(n: int, record: Record, folder: Path, moves: int | None, err: TextIO) -> Path:
    """Board ``n``'s film of ``record`` (its first ``moves`` moves), cached in ``folder``:
    hands, late captures and the changing light of the demo's film, no camera bump, the
    final position held `TAIL` seconds."""
    from vision.film import Take

    from .demo import film

    take = Take(fps=8.0, hold=1.0, seed=n)
    return film(record, folder, err, name=f"board{n}", take=take, moves=moves, tail=TAIL)


def _check(n: int, record: Record, sgf: Path, code: int, moves: int | None,
           out: TextIO) -> int:
    """Say how board ``n``'s record compares with its source game; 0 if it equals it."""
    source = [m.gtp() for m in record.moves[:moves]]
    try:
        recorded = load(sgf)
    except (OSError, ValueError) as exc:
        print(f"board {n}: FAILED: no record ({exc}); see {sgf.with_suffix('.log')}", file=out)
        return 1
    got = [m.gtp() for m in recorded.moves]
    result = recorded.properties.get("RE", "no result")
    same = got == source and code == 0
    print(f"board {n}: {len(got)} moves recorded in {sgf} ({result}); "
          + ("equals the source game" if same else
             f"FAILED: differs from the source (exit {code}); see {sgf.with_suffix('.log')}"),
          file=out, flush=True)
    return 0 if same else 1


__all__ = ["GAMES", "TAIL", "moves_script", "resignation", "run"]
