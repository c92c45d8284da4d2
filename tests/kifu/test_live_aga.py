"""AGA rule 8 in a live game: "If a player makes an illegal move ... the player must take
back his or her move ..., it shall be treated as a PASS, and a pass stone exchanged." The
referee records the pass, says so, and waits for the stone to be taken back; the record
keeps the pass (the illegal move in its comment) and `resume` carries the game on, as it
does a record that holds the illegal move itself."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kifu.cli import main
from kifu.corrections import Correction
from kifu.session import Session, resume
from kifu.sgf import load
from kifu.sinks import SgfWriter, TerminalAnnouncer
from kifu.tracker import Announcement, Kind, Tracker
from rules import Color, Game, IllegalMove, Move, Observation, Passed, Point, Reason, preset

# 5x5: Black's move 9 at D3 takes the ko (White C3); White retakes at C3 at once.
KO_MOVES = ["B B3", "W D4", "B C4", "W D2", "B C2", "W E3", "B A5", "W C3", "B D3"]
RETAKE = "C3"


def reading(game: Game, time: float, *, add: dict[str, Color] | None = None,
            lift: tuple[str, ...] = ()) -> Observation:
    """The board the game shows, with stones added and lifted by hand."""
    rows = [list(r) for r in game.position.rows()]
    h = game.height
    for v, c in (add or {}).items():
        p = Point.from_gtp(v)
        rows[h - 1 - p.y][p.x] = "X" if c is Color.BLACK else "O"
    for v in lift:
        p = Point.from_gtp(v)
        rows[h - 1 - p.y][p.x] = "."
    return Observation.from_rows(["".join(r) for r in rows], time=time)


def play_ko(rules: str, out: Path, takeback: bool = False) -> tuple[Session, io.StringIO, float]:
    """A session that has seen the nine moves played on the board, one a second."""
    game = Game(rules, 5, komi=0.5)
    said = io.StringIO()
    session = Session(Tracker(game, stable_for=0.0), [SgfWriter(out, game),
                                                        TerminalAnnouncer(said)],
                      takeback=takeback)
    shadow = Game(rules, 5)
    t = 0.0
    session.handle(reading(shadow, t))
    for text in KO_MOVES:
        shadow.push(Move.parse(text, 5, 5))
        t += 1.0
        session.handle(reading(shadow, t))
    assert game.number == len(KO_MOVES)
    return session, said, t


def test_an_illegal_retake_counts_as_a_pass_and_the_stone_goes_back(tmp_path: Path) -> None:
    out = tmp_path / "game.sgf"
    session, said, t = play_ko("aga", out)
    game = session.game
    before = len(session.outputs)
    # White puts a stone on C3 and lifts Black's D3, as if retaking the ko.
    session.handle(reading(game, t + 1, add={RETAKE: Color.WHITE}, lift=("D3",)))
    new = session.outputs[before:]
    assert new[0] == IllegalMove(Color.WHITE, Point.from_gtp(RETAKE), Reason.KO,
                                 counted_as_pass=True, number=10)
    assert isinstance(new[1], Announcement) and new[1].kind is Kind.ILLEGAL
    assert new[1].text == ("W C3 is illegal (ko): it counts as White's pass, a pass stone to "
                           "Black (AGA rule 8); take it back and put D3 back")
    assert "counts as White's pass" in said.getvalue()
    assert (game.number, game.passes[2], game.to_move) == (10, 1, Color.BLACK)
    assert [m.gtp() for m in load(out).moves][-1] == "W pass"
    assert b";W[]KT[10.00]C[illegal W C3 (ko): counted as a pass (AGA rule 8)])" in out.read_bytes()
    # The stone is taken back and D3 put back: the board matches the game again.
    session.handle(reading(game, t + 2))
    assert session.outputs[-1] == Announcement(Kind.RESYNC, "the board matches the game again")
    # Black plays on; the pass stays in the record.
    session.handle(reading(game, t + 3, add={"E1": Color.BLACK}))
    assert [m.gtp() for m in load(out).moves][-2:] == ["W pass", "B E1"]
    assert game.passes[2] == 1


def test_where_take_backs_are_allowed_the_board_before_the_capture_is_a_take_back(
    tmp_path: Path
) -> None:
    """A ko retaken at once leaves the board as it was before the capture: in a club game
    (``--takeback allowed``) that is the capture taken back, as under every rule set, not
    White's illegal move."""
    out = tmp_path / "game.sgf"
    session, _, t = play_ko("aga", out, takeback=True)
    game = session.game
    session.handle(reading(game, t + 1, add={RETAKE: Color.WHITE}, lift=("D3",)))
    assert isinstance(session.outputs[-1], Correction)
    assert session.outputs[-1].action == "take-back"
    assert (game.number, game.passes[2], game.to_move) == (8, 0, Color.BLACK)


def test_under_other_rules_the_retake_is_refused_and_nothing_recorded(tmp_path: Path) -> None:
    """(Straight to the tracker: the session would take the board, which shows the game
    before Black's D3, for a take-back of D3 and refuse that.)"""
    out = tmp_path / "game.sgf"
    session, _, t = play_ko("japanese", out)
    game = session.game
    said = session.tracker.feed(reading(game, t + 1, add={RETAKE: Color.WHITE}, lift=("D3",)))
    assert said == [Announcement(Kind.ILLEGAL, "W C3 is illegal (ko): take it back",
                                 (Point.from_gtp(RETAKE),), Reason.KO)]
    assert (game.number, game.passes[2], game.to_move) == (9, 0, Color.WHITE)


def test_kifu_record_resumes_a_record_with_an_aga_pass(tmp_path: Path) -> None:
    """The record written live (a pass, the illegal move in its comment) is resumed under
    its own rules and carried on."""
    out = tmp_path / "game.sgf"
    session, _, t = play_ko("aga", out)
    session.handle(reading(session.game, t + 1, add={RETAKE: Color.WHITE}, lift=("D3",)))
    done = resume(out.read_bytes(), preset("aga"), str(out))
    assert (done.game.number, done.game.passes[2], done.game.to_move) == (10, 1, Color.BLACK)
    rows = done.game.position.rows()
    assert rows[4] == "....."
    script = tmp_path / "more.txt"  # Black plays E1
    script.write_text("@ 0-1\n" + "\n".join(rows) + "\n@ 2-3\n" + "\n".join(rows[:4]) + "\n....X\n")
    assert main(["record", "--observations", str(script), "--resume", str(out),
                 "--rules", "aga"]) == 0
    assert [m.gtp() for m in load(out).moves][-2:] == ["W pass", "B E1"]


# The record of the same game holding White's illegal retake itself (as a record from
# elsewhere may): under AGA rules it is read as White's pass; under others it is refused.
HELD = (b"(;GM[1]FF[4]SZ[5]KM[0.5]RU[AGA];B[bc];W[db];B[cb];W[dd];B[cd];W[ec];B[aa];W[cc]"
        b";B[dc];W[cc])")


def test_resume_reads_an_illegal_move_held_in_the_record_as_the_aga_pass() -> None:
    done = resume(HELD, preset("aga"), "held.sgf")
    assert (done.game.number, done.game.passes[2], done.game.to_move) == (10, 1, Color.BLACK)
    assert isinstance(done.game.pass_(), Passed)  # and the game goes on
    with pytest.raises(ValueError, match="held.sgf: cannot resume: .*ko"):
        resume(HELD, preset("japanese"), "held.sgf")
