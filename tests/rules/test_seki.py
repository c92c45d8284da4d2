"""Seki at the count: "no points in seki" (Japanese rules; Timin rule 8, "two groups half
surrounding each other produce no points for either side") against AGA rule 12 and area
scoring, where the eyes of groups in seki are surrounded points like any other."""

from __future__ import annotations

import pytest

from rules import Game

from tests.rules.diagrams import game_from_diagram, points

# Each inner group has a one-point eye (A1, F1) and the two share the liberty D1: whoever
# fills D1 is left in atari and is taken. The outer groups live with territory.
SEKI_WITH_EYES = """
    . . . O X . .
    . . . O X . .
    . . . O X . .
    O O O O X X X
    O O O O X X X
    X X X X O O O
    . X X . O . O
"""


def seki_game(rules: str, diagram: str) -> Game:
    return game_from_diagram(rules, diagram, komi=0)


@pytest.mark.parametrize("rules", ["japanese", "timin"])
def test_eyes_inside_a_seki_are_no_points(rules: str) -> None:
    """Timin rule 8: "two groups half surrounding each other produce no points for either
    side"; Japanese: eye points of stones in seki are not territory. Black counts F5-G7
    (6), not A1; White A5-C7 (9), not F1; D1, A1 and F1 are nobody's."""
    g = seki_game(rules, SEKI_WITH_EYES)
    s = g.score()
    assert (s.black.territory, s.white.territory) == (6, 9)
    assert s.neutral == 3
    counted = set(s.territory[0]) | set(s.territory[1])
    assert not counted & points(g, "A1 D1 F1")


@pytest.mark.parametrize("rules, black, white", [("aga", 7, 10), ("chinese", 7 + 15, 10 + 16)])
def test_seki_eyes_count_under_aga_and_area(rules: str, black: int, white: int) -> None:
    """AGA rule 12: territory is "entirely surrounded by live stones of a single color", and
    the eyes A1 and F1 are; area scoring counts them too (15 Black, 16 White stones). Only
    the shared liberty D1 is neutral."""
    s = seki_game(rules, SEKI_WITH_EYES).score()
    assert (s.black.total, s.white.total, s.neutral) == (black, white, 1)


# The same seki beside living groups that have not filled the dame between them (E4-E7):
# the dame touches both colours but fills without harm, so it is no seki, and the living
# groups keep their territory.
SEKI_BESIDE_LIVING_GROUPS = """
    . . . O . X . .
    . . . O . X . .
    . . . O . X . .
    O O O O . X X X
    O O O O X X X X
    X X X X O O O O
    . X X . O . O O
"""


@pytest.mark.parametrize("rules", ["japanese", "timin"])
def test_a_seki_beside_living_groups(rules: str) -> None:
    """Black's territory G5-H7 (6) and White's A5-C7 (9) count; the seki's eyes A1 and F1,
    its shared liberty D1 and the unfilled dame E4-E7 count for nobody."""
    g = seki_game(rules, SEKI_BESIDE_LIVING_GROUPS)
    s = g.score()
    assert set(s.territory[0]) == points(g, "G5 H5 G6 H6 G7 H7")
    assert set(s.territory[1]) == points(g, "A5 B5 C5 A6 B6 C6 A7 B7 C7")
    assert s.neutral == 7


# Two-point eyes: Black's A1-B1, White's G1-H1, and the shared liberty E1. Filling E1
# leaves the filler two liberties against two, with the opponent to move: the filler loses.
SEKI_TWO_POINT_EYES = """
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    O O O O O X X X X
    O O O O O X X X X
    X X X X X O O O O
    . . X X . O . . O
"""


@pytest.mark.parametrize("rules, black, white", [
    ("japanese", 9, 12), ("timin", 9, 12), ("aga", 11, 14),
])
def test_seki_eyes_of_two_points(rules: str, black: int, white: int) -> None:
    """No points in seki, whatever the eyes' size: Japanese and Timin count Black G5-J7 (9)
    and White A5-D7 (12) only; AGA adds the two-point eyes."""
    s = seki_game(rules, SEKI_TWO_POINT_EYES).score()
    assert (s.black.territory, s.white.territory) == (black, white)


# A one-point eye against a two-point eye, one shared liberty: White fills E1 and wins the
# race (two liberties against one, Black to move), so this is no seki: the count is left
# to the players' agreement on dead stones, and both eyes are counted as they stand.
NOT_A_SEKI = """
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    O O O O O X X X X
    O O O O O X X X X
    X X X X X O O O O
    . X X X . O . . O
"""


def test_an_eye_against_a_bigger_eye_is_no_seki() -> None:
    """Only groups that cannot fill their shared liberties are in seki: here White can, so
    A1 counts for Black and G1 H1 for White as surrounded points."""
    g = seki_game("japanese", NOT_A_SEKI)
    s = g.score()
    assert points(g, "A1") <= set(s.territory[0])
    assert points(g, "G1 H1") <= set(s.territory[1])
    assert s.neutral == 1
