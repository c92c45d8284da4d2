"""The hall under an event's load, all on loopback: a real Mosquitto, N boards (each a real
MQTT client, `kifu.mqtt.BoardPublisher`, replaying a real game from ../shared/games), a
`kifu hall` process, and V viewers of its event stream.

    .venv/bin/python benchmarks/hall_load.py [--boards 200] [--viewers 1000]
        [--interval 2.0] [--speedup 4] [--moves 20] [--restart] [--procs 4]
        [--code DIR ...]

Each board plays one move every ``interval / speedup`` seconds, its start spread over one
interval. The viewers read the organiser's stream, which carries every board's move number.
Each is a plain socket speaking just enough HTTP, read by an asyncio loop as data comes,
``--procs`` processes of them; every ``--sample``-th viewer reads the board and move number
of each update (two regular expressions, no JSON), the others read into one scratch buffer
and look at nothing: the load generator shares the machine's cores with the hall and must
not starve it. They accept gzip, as browsers do (``--plain``: not); only the viewers that
read inflate.

Printed, per viewer that reads and per board: updates delivered; **lost**, a board's final
state (its last move) that never reached the viewer (goal 0); **coalesced**, an intermediate
state the viewer never saw because a later one of the same board came in its place (a
viewer that falls behind skips to the latest state of each board; not a loss); out of
order, a lower move number after a higher one (goal 0). **The delay** from a move's
publication (the board process's clock as it hands the move to its MQTT client) to its
arrival in each viewer's socket: the kernel's time of arrival of the read that brought it
(SO_TIMESTAMPNS; on loopback that is when the hall's write went through), so the time a
viewer process waits for a core is not counted: it is what the boards, the broker and the
hall cost, and what a browser on its own machine would see. **Read**: the same to the
moment the viewer's code read it, the generator's own wait for a core included (what the
figures were before; the two differ by what gzip and parsing cost the generator on the
hall's cores). Median and 99th percentile; the clocks are one machine's. CPU seconds over
the game of the hall, of the generator (the viewer processes, and the boards' process) and
of the broker; the hall's peak memory (RSS). ``--restart`` also stops and restarts the
broker once in mid-game (the hall and boards reconnect; nothing may be lost).

``--code DIR`` (repeatable) runs the hall from another checkout of kifu, an older commit
say, each in turn under the same load: a before-and-after in one run. Default: this one.

Goals (issue 23): 0 lost, 0 out of order, p99 < 500 ms. Measured for 200 boards (a move
every 2 s: ``--speedup 1``) and 1,000 gzip viewers, generator and hall on the same 2 cores
with other work (load average 15-20): 0 lost, 0 out of order, to the socket median 150-200
ms, p99 0.3-0.8 s; with the broker restarted, 0 lost, p99 2-3.5 s (the restart's gap).
The figures swing with the machine's load: compare codes in one run (``--code``), each row
in a process of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from array import array
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT.parent / "shared" / "games"
sys.path.insert(0, str(ROOT))


BOARD = re.compile(rb'\ndata: ?\{"id":"([^"]*)"')
NUMBER = re.compile(rb',"number":(\d+)')
"""A board update's id and its move number: every update has one of each, in this order
(two searches for a literal each are ten times quicker than one spanning the update)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port}")


class Mosquitto:
    def __init__(self, folder: Path, port: int) -> None:
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(binary).exists():
            raise SystemExit("Mosquitto is not installed (apt-get install mosquitto)")
        self.binary, self.port = binary, port
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                             f"persistence true\npersistence_location {folder}/\n"
                             f"user {os.environ.get('USER', 'root')}\nlog_dest none\n"
                             "max_queued_messages 100000\n")
        self.proc: subprocess.Popen[bytes] | None = None
        self.cpu = 0.0
        """CPU seconds of the broker processes stopped so far."""

    def start(self) -> None:
        self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                     stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.cpu += proc_stats(self.proc.pid)[0]
            self.proc.terminate()
            self.proc.wait(10)

    def cpu_now(self) -> float:
        running = proc_stats(self.proc.pid)[0] if self.proc and self.proc.poll() is None else 0
        return self.cpu + running


