"""``kifu snap``: the board as a diagram, JSON, an SGF of setup stones, an overlay."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from kifu.cli import main
from kifu.sgf import load
from rules import Position
from vision.synth import Scene, render

POSITION = Position([
    ".........",
    "..X...O..",
    ".........",
    "...XO....",
    "....X....",
    ".........",
    "......O..",
    ".........",
    ".........",
])


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Position]:
    shot = render(POSITION, 5)
    path = tmp_path_factory.mktemp("snap") / "board.png"
    cv2.imwrite(str(path), shot.image)
    return path, shot.position


def test_json_has_size_rows_corners_and_confidence(photo, capsys) -> None:
    path, seen = photo
    assert main(["snap", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["size"] == 9
    assert out["board"] == seen.rows()
    assert len(out["corners"]) == 4 and all(len(c) == 2 for c in out["corners"])
    assert 0.0 <= out["confidence"] <= 1.0


def test_sgf_holds_setup_stones_and_no_moves(photo, tmp_path) -> None:
    path, seen = photo
    sgf = tmp_path / "board.sgf"
    assert main(["snap", str(path), "--sgf", str(sgf)]) == 0
    text = sgf.read_text()
    assert "AB[" in text and "AW[" in text
    assert ";B[" not in text and ";W[" not in text
    assert load(sgf).width == 9


def test_overlay_is_written(photo, tmp_path) -> None:
    path, _ = photo
    out = tmp_path / "overlay.png"
    assert main(["snap", str(path), "--overlay", str(out)]) == 0
    drawn = cv2.imread(str(out))
    assert drawn is not None and drawn.shape == cv2.imread(str(path)).shape


def test_diagram_is_the_default(photo, capsys) -> None:
    path, _ = photo
    assert main(["snap", str(path), "--size", "9"]) == 0
    assert "A B C D E F G H J" in capsys.readouterr().out


def test_no_board_exits_3_with_one_line(tmp_path, capsys) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 90, np.uint8))
    assert main(["snap", str(blank)]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "board not found" in err[0]


def test_a_file_that_is_no_image_is_a_usage_error(tmp_path, capsys) -> None:
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a photo")
    assert main(["snap", str(bogus)]) == 2
    assert "notes.txt" in capsys.readouterr().err


def test_a_coloured_set_reads_its_lighter_stones_as_black_when_asked(tmp_path, capsys) -> None:
    # Red and blue stones: the darker (red) are Black's unless --lighter-black.
    shot = render(POSITION, 5, Scene(stone_colours=((60, 60, 200), (200, 120, 40))))
    path = tmp_path / "coloured.png"
    cv2.imwrite(str(path), shot.image)
    assert main(["snap", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == shot.position.rows()
    assert main(["snap", str(path), "--json", "--lighter-black"]) == 0
    swapped = [r.translate(str.maketrans("XO", "OX")) for r in shot.position.rows()]
    assert json.loads(capsys.readouterr().out)["board"] == swapped
