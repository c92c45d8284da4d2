"""The SGF edge: a record is read as written or refused with one line naming the file and
the fault, exit status 2; never silently changed (issue 22), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from kifu.cli import main


def replay(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str],
           *options: str) -> tuple[int, str, str]:
    game = tmp_path / "game.sgf"
    game.write_bytes(data)
    status = main(["replay", str(game), *options])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("data, fault", [
    (b"(;SZ[26];B[aa])", "SZ[26]: kifu plays boards of 2x2 to 25x25"),
    (b"(;SZ[1])", "SZ[1]: kifu plays boards of 2x2 to 25x25"),
    (b"(;GM[2]SZ[8];B[ee])", "GM[2] is not a game of Go (GM[1])"),
    (b"(;SZ[9];B[ee])\n)", "an extra ')' after the game (line 2)"),
    (b"(;SZ[9];B[ee]W[cc])", "node 1: B[ee] W[cc]: a black and a white move in one node"),
    (b"(;SZ[9];B[ee];W[cc]W[dd])", "node 2: W[cc][dd]: two moves in one node"),
    (b"(;SZ[9]RU[Japanese][Chinese];B[ee])", "RU: multiple values"),
    (b"(;SZ[9]KM[6.5][7.5];B[ee])", "KM: multiple values"),
    (b"(;CA[UTF-8]SZ[9]RU[\xff\xfe];B[ee])", "RU: not valid utf-8 (byte 0xff)"),
    (b"(;SZ[9];B[ee]", "unexpected end of SGF data"),
    (b"no game here", "no SGF data found"),
])
def test_a_record_kifu_cannot_read_as_written_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, fault: str
) -> None:
    status, out, err = replay(tmp_path, data, capsys)
    assert status == 2
    assert err == f"kifu: {tmp_path / 'game.sgf'}: malformed SGF: {fault}\n"
    assert out == ""


def test_resuming_a_record_kifu_cannot_read_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.sgf"
    data = b"(;SZ[9]RU[Japanese][Chinese];B[ee])"
    game.write_bytes(data)
    script = tmp_path / "none.txt"
    script.write_text("")
    assert main(["record", "--observations", str(script), "--resume", str(game)]) == 2
    assert capsys.readouterr().err == f"kifu: {game}: malformed SGF: RU: multiple values\n"
    assert game.read_bytes() == data


def test_old_records_in_lower_case_are_read_as_their_upper_case_properties(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Some FF[1-3] programs wrote ``;b[ee]``: FF[3] reads lower-case letters as mere
    decoration of a name (``AddBlack`` is ``AB``), which would leave nothing here; kifu
    reads a name in lower case alone as its upper case, never an empty game."""
    status, out, _ = replay(tmp_path, b"(;gm[1]sz[9]km[0.5];b[ee];w[ec];b[];w[])", capsys)
    assert status == 0
    assert out.splitlines()[:4] == ["   1 B E5", "   2 W E7", "   3 B pass", "   4 W pass"]
    assert "W+0.5" in out or "B+" in out  # counted on a 9x9 board with komi 0.5
    assert "(chinese)" in out


def test_long_names_of_ff3_lose_their_lower_case_letters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = replay(tmp_path, b"(;SiZe[9]AddBlack[cc];White[ee])", capsys)
    assert status == 0
    assert out.splitlines()[0] == "   1 W E5"


def test_names_in_another_encoding_than_the_record_says_are_shown_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real records (Fox, Tian Xia Wu Gou) say CA[UTF-8] and have names in GB2312: the
    game is read, the name shown with U+FFFD where it cannot be decoded."""
    name = "吴清源".encode("gb2312")
    status, out, _ = replay(tmp_path, b"(;CA[UTF-8]SZ[9]PB[" + name + b"]GN[][];B[ee])", capsys)
    assert status == 0 and out.splitlines() == ["   1 B E5"]
