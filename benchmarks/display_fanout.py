"""Fan-out of the live display: many viewers on loopback while a game is replayed quickly.

    python benchmarks/display_fanout.py [--viewers 1000] [--interval 0.05] [--procs 4]
                                        [--moves 60]

The bundled game (Lee Sedol - AlphaGo, game 4) is played onto a `LiveBoard` served by a
`DisplayServer`, one move every ``--interval`` seconds. ``--viewers`` event-stream clients
(threads spread over ``--procs`` processes, so that they do not share the server's
interpreter lock) record the board version and the arrival time of every message. The
script checks that every viewer received every update, in order, and prints the delay:
median, 99th percentile and worst, and the bytes sent. The delay counts from the call of ``LiveBoard.update`` (drawing the board and
encoding the message included) to the message's arrival. Times come from CLOCK_MONOTONIC, which all processes share.
It also prints how long the viewers took to connect, and what the serving process (server
and game, not the viewers) used: CPU seconds, the most threads at once, its peak memory.

The same script measures another checkout of kifu (an older commit, say) when run from
that checkout's ``benchmarks`` folder: it imports the kifu beside it.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import re
import resource
import statistics
import sys
import threading
import time
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kifu import replay as rp  # noqa: E402
from kifu.display import DisplayServer, LiveBoard  # noqa: E402
from kifu.display.client import open_stream, read_events  # noqa: E402
from kifu.sgf import load  # noqa: E402
from rules import preset  # noqa: E402

VERSION = re.compile(r'"version":(\d+)')


def viewer(url: str, last: int, out: list[tuple[int, float]], sizes: list[int],
           ready: threading.Barrier) -> None:
    """Follow the stream until the board reaches version ``last``."""
    resp = open_stream(url, timeout=60)
    ready.wait()
    for event in read_events(resp):
        now = time.monotonic()
        m = VERSION.search(event.data, 0, 200)
        if m is None:
            raise RuntimeError(f"message without a version: {event.data[:80]!r}")
        v = int(m.group(1))
        out.append((v, now))
        sizes.append(len(event.data))
        if v >= last:
            break
    resp.close()


def viewer_process(url: str, n: int, last: int, conn: object, go: object) -> None:
    """Run ``n`` viewers in threads; send back their (version, time) lists."""
    results: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    sizes: list[list[int]] = [[] for _ in range(n)]
    ready = threading.Barrier(n + 1)
    threads = [threading.Thread(target=viewer, args=(url, last, results[i], sizes[i], ready))
               for i in range(n)]
    for t in threads:
        t.start()
    ready.wait()
    conn.send("connected")  # type: ignore[attr-defined]
    for t in threads:
        t.join()
    conn.send((results, sum(map(sum, sizes))))  # type: ignore[attr-defined]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between moves")
    ap.add_argument("--procs", type=int, default=4, help="processes the viewers run in")
    ap.add_argument("--moves", type=int, default=60, help="stop after this many moves (0: all)")
    args = ap.parse_args()
    # A connection is a file on each side: the viewers' and the server's.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.viewers + 256)), hard))

    data = resources.files("kifu") / "data" / "lee-sedol-alphago-4.sgf"
    with resources.as_file(data) as path:
        record = load(path)
    game = rp.start(record, preset("chinese"))
    nodes = list(record.nodes)[: args.moves or None]
    board = LiveBoard("1", record.width, title="fan-out")
    server = DisplayServer([board]).start()
    start_version = board.snapshot.version
    last = start_version + len(nodes)

    ctx = mp.get_context("fork")
    per = [args.viewers // args.procs + (i < args.viewers % args.procs) for i in range(args.procs)]
    pipes, procs = [], []
    for n in per:
        if not n:
            continue
        here, there = ctx.Pipe()
        p = ctx.Process(target=viewer_process, args=(server.url, n, last, there, None))
        p.start()
        pipes.append(here)
        procs.append(p)
    connecting = time.monotonic()
    for c in pipes:
        assert c.recv() == "connected"
    connected = time.monotonic() - connecting
    most_threads = threading.active_count()
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)

    published: dict[int, float] = {}
    t0 = time.monotonic()
    for event in rp.replay(game, nodes):
        before = time.monotonic()
        snap = board.update(game, event)
        published[snap.version] = before
        most_threads = max(most_threads, threading.active_count())
        time.sleep(args.interval)
    played = time.monotonic() - t0

    delays: list[float] = []
    faults = 0
    total_bytes = 0
    count = 0
    for c in pipes:
        results, nbytes = c.recv()
        total_bytes += nbytes
        for seen in results:
            count += 1
            versions = [v for v, _ in seen]
            if versions != list(range(start_version, last + 1)):
                faults += 1
                print(f"viewer missed or reordered updates: got {len(versions)} "
                      f"of {last - start_version + 1}", file=sys.stderr)
            delays += [t - published[v] for v, t in seen if v in published]
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    for p in procs:
        p.join(10)
    server.stop()
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    viewers = resource.getrusage(resource.RUSAGE_CHILDREN)

    delays.sort()
    q = statistics.quantiles(delays, n=100)
    print(f"{count} viewers, {len(nodes)} moves at one per {args.interval * 1000:g} ms "
          f"({played:.1f} s), {len(delays)} messages delivered, {total_bytes / 1e6:.0f} MB")
    print(f"every viewer got every update in order: {'yes' if faults == 0 else f'NO ({faults})'}")
    print(f"delay from update to arrival: median {statistics.median(delays) * 1000:.1f} ms, "
          f"p99 {q[98] * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms")
    print(f"viewers connected in {connected:.2f} s; serving process while the game was "
          f"played: {cpu:.1f} CPU s, {most_threads} threads at most, "
          f"peak memory {cpu_after.ru_maxrss / 1024:.0f} MB; the viewers' processes: "
          f"{viewers.ru_utime + viewers.ru_stime:.1f} CPU s")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
