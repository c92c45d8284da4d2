"""``kifu replay`` under the rules' clauses that reach the record: AGA rule 8 (an illegal
move counts as a pass), AGA rule 4 (one-stone handicap komi), and setup stones left
without liberties (refused, exit 2, naming the file and the points)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.kifu.test_cli import run, write

# tests/kifu/test_cli.py's 5x5 ko game, with 2.5 komi: White's move 10 retakes the ko at
# once (illegal), then both pass.
KO_GAME = (b"(;GM[1]FF[4]SZ[5]KM[2.5];B[bc];W[db];B[cb];W[dd];B[cd];W[ec];B[aa];W[cc];B[dc]"
           b";W[cc];B[];W[])")


def test_aga_rule_8_counts_the_illegal_move_as_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule 8: the illegal retake "shall be treated as a PASS, and a pass stone exchanged".
    Skipping it gave W+0.5 (Black 1 + 1 capture + 1 pass stone = 3; White 1 pass stone +
    2.5 = 3.5); as White's pass, Black holds a second pass stone: 4 to 3.5, B+0.5."""
    code, out, _ = run(capsys, "replay", write(tmp_path, KO_GAME), "--rules", "aga", "--json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[9] == {"event": "illegal", "color": "W", "vertex": "C3", "reason": "ko",
                        "counted_as_pass": True, "number": 10}
    assert [d["number"] for d in lines[10:12]] == [11, 12]
    score = lines[-1]
    assert (score["black"], score["white"], score["result"]) == (4.0, 3.5, "B+0.5")
    code, out, _ = run(capsys, "replay", write(tmp_path, KO_GAME), "--rules", "aga")
    assert "  10 W C3  illegal: ko; counted as a pass (a pass stone to B)" in out


def test_elsewhere_the_illegal_move_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Under Japanese rules the retake is reported and skipped, as before."""
    code, out, _ = run(capsys, "replay", write(tmp_path, KO_GAME), "--rules", "japanese", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[9] == {"event": "illegal", "color": "W", "vertex": "C3", "reason": "ko"}


def test_a_one_stone_aga_handicap_record_gets_half_a_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule 4: a one-stone handicap gives "only 0.5 point compensation to White". A record
    RU[AGA]HA[1] without KM is counted with 0.5 komi; with KM the record's komi stands."""
    path = write(tmp_path, b"(;GM[1]SZ[9]RU[AGA]HA[1];B[ee];W[];B[])")
    code, out, _ = run(capsys, "replay", path, "--json")
    assert code == 0
    assert json.loads(out.splitlines()[-1])["komi"] == 0.5
    path = write(tmp_path, b"(;GM[1]SZ[9]RU[AGA]HA[1]KM[5.5];B[ee];W[];B[])")
    code, out, _ = run(capsys, "replay", path, "--json")
    assert json.loads(out.splitlines()[-1])["komi"] == 5.5


def test_setup_stones_without_liberties_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """AB[aa] among AW[ab][ba] has no liberty: no rule set removes setup stones, so the
    record is refused with one line naming the file and the point, exit status 2."""
    path = write(tmp_path, b"(;GM[1]SZ[5]AB[aa]AW[ab][ba];B[cc])", "airless.sgf")
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and out == ""
    assert "airless.sgf" in err and "A5" in err
    assert len(err.strip().splitlines()) == 1
    path = write(tmp_path, b"(;GM[1]SZ[5];B[cc];AB[aa]AW[ab][ba];W[dd])", "later.sgf")
    code, out, err = run(capsys, "replay", path, "--json")
    assert code == 2 and "later.sgf" in err and "A5" in err
