"""``kifu demo --hall``: three bundled games played side by side, each recorded by its own
``kifu record`` and published to the broker inside the demo, on one hall page whose address
it prints; the boards' moves advance there, in the JSON and in Chromium. Ctrl-C ends it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, ctrl_c_as_at_a_terminal
from tests.display.conftest import ARTIFACTS


def _boards(url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(url.rstrip("/") + "/api/v1/boards", timeout=5) as r:
        return list(json.loads(r.read()))


def test_the_hall_demo_shows_three_boards_whose_moves_advance(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli", "demo", "--hall", "--folder", str(tmp_path),
         "--port", "0", "--broker-port", "0", "--pace", "0.3", "--moves", "24",
         "--linger", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=ctrl_c_as_at_a_terminal)
    lines: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(
        line.decode() for line in iter(proc.stdout.readline, b"")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while not any(line.startswith("hall: ") for line in lines):
            assert proc.poll() is None and time.monotonic() < deadline, "".join(lines)
            time.sleep(0.05)
        url = next(line for line in lines if line.startswith("hall: ")).split()[1]

        seen: dict[str, set[int]] = {}
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (
                len(seen) == 3 and all(len(numbers) >= 3 for numbers in seen.values())):
            for board in _boards(url):
                seen.setdefault(board["id"], set()).add(board["number"])
            time.sleep(0.1)
        assert sorted(seen) == ["1", "2", "3"]
        assert all(len(numbers) >= 3 for numbers in seen.values()), f"move numbers: {seen}"
        first = _boards(url)[0]
        assert first["players"] == {"B": "Lee Sedol", "W": "AlphaGo"}

        browser = request.getfixturevalue("browser")  # skips here without Chromium
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        try:
            page.goto(url)
            page.wait_for_function("document.querySelectorAll('.card').length === 3",
                                   timeout=10000)
            page.screenshot(path=str(ARTIFACTS / "demo-hall-1920.png"))
        finally:
            page.close()

        deadline = time.monotonic() + 120  # (a machine under load plays it slowly)
        while sum("equals the source game" in line for line in lines) < 3:
            assert time.monotonic() < deadline and not any("FAILED" in line for line in lines), \
                "".join(lines)
            time.sleep(0.1)
        # The records are checked once the recorders have ended; the hall hears their last
        # moves from the broker a moment later.
        deadline = time.monotonic() + 30
        while [b["number"] for b in _boards(url)] != [24, 24, 24] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [b["number"] for b in _boards(url)] == [24, 24, 24]
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        assert proc.wait(20) == 0, "".join(lines)
        reader.join(5)
        assert any(re.match(r"board 2: 24 moves recorded in .*board2\.sgf", line)
                   for line in lines), "".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_hall_demo_with_films_records_each_board_from_its_film(tmp_path: Path) -> None:
    import io

    from kifu import demo_hall

    out = io.StringIO()
    status = demo_hall.run(tmp_path, port=0, broker_port=0, moves=4, linger=0, films=True,
                           out=out, err=io.StringIO())
    text = out.getvalue()
    assert status == 0, text
    assert "three films, as cameras see them" in text
    for n in (1, 2, 3):
        assert re.search(rf"board {n}: 4 moves recorded in .*board{n}\.sgf .*equals the "
                         "source game", text), text
        published = int((tmp_path / f"board{n}.sgf.mqtt-seq").read_text())
        assert published >= 4, "each move went to the broker as an event"
    assert len(list(tmp_path.glob("board?-*.avi"))) == 3, "one film a board, kept"
