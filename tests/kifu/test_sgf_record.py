"""The record says everything: what `kifu record` writes, read back by sgfmill property by
property (as Sabaki would), and by kifu's own replay and live display to the same result
as the session counted; the time each player had left with ``--time``; what a resumed
record keeps and what the session adds to it."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from sgfmill import sgf  # type: ignore[import-untyped]

from kifu.cli import main
from kifu.display import LiveBoard, SgfFollower
from kifu.sgf import VERSION

EMPTY = ".....\n" * 5

# Black C2, White A5, Black C4; both pass; White's A5 is lifted as dead; done.
COUNTED = f"""\
@ 0-1
{EMPTY}@ 1.2-2
.....
.....
.....
..X..
.....
@ 2.5-3.5
O....
.....
.....
..X..
.....
@ 4-5
O....
..X..
.....
..X..
.....
pass
pass
@ 6-7
.....
..X..
.....
..X..
.....
done
"""


def record(tmp_path: Path, script: str, *options: str) -> Path:
    path = tmp_path / "game.txt"
    path.write_text(script)
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(path), "--out", str(out), "--size", "5",
                 *options]) == 0
    return out


def properties(node: sgf.Tree_node) -> dict[str, object]:
    return {k: node.get(k) for k in node.properties()}


def moves(game: sgf.Sgf_game) -> list[tuple[str | None, tuple[int, int] | None]]:
    return [n.get_move() for n in game.get_main_sequence()[1:]]


@pytest.mark.parametrize("rules, result", [
    ("chinese", "B+17.5"),   # area: 2 stones and 23 points, against 7.5 komi
    ("japanese", "B+17.5"),  # territory: 23 points and the dead stone, against 6.5 komi
    ("aga", "B+19.5"),       # territory: 23, the dead stone and 2 pass stones (White's
                             # pass, and one more as Black passed last), against 5.5
                             # komi and Black's pass stone
])
def test_a_counted_game_is_in_its_record_and_every_reader_agrees_with_the_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str, result: str
) -> None:
    out = record(tmp_path, COUNTED, "--rules", rules, "--player-black", "Ann",
                 "--player-white", "Bob", "--json")
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    score = next(e for e in printed if e["event"] == "score")
    del score["time"]

    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    root = properties(game.get_root())
    komi = score["komi"]
    assert root == {
        "FF": 4, "GM": 1, "CA": "UTF-8", "SZ": 5, "AP": ("kifu", VERSION), "KM": komi,
        "RU": rules, "DT": datetime.date.today().isoformat(), "PB": "Ann", "PW": "Bob",
        "RE": score["result"],
    }
    assert moves(game) == [("b", (1, 2)), ("w", (4, 0)), ("b", (3, 2)), ("w", None), ("b", None)]
    last = game.get_main_sequence()[-1]
    black_area = {(r, c) for r in range(5) for c in range(5)} - {(1, 2), (3, 2)}
    assert last.get("TB") == black_area and not last.has_property("TW")
    assert last.get_raw_list("KD") == [b"aa"]  # the dead stone A5, where kifu reads it back

    # kifu replay (the record ends with two passes) and kifu serve count it alike.
    assert main(["replay", str(out), "--json"]) == 0
    replayed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert replayed[-1] == score
    board = LiveBoard("game")
    SgfFollower(out, board).poll()
    shown = json.loads(json.dumps(board.snapshot.to_json()))
    assert shown["score"] == {k: v for k, v in score.items() if k != "event"} | {"event": "score"}
    assert score["result"] == result and score["dead_stones"] == ["A5"]


def test_without_its_dead_stones_the_record_would_count_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = record(tmp_path, COUNTED, "--json")
    capsys.readouterr()
    assert main(["replay", str(out), "--json", "--dead", ""]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["result"] == "W+6.5"


def test_a_resignation_is_the_result_and_nothing_is_counted(tmp_path: Path) -> None:
    out = record(tmp_path, COUNTED.split("pass")[0] + "resign W\n")
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert game.get_root().get("RE") == "B+R"
    assert not any(n.has_property(p) for n in game.get_main_sequence() for p in ("TB", "TW", "KD"))


# -- --time ---------------------------------------------------------------------------------

TIMED = f"""\
@ 0-1
{EMPTY}@ 50-51
.....
.....
..X..
.....
.....
@ 55-56
.....
...O.
..X..
.....
.....
@ 78-79
.....
...O.
..X..
..X..
.....
@ 150-151
.....
...O.
..XO.
..X..
.....
"""


def clocks(out: Path) -> list[dict[str, object]]:
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    keep = ("BL", "WL", "OB", "OW")
    return [{k: n.get(k) for k in keep if n.has_property(k)} for n in game.get_main_sequence()[1:]]


def test_byo_yomi_time_left_is_written_after_each_move(tmp_path: Path) -> None:
    """One minute and two periods of 10 s. Black thinks 50 s (10 s left), White 5 s
    (55 left), Black 23 s: its last 10 s of main time and 13 s of byo-yomi, one period
    lost, 7 s left of the next; White 72 s: 55 s of main time, then 17 s: one period
    lost, 3 s left of the last."""
    out = record(tmp_path, TIMED, "--time", "1m+2x10s")
    root = sgf.Sgf_game.from_bytes(out.read_bytes()).get_root()
    assert root.get("TM") == 60 and root.get("OT") == "2x10 byo-yomi"
    assert clocks(out) == [{"BL": 10.0}, {"WL": 55.0}, {"BL": 7.0, "OB": 1}, {"WL": 3.0, "OW": 1}]


def test_fischer_time_left_has_the_increment_added(tmp_path: Path) -> None:
    out = record(tmp_path, TIMED, "--time", "1m+20s")
    root = sgf.Sgf_game.from_bytes(out.read_bytes()).get_root()
    assert root.get("TM") == 60 and root.get("OT") == "20 fischer"
    # Black: 60 - 50 + 20 = 30; White: 60 - 5 + 20 = 75; Black: 30 - 23 + 20 = 27;
    # White: 75 - 72 + 20 = 23.
    assert clocks(out) == [{"BL": 30.0}, {"WL": 75.0}, {"BL": 27.0}, {"WL": 23.0}]


def test_a_resumed_timed_game_goes_on_with_the_time_its_record_left(tmp_path: Path) -> None:
    out = record(tmp_path, TIMED.split("@ 78")[0], "--time", "1m+2x10s")
    script = tmp_path / "more.txt"
    # The new session's clock starts at 0: Black thinks 15 s, 10 s of main time and 5 s
    # of its first period.
    script.write_text("@ 0-1\n.....\n...O.\n..X..\n.....\n.....\n"
                      "@ 15-16\n.....\n...O.\n..X..\n..X..\n.....\n")
    assert main(["record", "--observations", str(script), "--resume", str(out),
                 "--time", "1m+2x10s"]) == 0
    assert clocks(out) == [{"BL": 10.0}, {"WL": 55.0}, {"BL": 5.0, "OB": 2}]


def test_a_time_control_kifu_cannot_read_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        record(tmp_path, TIMED, "--time", "60m+3y30s")
    assert exit.value.code == 2
    assert "--time 60m+3y30s: cannot read '3y30s' as a time" in capsys.readouterr().err


# -- what a resumed record keeps, and what the session adds ------------------------------------

MINE = (b"(;GM[1]FF[4]CA[ISO-8859-1]SZ[5]PB[Ren\xe9]KM[0.5]C[a friendly game]XX[unknown]\n"
        b";B[cc]C[good];W[dd](;B[dc]C[as played]LB[dc:1];W[]\n;B[])(;B[bb]C[a variation]))\n")


def test_a_resumed_record_ending_in_two_passes_is_not_counted_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.sgf"
    game.write_bytes(MINE)
    script = tmp_path / "none.txt"
    script.write_text("")
    assert main(["record", "--observations", str(script), "--resume", str(game)]) == 0
    assert game.read_bytes() == MINE
    # Told: the result goes on the root, nothing else changes (no territory, none dead:
    # B C3 D3 and W D2 share every empty point; 2 to 1.5 with 0.5 komi).
    script.write_text("done\n")
    assert main(["record", "--observations", str(script), "--resume", str(game)]) == 0
    assert game.read_bytes() == MINE.replace(b"XX[unknown]", b"XX[unknown]RE[B+0.5]")


def test_what_the_session_decides_is_set_on_the_root_and_nothing_else(tmp_path: Path) -> None:
    game = tmp_path / "game.sgf"
    game.write_bytes(MINE.replace(b";W[]\n;B[]", b""))
    script = tmp_path / "more.txt"
    script.write_text("@ 0-1\n.....\n.....\n.OXX.\n...O.\n.....\n")  # White B3
    assert main(["record", "--observations", str(script), "--resume", str(game),
                 "--komi", "6.5", "--player-white", "Zo\u00eb"]) == 0
    # The komi given replaces the record's where it stood; the name is added in the
    # record's own encoding (CA[ISO-8859-1]).
    assert game.read_bytes() == (
        b"(;GM[1]FF[4]CA[ISO-8859-1]SZ[5]PB[Ren\xe9]KM[6.5]C[a friendly game]XX[unknown]"
        b"PW[Zo\xeb]\n;B[cc]C[good];W[dd](;B[dc]C[as played]LB[dc:1];W[bc]KT[0.00])"
        b"(;B[bb]C[a variation]))\n")
