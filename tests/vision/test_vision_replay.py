"""`benchmarks/vision_replay.py`: a photo's readings recorded once (untouched and perturbed as
`vision_robustness.py` perturbs it) and read again by the stone stage at hand, or reread
from the photo by the whole reader at hand, with the same figures as the robustness
benchmark; a change to the stone stage, or to the reader, shows in them and in the
readings that differ from the recorded ones; a store that is not there, or is garbled, or
a manifest that is not there, is an input error that names it."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import cv2
import numpy as np
import pytest

import benchmarks.manifest_photos as manifest_photos
import benchmarks.vision_replay as vision_replay
from benchmarks.vision_replay import main
from vision import BoardNotFound, read_board
from vision.config import VISION
from vision.stones import read_stones, read_from, smoothed, stone_inputs
from vision.synth import random_position, render

POSITION = random_position(9, 4)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A manifest of one drawn board with its stones as truth, recorded untouched and
    turned half round."""
    folder = tmp_path_factory.mktemp("replay")
    shot = render(POSITION, 5)
    cv2.imwrite(str(folder / "board.png"), shot.image)
    truth = [r.replace("X", "B").replace("O", "W") for r in shot.position.rows()]
    (folder / "manifest.jsonl").write_text(
        json.dumps({"image": "board.png", "size": 9, "stones": truth}) + "\n")
    assert main(["record", str(folder / "store"), str(folder / "manifest.jsonl"),
                 "--perturb", "turn 180"]) == 0
    return folder / "store"


def test_read_stones_is_read_from_its_stone_inputs() -> None:
    shot = render(POSITION, 3)
    reading = read_board(shot.image)
    by_image = read_stones(shot.image, reading.homography, 9)
    f, scores = stone_inputs(shot.image, reading.homography, 9)
    assert scores is None  # no learned reader asked for
    assert f.lightness is not None and f.lightness.dtype == np.uint8
    assert np.array_equal(smoothed(f.lightness), f.smooth)
    from_inputs = read_from(f, scores)
    assert all(np.array_equal(a, b) for a, b in zip(by_image, from_inputs))


def test_a_replay_on_the_tree_that_recorded_reads_as_it_did(
        store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert [p.name for p in store.iterdir()] == ["0.replay"]
    assert main(["replay", str(store)]) == 0
    out = capsys.readouterr().out
    assert "readings that differ from the recorded ones: 0 of 2" in out
    untouched = next(line for line in out.splitlines() if line.startswith("untouched"))
    turned = next(line for line in out.splitlines() if line.startswith("turn 180"))
    assert "100.000" in untouched and "1/1" in untouched
    assert "100.000" in turned and turned.rstrip().endswith("ok")


def test_a_changed_stone_stage_shows_in_the_figures_and_the_readings_that_differ(
        store: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def nothing_there(f, scores, *args):  # type: ignore[no-untyped-def]
        n = f.light.shape[0]
        return np.zeros((n, n), np.int64), np.ones((n, n))

    monkeypatch.setattr(vision_replay, "read_from", nothing_there)
    assert main(["replay", str(store), "-v"]) == 0
    out = capsys.readouterr().out
    assert "readings that differ from the recorded ones: 2 of 2" in out
    stones = sum(c != "." for c in "".join(POSITION.rows()))
    right = 100.0 * (81 - stones) / 81
    untouched = next(line for line in out.splitlines() if line.startswith("untouched"))
    assert f"{right:.3f}" in untouched and "0/1" in untouched
    assert "  turn 180                 board.png" in out


def test_a_reread_by_the_reader_that_recorded_reads_as_it_did(
        store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reread", str(store), str(store.parent / "manifest.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "readings that differ from the recorded ones: 0 of 2" in out
    turned = next(line for line in out.splitlines() if line.startswith("turn 180"))
    assert "100.000" in turned and turned.rstrip().endswith("ok")


def test_a_changed_reader_shows_in_a_reread_photo_by_photo(
        store: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_board(image: np.ndarray) -> None:
        raise BoardNotFound("no board here")

    monkeypatch.setattr(manifest_photos, "read_board", no_board)
    assert main(["reread", str(store), str(store.parent / "manifest.jsonl"), "-v"]) == 0
    out = capsys.readouterr().out
    assert "readings that differ from the recorded ones: 2 of 2" in out
    assert "  turn 180                 board.png  points right 81 -> 0" in out


def test_a_reread_without_its_manifest_names_it_and_is_an_input_error(
        store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reread", str(store), str(tmp_path / "gone.jsonl")]) == 2
    assert "gone.jsonl" in capsys.readouterr().err


def test_replay_of_a_store_not_there_or_garbled_names_it_and_is_an_input_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none")]) == 2
    assert str(tmp_path / "none") in capsys.readouterr().err
    (tmp_path / "0.replay").write_bytes(b"not a pickle")
    assert main(["replay", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path) in err and "record again" in err


def test_a_store_recorded_with_other_features_is_refused(
        store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = pickle.loads((store / "0.replay").read_bytes())
    kept["features"] = kept["features"][:-1]  # as before a field was added
    (tmp_path / "0.replay").write_bytes(pickle.dumps(kept))
    assert main(["replay", str(tmp_path)]) == 2
    assert "other fields" in capsys.readouterr().err


def test_record_without_a_manifest_or_with_an_unknown_perturbation_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", str(tmp_path / "s"), str(tmp_path / "no.jsonl")]) == 2
    assert "no.jsonl" in capsys.readouterr().err
    assert main(["replay", str(tmp_path), "--perturb", "sepia"]) == 2
    assert "sepia" in capsys.readouterr().err


def test_reading_with_the_learned_readers_config_but_not_its_scores_is_refused() -> None:
    shot = render(POSITION, 3)
    reading = read_board(shot.image)
    f, _ = stone_inputs(shot.image, reading.homography, 9)
    with pytest.raises(ValueError, match="scores"):
        read_from(f, None, net=VISION.point_net)
