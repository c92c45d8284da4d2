"""``kifu demo``: the main job on bundled input.

A real, famous game (Lee Sedol vs AlphaGo, game 4, 2016, bundled as data) is filmed, on
first run, as a camera would see it played on a real board: a hand over every move,
captured stones lifted late, drifting light and a lamp switched on, and one camera bump.
The film is then recorded with the real pipeline (capture, board watcher, tracker,
referee, SGF writer), the events are printed as they happen, and the recorded SGF is
checked against the source game move for move.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rules import Color, Game, preset

from .session import Command, Item, Session
from .sgf import Record, load
from .sinks import SgfWriter, TerminalAnnouncer
from .tracker import Tracker

if TYPE_CHECKING:
    from vision.film import Take

GAME = "lee-sedol-alphago-4.sgf"
BUMP_AFTER = 97  # White's famous wedge is move 78; the camera is knocked a little later


def cache_dir() -> Path:
    """Where the demo keeps its film and record: ``$XDG_CACHE_HOME/kifu/demo``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kifu" / "demo"


def bundled_game() -> Record:
    """The bundled game record."""
    with resources.as_file(resources.files("kifu") / "data" / GAME) as path:
        return load(path)


def film(record: Record, folder: Path, err: TextIO, *, name: str = Path(GAME).stem,
         take: Take | None = None, moves: int | None = None, tail: float = 0.0) -> Path:
    """The film of ``record`` (its first ``moves`` moves, or all), as ``take`` says it is
    shot (by default the demo's: 8 frames a second, the camera knocked after move
    `BUMP_AFTER`), the board then still for ``tail`` more seconds; rendered now unless an
    identical one is cached in ``folder`` (under ``name`` and a hash of what it shows)."""
    from vision.film import Film, Take, script, write_video

    take = take or Take(fps=8.0, hold=1.0, bump_after=BUMP_AFTER, seed=4)
    played = record.moves[:moves]
    shown: tuple[object, ...] = (take, [m.gtp() for m in played]) + ((tail,) if tail else ())
    key = hashlib.sha1(repr(shown).encode()).hexdigest()[:10]
    path = folder / f"{name}-{key}.avi"
    if path.exists():
        return path
    shots = script(played, record.width, take)
    last = shots[-1]
    shots += [dataclasses.replace(last, time=last.time + k / take.fps)
              for k in range(1, round(tail * take.fps) + 1)]
    camera = Film(record.width, take)
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.avi")
    t0 = time.monotonic()

    def frames() -> Iterator[object]:
        for k, frame in enumerate(camera.frames(shots), start=1):
            if k % 100 == 0 or k == len(shots):
                err.write(f"\r  filming {name} (first run only): {k}/{len(shots)} frames")
                err.flush()
            yield frame

    write_video(str(partial), frames(), take.fps, (take.width, take.height))  # type: ignore[arg-type]
    err.write(f" in {time.monotonic() - t0:.0f} s\n")
    partial.replace(path)
    return path


def run(folder: Path | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Film (once), record and check the bundled game. 0 when the record equals the
    source game move for move, 1 otherwise."""
    from vision.capture import open_source
    from vision.watch import BoardWatcher

    out = out or sys.stdout
    err = err or sys.stderr
    folder = folder or cache_dir()
    record = bundled_game()
    p = record.properties
    print(f"kifu demo: {p.get('PB')} (Black) vs {p.get('PW')} (White), {p.get('DT')}, "
          f"{len(record.moves)} moves, recorded from a camera film", file=out)
    video = film(record, folder, err)
    print(f"film: {video}", file=out)
    sgf_path = folder / "recorded.sgf"
    game = Game(preset("chinese"), record.width, komi=record.komi)
    writer = SgfWriter(sgf_path, game, properties={"PB": p.get("PB", ""), "PW": p.get("PW", "")})
    # The watcher already holds back flicker for a few frames; 0.3 s of stillness on top.
    session = Session(Tracker(game, stable_for=0.3), [writer, TerminalAnnouncer(out)])
    watcher = BoardWatcher(record.width, source=str(video))
    t0 = time.monotonic()
    frames = 0

    def readings() -> Iterator[Item]:
        nonlocal frames
        with open_source(video) as source:
            for frame in source:
                frames += 1
                yield watcher.observe(frame.image, frame.time)
        # The record says AlphaGo (Black) resigned after White's last move.
        yield Command("resign", Color.BLACK)

    session.run(readings())
    seconds = time.monotonic() - t0
    recorded = [m.gtp() for m in load(sgf_path).moves]
    source = [m.gtp() for m in record.moves]
    print(f"\nrecorded {len(recorded)} moves from {frames} frames in {seconds:.0f} s "
          f"({frames / max(seconds, 1e-9):.0f} frames/s); board located {watcher.located} times "
          f"(the camera bump after move {BUMP_AFTER}, the lamp)", file=out)
    print(f"record: {sgf_path}", file=out)
    print("\n" + game.position.diagram(), file=out)
    print(f"\nresult: {game.winner.letter if game.winner else '?'}+R "
          f"(the source says {p.get('RE')})", file=out)
    if recorded == source:
        print(f"check: the recorded SGF equals the source game, all {len(source)} moves", file=out)
        return 0
    first = next((i for i, (a, b) in enumerate(zip(recorded, source)) if a != b),
                 min(len(recorded), len(source)))
    print(f"check: FAILED: the record differs from the source from move {first + 1} "
          f"({len(recorded)} recorded, {len(source)} in the source)", file=out)
    return 1
