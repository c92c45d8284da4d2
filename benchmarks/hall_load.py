"""The hall under an event's load, all on loopback: a real Mosquitto, N boards (each a real
MQTT client, `kifu.mqtt.BoardPublisher`, replaying a real game from ../shared/games), a
`kifu hall` process, and V viewers of its event stream.

    .venv/bin/python benchmarks/hall_load.py [--boards 200] [--viewers 1000]
        [--interval 2.0] [--speedup 4] [--moves 20] [--restart] [--procs 4]

Each board plays one move every ``interval / speedup`` seconds, its start spread over one
interval. The viewers (asyncio, spread over ``--procs`` processes) read the organiser's stream,
which carries every board's move number. Printed: moves published; per viewer, board
updates delivered, lost (a move number never seen) and out of order (a lower move number
after a higher one); the delay from a move's publication to each viewer (median, 99th
percentile; the clocks are one machine's); the hall's CPU seconds and peak memory (RSS).
``--restart`` also stops and restarts the broker once in mid-game (the hall and boards
reconnect; nothing may be lost).

Goals (issue 23): 0 lost, 0 out of order, p99 < 500 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT.parent / "shared" / "games"
sys.path.insert(0, str(ROOT))


FIELDS = re.compile(rb'^data: ?\{"id":"([^"]*)".*?,"number":(\d+)', re.M)
"""A board update's id and move number (the hall writes ``id`` first, ``number`` later)."""


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

    def start(self) -> None:
        self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)],
                                     stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)


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
    from rules import Game, IllegalMoveError, Point

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
            try:
                event = game.play(Point.from_gtp(moves[k]))
            except IllegalMoveError:
                event = game.pass_()
            published[(board_id, game.number)] = time.time()
            pub(event, when)
    ok = all(pub.close(timeout=30) for _, pub, *_ in boards)
    return 1.0 if ok else 0.0


async def viewers(url: str, count: int, stop: Any, out: mp.Queue,  # type: ignore[type-arg]
                  ready: Any) -> None:
    import aiohttp

    seen: list[dict[str, list[tuple[int, float]]]] = [{} for _ in range(count)]

    async def one(i: int, session: aiohttp.ClientSession) -> None:
        buf = b""
        try:
            async with session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as r:
                first = True
                async for chunk in r.content.iter_any():
                    if first:
                        with ready.get_lock():
                            ready.value += 1
                        first = False
                    buf += chunk
                    *frames, buf = buf.split(b"\n\n")
                    now = time.time()
                    for f in frames:
                        m = FIELDS.search(f)  # cheaper than json.loads: the viewers share 2 cores
                        if m:
                            seen[i].setdefault(m[1].decode(), []).append((int(m[2]), now))
        except (aiohttp.ClientError, asyncio.TimeoutError):
            pass

    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as session:
        tasks = [asyncio.create_task(one(i, session)) for i in range(count)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    out.put(seen)


def viewer_process(url: str, count: int, stop: Any, out: mp.Queue,  # type: ignore[type-arg]
                   ready: Any) -> None:
    asyncio.run(viewers(url, count, stop, out, ready))


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


def run(args: argparse.Namespace, restart: bool) -> None:
    games = game_moves(args.moves, args.boards)
    if len(games) < args.boards:
        raise SystemExit(f"only {len(games)} usable games in {GAMES}")
    folder = Path(tempfile.mkdtemp(prefix="hall-load-"))
    broker = Mosquitto(folder, free_port())
    broker.start()
    port = free_port()
    hall = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli", "hall", f"mqtt://127.0.0.1:{broker.port}/load",
         "--port", str(port)], stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = hall.stderr.readline() if hall.stderr else ""
        token = line.rsplit("token=", 1)[1].strip(" )\n") if "token=" in line else ""
        wait_port(port)
        step = args.interval / args.speedup
        stop = mp.Event()
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        ready = mp.Value("i", 0)
        procs = [mp.Process(target=viewer_process, args=(
            f"http://127.0.0.1:{port}/api/v1/events?token={token}",
            args.viewers // args.procs + (i < args.viewers % args.procs), stop, q, ready))
            for i in range(args.procs)]
        for viewer in procs:
            viewer.start()
        deadline = time.monotonic() + 60
        while ready.value < args.viewers and time.monotonic() < deadline:
            time.sleep(0.1)
        print(f"  {ready.value} of {args.viewers} viewers connected", flush=True)
        published: dict[tuple[str, int], float] = {}
        cpu0, _ = proc_stats(hall.pid)
        run_boards(broker.port, games, step, step, published,
                   threading.Event() if restart else None, broker)
        time.sleep(8 if restart else 3)
        stop.set()
        seen = [s for _ in procs for s in q.get(timeout=120)]
        for viewer in procs:
            viewer.join(30)
        cpu1, peak = proc_stats(hall.pid)
    finally:
        hall.terminate()
        hall.wait(10)
        broker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    delivered = lost = disorder = 0
    delays: list[float] = []
    for per_board in seen:
        for board_id in {b for b, _ in published}:
            numbers = per_board.get(board_id, [])
            got = {n for n, _ in numbers}
            delivered += len(got)
            lost += sum(1 for (b, n) in published if b == board_id and n not in got)
            disorder += sum(1 for (a, _), (b, _) in zip(numbers, numbers[1:]) if b < a)
            first: dict[int, float] = {}
            for n, t in numbers:
                first.setdefault(n, t)
            delays += [first[n] - published[(board_id, n)] for n in first
                       if (board_id, n) in published]
    delays.sort()
    p99 = delays[int(0.99 * (len(delays) - 1))] if delays else float("nan")
    label = "with the broker restarted once" if restart else "steady"
    print(f"\n{label}: {args.boards} boards x {args.moves} moves, one every {step:.2f} s; "
          f"{args.viewers} viewers")
    print(f"  moves published          {len(published)}")
    print(f"  updates delivered        {delivered}  ({delivered / max(1, len(seen)):.0f} per viewer)")
    print(f"  lost                     {lost}")
    print(f"  out of order             {disorder}")
    if delays:
        print(f"  delay median / p99       {statistics.median(delays) * 1000:.0f} ms / "
              f"{p99 * 1000:.0f} ms")
    print(f"  hall CPU                 {cpu1 - cpu0:.1f} s over the game; peak RSS "
          f"{peak / 2**20:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--viewers", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between a board's moves")
    ap.add_argument("--speedup", type=float, default=4.0)
    ap.add_argument("--moves", type=int, default=20, help="moves per board")
    ap.add_argument("--restart", action="store_true", help="also a run with a broker restart")
    ap.add_argument("--procs", type=int, default=4, help="processes the viewers run in")
    args = ap.parse_args()
    run(args, restart=False)
    if args.restart:
        run(args, restart=True)


if __name__ == "__main__":
    main()
