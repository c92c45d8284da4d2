"""The Go Gadget reference rules (shared/seeds/go-gadget-reference.txt) against the
``go-gadget`` and ``go-gadget-7a`` presets: the order of a play's steps, optional rule 7A,
and the simple ko rule 8 with what it allows that superko forbids."""

from __future__ import annotations

import pytest

from rules import BLACK, WHITE, Game, IllegalMoveError, Phase, Reason

from tests.rules.diagrams import assert_board, game_from_diagram, parse_diagram, play, points, vertex

GADGETS = ["go-gadget", "go-gadget-7a"]


@pytest.mark.parametrize("rules", GADGETS)
def test_initial_position_and_turns(rules: str) -> None:
    """Rule 5: "At the beginning of the game, the board is empty." Rule 6: "Black moves
    first. The players alternate thereafter." """
    g = Game(rules, 19)
    assert g.position.stones() == []
    assert g.to_move is BLACK
    play(g, "Q16")
    assert g.to_move is WHITE
    assert g.legality(vertex(g, "D4"), BLACK) is Reason.WRONG_TURN


@pytest.mark.parametrize("rules", GADGETS)
def test_a_pass_performs_no_action(rules: str) -> None:
    """Rule 7: "a player may either pass (by announcing "pass" and performing no action)
    or play." The board stays; the turn goes over."""
    g = Game(rules, 9)
    play(g, "E5")
    before = g.position
    play(g, "pass")
    assert g.position == before and g.to_move is BLACK


# Step 2 before step 3: Black's A1 has no liberty until White's B1 is removed.
STEPS = """
    . . . .
    O X . .
    a O X .
"""


@pytest.mark.parametrize("rules", GADGETS)
def test_capture_is_step_2_and_self_capture_step_3(rules: str) -> None:
    """Rule 7: "Step 1. (Playing a stone) ... Step 2. (Capture) Removing from the board any
    stones of his opponent's color that have no liberties. Step 3. (Self-capture) Removing
    from the board any stones of his own color that have no liberties." After step 2 the
    Black stone on A1 has B1 as a liberty, so step 3 removes nothing, and rule 7A (which
    looks only at step 3) does not forbid the play."""
    g = game_from_diagram(rules, STEPS)
    ev = g.play(parse_diagram(STEPS)["a"])
    assert ev.captured == (vertex(g, "B1"),) and ev.suicided == ()
    assert_board(g, """
        . . . .
        O X . .
        X . X .
    """)


SELF_CAPTURE = """
    O O O .
    X X O .
    a O . .
"""


def test_self_capture_removes_own_stones() -> None:
    """Rule 7, step 3 without rule 7A: the three Black stones left without liberties are
    removed by Black's own play."""
    g = game_from_diagram("go-gadget", SELF_CAPTURE)
    ev = g.play(vertex(g, "A1"))
    assert set(ev.suicided) == points(g, "A1 A2 B2")
    assert_board(g, """
        O O O .
        . . O .
        . O . .
    """)
    assert g.to_move is WHITE


@pytest.mark.parametrize("diagram, vertex_", [(SELF_CAPTURE, "A1"), ("""
    . . .
    O . .
    . O .
""", "A1")])
def test_rule_7a_forbids_any_play_with_a_step_3(diagram: str, vertex_: str) -> None:
    """Rule 7A: "A play is illegal if one or more stones would be removed in Step 3 of that
    play." Several stones or one, under go-gadget-7a; without 7A both are legal."""
    g = game_from_diagram("go-gadget-7a", diagram)
    assert g.legality(vertex(g, vertex_)) is Reason.SUICIDE
    assert game_from_diagram("go-gadget", diagram).legality(vertex(g, vertex_)) is None


# -- rule 8: ko -------------------------------------------------------------------------

KO = """
    . . . . . .
    . X O . . .
    X a X O . .
    . X O . . .
"""


@pytest.mark.parametrize("rules", GADGETS)
def test_ko_no_immediate_single_stone_recapture(rules: str) -> None:
    """Rule 8: "One may not capture just one stone, if that stone was played on the
    previous move, and that move also captured just one stone." White's ``a`` takes C2;
    Black's C2 would take just ``a``, played on the previous move, which took just one."""
    g = game_from_diagram(rules, KO, WHITE)
    ev = g.play(parse_diagram(KO)["a"])
    assert ev.captured == (vertex(g, "C2"),)
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "C2"))
    assert err.value.reason is Reason.KO


@pytest.mark.parametrize("rules", GADGETS)
def test_ko_retake_after_a_threat(rules: str) -> None:
    """Rule 8 forbids only the capture of the stone "played on the previous move": after a
    Black threat (F4) and White's answer (F3), B2 is no longer the last move played."""
    g = game_from_diagram(rules, KO, WHITE)
    play(g, "B2 F4 F3")
    assert g.play(vertex(g, "C2")).captured == (vertex(g, "B2"),)
    # ... and now White may not retake at once.
    assert g.legality(vertex(g, "B2")) is Reason.KO


@pytest.mark.parametrize("rules", GADGETS)
def test_ko_after_a_pass(rules: str) -> None:
    """Rule 8 looks at "the previous move" only: White takes at B2, Black passes, White
    plays F4. B2 was not played on the previous move, so Black's retake is legal."""
    g = game_from_diagram(rules, KO, WHITE)
    play(g, "B2 pass F4")
    assert g.legality(vertex(g, "C2")) is None


SEND_TWO = """
    . . . . .
    O O X . .
    O O X . .
    . X . X .
"""


