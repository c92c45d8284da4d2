"""Seki at the count: "no points in seki" (Japanese rules; Timin rule 8, "two groups half
surrounding each other produce no points for either side") against AGA rule 12 and area
scoring, where the eyes of groups in seki are surrounded points like any other."""

from __future__ import annotations

import pytest

from rules import Game, geometry
from rules.seki import one_eye

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


@pytest.mark.parametrize("rules, black, white", [("aga", 7, 10), ("chinese", 7 + 15, 10 + 16)])
def test_seki_eyes_count_under_aga_and_area(rules: str, black: int, white: int) -> None:
    """AGA rule 12: territory is "entirely surrounded by live stones of a single color", and
    the eyes A1 and F1 are; area scoring counts them too (15 Black, 16 White stones). Only
    the shared liberty D1 is neutral."""
    s = seki_game(rules, SEKI_WITH_EYES).score()
    assert (s.black.total, s.white.total, s.neutral) == (black, white, 1)


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

# Black's side of the seki is two strings, A2-B2 and C1-E2, joined by their two-point eye
# A1-B1 (A2-B2 touches both points, C1 only B1; E1, the liberty shared with White, only
# C1-E2): they live or die together, two liberties in the eye against White's two in
# G1-H1.
SEKI_OF_TWO_STRINGS = """
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    O O O O O X X X X
    O O O O O X X X X
    X X O X X O O O O
    . . X X . O . . O
"""

# Three-point eyes: Black's A1-C1, between its strings A2-C2 and D1-F2, White's H1-K1;
# F1 is shared. Whoever fills F1 has three liberties against three, the other to move.
SEKI_THREE_POINT_EYES = """
    . . . . . O X . . .
    . . . . . O X . . .
    . . . . . O X . . .
    O O O O O O X X X X
    O O O O O O X X X X
    X X X O X X O O O O
    . . . X X . O . . .
"""


@pytest.mark.parametrize("diagram, rules, territory, neutral", [
    # the 7x7: Black counts F5-G7 (6), not A1; White A5-C7 (9), not F1
    (SEKI_WITH_EYES, "japanese", (6, 9), "A1 D1 F1"),
    (SEKI_WITH_EYES, "timin", (6, 9), "A1 D1 F1"),
    # two-point eyes: Black G5-J7 (9), White A5-D7 (12) only
    (SEKI_TWO_POINT_EYES, "japanese", (9, 12), "A1 B1 E1 G1 H1"),
    (SEKI_TWO_POINT_EYES, "timin", (9, 12), "A1 B1 E1 G1 H1"),
    (SEKI_OF_TWO_STRINGS, "japanese", (9, 12), "A1 B1 E1 G1 H1"),
    (SEKI_OF_TWO_STRINGS, "timin", (9, 12), "A1 B1 E1 G1 H1"),
    # three-point eyes: Black H5-K7 (9), White A5-E7 (15)
    (SEKI_THREE_POINT_EYES, "japanese", (9, 15), "A1 B1 C1 F1 H1 J1 K1"),
    (SEKI_THREE_POINT_EYES, "timin", (9, 15), "A1 B1 C1 F1 H1 J1 K1"),
])
def test_eyes_inside_a_seki_are_no_points(
    diagram: str, rules: str, territory: tuple[int, int], neutral: str
) -> None:
    """Timin rule 8: "two groups half surrounding each other produce no points for either
    side"; Japanese: eye points of stones in seki are not territory, whatever the eyes'
    size, and whether a side is one string or several joined by their eye. Only the
    outer groups' territory counts; the eyes and the shared liberties are nobody's."""
    g = seki_game(rules, diagram)
    s = g.score()
    assert (s.black.territory, s.white.territory) == territory
    assert s.neutral == len(neutral.split())
    counted = set(s.territory[0]) | set(s.territory[1])
    assert not counted & points(g, neutral)


@pytest.mark.parametrize("diagram, black, white", [
    (SEKI_TWO_POINT_EYES, 11, 14), (SEKI_OF_TWO_STRINGS, 11, 14), (SEKI_THREE_POINT_EYES, 12, 18),
])
def test_seki_eyes_of_any_size_count_under_aga(diagram: str, black: int, white: int) -> None:
    """AGA rule 12: the eyes are "entirely surrounded by live stones of a single color"."""
    s = seki_game("aga", diagram).score()
    assert (s.black.territory, s.white.territory) == (black, white)


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


# The seki of two strings beside living groups that have not filled the dame between them
# (F4-F7): the dame fills without harm, so it is no seki, the living groups keep their
# territory, and the seki's eyes (two points each side) go to nobody.
SEKI_OF_TWO_STRINGS_BESIDE_LIVING_GROUPS = """
    . . . . O . X . . .
    . . . . O . X . . .
    . . . . O . X . . .
    O O O O O . X X X X
    O O O O O X X X X X
    X X O X X O O O O O
    . . X X . O . . O O
"""


@pytest.mark.parametrize("rules, black, white, neutral", [
    ("japanese", 9, 12, 9), ("timin", 9, 12, 9), ("aga", 11, 14, 5),
])
def test_a_seki_of_two_strings_beside_living_groups(
    rules: str, black: int, white: int, neutral: int
) -> None:
    """No points in seki: Black H5-K7 (9) and White A5-D7 (12); the eyes A1-B1 and G1-H1,
    the shared E1 and the dame F4-F7 count for nobody. AGA counts the eyes too. (Both
    sides' eyes in a seki hold as many liberties, so here they are as big and the margin
    is the same either way; where the eyes differ, the bigger eye wins the race and
    there is no seki: `test_an_eye_against_a_bigger_eye_is_no_seki`.)"""
    g = seki_game(rules, SEKI_OF_TWO_STRINGS_BESIDE_LIVING_GROUPS)
    s = g.score()
    assert (s.black.territory, s.white.territory, s.neutral) == (black, white, neutral)
    assert points(g, "F4 F5 F6 F7 E1").isdisjoint(set(s.territory[0]) | set(s.territory[1]))


@pytest.mark.parametrize("shape, one", [
    ("x", True), ("xx", True), ("xxx", True), ("xx/x.", True),
    ("xx/xx", True),            # square four
    ("xxx/.x.", True),          # pyramid four
    ("xxxx", False),            # straight four: two eyes
    ("xxx/x..", False),         # bent four
    ("xx/xx/x.", True),         # bulky five
    (".x./xxx/.x.", True),      # crossed five
    (".x./xxx/.xx", True),      # rabbity six
    ("xxx/xxx", False),         # rectangular six lives
    ("xxxxx", False), ("xxx/xxx/x..", False),
])
def test_which_eyes_are_one_eye(shape: str, one: bool) -> None:
    """An eye the opponent's stone on its vital point leaves one eye; the others can make
    two (or are territory)."""
    geo = geometry(9, 9)
    region = [y * 9 + x for y, row in enumerate(shape.split("/")) for x, c in enumerate(row)
              if c == "x"]
    assert one_eye(region, geo) is one