def game_moves(limit: int, count: int) -> list[list[str]]:
    """The first ``limit`` moves of ``count`` real 19x19 games (GTP vertices)."""
    from kifu.sgf import load

    out: list[list[str]] = []
    for path in sorted(GAMES.rglob("*.sgf")):
        try:
            record = load(path)
        except Exception:  # noqa: BLE001 - a record kifu refuses is skipped
            continue
        if (record.width, record.height) != (19, 19) or record.setup.black or record.setup.white:
            continue
        moves = [m.point.gtp() for m in record.moves[:limit] if m.point is not None]
        if len(moves) == limit:
            out.append(moves)
        if len(out) == count:
            break
    return out


def run_boards(port: int, games: list[list[str]], step: float, spread: float,
               published: dict[tuple[str, int], float], restart: threading.Event | None,
               broker: Mosquitto) -> float:
    """Play every game on its own board client; returns when all moves are published."""
    from kifu.mqtt import BoardPublisher, BrokerUrl
    from rules import Game, IllegalMoveError, MovePlayed, Passed, Point

    url = BrokerUrl("127.0.0.1", port, "load")
    boards = []
    for i, moves in enumerate(games):
        game = Game("chinese", 19)
        pub = BoardPublisher(url, str(i + 1), game, lambda: b"(;GM[1]SZ[19])").start()
        boards.append((str(i + 1), pub, game, moves, spread * i / max(1, len(games))))
    for _, pub, *_ in boards:
        pub.connected.wait(20)
    t0 = time.monotonic() + 1.0
    total = max(len(m) for *_, m, _ in boards)
    for k in range(total):
        if restart is not None and k == total // 2 and not restart.is_set():
            restart.set()
            broker.stop()
            broker.start()
        for board_id, pub, game, moves, offset in boards:
            when = t0 + offset + k * step
            delay = when - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            event: MovePlayed | Passed
            try:
                event = game.play(Point.from_gtp(moves[k]))
            except IllegalMoveError:
                event = game.pass_()
            published[(board_id, game.number)] = time.time()
            pub(event, when)
    ok = all(pub.close(timeout=30) for _, pub, *_ in boards)
    return 1.0 if ok else 0.0


# -- the viewers ---------------------------------------------------------------------------


SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
"""Linux: each read of the socket carries the time its (last) data reached the kernel."""

STAMP_SPACE = socket.CMSG_SPACE(16)


class Tally:
    """What one process's viewers saw: per viewer, the last move number of each board; per
    (board, move), when each viewer's kernel first had it (``arrivals``) and when the viewer
    read it (``readings``); how often a number went backwards."""

    def __init__(self, count: int) -> None:
        self.last: list[dict[bytes, int]] = [{} for _ in range(count)]
        self.arrivals: dict[tuple[bytes, int], array[float]] = {}
        self.readings: dict[tuple[bytes, int], array[float]] = {}
        self.disorder = 0
        self.connected = 0
        self.dropped = 0


