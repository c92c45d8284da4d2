"""The concise ruleset (shared/seeds/concise-ruleset.txt) against the ``concise`` preset:
above all the one place it differs from Tromp-Taylor, that a pass also "leaves" a grid."""

from __future__ import annotations

import pytest

from rules import BLACK, PRESETS, WHITE, Game, IllegalMoveError, Reason

from tests.rules.diagrams import assert_board, game_from_diagram, parse_diagram, play, vertex

# Black to play. White can take the Black stone ``b`` by playing ``a``; Black can then
# retake at ``b``, which brings back exactly this grid.
KO_TO_PASS = """
    . . . . . .
    . X O . . .
    X a X O . .
    . X O . . .
"""
# The diagram is drawn with Black's ko stone on C2 and ``a`` on B2.
A, B = "B2", "C2"

# Black passes at the diagram, White takes the ko at B2, Black retakes at C2: may he?
# Tromp-Taylor (rule 4: a *move* not leaving a grid left before): yes, a pass leaves
# nothing. New Zealand no: "saying 'pass'" is one of a player's moves. Concise ("has left previously" means by a move or a pass) no:
# Black's pass left the diagram's grid. AGA no: the diagram with White to play occurred
# after Black's pass. Positional superko and simple ko no (the plain ko retake).
RETAKE_AFTER_PASS = [
    ("tromp-taylor", None),
    ("new-zealand", Reason.KO),
    ("concise", Reason.KO),
    ("aga", Reason.KO),
    ("aga-area", Reason.KO),
    ("chinese", Reason.KO),
    ("timin", Reason.KO),
    ("japanese", Reason.KO),
    ("go-gadget", Reason.KO),
    ("go-gadget-7a", Reason.KO),
]


def test_table_covers_every_preset() -> None:
    """The table below names each preset once."""
    assert sorted(r for r, _ in RETAKE_AFTER_PASS) == sorted(PRESETS)


def test_the_diagram_is_a_ko() -> None:
    """The shape: White's B2 takes the single Black stone on C2 and stands in atari."""
    g = game_from_diagram("concise", KO_TO_PASS, WHITE)
    ev = g.play(vertex(g, A))
    assert ev.captured == (vertex(g, B),)


@pytest.mark.parametrize("rules, reason", RETAKE_AFTER_PASS)
def test_a_pass_leaves_a_grid_under_concise_only(rules: str, reason: Reason | None) -> None:
    """Concise: "A turn is either a pass; or a move that does not generate a grid pattern
    identical to one that this player has generated previously" and '"Has left
    previously" means by either a move or a pass.' Tromp-Taylor rule 4 counts only grids
    left by a move, so there the retake after a pass is legal."""
    g = game_from_diagram(rules, KO_TO_PASS, BLACK)
    play(g, f"pass {A}")
    assert g.legality(vertex(g, B)) is reason
    if reason is None:
        g.play(vertex(g, B))
        assert_board(g, KO_TO_PASS)
    else:
        with pytest.raises(IllegalMoveError) as err:
            g.play(vertex(g, B))
        assert err.value.reason is reason
        assert g.to_move is BLACK


def test_after_a_threat_and_answer_the_retake_makes_a_new_grid() -> None:
    """Concise, the turn rule: the grid Black left by passing comes back only if nothing
    else changed. After a threat and its answer (F4, F3) the retake at C2 generates a grid
    Black has never generated, so it is legal."""
    g = game_from_diagram("concise", KO_TO_PASS, BLACK)
    play(g, f"pass {A} F4 F3")
    ev = g.play(vertex(g, B))
    assert ev.captured == (vertex(g, A),)


def test_suicide_stones_are_removed() -> None:
    """Concise: "recolor all the player's own-colored points which don't contact empty
    (called remove suicide stones)." White's B2 is surrounded by Black stones that all
    keep liberties: it is removed again, and it was still White's turn used up."""
    g = game_from_diagram("concise", SUICIDE, WHITE)
    ev = g.play(vertex(g, "B2"))
    assert ev.suicided == (vertex(g, "B2"),)
    assert ev.captured == ()
    assert_board(g, SUICIDE)
    assert g.to_move is BLACK


SUICIDE = """
    . X .
    X . X
    . X .
"""


def test_handicap_is_consecutive_black_turns() -> None:
    """Concise: 'a handicap of "n stones"; which means he is black and begins with n
    consecutive turns before white's first.' """
    g = Game("concise", 9, handicap=2)
    play(g, "C3")
    assert g.to_move is BLACK
    play(g, "G7")
    assert g.to_move is WHITE


def test_komi_is_seven() -> None:
    """Concise: 'it is usual to add an extra 7 points to white's score ... This 7 points is
    called the "komi".' """
    assert Game("concise", 19).komi == 7.0


AREA = """
    . X O .
    X X O O
    . X O .
"""


def test_score_is_points_of_colour_plus_empty_not_contacting_the_opponent() -> None:
    """Concise: "A player's score is the number of points of his color, plus the number of
    empty points that don't contact the opponent's color."

    Black: B3 A2 B2 B1 = 4 stones + A1 A3 = 6. White: C3 C2 D2 C1 = 4 stones + D1 D3
    = 6. Komi 7: White 13, W+7."""
    g = game_from_diagram("concise", AREA)
    s = g.score()
    assert (s.black.total, s.white.total) == (6.0, 13.0)
    assert s.result() == "W+7"


def test_on_an_empty_board_every_point_counts_for_both() -> None:
    """Concise, the score rule read literally: on an empty board no empty point contacts
    either colour, so each player scores all 9 x 9 = 81 points; komi 7 gives W+7 (the
    winner is as under Tromp-Taylor, whose "reach only his color" gives 0 and 7)."""
    g = Game("concise", 9)
    play(g, "pass pass")
    s = g.score()
    assert (s.black.total, s.white.total) == (81.0, 88.0)


def test_the_diagram_helper_reads_marks() -> None:
    """The marks of the ko diagram are where the module says they are."""
    d = parse_diagram(KO_TO_PASS)
    assert d.marks == {"a": vertex(Game("concise", 6, 4), A)}


def test_concise_a_pass_leaves_the_grid() -> None:
    """The concise preset: "A turn is either a pass; or a move that does not generate a
    grid pattern identical to one that this player has generated previously" with '"Has
    left previously" means by either a move or a pass.' Black passes at the ko; after
    White's capture, Black's retake would generate the grid Black left by that pass."""
    g = game_from_diagram("concise", KO_TO_PASS, BLACK)
    play(g, f"pass {A}")
    assert g.legality(vertex(g, B)) is Reason.KO
