"""``kifu demo``: the bundled famous game, filmed with hands, late captures, light changes
and a camera bump, is recorded from the film exactly, move for move."""

from __future__ import annotations

import io
from pathlib import Path

from kifu import demo, demo_hall
from kifu.sgf import load


def test_the_demo_records_the_famous_game_exactly(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = demo.run(tmp_path, out, err)
    text = out.getvalue()
    assert status == 0, text[-3000:]
    assert "check: the recorded SGF equals the source game, all 180 moves" in text
    assert "illegal" not in text
    assert "result: W+R" in text
    films = list(tmp_path.glob("*.avi"))
    assert len(films) == 1 and not list(tmp_path.glob("*.partial.avi"))
    # A second run uses the cached film.
    err2 = io.StringIO()
    assert demo.run(tmp_path, io.StringIO(), err2) == 0
    assert "filming" not in err2.getvalue()


def test_the_hall_demo_plays_each_record_as_hands_would_on_a_sensor_board(tmp_path: Path) -> None:
    """A capture is the stone placed, then the captured stones lifted; a record that ends
    by resignation ends so, unless only its first moves are played."""
    # B B5, W A5, B A4 takes A5:   A B C
    #                            5 O X .     then   5 . X .
    #                            4 X . .            4 X . .
    sgf = tmp_path / "g.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[5]KM[0]RE[B+Resign];B[ba];W[aa];B[ab])")
    record = load(sgf)
    assert list(demo_hall.moves_script(record)) == [
        ["place B5 b"], ["place A5 w"], ["place A4 b", "lift A5"], ["resign W"]]
    assert list(demo_hall.moves_script(record, 2)) == [["place B5 b"], ["place A5 w"]]


def test_the_hall_demo_bundles_three_whole_games() -> None:
    records = [demo_hall.bundled(name) for name in demo_hall.GAMES]
    assert [len(r.moves) for r in records] == [186, 211, 180]
    assert {r.properties.get("DT") for r in records} == {"2016-03-09", "2016-03-10", "2016-03-13"}


def test_the_hall_demo_refuses_a_pace_or_count_out_of_range(tmp_path: Path) -> None:
    from kifu.cli import main

    for flag, value in (("--pace", "-1"), ("--moves", "0"), ("--linger", "-5")):
        assert main(["demo", "--hall", "--folder", str(tmp_path), flag, value]) == 2
