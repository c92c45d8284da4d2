"""The vision benchmarks that read a manifest's photos (`benchmarks.manifest_photos`) treat a
photo the manifest names that is missing, or that is not an image, as an input error: they
name it on stderr and exit with status 2, rather than leave it out of the figures."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks import fit_confidence, vision_accuracy, vision_confidence, vision_speed

Run = Callable[[Path, pytest.MonkeyPatch], int]


def _confidence(argv: list[str]) -> Run:
    def run(manifest: Path, monkeypatch: pytest.MonkeyPatch) -> int:
        monkeypatch.setattr(vision_confidence, "MANIFEST", manifest)
        return vision_confidence.main(argv)
    return run


RUNS: dict[str, Run] = {
    "vision_accuracy": lambda m, _: vision_accuracy.main([str(m)]),
    "vision_speed": lambda m, _: vision_speed.main([str(m), "--repeat", "1"]),
    "vision_confidence": _confidence(["--seeds", "0"]),
    "vision_confidence --placements": _confidence(["--placements", "1"]),
    "fit_confidence": lambda m, _: fit_confidence.main(
        [str(m), "--scenes", "0", "--board-scenes", "0", "--mistaken", "0"]),
}

ROW = {"image": "set/a.jpg", "size": 9, "stones": ["." * 9] * 9}
"""A photo with stone truth: one every benchmark here reads."""


@pytest.mark.parametrize("name", RUNS)
def test_a_photo_the_manifest_names_but_that_is_not_there_is_an_input_error(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps(ROW) + "\n")
    assert RUNS[name](manifest, monkeypatch) == 2
    assert f"{tmp_path / 'set' / 'a.jpg'}: no such photo" in capsys.readouterr().err


@pytest.mark.parametrize("name", RUNS)
def test_a_photo_that_cannot_be_decoded_is_an_input_error(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "a.jpg").write_bytes(b"not a JPEG at all")
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps(ROW) + "\n")
    assert RUNS[name](manifest, monkeypatch) == 2
    assert f"{tmp_path / 'set' / 'a.jpg'}: named in {manifest}, cannot be read" in \
        capsys.readouterr().err
