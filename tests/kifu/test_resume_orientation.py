"""The orientation a board is read in is kept in its record (``KR``, a property other SGF
readers keep or ignore), so that ``kifu record --resume`` reads the camera turned as the
recording was, without being told ``--rotate`` again; an explicit ``--rotate`` still
decides, and says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from sgfmill import sgf  # type: ignore[import-untyped]

from kifu.cli import main
from kifu.sgf import ORIENTATION_PROPERTY, SgfError, load, parse

# Black sits at the right of the camera's picture (--rotate 90). Readings, top of the
# picture first: Black's first stone at the picture's bottom right is Black's A1.
FIRST = """\
@ 0-1
.....
.....
.....
.....
.....
@ 2-3
.....
.....
.....
.....
....X
"""

# The recording goes on, the camera where it was: White at the picture's top right, which
# for Black sitting at the right is E1.
GOES_ON = """\
@ 10-11
.....
.....
.....
.....
....X
@ 12-13
....O
.....
.....
.....
....X
"""


def recorded(path: Path) -> list[str]:
    return [m.gtp() for m in load(path).moves]


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def record(tmp_path: Path, *flags: str) -> Path:
    """A 5x5 game recorded with ``flags``, Black's first move played."""
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", script(tmp_path, "first.txt", FIRST),
                 "--out", str(out), "--size", "5", *flags]) == 0
    return out


def resume(tmp_path: Path, out: Path, text: str, *flags: str) -> None:
    """The recording ``out`` resumed with the readings ``text`` and ``flags``."""
    assert main(["record", "--observations", script(tmp_path, "on.txt", text),
                 "--resume", str(out), *flags]) == 0


def test_the_record_keeps_the_orientation_and_stays_valid_sgf(tmp_path: Path) -> None:
    out = record(tmp_path, "--rotate", "90")
    assert recorded(out) == ["B A1"]
    root = sgf.Sgf_game.from_bytes(out.read_bytes()).get_root()
    assert root.get_raw(ORIENTATION_PROPERTY) == b"90"
    assert parse(out.read_bytes()).orientation == 90


def test_a_record_read_unturned_says_nothing_of_it(tmp_path: Path) -> None:
    out = record(tmp_path)
    assert ORIENTATION_PROPERTY.encode() + b"[" not in out.read_bytes()
    assert parse(out.read_bytes()).orientation is None


def test_resumed_without_rotate_the_moves_land_where_the_recording_put_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record(tmp_path, "--rotate", "90")
    capsys.readouterr()
    resume(tmp_path, out, GOES_ON)
    assert recorded(out) == ["B A1", "W E1"]
    assert "turned 90°" in capsys.readouterr().err
    assert parse(out.read_bytes()).orientation == 90


def test_an_explicit_rotate_on_resume_overrides_the_record_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The camera was moved to Black's side between the sessions: ``--rotate 0`` now."""
    out = record(tmp_path, "--rotate", "90")
    capsys.readouterr()
    moved = GOES_ON.replace("....X\n@ 12", "X....\n@ 12").replace(
        "....O\n.....\n.....\n.....\n....X", ".....\n.....\n.....\n.....\nX...O")
    resume(tmp_path, out, moved, "--rotate", "0")
    assert recorded(out) == ["B A1", "W E1"]
    err = capsys.readouterr().err
    assert "--rotate 0 overrides the orientation" in err and "(90°)" in err
    assert parse(out.read_bytes()).orientation is None


def test_the_same_rotate_on_resume_is_taken_quietly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = record(tmp_path, "--rotate", "90")
    capsys.readouterr()
    resume(tmp_path, out, GOES_ON, "--rotate", "90")
    assert recorded(out) == ["B A1", "W E1"]
    assert "overrides" not in capsys.readouterr().err


def test_turning_during_the_game_is_kept_too(tmp_path: Path) -> None:
    out = record(tmp_path)
    turned = GOES_ON.replace("@ 10-11", "rotate 90\n@ 10-11")
    resume(tmp_path, out, turned)
    assert parse(out.read_bytes()).orientation == 90


def test_a_record_whose_orientation_is_no_angle_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SgfError, match=r"game.sgf: .*KR\[45\] is not an orientation"):
        parse(b"(;GM[1]SZ[5]KR[45];B[ae])", "game.sgf")
