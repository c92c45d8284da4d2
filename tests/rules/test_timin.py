"""Timin's Complete Rules of Go (shared/seeds/timin-complete-rules.txt) against the
``timin`` preset: captures, positional superko, suicide unless it kills, seki, and the
count of territory plus captives (dead stones count)."""

from __future__ import annotations

import pytest

from rules import BLACK, WHITE, Game, IllegalMoveError, MovePlayed, Phase, Point, Reason

from tests.rules.diagrams import assert_board, game_from_diagram, play, points, vertex


def test_a_group_without_liberties_is_captured_whole() -> None:
    """Rules 3 and 4: "Stones of one color that are connected live or die as a group."
    "A group is dead when none of its stones adjoins an empty intersection ... The captive
    stones are held for use in the scoring at the end." White's two stones on A2-B2 lose
    their last liberty to Black's C2 and go together."""
    g = game_from_diagram("timin", """
        X X . .
        O O . .
        X X . .
    """)
    ev = g.play(vertex(g, "C2"))
    assert set(ev.captured) == points(g, "A2 B2")
    assert g.captures[BLACK] == 2
    assert_board(g, """
        X X . .
        . . X .
        X X . .
    """)


def test_stones_never_change_position() -> None:
    """Rule 2: "Stones never change position, but they can be captured." A move adds one
    stone and may remove others; no stone moves."""
    g = Game("timin", 9)
    play(g, "E5 D5 C3")
    before = set(g.position.stones())
    play(g, "G7")
    assert before < set(g.position.stones())


SEND_TWO = """
    . . . . .
    O O X . .
    O O X . .
    . X . X .
"""


def test_no_prior_configuration_of_the_whole_board() -> None:
    """Rule 5: "A stone may not be played where a prior configuration of the whole board
    would be reproduced." Black's A1 sends two stones, White's C1 takes them; Black's B1
    would take C1 back and reproduce the starting board, though with White to play."""
    g = game_from_diagram("timin", SEND_TWO)
    play(g, "A1 C1")
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "B1"))
    assert err.value.reason is Reason.POSITIONAL_SUPERKO


def test_you_must_play_at_least_one_move_elsewhere() -> None:
    """Rule 5: "You must play at least one move elsewhere." After Black's E4 and White's
    E3 the whole board differs from every earlier one, and B1 is legal."""
    g = game_from_diagram("timin", SEND_TWO)
    play(g, "A1 C1 E4 E3")
    assert g.play(vertex(g, "B1")).captured == (vertex(g, "C1"),)


def test_the_plain_ko() -> None:
    """Rule 5 covers the ordinary ko too: White's B2 takes C2; Black's immediate retake
    would reproduce the board before White's capture."""
    g = game_from_diagram("timin", """
        . . . . . .
        . X O . . .
        X . X O . .
        . X O . . .
    """, WHITE)
    play(g, "B2")
    assert g.legality(vertex(g, "C2")) is Reason.KO


def test_suicide_is_forbidden() -> None:
    """Rule 6: "A stone may not be played where it, or the group of which it would be part,
    would be dead according to rule 4". One stone (White's B2) or a group (Black's A1
    joining A2-B2)."""
    g = game_from_diagram("timin", """
        . X .
        X . X
        . X .
    """, WHITE)
    assert g.legality(vertex(g, "B2")) is Reason.SUICIDE
    g = game_from_diagram("timin", """
        O O O .
        X X O .
        . O . .
    """)
    assert g.legality(vertex(g, "A1")) is Reason.SUICIDE


def test_except_if_an_enemy_group_is_killed() -> None:
    """Rule 6: "... except if an enemy group is killed by such placement." Black's A1 has
    no empty neighbour, but it kills White's B1."""
    g = game_from_diagram("timin", """
        . . . .
        O X . .
        . O X .
    """)
    ev = g.play(vertex(g, "A1"))
    assert ev.captured == (vertex(g, "B1"),)
    assert g.position[vertex(g, "A1")] is BLACK


# A game on a 5x3 board: Black walls off the A column, White the C column, Black's D2
# invades and is left dead, White's A2 invades and is captured.
GAME = "B1 C1 B2 C2 B3 C3 D2 A2 A1 E2 A3 pass pass"
GAME_FINAL = """
    X X O . .
    . X O X O
    X X O . .
"""


def test_score_is_territory_plus_captives_both_kinds() -> None:
    """Rule 9: "Each player receives one point for each empty intersection that is
    completely surrounded by his color ... There is an additional point for each captive
    stone, both those removed earlier, and those 'dead on the board'." Rule 8: the game
    ends when both pass and agree on the groups. Convention 4: komi 6.5.

    Black: A2 surrounded = 1, captive A2 (taken by A3) = 1: 2.
    White, with D2 dead: D1 D2 D3 E1 E3 = 5, captive D2 = 1, komi 6.5: 12.5. W+10.5."""
    g = Game("timin", 5, 3)
    events = play(g, GAME)
    take = events[10]
    assert isinstance(take, MovePlayed) and take.captured == (vertex(g, "A2"),)
    assert_board(g, GAME_FINAL)
    assert g.phase is Phase.COUNTING
    g.mark_dead([vertex(g, "D2")])
    s, ended = g.finish()
    assert (s.black.territory, s.black.captures, s.black.dead) == (1, 1, 0)
    assert (s.white.territory, s.white.captures, s.white.dead) == (5, 0, 1)
    assert (s.black.total, s.white.total) == (2.0, 12.5)
    assert s.result() == "W+10.5" and ended.winner is WHITE


# Rule 8's seki ("two groups half surrounding each other produce no points for either
# side") is checked on AGA's figure 4 in test_aga.py, under timin among others, and with
# eyes inside the seki in test_seki.py.


def test_rule_9_on_an_empty_board_gives_nobody_points() -> None:
    """Rule 9: "one point for each empty intersection that is completely surrounded by his
    color. (i.e., there is no path from the intersection to any enemy stone, without
    crossing a friendly stone.)" Read literally, with no enemy stone every point qualifies
    for both sides; kifu reads "completely surrounded by his color" as needing his stones
    around it: an empty board is 0 to 0 before komi."""
    s = Game("timin", 9).score()
    assert (s.black.territory, s.white.territory, s.neutral) == (0, 0, 81)
    assert (s.black.total, s.white.total) == (0.0, 6.5)


def test_no_komi_in_a_handicap_game() -> None:
    """Convention 4: the komi is given "when the players have equal standing"; nothing in
    the text gives White a komi in a handicap game (convention 2: the handicap stones are
    Black's advantage)."""
    assert Game("timin", 19, handicap=2).komi == 0.0


def test_komi_and_handicap_points() -> None:
    """Convention 4: "the komi is now 6.5 points." Convention 3: "Handicap points are
    usually corner/edge positions on the 4th line in from the edge"."""
    assert Game("timin", 19).komi == 6.5
    g = Game("timin", 19, handicap=4)
    assert set(g.position.stones(BLACK)) == {Point(3, 3), Point(15, 3), Point(3, 15), Point(15, 15)}
    assert g.to_move is WHITE
