"""Following SGF files that another program rewrites, and ``kifu serve`` itself."""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from kifu.cli import build_parser
from kifu.cmd_serve import cmd_serve
from kifu.display import LiveBoard, SgfFollower, board_ids
from kifu.sgf import write_atomically
from rules import Point

KO_MOVES = "D4 F5 E5 G4 E3 F3 pass E4 F4"
#  5 . . . . X O . . .      after F4 Black has taken the white stone at E4;
#  4 . . . X . X O . .      White's retake there is refused as ko.
#  3 . . . . X O . . .
#    A B C D E F G H J


def sgf(moves: str) -> bytes:
    """A 9x9 record of GTP moves (Black first, in turn)."""
    nodes = []
    for n, v in enumerate(moves.split()):
        where = "" if v == "pass" else Point.from_gtp(v).sgf(9)
        nodes.append(f";{'BW'[n % 2]}[{where}]")
    return f"(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Ann]PW[Bob]{''.join(nodes)})".encode()


def rewrite(path: Path, data: bytes) -> None:
    """Write as a recorder would, with a modification time that surely differs."""
    write_atomically(path, data)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))


def test_the_first_look_shows_the_record_without_reading_it_aloud(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(sgf(KO_MOVES))
    board = LiveBoard("game", 9)
    f = SgfFollower(path, board)
    assert f.poll() is True
    s = board.snapshot.to_json()
    assert s["number"] == 9 and s["last_move"] == "F4" and s["captures"]["B"] == 1
    assert s["announcements"] == [] and s["players"] == {"B": "Ann", "W": "Bob"}
    assert s["rules"] == "japanese"
    assert board.sgf == path.read_bytes()
    assert f.poll() is False  # unchanged


def test_new_moves_in_the_file_are_announced(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(sgf("D4 F5"))
    board = LiveBoard("game", 9)
    f = SgfFollower(path, board)
    f.poll()
    rewrite(path, sgf(KO_MOVES))
    assert f.poll() is True
    assert [a["text"] for a in board.snapshot.to_json()["announcements"]] == [
        "Black captures a stone at E4", "Black passes"]
    rewrite(path, sgf(KO_MOVES + " E4"))
    f.poll()
    s = board.snapshot.to_json()
    assert s["announcements"][0]["text"] == "Ko: White may not retake at E4 yet"
    assert s["highlight"] == "E4"


def test_a_record_ending_in_two_passes_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(sgf("E5"))
    board = LiveBoard("game", 9)
    f = SgfFollower(path, board)
    f.poll()
    rewrite(path, sgf("E5 pass pass"))
    f.poll()
    s = board.snapshot.to_json()
    assert s["phase"] == "over" and s["result"] == "B+73.5"  # 80 points of territory, komi 6.5
    assert len(s["territory"]["B"]) == 80
    assert [a["kind"] for a in s["announcements"][:3]] == ["score", "end", "pass"]


def test_a_take_back_resets_the_board(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(sgf(KO_MOVES))
    board = LiveBoard("game", 9)
    f = SgfFollower(path, board)
    f.poll()
    rewrite(path, sgf("D4 F5 E5"))
    f.poll()
    s = board.snapshot.to_json()
    assert s["number"] == 3 and s["last_move"] == "E5" and s["captures"]["B"] == 0


def test_a_half_written_file_keeps_the_last_good_board(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(sgf("E5"))
    warnings: list[str] = []
    board = LiveBoard("game", 9)
    f = SgfFollower(path, board, warn=warnings.append)
    f.poll()
    path.write_bytes(sgf("E5 C7")[:-9])  # torn: no closing parenthesis
    assert f.poll() is False and f.poll() is False
    assert board.snapshot.to_json()["last_move"] == "E5"
    assert len(warnings) == 1 and str(path) in warnings[0]
    rewrite(path, sgf("E5 C7"))
    assert f.poll() is True and board.snapshot.to_json()["last_move"] == "C7"


def test_a_missing_file_is_reported_by_name(tmp_path: Path) -> None:
    warnings: list[str] = []
    f = SgfFollower(tmp_path / "nowhere.sgf", LiveBoard("x", 9), warn=warnings.append)
    assert f.poll() is False
    assert warnings and "nowhere.sgf" in warnings[0]


def test_board_ids_come_from_file_names() -> None:
    assert board_ids(["a/table 1.sgf", "b/table 1.sgf", "c/t2.sgf"]) == [
        "table-1", "table-1-2", "t2"]


def test_kifu_serve_shows_two_files_and_follows_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "one.sgf", tmp_path / "two.sgf"
    one.write_bytes(sgf("D4"))
    two.write_bytes(sgf("E5"))
    args = build_parser().parse_args(["serve", str(one), str(two), "--port", "0",
                                      "--interval", "0.05"])
    stop = threading.Event()
    t = threading.Thread(target=cmd_serve, args=(args, stop))
    t.start()
    try:
        deadline = time.time() + 5
        url = None
        while url is None and time.time() < deadline:
            for line in capsys.readouterr().out.splitlines():
                if "showing 2 boards at " in line:
                    url = line.split(" at ")[-1]
            time.sleep(0.05)
        assert url, "the server did not say where it is"
        rewrite(one, sgf(KO_MOVES))
        deadline = time.time() + 5
        state: dict[str, object] = {}
        while time.time() < deadline and state.get("number") != 9:
            with urllib.request.urlopen(url + "api/v1/boards/one", timeout=5) as r:
                state = json.loads(r.read())
            time.sleep(0.05)
        assert state["last_move"] == "F4"
        with urllib.request.urlopen(url + "api/v1/boards/two", timeout=5) as r:
            assert json.loads(r.read())["last_move"] == "E5"
    finally:
        stop.set()
        t.join(5)
    out = capsys.readouterr().out
    assert "[one] Black captures a stone at E4" in out


def test_kifu_serve_refuses_an_unknown_rule_set(tmp_path: Path) -> None:
    args = build_parser().parse_args(["serve", str(tmp_path / "x.sgf"), "--rules", "klingon"])
    with pytest.raises(ValueError, match="unknown rule set 'klingon'"):
        cmd_serve(args)