class Viewer:
    """One event-stream viewer on a socket of its own: a GET, then the stream read as it
    comes (`readable`, called by the loop). One that parses asks the kernel when each read's
    data arrived (SO_TIMESTAMPNS), so that its figures do not count the time this process
    waited for a core; the others read into one scratch buffer and look at nothing."""

    scratch = bytearray(1 << 18)

    def __init__(self, sock: socket.socket, index: int, tally: Tally, parse: bool) -> None:
        self.sock = sock
        self.index = index
        self.parse = parse
        self.tally = tally
        self.last = tally.last[index]
        self.buf = b""
        self.head: bytes | None = b""
        self.inflate: Any = None
        if parse:
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)

    def readable(self) -> None:
        if not self.parse:
            try:
                n = self.sock.recv_into(self.scratch)
            except BlockingIOError:
                return
            except OSError:
                n = 0
            if n == 0:
                self.gone()
            elif self.head is not None:
                self.head = None
                self.tally.connected += 1
            return
        try:
            data, ancillary, _, _ = self.sock.recvmsg(1 << 18, STAMP_SPACE)
        except BlockingIOError:
            return
        except OSError:
            data, ancillary = b"", []
        if not data:
            self.gone()
            return
        now = time.time()
        stamp = now
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack("qq", payload[:16])
                stamp = sec + nsec * 1e-9
        self.take(data, stamp, now)

    def gone(self) -> None:
        asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.tally.dropped += 1

    def take(self, data: bytes, stamp: float, now: float) -> None:
        if self.head is not None:
            head = self.head + data
            start = head.find(b"\r\n\r\n")
            if start < 0:
                self.head = head
                return
            self.head, data = None, head[start + 4:]
            if b"\ncontent-encoding: gzip" in head[:start].lower():
                self.inflate = zlib.decompressobj(31)
            self.tally.connected += 1
        if self.inflate is not None:
            data = self.inflate.decompress(data)
        buf = self.buf + data if self.buf else data
        end = buf.rfind(b"\n\n")
        if end < 0:
            self.buf = buf
            return
        self.buf = buf[end + 2:]
        last, arrivals, readings = self.last, self.tally.arrivals, self.tally.readings
        numbers = map(int, NUMBER.findall(buf, 0, end))
        for board, n in zip(BOARD.findall(buf, 0, end), numbers):
            before = last.get(board, -1)
            if n <= before:
                self.tally.disorder += n < before
                continue
            last[board] = n
            times = arrivals.get((board, n))
            if times is None:
                times = arrivals[(board, n)] = array("d")
                readings[(board, n)] = array("d")
            times.append(stamp)
            readings[(board, n)].append(now)


async def viewers(port: int, path: str, first: int, count: int, stop: Any,
                  out: mp.Queue, ready: Any, gzip: bool,  # type: ignore[type-arg]
                  sample: int) -> None:
    loop = asyncio.get_running_loop()
    tally = Tally(count)
    accept = "Accept-Encoding: gzip, deflate\r\n" if gzip else ""
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Accept: text/event-stream\r\n{accept}\r\n").encode()
    socks = []
    for i in range(count):
        for _ in range(50):
            sock = socket.socket()
            sock.setblocking(False)
            try:
                await loop.sock_connect(sock, ("127.0.0.1", port))
                await loop.sock_sendall(sock, request)
            except OSError:
                sock.close()
                await asyncio.sleep(0.1)
                continue
            viewer = Viewer(sock, i, tally, (first + i) % sample == 0)
            loop.add_reader(sock.fileno(), viewer.readable)
            socks.append(sock)
            break
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # let the hall accept them
    while tally.connected < count and not stop.is_set():
        await asyncio.sleep(0.1)
    with ready.get_lock():
        ready.value += tally.connected
    while not stop.is_set():
        await asyncio.sleep(0.2)
    dropped = tally.dropped
    for sock in socks:
        loop.remove_reader(sock.fileno())
        sock.close()
    last = [{b.decode(): n for b, n in per.items()} for i, per in enumerate(tally.last)
            if (first + i) % sample == 0]
    arrivals = {(b.decode(), n): times for (b, n), times in tally.arrivals.items()}
    readings = {(b.decode(), n): times for (b, n), times in tally.readings.items()}
    out.put((first, last, arrivals, tally.disorder, dropped, readings))


def viewer_process(port: int, path: str, first: int, count: int, stop: Any,
                   out: mp.Queue, ready: Any, gzip: bool,  # type: ignore[type-arg]
                   sample: int) -> None:
    asyncio.run(viewers(port, path, first, count, stop, out, ready, gzip, sample))


