"""``kifu record --frames`` on the real per-move photo sequences of ../shared/vision-data
(Tengen's 9x9 and 13x13 games, Gomrade's 19x19 sequence), with the default settings: the
whole camera path (capture, board watcher, tracker, referee, SGF writer) on real photos,
one per move, and the record equals the moves the labelled positions prove, move for move.

The photos are copied to a temporary folder (none is committed). Without ../shared these
tests skip, except under CI=true, where they fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kifu.cli import main
from kifu.sgf import load
from rules import Point
from tests.conftest import VISION_DATA, need
from tests.kifu import sequences


def record(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, size: int,
           *options: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Record the photos of sequence ``name`` with ``kifu record --frames``: the moves of
    the SGF written (``B C3``) and the JSON events printed."""
    photos = tmp_path / "photos"
    sequences.copy_photos(name, photos)
    out = tmp_path / "game.sgf"
    code = main(["record", "--frames", str(photos), "--size", str(size), "--out", str(out),
                 "--json", *options])
    printed, err = capsys.readouterr()
    assert code == 0, err
    events = [json.loads(line) for line in printed.splitlines() if line.strip()]
    return [f"{m.color.letter} {'pass' if m.point is None else m.point.gtp()}"
            for m in load(out).moves], events


def announced(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events if e["event"] == "announcement"]


@pytest.mark.parametrize("name, size, options", [
    ("tengen-game-9", 9, ["--first", "W"]),  # White moves first in this game
    ("tengen-game-13", 13, []),
])
def test_tengens_photos_one_per_move_are_recorded_move_for_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, size: int,
    options: list[str],
) -> None:
    recorded, events = record(capsys, tmp_path, name, size, *options)
    assert recorded == sequences.moves_between(sequences.labels(name))
    # The last move captures a stone, and the photos end before it is taken off: it is
    # announced as waiting for removal, and mistaken for nothing else.
    captures = [e["captures"] for e in events if e["event"] == "move" and e["captures"]]
    assert len(captures) == 1 and len(captures[0]) == 1
    assert announced(events) == ["waiting-for-removal"]


def test_gomrades_photos_are_recorded_as_its_game_then_its_set_up_stones_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    name = "gomrade-testing-sequence"
    labels = sequences.labels(name)
    recorded, events = record(capsys, tmp_path, name, 19)
    # Photos 1-9 are a move each (the eighth captures); photo 10 shows three white stones
    # set up at once, photo 11 a black one more: no moves explain them.
    assert recorded == sequences.moves_between(labels[:10])
    assert [len(e["captures"]) for e in events if e["event"] == "move"] == [0] * 7 + [1, 0]
    assert announced(events)[-2:] == ["wrong-colour", "unexplained"]
    # The photos show the board half a turn from the game's own record.
    sgf = VISION_DATA / "gomrade" / "testing_sequence" / "game1.sgf"
    need(sgf.is_file(), f"no {sgf}")
    assert recorded == [f"{m.color.letter} {Point(18 - m.point.x, 18 - m.point.y).gtp()}"  # type: ignore[union-attr]
                        for m in load(sgf).moves]
