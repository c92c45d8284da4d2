"""The command lines of issue 2: ``kifu replay``, ``kifu score``, ``kifu demo``, and their
JSON lines, which are promises to users' scripts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kifu.cli import main

# A 5x5 game: White plays into Black's mouth at C3, Black captures it from D3, and White
# may not retake at once. After move 9 the board is
#     5 X . . . .
#     4 . . X O .
#     3 . X . X O      <- B D3 captured W C3
#     2 . . X O .
#     1 . . . . .
KO_GAME = b"(;GM[1]FF[4]SZ[5]KM[0.5];B[bc];W[db];B[cb];W[dd];B[cd];W[ec];B[aa];W[cc];B[dc]"
KO_RETAKE = b";W[cc]"  # the immediate retake: illegal under simple ko and superko alike


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: bytes, name: str = "game.sgf") -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_replay_json_lines_match_the_documented_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, KO_GAME + KO_RETAKE + b";B[];W[])")
    code, out, _ = run(capsys, "replay", path, "--rules", "japanese", "--json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0] == {"event": "move", "number": 1, "color": "B", "vertex": "B3", "captures": []}
    capture = lines[8]
    assert capture["vertex"] == "D3" and capture["captures"] == ["C3"]
    assert lines[9] == {"event": "illegal", "color": "W", "vertex": "C3", "reason": "ko"}
    kinds = [d["event"] for d in lines]
    assert kinds.count("pass") == 2 and kinds[-1] == "score"
    score = lines[-1]
    for key in ("rules", "black", "white", "winner", "margin"):
        assert key in score
    assert score["rules"] == "japanese"
    assert score["winner"] in ("B", "W", "draw")
    assert score["margin"] == abs(score["black"] - score["white"])


def test_a_suicide_lists_the_removed_stones_as_suicided(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Black A5, then A4 beside it, with White on B5, B4 and A3: A4 takes the last
    # liberty of both black stones. Under Tromp-Taylor they are cleared (rule 5).
    sgf = b"(;GM[1]SZ[5];B[aa];W[ba];B[];W[bb];B[];W[ac];B[ab])"
    code, out, _ = run(capsys, "replay", write(tmp_path, sgf), "--rules", "tromp-taylor", "--json")
    assert code == 0
    last = json.loads(out.splitlines()[-1])
    assert last["event"] == "move" and last["vertex"] == "A4"
    assert last["captures"] == [] and sorted(last["suicided"]) == ["A4", "A5"]


def test_the_same_suicide_is_refused_where_the_rules_forbid_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sgf = b"(;GM[1]SZ[5];B[aa];W[ba];B[];W[bb];B[];W[ac];B[ab])"
    code, out, _ = run(capsys, "replay", write(tmp_path, sgf), "--rules", "chinese", "--json")
    assert json.loads(out.splitlines()[-1]) == {
        "event": "illegal", "color": "B", "vertex": "A4", "reason": "suicide"}


def test_replay_prints_events_for_a_person(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", write(tmp_path, KO_GAME + KO_RETAKE + b")"), "--rules", "aga")
    assert code == 0
    assert "   9 B D3  captures 1 stone: C3" in out
    assert "W C3  illegal: ko" in out


def test_score_counts_with_dead_stones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 5x5: Black owns the left three columns, White the right two, a white stone
    # dead at A1 inside Black's area.
    sgf = (b"(;GM[1]SZ[5]KM[0.5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de]"
           b";B[];W[ae];B[];W[])")
    path = write(tmp_path, sgf)
    code, out, _ = run(capsys, "score", path, "--rules", "chinese", "--dead", "A1", "--json")
    assert code == 0
    s = json.loads(out)
    # Black: 5 stones + 10 territory = 15; White: 5 stones + 5 territory + 0.5 komi.
    assert (s["black"], s["white"], s["winner"], s["margin"]) == (15.0, 10.5, "B", 4.5)
    code, out, _ = run(capsys, "score", path, "--rules", "chinese", "--json")
    s = json.loads(out)
    # Without the dead mark, A1's white stone stands and Black's corner region is neutral.
    assert s["black"] == 5.0


def test_a_malformed_record_is_one_line_naming_the_file_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"(;GM[1]SZ[19];B[dd];W[", "broken.sgf")
    code, out, err = run(capsys, "replay", path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "broken.sgf" in err and "malformed SGF" in err


def test_a_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", str(tmp_path / "nope.sgf"))
    assert code == 2 and "nope.sgf" in err


def test_an_unknown_rule_set_lists_the_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", write(tmp_path, KO_GAME + b")"), "--rules", "klingon")
    assert code == 2 and "klingon" in err and "tromp-taylor" in err


@pytest.mark.parametrize(
    "data, fault",
    [
        (b"(;GM[1]SZ[19];B[dd];W[zz])", "node 2: W[zz]: off the board"),
        (b"(;GM[1]SZ[99])", "size out of range"),
        (b"(;CA[klingon]SZ[9];B[aa])", "unknown encoding"),
        (b"garbage", "no SGF data"),
        (b"(;GM[1]SZ[9]KM[abc];B[aa])", "KM"),
    ],
)
def test_each_malformed_record_names_its_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, fault: str
) -> None:
    code, _, err = run(capsys, "score", write(tmp_path, data, "bad.sgf"))
    assert code == 2
    assert "bad.sgf" in err and fault in err


def test_the_command_line_loads_no_vision_until_a_photo_is_read() -> None:
    # Replaying or scoring a record needs no camera: kifu starts without OpenCV (a machine
    # that only keeps records need not have it) and the vision package loads with `snap`.
    probe = "import sys, kifu.cli; sys.exit(int('cv2' in sys.modules or 'vision' in sys.modules))"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", probe], cwd=root).returncode == 0


def test_every_usage_error_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = write(tmp_path, KO_GAME + b")")
    for argv in (["score", game, "--dead", "Z99"],
                 ["serve", str(tmp_path / "missing.sgf"), "--port", "0"],
                 ["record", "--serial", "sim", "--out", str(tmp_path / "g.sgf"), "--linger", "-1"]):
        code, _, err = run(capsys, *argv)
        assert code == 2, argv
        assert err.count("\n") == 1 and err.startswith("kifu: "), err


@pytest.mark.parametrize("argv, named", [
    (["record", "--serial", "sim", "--out", "g.sgf", "--speak", "loudly"], "--speak"),
    (["record", "--camera", "0", "--serial", "sim"], "--serial"),
    (["replay"], "game"),
    (["teleport"], "teleport"),
])
def test_a_usage_error_is_one_line_naming_the_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err and err.startswith("kifu"), err


def test_serve_names_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "serve", str(tmp_path / "missing.sgf"), "--port", "0")
    assert code == 2
    assert err == f"kifu: {tmp_path / 'missing.sgf'}: no such file (--wait to wait for it)\n"


def test_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert re.fullmatch(r"kifu \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)
