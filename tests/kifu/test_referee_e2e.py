"""End to end, one game per family of rules (area, territory, AGA): recorded with
``kifu record --serial sim`` from a piped script through the counting phase, then
``kifu replay --score`` and ``kifu serve`` of the written SGF give the session's score and
winner."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kifu.cli import build_parser, main
from kifu.cmd_serve import cmd_serve
from tests.kifu.recording import DEAD, GAME, Recording


RULES = ("chinese", "japanese", "aga")


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, Any]]]:
    """The game recorded under each of `RULES`, all at once: the SGF and the session's
    score for each."""
    folder = tmp_path_factory.mktemp("e2e")
    running = {rules: Recording(folder / f"{rules}.sgf", "--rules", rules, "--json")
               for rules in RULES}
    done: dict[str, tuple[Path, dict[str, Any]]] = {}
    try:
        for rec in running.values():
            rec.send(*GAME, f"lift {DEAD}", "done")
        for rules, rec in running.items():
            assert rec.finish() == 0, rec.err
            events = [json.loads(line) for line in rec.out.splitlines()]
            [score] = [e for e in events if e["event"] == "score"]
            done[rules] = (folder / f"{rules}.sgf", score)
    finally:
        for rec in running.values():
            rec.kill()
    return done


@contextlib.contextmanager
def serving(capsys: pytest.CaptureFixture[str], *argv: str
            ) -> Iterator[tuple[str, threading.Thread]]:
    """``kifu serve ARGV --port 0 --quiet`` running in a thread: its address and the thread,
    stopped afterwards."""
    args = build_parser().parse_args(["serve", *argv, "--port", "0", "--quiet"])
    stop = threading.Event()
    t = threading.Thread(target=cmd_serve, args=(args, stop))
    t.start()
    try:
        deadline = time.monotonic() + 10
        url = None
        while url is None and time.monotonic() < deadline:
            for line in capsys.readouterr().out.splitlines():
                if "showing 1 board at " in line:
                    url = line.split(" at ")[-1]
            time.sleep(0.05)
        assert url, "kifu serve did not say where it is"
        yield url, t
    finally:
        stop.set()
        t.join(5)


def served_state(url: str, board: str, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The board's JSON from the server at ``url`` once ``done`` says so (10 s at most)."""
    deadline = time.monotonic() + 10
    state: dict[str, Any] = {}
    while time.monotonic() < deadline and not done(state):
        with urllib.request.urlopen(f"{url}api/v1/boards/{board}", timeout=5) as r:
            state = json.loads(r.read())
        time.sleep(0.05)
    return state


def served_score(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The score ``kifu serve`` shows for the record."""
    with serving(capsys, str(path)) as (url, _):
        score: dict[str, Any] = served_state(url, path.stem, lambda s: bool(s.get("score")))["score"]
        return score


def replayed_score(path: Path, capsys: pytest.CaptureFixture[str], *options: str
                   ) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["replay", str(path), "--score", "--json", *options]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    score: dict[str, Any] = [e for e in lines if e["event"] == "score"][-1]
    return score


def same(a: dict[str, Any], b: dict[str, Any]) -> tuple[object, ...]:
    keys = ("rules", "black", "white", "winner", "margin", "result")
    return tuple(a[k] for k in keys), tuple(b[k] for k in keys)


@pytest.mark.parametrize("rules, result", [
    ("chinese", "W+2.5"),    # area: 6 stones and 9 points against 5, 5 and komi 7.5
    ("japanese", "W+1.5"),   # territory: 9 points and a prisoner against 5 and komi 6.5
    ("aga", "W+0.5"),        # AGA: 9 points, a prisoner and a pass stone against 5, a pass
                             # stone and komi 5.5
])
def test_the_record_replays_and_serves_to_the_sessions_score(
    recordings: dict[str, tuple[Path, dict[str, Any]]], capsys: pytest.CaptureFixture[str],
    rules: str, result: str
) -> None:
    out, session = recordings[rules]
    assert session["result"] == result and session["dead_stones"] == [DEAD]
    assert f"RE[{result}]".encode() in out.read_bytes()
    holds_dead = any(tag in out.read_bytes() for tag in (b"TB[", b"TW["))
    # Until the record keeps its dead stones (helper sgf's part), replay is told them.
    replay = replayed_score(out, capsys, *([] if holds_dead else ["--dead", DEAD]))
    assert same(replay, session)[0] == same(replay, session)[1]
    served = served_score(out, capsys)
    if holds_dead:
        assert same(served, session)[0] == same(served, session)[1]
    else:  # serve counts the record as written, as replay does without the dead stones
        bare = replayed_score(out, capsys)
        assert same(served, bare)[0] == same(served, bare)[1]


def test_serve_waits_for_a_record_not_written_yet_with_wait(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "later.sgf"
    with serving(capsys, str(path), "--wait", "--interval", "0.05") as (url, t):
        assert t.is_alive()
        path.write_bytes(b"(;GM[1]SZ[9];B[ee];W[cc])")
        state = served_state(url, "later", lambda s: s.get("number") == 2)
        assert state["last_move"] == "C7"