def proc_stats(pid: int) -> tuple[float, int]:
    """CPU seconds and peak RSS (bytes) of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    peak = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) * 1024
    return cpu, peak


def own_cpu() -> float:
    t = os.times()
    return t.user + t.system


def run(args: argparse.Namespace, code: Path, restart: bool) -> dict[str, Any]:
    games = game_moves(args.moves, args.boards)
    if len(games) < args.boards:
        raise SystemExit(f"only {len(games)} usable games in {GAMES}")
    folder = Path(tempfile.mkdtemp(prefix="hall-load-"))
    broker = Mosquitto(folder, free_port())
    broker.start()
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(code)}
    hall = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli", "hall", f"mqtt://127.0.0.1:{broker.port}/load",
         "--port", str(port)], stderr=subprocess.PIPE, text=True, cwd=code, env=env)
    try:
        line = hall.stderr.readline() if hall.stderr else ""
        token = line.rsplit("token=", 1)[1].strip(" )\n") if "token=" in line else ""
        wait_port(port)
        step = args.interval / args.speedup
        stop = mp.Event()
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        ready = mp.Value("i", 0)
        shares = [args.viewers // args.procs + (i < args.viewers % args.procs)
                  for i in range(args.procs)]
        procs = [mp.Process(target=viewer_process, args=(
            port, f"/api/v1/events?token={token}", sum(shares[:i]), shares[i], stop, q, ready,
            not args.plain, args.sample))
            for i in range(args.procs)]
        for viewer in procs:
            viewer.start()
        deadline = time.monotonic() + 90
        while ready.value < args.viewers and time.monotonic() < deadline:
            time.sleep(0.1)
        connected = ready.value
        published: dict[tuple[str, int], float] = {}
        cpu0 = proc_stats(hall.pid)[0]
        gen0 = sum(proc_stats(v.pid or 0)[0] for v in procs)
        own0, broker0 = own_cpu(), broker.cpu_now()
        wall0 = time.monotonic()
        run_boards(broker.port, games, step, step, published,
                   threading.Event() if restart else None, broker)
        time.sleep(8 if restart else 3)
        wall = time.monotonic() - wall0
        cpu1, peak = proc_stats(hall.pid)
        gen1 = sum(proc_stats(v.pid or 0)[0] for v in procs)
        own1, broker1 = own_cpu(), broker.cpu_now()
        stop.set()
        parts = sorted((q.get(timeout=300) for _ in procs), key=lambda part: part[0])
        for viewer in procs:
            viewer.join(30)
    finally:
        hall.terminate()
        hall.wait(10)
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    final: dict[str, int] = {}
    for b, n in published:
        final[b] = max(final.get(b, 0), n)
    last = [per for _, lasts, *_ in parts for per in lasts]
    arrivals: dict[tuple[str, int], list[float]] = {}
    readings: dict[tuple[str, int], list[float]] = {}
    for part in parts:
        for key, times in part[2].items():
            arrivals.setdefault(key, []).extend(times)
        for key, times in part[5].items():
            readings.setdefault(key, []).extend(times)
    delivered = sum(len(arrivals.get(key, ())) for key in published)
    lost = sum(1 for per in last for b, n in final.items() if per.get(b) != n)
    delivered_final = sum(len(arrivals.get((b, n), ())) for b, n in final.items())
    coalesced = (len(published) - len(final)) * len(last) - (delivered - delivered_final)
    delays = sorted(t - published[key] for key, times in arrivals.items() if key in published
                    for t in times)
    read = sorted(t - published[key] for key, times in readings.items() if key in published
                  for t in times)
    return {
        "code": code, "restart": restart, "step": step, "viewers": args.viewers,
        "boards": args.boards, "connected": connected, "published": len(published),
        "delivered": delivered, "lost": lost, "parsed": len(last), "finals": len(final) * len(last),
        "coalesced": coalesced, "disorder": sum(p[3] for p in parts),
        "dropped": sum(p[4] for p in parts),
        "median": statistics.median(delays) if delays else float("nan"),
        "p99": delays[int(0.99 * (len(delays) - 1))] if delays else float("nan"),
        "read_median": statistics.median(read) if read else float("nan"),
        "read_p99": read[int(0.99 * (len(read) - 1))] if read else float("nan"),
        "hall_cpu": cpu1 - cpu0, "gen_cpu": gen1 - gen0, "boards_cpu": own1 - own0,
        "broker_cpu": broker1 - broker0, "peak": peak, "wall": wall,
    }


def _run_into(out: mp.Queue, args: argparse.Namespace, code: Path,  # type: ignore[type-arg]
              restart: bool) -> None:
    out.put(run(args, code, restart))


def run_apart(args: argparse.Namespace, code: Path, restart: bool) -> dict[str, Any]:
    """`run` in a process of its own: a row run after another inherits nothing of it (its
    boards' process would carry the first row's garbage and threads, which slowed the
    second row of a pair by half again, whichever code it ran)."""
    out: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    proc = mp.Process(target=_run_into, args=(out, args, code, restart))
    proc.start()
    try:
        result: dict[str, Any] = out.get()
    finally:
        proc.join()
    return result


def report(r: dict[str, Any]) -> None:
    label = "with the broker restarted once" if r["restart"] else "steady"
    print(f"\n{r['code']}, {label}: {r['boards']} boards x {r['published'] // r['boards']} "
          f"moves, one every {r['step']:.2f} s; {r['connected']} of {r['viewers']} "
          f"viewers connected")
    print(f"  moves published          {r['published']}")
    print(f"  viewers that read        {r['parsed']} (the others take what they get unread)")
    print(f"  updates delivered        {r['delivered']}  "
          f"({r['delivered'] / max(1, r['parsed']):.0f} per viewer that reads)")
    print(f"  lost (final states)      {r['lost']} of {r['finals']}")
    print(f"  coalesced (intermediate) {r['coalesced']}")
    print(f"  out of order             {r['disorder']}")
    print(f"  streams dropped          {r['dropped']}")
    print(f"  delay median / p99       {r['median'] * 1000:.0f} ms / {r['p99'] * 1000:.0f} ms"
          "  (to the viewer's socket)")
    print(f"  read median / p99        {r['read_median'] * 1000:.0f} ms / "
          f"{r['read_p99'] * 1000:.0f} ms  (to the viewer's code, its own wait for a core in it)")
    print(f"  CPU over {r['wall']:.0f} s          hall {r['hall_cpu']:.1f} s; viewers "
          f"{r['gen_cpu']:.1f} s, boards {r['boards_cpu']:.1f} s, broker "
          f"{r['broker_cpu']:.1f} s")
    print(f"  hall peak RSS            {r['peak'] / 2**20:.0f} MB", flush=True)


def table(rows: list[dict[str, Any]]) -> None:
    print("\n| code | boards | viewers | move every | lost (final) | coalesced | out of order "
          "| median | p99 | read median / p99 | hall CPU | generator CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['code'].name}{' (restart)' if r['restart'] else ''} | {r['boards']} "
              f"| {r['viewers']} | {r['step']:.2f} s | {r['lost']} of {r['finals']} "
              f"| {r['coalesced']} | {r['disorder']} | {r['median'] * 1000:.0f} ms "
              f"| {r['p99'] * 1000:.0f} ms | {r['read_median'] * 1000:.0f} / "
              f"{r['read_p99'] * 1000:.0f} ms | {r['hall_cpu']:.1f} s "
              f"| {r['gen_cpu'] + r['boards_cpu']:.1f} s |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--viewers", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between a board's moves")
    ap.add_argument("--speedup", type=float, default=4.0)
    ap.add_argument("--moves", type=int, default=20, help="moves per board")
    ap.add_argument("--restart", action="store_true", help="also a run with a broker restart")
    ap.add_argument("--procs", type=int, default=4, help="processes the viewers run in")
    ap.add_argument("--sample", type=int, default=4, metavar="K",
                    help="every K-th viewer reads what it gets; the others take it unread")
    ap.add_argument("--plain", action="store_true",
                    help="viewers that do not accept gzip (as browsers all do)")
    ap.add_argument("--code", type=Path, action="append",
                    help="a checkout of kifu to run the hall from (repeatable; default: this)")
    args = ap.parse_args()
    rows = []
    for code in args.code or [ROOT]:
        code = code.resolve()
        rows.append(run_apart(args, code, restart=False))
        report(rows[-1])
        if args.restart:
            rows.append(run_apart(args, code, restart=True))
            report(rows[-1])
    table(rows)


if __name__ == "__main__":
    main()