@pytest.mark.parametrize("rules, second_throw_in", [
    ("go-gadget", None),
    ("go-gadget-7a", None),
    ("japanese", None),
    ("tromp-taylor", Reason.SITUATIONAL_SUPERKO),
    ("aga", Reason.SITUATIONAL_SUPERKO),
    ("new-zealand", Reason.SITUATIONAL_SUPERKO),
])
def test_simple_ko_lets_a_cycle_repeat(rules: str, second_throw_in: Reason | None) -> None:
    """Rule 8 stops only one-stone-for-one-stone recaptures. Sending two and returning one
    (Black A1, White C1 takes two, Black B1 takes one, White passes) repeats the board
    every four turns, and simple ko never stops it; situational superko refuses Black's
    second throw-in at A1, which would bring back a position already left."""
    g = game_from_diagram(rules, SEND_TWO)
    for _ in range(3 if second_throw_in is None else 1):
        play(g, "A1 C1 B1 pass")
        assert_board(g, SEND_TWO)
    assert g.legality(vertex(g, "A1")) is second_throw_in


@pytest.mark.parametrize("rules", GADGETS)
def test_capturing_a_stone_that_took_two_is_not_ko(rules: str) -> None:
    """Rule 8 needs the previous move to have "also captured just one stone": White's C1
    took two, so Black may take C1 at once."""
    g = game_from_diagram(rules, SEND_TWO)
    play(g, "A1 C1")
    assert g.play(vertex(g, "B1")).captured == (vertex(g, "C1"),)


# -- rules 9 and 10: end, area, winner ----------------------------------------------------


@pytest.mark.parametrize("rules", GADGETS)
def test_the_final_position_is_counted_as_it_stands(rules: str) -> None:
    """Rule 9: "The final position is the position on the board at the time the players
    pass consecutively." Territory: an empty point whose region touches only one colour,
    "and there is at least one such stone"; area: territory plus stones; no komi.

        . X O .
        X X O O     Black: 4 stones + A1 A3 = 6.
        . X O .     White: 4 stones + D1 D3 = 6: a draw (rule 10)."""
    g = game_from_diagram(rules, """
        . X O .
        X X O O
        . X O .
    """)
    play(g, "pass pass")
    assert g.phase is Phase.COUNTING
    s = g.score()
    assert (s.black.total, s.white.total) == (6.0, 6.0)
    assert s.winner is None and s.result() == "0"


@pytest.mark.parametrize("rules", GADGETS)
def test_an_empty_board_is_nobodys_territory(rules: str) -> None:
    """Definition of territory: "2) there is at least one such stone." On an empty board
    no point is territory: 0 to 0, drawn."""
    g = Game(rules, 9)
    play(g, "pass pass")
    s = g.score()
    assert (s.black.total, s.white.total, s.neutral) == (0.0, 0.0, 81)
    assert s.winner is None


@pytest.mark.parametrize("rules", GADGETS)
def test_higher_score_wins(rules: str) -> None:
    """Rule 10: "If one player has a higher score than the other, then that player wins."

        . X O .
        . X O X     Black: B1-B3 D2 = 4 stones + A1-A3 = 7.
        . X O .     White: C1-C3 = 3 stones; D1 and D3 touch both colours. B+4.
    """
    g = game_from_diagram(rules, """
        . X O .
        . X O X
        . X O .
    """)
    s = g.score()
    assert (s.black.total, s.white.total) == (7.0, 3.0)
    assert s.winner is BLACK and s.result() == "B+4"


# A triple ko: three kos side by side on the bottom edge. Ko 1 (A1/B1) and ko 2 (E1/F1)
# hold a White stone that took, ko 3 (J1/K1) a Black one. White's H3 makes the position
# (so White has left it by a move); then each side takes, in turn, a ko other than the one
# just taken: B B1, W J1, B F1, W A1, B K1, and White's E1 would bring back the start.
TRIPLE_KO = """
    . . . . . . . . . . .
    X O . . X O . . X O .
    O . O X O . O X . X O
"""
TRIPLE_KO_CYCLE = "B1 J1 F1 A1 K1 E1"


@pytest.mark.parametrize("rules, sixth", [
    ("go-gadget", None),
    ("go-gadget-7a", None),
    ("japanese", None),
    ("chinese", Reason.POSITIONAL_SUPERKO),
    ("timin", Reason.POSITIONAL_SUPERKO),
    ("tromp-taylor", Reason.SITUATIONAL_SUPERKO),
    ("concise", Reason.SITUATIONAL_SUPERKO),
    ("new-zealand", Reason.SITUATIONAL_SUPERKO),
    ("aga", Reason.SITUATIONAL_SUPERKO),
])
def test_triple_ko(rules: str, sixth: Reason | None) -> None:
    """Rule 8 forbids only retaking the ko just taken, so a triple ko cycles for ever
    (six captures bring back the same board with the same player to move); every superko
    rule refuses the capture that would close the cycle: AGA rule 6's "multiple kos ...
    the players must avoid repeating the full-board position"."""
    g = game_from_diagram(rules, TRIPLE_KO, WHITE)
    play(g, "H3")
    start = g.position
    moves = TRIPLE_KO_CYCLE.split()
    for v in moves[:5]:
        assert len(g.play(vertex(g, v)).captured) == 1
    assert g.legality(vertex(g, moves[5])) is sixth
    if sixth is None:
        play(g, moves[5])
        assert g.position == start and g.to_move is BLACK
        play(g, TRIPLE_KO_CYCLE)  # and round again
        assert g.position == start
