"""`benchmarks/vision_dump.py --diff`: which photos' readings a change altered; with
``--readings``, a change to the confidences alone alters none; ``--perturb`` dumps the readings
of perturbed photos, perturbed as `vision_robustness.py` perturbs them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2

from benchmarks.vision_dump import diff, main, read
from rules import Position
from vision.perturb import by_name
from vision.synth import render


def reading(rows: list[str], confidence: float, board: float) -> dict[str, Any]:
    return {"found": True, "size": 9, "board_confidence": board, "rows": rows,
            "confidence": [confidence] * 81}


BEFORE = {"a.jpg": reading(["X........"], 0.9, 0.7), "b.jpg": {"found": False, "reason": "x"}}


def test_a_new_confidence_is_a_difference_unless_only_readings_are_compared() -> None:
    after = {"a.jpg": reading(["X........"], 0.99, 0.4), "b.jpg": BEFORE["b.jpg"]}
    assert diff(BEFORE, after) == ["a.jpg"]
    assert diff(BEFORE, after, readings=True) == []


def test_a_stone_read_otherwise_is_a_difference_either_way() -> None:
    after = {"a.jpg": reading(["O........"], 0.9, 0.7), "b.jpg": BEFORE["b.jpg"]}
    assert diff(BEFORE, after, readings=True) == ["a.jpg"]


def test_a_photo_the_first_dump_lacks_differs() -> None:
    after = {"c.jpg": reading(["X........"], 0.9, 0.7)}
    assert diff(BEFORE, after, readings=True) == ["c.jpg"]


POSITION = Position([
    "X........",
    ".O....X..",
    ".........",
    "..X..O...",
    ".....X...",
    "...O.....",
    ".........",
    "......XO.",
    "O........",
])


def test_perturb_dumps_each_photo_under_each_perturbation_as_robustness_perturbs_it(
        tmp_path: Path) -> None:
    shot = render(POSITION, 5)
    cv2.imwrite(str(tmp_path / "board.png"), shot.image)
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"image": "board.png"}) + "\n")
    out = tmp_path / "dump.json"
    assert main([str(out), str(manifest), "--perturb", "turn 180", "--perturb", "gamma 1.6"]) == 0
    dumped = json.loads(out.read_text())
    assert list(dumped) == ["board.png @ turn 180", "board.png @ gamma 1.6"]
    turned = dumped["board.png @ turn 180"]
    assert turned["found"] and turned["rows"] == [row[::-1] for row in shot.position.rows()[::-1]]
    gamma = by_name("gamma 1.6")[0].apply(shot.image).image
    assert dumped["board.png @ gamma 1.6"] == json.loads(json.dumps(read(gamma)[0]))


def test_perturb_with_an_unknown_name_is_a_usage_error(tmp_path: Path, capsys) -> None:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"image": "board.png"}) + "\n")
    assert main([str(tmp_path / "dump.json"), str(manifest), "--perturb", "sepia"]) == 2
    assert "sepia" in capsys.readouterr().err


def test_diff_of_a_missing_or_garbled_dump_names_it_and_is_an_input_error(
        tmp_path: Path, capsys) -> None:
    good, garbled = tmp_path / "good.json", tmp_path / "garbled.json"
    good.write_text("{}")
    garbled.write_text("{not json")
    for other in (tmp_path / "missing.json", garbled):
        assert main(["--diff", str(good), str(other)]) == 2
        assert str(other) in capsys.readouterr().err


def test_photos_are_found_relative_to_the_manifests_folder(tmp_path: Path) -> None:
    shot = render(POSITION, 5)
    (tmp_path / "set" / "photos").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "set" / "photos" / "board.png"), shot.image)
    manifest = tmp_path / "set" / "manifest.jsonl"
    manifest.write_text(json.dumps({"image": "photos/board.png"}) + "\n")
    out = tmp_path / "dump.json"
    assert main([str(out), str(manifest)]) == 0
    dumped = json.loads(out.read_text())
    assert dumped == {"photos/board.png": json.loads(json.dumps(read(shot.image)[0]))}
    assert dumped["photos/board.png"]["rows"] == shot.position.rows()


def test_a_photo_the_manifest_names_but_that_is_not_there_is_an_input_error(
        tmp_path: Path, capsys) -> None:
    # A manifest copied away from its photos: every photo is missing, not "cannot read".
    manifest = tmp_path / "elsewhere" / "manifest.jsonl"
    manifest.parent.mkdir()
    manifest.write_text(json.dumps({"image": "set/a.jpg"}) + "\n"
                        + json.dumps({"image": "set/b.jpg"}) + "\n")
    out = tmp_path / "dump.json"
    assert main([str(out), str(manifest)]) == 2
    err = capsys.readouterr().err
    assert str(manifest.parent / "set" / "a.jpg") in err
    assert str(manifest.parent / "set" / "b.jpg") in err
    assert not out.exists()


def test_a_photo_that_cannot_be_decoded_is_an_input_error_unless_asked_to_go_on(
        tmp_path: Path, capsys) -> None:
    (tmp_path / "garbled.jpg").write_bytes(b"not a JPEG at all")
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"image": "garbled.jpg"}) + "\n")
    out = tmp_path / "dump.json"
    assert main([str(out), str(manifest)]) == 2
    assert str(tmp_path / "garbled.jpg") in capsys.readouterr().err
    assert not out.exists()
    assert main([str(out), str(manifest), "--keep-going"]) == 0
    assert str(tmp_path / "garbled.jpg") in capsys.readouterr().err
    assert json.loads(out.read_text()) == {"garbled.jpg": {"error": "cannot read"}}
    assert main([str(out), str(manifest), "--keep-going", "--perturb", "turn 180"]) == 0
    assert json.loads(out.read_text()) == {"garbled.jpg @ turn 180": {"error": "cannot read"}}
