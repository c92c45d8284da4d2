"""The session: source, tracker, game and sinks; the SGF on disk after every event;
resuming a game; ``kifu record`` on an observation script."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import numpy as np
import pytest

from kifu.cli import main
from kifu.session import Command, Session, load_script, parse_command, parse_script, resume
from kifu.sgf import load, move_property, rules_for
from kifu.sinks import SgfWriter, TerminalAnnouncer
from kifu.tracker import Announcement, Kind, Tracker
from rules import Color, Game, Observation, Phase, Point, Reason, preset
from tests.kifu.test_tracker import BUNDLED, STABLE, film_of

SCRIPT = """\
# Black C3, White D4 under a hand, then both pass and count.
@ 0-1
.....
.....
.....
.....
.....
@ 1.2-2
.....
.....
..X..
.....
.....
@ 2.5       # a hand
.....
.???.
..X..
.....
.....
@ 3-4
.....
...O.
..X..
.....
.....
pass
pass B      # out of turn: refused
pass W
done
"""


def session_for(path: Path, game: Game, **kw: object) -> tuple[Session, SgfWriter, io.StringIO]:
    writer = SgfWriter(path, game, **kw)  # type: ignore[arg-type]
    text = io.StringIO()
    return Session(Tracker(game, stable_for=STABLE), [writer, TerminalAnnouncer(text)]), writer, text


# -- the script and the keyboard ---------------------------------------------------------------

def test_a_script_holds_timed_readings_and_commands() -> None:
    items = parse_script(SCRIPT, "game.txt")
    readings = [i for i in items if isinstance(i, Observation)]
    assert [r.time for r in readings] == [0.0, 1.0, 1.2, 2.0, 2.5, 3.0, 4.0]
    assert readings[4].unknown() == [Point.from_gtp(v) for v in ("B4", "C4", "D4")]
    assert [i for i in items if isinstance(i, Command)] == [
        Command("pass"), Command("pass", Color.BLACK), Command("pass", Color.WHITE), Command("done"),
    ]


def test_the_documented_script_example_reads_as_documented() -> None:
    import kifu.session
    example = (kifu.session.__doc__ or "").split("::", 1)[1]
    items = parse_script(example, "doc")
    assert [getattr(i, "time", None) for i in items] == [0.0, 1.0, 1.5, None]
    assert items[2].unknown() == [Point.from_gtp("C1")]  # type: ignore[union-attr]
    assert items[3] == Command("pass")


@pytest.mark.parametrize("text, message", [
    ("...\n...\n...\n", "game.txt:1: a reading without a time"),
    ("@ 0\n...\n..\n...\n", "game.txt:2: row 2 has 2 points, expected 3"),
    ("@ 0\n...\n...\n...\n@ 1\n....\n....\n....\n....\n", "game.txt:6: a 4x4 reading after 3x3"),
    ("@ 0\n...\n...\n...\njump\n", "game.txt:5: unknown command 'jump'"),
    ("resign purple\n", "game.txt:1: cannot read the command 'resign purple'"),
])
def test_a_bad_script_is_refused_naming_the_file_and_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_script(text, "game.txt")


def test_a_missing_script_is_named() -> None:
    with pytest.raises(ValueError, match="nowhere.txt"):
        load_script("nowhere.txt")


def test_commands_read_at_the_keyboard() -> None:
    assert parse_command("p") == Command("pass")
    assert parse_command(" Pass white ") == Command("pass", Color.WHITE)
    assert parse_command("resign B") == Command("resign", Color.BLACK)
    assert parse_command("score") == Command("done")


# -- the record on disk ------------------------------------------------------------------------

def test_the_sgf_on_disk_is_rewritten_after_every_event_with_each_moves_time(tmp_path: Path) -> None:
    out = tmp_path / "game.sgf"
    game = Game("chinese", 5)
    session, writer, _ = session_for(out, game)
    assert load(out).moves == []  # the file exists from the start
    seen: list[int] = []
    for item in parse_script(SCRIPT, "game.txt"):
        session.handle(item)
        seen.append(len(load(out).moves))  # what a crash right now would leave
    assert seen == [0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 4]
    data = out.read_bytes()
    assert [m.gtp() for m in load(out).moves] == [
        "B C3", "W D4", "B pass", "W pass"]
    # Each move's time is when its stone was first seen (a pass: when it was said).
    assert move_property(data, "KT") == ["1.20", "3.00", "4.00", "4.00"]
    assert load(out).properties["RE"] == "W+7.5"
    assert writer.writes == 1 + 4 + 2  # start, four moves, the end and the score


def test_a_refused_command_is_announced_and_changes_nothing(tmp_path: Path) -> None:
    game = Game("chinese", 5)
    session, _, text = session_for(tmp_path / "g.sgf", game)
    session.handle(Command("done"))
    session.handle(Command("pass", Color.WHITE))
    kinds = [o.kind for o in session.outputs if isinstance(o, Announcement)]
    assert kinds == [Kind.REFUSED, Kind.ILLEGAL]
    assert game.number == 0 and "cannot count yet" in text.getvalue()


def test_a_game_in_its_counting_phase_is_counted_when_the_source_ends(tmp_path: Path) -> None:
    game = Game("chinese", 5)
    session, _, _ = session_for(tmp_path / "g.sgf", game)
    items = [i for i in parse_script(SCRIPT, "s") if i != Command("done")]
    session.run(items)
    assert game.phase is Phase.OVER
    assert load(tmp_path / "g.sgf").properties["RE"] == "W+7.5"


def test_a_resignation_ends_the_session_and_the_record_says_who_won(tmp_path: Path) -> None:
    game = Game("chinese", 5)
    session, _, _ = session_for(tmp_path / "r.sgf", game)
    items = parse_script(SCRIPT, "s")
    later = Observation.from_rows([".....", "...O.", "..X..", "..X..", "....."], time=9.0)
    session.run(items[:7] + [Command("resign", Color.BLACK), later, later])
    assert game.phase is Phase.OVER and game.number == 2  # nothing read after the end
    assert load(tmp_path / "r.sgf").properties["RE"] == "W+R"


def test_handicap_stones_are_written_as_setup_stones(tmp_path: Path) -> None:
    out = tmp_path / "h.sgf"
    game = Game("chinese", 9)
    writer = SgfWriter(out, game)
    session = Session(Tracker(game, stable_for=STABLE, handicap=2), [writer])
    rows = [".........", ".........", "......X..", ".........", ".........",
            ".........", "..X......", ".........", "........."]
    session.run([Observation.from_rows(rows, time=0.0), Observation.from_rows(rows, time=1.0)])
    record = load(out)
    assert record.handicap == 2 and record.setup.black == (Point.from_gtp("C3"), Point.from_gtp("G7"))
    assert record.moves == []


def test_events_as_json_lines_for_other_programs() -> None:
    stream = io.StringIO()
    game = Game("chinese", 5)
    session = Session(Tracker(game, stable_for=STABLE), [TerminalAnnouncer(stream, as_json=True)])
    session.run(parse_script(SCRIPT, "s"))
    lines = [json.loads(x) for x in stream.getvalue().splitlines()]
    assert lines[0] == {"event": "move", "number": 1, "color": "B", "vertex": "C3",
                        "captures": [], "time": 1.2}
    assert {"event": "announcement", "kind": "illegal", "reason": "wrong-turn"}.items() <= lines[3].items()
    assert lines[-1]["event"] == "score" and lines[-1]["result"] == "W+7.5"


# -- a whole game, a crash, and resuming ---------------------------------------------------------

def test_a_filmed_game_interrupted_and_resumed_is_recorded_move_for_move(tmp_path: Path) -> None:
    record = load(BUNDLED)
    film = list(film_of(record, seed=11))
    half = next(i for i, f in enumerate(film)
                if isinstance(f, Observation) and f.time >= film[-1].time / 2)  # type: ignore[union-attr]
    out = tmp_path / "lee-sedol-alphago-4.sgf"
    rules = preset("chinese")

    game = Game(rules, 19, komi=record.komi)
    session, _, _ = session_for(out, game, properties={"PB": "Lee Sedol"})
    for item in film[:half]:  # ... and then the power goes
        session.handle(item if isinstance(item, Observation) else Command("pass"))
    played = game.number
    assert 0 < played < len(record.moves)

    done = resume(out.read_bytes(), rules, str(out))
    assert done.game.position == game.position and done.game.number == played
    assert all(t is not None for t in done.times)
    session, _, _ = session_for(out, done.game, properties=done.record.properties,
                                moves=done.moves, times=done.times)
    # The camera starts again a little before the cut: nothing is recorded twice.
    session.run(film[half - 20:])  # type: ignore[arg-type]

    written = load(out)
    assert [m.gtp() for m in written.moves] == [m.gtp() for m in record.moves]
    assert written.properties["PB"] == "Lee Sedol"
    times = [float(t) for t in move_property(out.read_bytes(), "KT")]  # type: ignore[arg-type]
    assert times == sorted(times)


def test_stones_captured_just_before_a_crash_may_still_lie_there_on_resuming() -> None:
    # Black D3 captured C3; the power went before anyone took the white stone off.
    data = b"(;SZ[5]AB[bc][cb][cd]AW[cc]PL[w];W[ee];B[dc])"
    done = resume(data, preset("chinese"))
    assert done.captured == {Point.from_gtp("C3"): Color.WHITE}
    tracker = Tracker(done.game, stable_for=STABLE, captured=done.captured)
    lying = Observation.from_rows([".....", "..X..", ".XOX.", "..X..", "....O"])
    assert tracker.feed(dataclasses.replace(lying, time=0)) == []
    assert tracker.feed(dataclasses.replace(lying, time=1)) == []  # expected: no trouble
    assert done.game.position[Point.from_gtp("C3")] is None
    # Without being told, the tracker takes the dead stone for a new white stone, and
    # announces it as illegal (a suicide) for nothing.
    fresh = resume(data, preset("chinese"))
    blind = Tracker(fresh.game, stable_for=STABLE)
    blind.feed(dataclasses.replace(lying, time=0))
    out = blind.feed(dataclasses.replace(lying, time=1))
    assert [(a.kind, a.reason) for a in out] == [(Kind.ILLEGAL, Reason.SUICIDE)]  # type: ignore[union-attr]


def test_resuming_a_finished_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="the game is over"):
        resume(b"(;SZ[9]RE[B+R];B[ee])", preset("chinese"), "done.sgf")


def test_resuming_a_record_with_an_illegal_move_is_refused() -> None:
    with pytest.raises(ValueError, match="bad.sgf: cannot resume: .*occupied"):
        resume(b"(;SZ[9];B[ee];W[ee])", preset("chinese"), "bad.sgf")


# -- kifu record -------------------------------------------------------------------------------

def test_kifu_record_on_an_observation_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--player-black", "Ann", "--player-white", "Bob", "--stable", "0.3"]) == 0
    printed = capsys.readouterr().out
    assert "   1 B C3" in printed and "   2 W D4" in printed and "W+7.5" in printed
    record = load(out)
    assert [m.gtp() for m in record.moves] == ["B C3", "W D4", "B pass", "W pass"]
    assert record.properties["PB"] == "Ann" and record.properties["PW"] == "Bob"


def test_kifu_record_will_not_overwrite_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "game.sgf"
    out.write_bytes(b"(;SZ[5];B[cc])")
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert out.read_bytes() == b"(;SZ[5];B[cc])"


def test_kifu_record_lets_white_move_first_and_the_record_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "game.txt"
    script.write_text("@ 0-1\n.....\n.....\n..O..\n.....\n.....\n"
                      "@ 2-3\n.....\n...X.\n..O..\n.....\n.....\n")
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--first", "W"]) == 0
    record = load(out)
    assert [m.gtp() for m in record.moves] == ["W C3", "B D4"]
    assert record.setup.to_move is Color.WHITE  # PL[W]: other programs replay it alike
    # Without it, the white stone is refused as the wrong colour, and once Black's stone
    # comes the two are read the only way Black can have started: another game.
    again = tmp_path / "again.sgf"
    assert main(["record", "--observations", str(script), "--out", str(again), "--size", "5"]) == 0
    assert "wrong-colour" in capsys.readouterr().out
    assert [m.gtp() for m in load(again).moves] == ["B D4", "W C3"]


@pytest.mark.parametrize("options", [["--handicap", "2"], ["--resume", "old.sgf"]])
def test_who_moves_first_is_said_only_for_a_new_even_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    (tmp_path / "old.sgf").write_bytes(b"(;SZ[5];B[cc])")
    options = [str(tmp_path / o) if o.endswith(".sgf") else o for o in options]
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "game.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--first", "W", *options]) == 2
    assert "--first is for a new game without handicap stones" in capsys.readouterr().err
    assert not out.exists()


def test_kifu_record_resumes_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.sgf"
    out.write_bytes(b"(;SZ[5]KM[0.5]RU[Japanese]PB[Ann];B[cc]KT[1.20])")
    script = tmp_path / "more.txt"
    script.write_text("@ 10-11\n.....\n.....\n..X..\n.....\n.....\n"
                      "@ 12-13\n.....\n...O.\n..X..\n.....\n.....\n")
    assert main(["record", "--observations", str(script), "--resume", str(out)]) == 0
    record = load(out)
    assert [m.gtp() for m in record.moves] == ["B C3", "W D4"]
    assert record.komi == 0.5 and record.properties["PB"] == "Ann"
    assert rules_for(record) == "japanese" and record.rules == "Japanese"  # RU as the user wrote it
    assert move_property(out.read_bytes(), "KT") == ["1.20", "12.00"]
    # Resumed again with another komi: the record says so from then on.
    script.write_text("@ 20-21\n.....\n...O.\n..X..\n..X..\n.....\n")
    assert main(["record", "--observations", str(script), "--resume", str(out), "--komi", "6.5"]) == 0
    record = load(out)
    assert [m.gtp() for m in record.moves] == ["B C3", "W D4", "B C2"] and record.komi == 6.5


# -- camera sources, through vision's capture and board watcher ----------------------------------

def test_kifu_record_watches_a_folder_of_photos_one_per_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Photos of a board, one per move, through the real capture, board watcher and
    tracker with the default settings: a photo with no board in it (a head in the way)
    only hides the board, a camera moved between two photos is followed, and each move's
    time falls within its photo's second."""
    import cv2
    import numpy as np

    from vision.film import Film, Shot, Take

    film = Film(9, Take(width=960, height=540, seed=1))

    def photo(*stones: tuple[str, int], pose: int = 0) -> np.ndarray:
        cells = [0] * 81
        for vertex, colour in stones:
            p = Point.from_gtp(vertex, 9, 9)
            cells[p.y * 9 + p.x] = colour
        return film.render(Shot(0.0, tuple(cells), None, 1.0, pose))

    empty = photo()
    photos = [empty, photo(("C3", 1)), np.full_like(empty, (60, 40, 120)),
              photo(("C3", 1)), photo(("C3", 1), ("D4", 2), pose=1)]
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, img in enumerate(photos):
        cv2.imwrite(str(frames / f"photo-{i}.png"), img)
    out = tmp_path / "game.sgf"
    assert main(["record", "--frames", str(frames), "--out", str(out), "--size", "9"]) == 0
    assert [m.gtp() for m in load(out).moves] == ["B C3", "W D4"]
    times = [float(t) for t in move_property(out.read_bytes(), "KT") if t is not None]
    assert 1.0 <= times[0] < 2.0 and 4.0 <= times[1] < 5.0


def test_kifu_record_reads_a_coloured_set_whose_lighter_stones_are_black_when_told(
    tmp_path: Path
) -> None:
    """Photos of a blue and maroon set, one per move, whose blue (lighter) stones are
    Black's: told so (--lighter-black), the record has Black's blue stone and White's
    maroon one; untold, the darker maroon is taken for Black's. (A lone stone of this set
    is too near the wood for the black and white rules: the first is seen with the second.)"""
    import cv2

    from vision.film import Film, Shot, Take

    blue, maroon = (200, 120, 40), (30, 30, 130)
    film = Film(9, Take(width=960, height=540, seed=1, stone_colours=(blue, maroon)))

    def photo(*stones: tuple[str, int]) -> np.ndarray:
        cells = [0] * 81
        for vertex, colour in stones:
            p = Point.from_gtp(vertex, 9, 9)
            cells[p.y * 9 + p.x] = colour
        return film.render(Shot(0.0, tuple(cells), None, 1.0, 0))

    frames = tmp_path / "frames"
    frames.mkdir()
    for i, img in enumerate([photo(), photo(("C3", 1)), photo(("C3", 1), ("D4", 2))]):
        cv2.imwrite(str(frames / f"photo-{i}.png"), img)
    told, untold = tmp_path / "told.sgf", tmp_path / "untold.sgf"
    assert main(["record", "--frames", str(frames), "--out", str(told), "--size", "9",
                 "--lighter-black"]) == 0
    assert [m.gtp() for m in load(told).moves] == ["B C3", "W D4"]
    main(["record", "--frames", str(frames), "--out", str(untold), "--size", "9"])
    assert [m.gtp() for m in load(untold).moves] == ["B D4", "W C3"]


def test_photos_held_too_briefly_for_the_stability_window_are_refused_before_recording(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.sgf"
    assert main(["record", "--frames", str(tmp_path), "--out", str(out),
                 "--frame-interval", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "--stable 0.5 is too long for photos held --frame-interval 0.5" in err
    assert "use --stable 0.27 or less, or a longer --frame-interval" in err
    assert not out.exists()


def test_a_source_that_cannot_be_opened_is_named_and_leaves_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.sgf"
    assert main(["record", "--video", str(tmp_path / "missing.mp4"), "--out", str(out)]) == 2
    assert "missing.mp4" in capsys.readouterr().err
    assert not out.exists()
