"""The Tromp-Taylor rules (shared/seeds/tromp-taylor.txt), rule by rule and comment by
comment, against the ``tromp-taylor`` preset (and the presets that share a rule with it)."""

from __future__ import annotations

import pytest

from rules import (
    BLACK, PRESETS, WHITE, CoordinateError, Game, IllegalMoveError, Phase, Point, Reason,
    SetupError,
)

from tests.rules.diagrams import assert_board, game_from_diagram, parse_diagram, play, points, vertex

SUICIDE_ALLOWED = ["tromp-taylor", "concise", "go-gadget", "new-zealand"]
SUICIDE_FORBIDDEN = ["timin", "aga", "aga-area", "chinese", "japanese", "go-gadget-7a"]


def test_presets_split_into_suicide_allowed_and_forbidden() -> None:
    """The two lists below cover every preset, so each test over them covers them all."""
    assert sorted(SUICIDE_ALLOWED + SUICIDE_FORBIDDEN) == sorted(PRESETS)


# -- rule 3: turns ------------------------------------------------------------------------


def test_black_starts_and_players_alternate() -> None:
    """Rule 3: "Starting with an empty grid, the players alternate turns, starting with
    Black." """
    g = Game("tromp-taylor", 9)
    assert g.position.stones() == []
    assert g.to_move is BLACK
    play(g, "E5")
    assert g.to_move is WHITE
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "D4"), BLACK)
    assert err.value.reason is Reason.WRONG_TURN
    play(g, "D4")
    assert g.to_move is BLACK


# -- rule 5 and comment 5: capture, then suicide ------------------------------------------

CAPTURE_FIRST = """
    . . . .
    O X . .
    a O X .
"""
CAPTURE_FIRST_AFTER = """
    . . . .
    O X . .
    X . X .
"""


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_capture_is_cleared_before_own_colour(rules: str) -> None:
    """Rule 5: "A move consists of coloring an empty point one's own color; then clearing
    the opponent color, and then clearing one's own color." Black at ``a`` has no liberty
    until White's B1 is cleared; clearing the opponent first leaves Black's stone a liberty,
    so it stays. Every rule set orders it so (go-gadget steps 1-3, AGA rule 5)."""
    g = game_from_diagram(rules, CAPTURE_FIRST)
    a = parse_diagram(CAPTURE_FIRST)["a"]
    ev = g.play(a)
    assert ev.captured == (vertex(g, "B1"),)
    assert ev.suicided == ()
    assert_board(g, CAPTURE_FIRST_AFTER)
    assert g.captures[BLACK] == 1


def test_at_most_one_clearing_has_effect() -> None:
    """Comment 5: "for any single move, at most one of the clearing processes can have
    effect; the first is called capture, the second suicide." A move that captures never
    also suicides, and one that suicides captured nothing."""
    g = game_from_diagram("tromp-taylor", CAPTURE_FIRST)
    ev = g.play(vertex(g, "A1"))
    assert ev.captured and not ev.suicided
    g2 = game_from_diagram("tromp-taylor", MULTI_SUICIDE)
    ev2 = g2.play(vertex(g2, "A1"))
    assert ev2.suicided and not ev2.captured


MULTI_SUICIDE = """
    O O O .
    X X O .
    a O . .
"""
MULTI_SUICIDE_AFTER = """
    O O O .
    . . O .
    . O . .
"""


@pytest.mark.parametrize("rules", SUICIDE_ALLOWED)
def test_multi_stone_suicide_clears_own_colour(rules: str) -> None:
    """Rule 5, comment 5 (the second clearing is "suicide"); concise: "remove suicide
    stones"; go-gadget step 3 "Self-capture". Black at ``a`` joins A2-B2 into a string
    reaching no empty point: all three Black stones are emptied and reported as suicided;
    White's B1 still reaches C1 and stays."""
    g = game_from_diagram(rules, MULTI_SUICIDE)
    ev = g.play(parse_diagram(MULTI_SUICIDE)["a"])
    assert set(ev.suicided) == points(g, "A1 A2 B2")
    assert ev.captured == ()
    assert_board(g, MULTI_SUICIDE_AFTER)
    assert g.to_move is WHITE
    assert g.number == 1


@pytest.mark.parametrize("rules", SUICIDE_FORBIDDEN)
def test_multi_stone_suicide_forbidden(rules: str) -> None:
    """Timin rule 6 ("may not be played where ... the group of which it would be part
    would be dead ... except if an enemy group is killed"), AGA rule 5 ("SELF-CAPTURE IS
    ILLEGAL"), go-gadget rule 7A, Chinese and Japanese: the same move is refused with
    reason ``suicide`` and the game does not change."""
    g = game_from_diagram(rules, MULTI_SUICIDE)
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "A1"))
    assert err.value.reason is Reason.SUICIDE
    assert g.legality(vertex(g, "A1")) is Reason.SUICIDE
    assert_board(g, MULTI_SUICIDE)
    assert g.to_move is BLACK and g.number == 0


SINGLE_SUICIDE = """
    . . .
    O . .
    a O .
"""


@pytest.mark.parametrize("rules", SUICIDE_ALLOWED)
def test_single_stone_suicide_is_a_move_that_changes_nothing(rules: str) -> None:
    """Rule 5 for a lone stone: colour A1 black, clear White (nothing), clear Black (the
    new stone). The grid is as before, but it was a move: White is to play."""
    g = game_from_diagram(rules, SINGLE_SUICIDE)
    g.play(vertex(g, "A1"))
    assert_board(g, SINGLE_SUICIDE)
    assert g.to_move is WHITE
    assert g.number == 1


@pytest.mark.parametrize("rules", SUICIDE_ALLOWED)
def test_single_stone_suicide_reports_the_stone(rules: str) -> None:
    """Rule 5: the stone is placed, then cleared with its own colour, so the move event
    names it among the suicided stones, as it does for a string of several."""
    g = game_from_diagram(rules, SINGLE_SUICIDE)
    ev = g.play(vertex(g, "A1"))
    assert ev.suicided == (vertex(g, "A1"),)


@pytest.mark.parametrize("rules", SUICIDE_FORBIDDEN)
def test_single_stone_suicide_forbidden(rules: str) -> None:
    """AGA rule 5, Timin rule 6, go-gadget 7A, Chinese, Japanese: a lone stone without
    liberties that captures nothing is illegal."""
    g = game_from_diagram(rules, SINGLE_SUICIDE)
    assert g.legality(vertex(g, "A1")) is Reason.SUICIDE


@pytest.mark.parametrize("rules", ["tromp-taylor", "concise", "new-zealand"])
def test_single_stone_suicide_cannot_be_repeated_by_the_same_player(rules: str) -> None:
    """Rule 4: "A turn is either a pass; or a move not leaving a grid coloring left by that
    player before." Black's first suicide at A1 leaves the grid as it was; after White's
    pass the same suicide would leave that same grid again, which Black has left before."""
    g = game_from_diagram(rules, SINGLE_SUICIDE)
    play(g, "A1 pass")
    assert g.legality(vertex(g, "A1")) is Reason.SITUATIONAL_SUPERKO


# -- rule 4 and comment 4: situational superko ---------------------------------------------

# Sending two, returning one: Black throws in at A1 (two stones in atari), White takes two
# with C1, and Black takes C1 back from B1. The grid is the diagram again, now with White
# to play: Black has in effect passed.
SEND_TWO = """
    . . . . .
    O O X . .
    O O X . .
    a X b X .
"""
AFTER_SEND_TWO = """
    . . . . .
    O O X . .
    O O X . .
    . X . X .
"""

# Who may play B1, returning to the diagram. Situational rules (the grid occurred with
# Black, not White, to play; Black never left it) and simple ko (C1 captured two stones)
# allow it; positional superko ("ignores whose turn it is") forbids it.
RETURN_ONE = [
    ("tromp-taylor", None),
    ("concise", None),
    ("new-zealand", None),
    ("aga", None),
    ("aga-area", None),
    ("go-gadget", None),
    ("go-gadget-7a", None),
    ("japanese", None),
    ("chinese", Reason.POSITIONAL_SUPERKO),
    ("timin", Reason.POSITIONAL_SUPERKO),
]


def test_return_one_table_covers_every_preset() -> None:
    """The table below names each preset once."""
    assert sorted(r for r, _ in RETURN_ONE) == sorted(PRESETS)


@pytest.mark.parametrize("rules, reason", RETURN_ONE)
def test_sending_two_returning_one(rules: str, reason: Reason | None) -> None:
    """Comment 4: "This is the 'situational superko' rule. ('Positional' superko ignores
    whose turn it is.)" Returning to an earlier grid with the other player to move is
    legal under situational superko and illegal under positional superko (Timin rule 5:
    "a prior configuration of the whole board")."""
    g = game_from_diagram(rules, SEND_TWO)
    a, b = parse_diagram(SEND_TWO)["a"], parse_diagram(SEND_TWO)["b"]
    g.play(a)
    ev = g.play(b)
    assert set(ev.captured) == points(g, "A1 B1")
    retake = vertex(g, "B1")
    assert g.legality(retake) is reason
    if reason is None:
        ev = g.play(retake)
        assert ev.captured == (b,)
        assert_board(g, AFTER_SEND_TWO)
        assert g.to_move is WHITE
    else:
        with pytest.raises(IllegalMoveError) as err:
            g.play(retake)
        assert err.value.reason is reason


@pytest.mark.parametrize("rules", ["tromp-taylor", "concise", "new-zealand", "aga"])
def test_sending_two_cannot_start_over(rules: str) -> None:
    """Rule 4: after the cycle above and a White pass, Black's throw-in at A1 would leave
    the grid Black left with the first throw-in (AGA rule 6: the same position with White
    to play). Situational superko ends the cycle here."""
    g = game_from_diagram(rules, SEND_TWO)
    play(g, "A1 C1 B1 pass")
    assert g.legality(vertex(g, "A1")) is Reason.SITUATIONAL_SUPERKO


# White's D2 makes the ko shape: a Black capture at ``a`` takes B2, and White's retake at
# B2 would take ``a`` and bring back the grid White left with D2.
KO_SHAPE = """
    . . . . . .
    . X O . . .
    X O a b . .
    . X O . . .
"""


def test_immediate_ko_retake_leaves_a_grid_left_before() -> None:
    """Rule 4: "a move not leaving a grid coloring left by that player before." White left
    the ko grid with D2; retaking at once would leave it again. After a White move
    elsewhere (F4) and Black's answer (F3) the grid differs and the retake is legal."""
    g = game_from_diagram("tromp-taylor", KO_SHAPE, WHITE)
    play(g, "D2 C2")
    assert g.legality(vertex(g, "B2")) is Reason.KO
    with pytest.raises(IllegalMoveError):
        g.play(vertex(g, "B2"))
    play(g, "F4 F3")
    ev = g.play(vertex(g, "B2"))
    assert ev.captured == (vertex(g, "C2"),)


# -- rule 6 and comment 6: the end, removal by agreement ----------------------------------

# Black walls off A, White C; Black's D2 inside White's side is dead by agreement.
SMALL_FINAL = """
    . X O . .
    . X O X .
    . X O . .
"""


def test_two_passes_end_play_and_stones_may_be_removed_by_agreement() -> None:
    """Rule 6: "The game ends after two consecutive passes." Comment 6: "After both players
    say 'pass', they may by agreement remove any stones before continuing with rule 7."

    Removed D2: Black 3 stones + A1 A2 A3 = 6; White 3 stones + D1-D3, E1-E3 = 9.
    Not removed: D1 D3 E1-E3 reach both colours (nobody's); Black 4 + 3 = 7, White 3."""
    g = game_from_diagram("tromp-taylor", SMALL_FINAL, BLACK, komi=0)
    play(g, "pass pass")
    assert g.phase is Phase.COUNTING
    s = g.score()
    assert (s.black.total, s.white.total, s.neutral) == (7.0, 3.0, 5)
    removed = g.mark_dead([vertex(g, "D2")])
    assert removed.points == (vertex(g, "D2"),)
    s = g.score()
    assert (s.black.total, s.white.total, s.neutral) == (6.0, 9.0, 0)
    assert s.dead_stones == (vertex(g, "D2"),)


def test_if_they_fail_to_agree_the_last_movers_opponent_moves_next() -> None:
    """Comment 6: "If they fail to agree in full, the game continues, treating those
    sayings as 'unofficial', so the last mover's opponent should make the next move."
    White passed last, so Black moves; White may not; a Black move clears the marks."""
    g = game_from_diagram("tromp-taylor", SMALL_FINAL, BLACK, komi=0)
    play(g, "pass pass")
    g.mark_dead([vertex(g, "D2")])
    assert g.legality(vertex(g, "E2"), WHITE) is Reason.WRONG_TURN
    play(g, "E2")
    assert g.phase is Phase.PLAY
    assert g.dead == set()
    assert g.to_move is WHITE


# -- rule 7 and comment 7: area scoring, the board as it stands -----------------------------

AREA = """
    . X O . .
    X X O . .
    . X O O O
    X X O . X
"""


def test_area_score_counts_the_board_as_it_stands() -> None:
    """Rule 7: "A player's score is the number of points of his color, plus the number of
    empty points that reach only his color."

    Black: stones B4 A3 B3 B2 A1 B1 E1 = 7, empty A4 A2 reach only Black = 2: 9.
    White: stones C1-C4 D2 E2 = 6, empty D3 D4 E3 E4 reach only White = 4: 10.
    D1 reaches White (C1, D2) and Black (E1): nobody's. Komi 7 (comment 8): White 17."""
    g = game_from_diagram("tromp-taylor", AREA)
    s = g.score()
    assert s.black.stones == 7 and s.black.territory == 2
    assert s.white.stones == 6 and s.white.territory == 4
    assert s.neutral == 1
    assert (s.black.total, s.white.total) == (9.0, 17.0)
    assert s.result() == "W+8"


def test_captured_stones_are_irrelevant() -> None:
    """Comment 7: "The so-called 'captured' stones are irrelevant." After Black captures
    B1 (the capture-first diagram) only the board counts:

        . . . .
        O X . .     Black: A1 B2 C1 = 3 stones, B1 reaches only Black = 1: 4.
        X . X .     White: A2 = 1. The other 7 empty points reach both: nobody's."""
    g = game_from_diagram("tromp-taylor", CAPTURE_FIRST, komi=0)
    play(g, "A1")
    assert g.captures[BLACK] == 1
    s = g.score()
    assert (s.black.total, s.white.total, s.neutral) == (4.0, 1.0, 7)
    assert s.black.captures == 0


# -- rule 8 and comment 8: winner, tie, komi -------------------------------------------------


def test_equal_scores_are_a_tie() -> None:
    """Rule 8: "Equal scores result in a tie." A symmetric board with no komi."""
    g = game_from_diagram("tromp-taylor", """
        . X O .
        . X O .
    """, komi=0)
    s = g.score()
    assert s.black.total == s.white.total == 4.0
    assert s.winner is None and s.result() == "0"


def test_komi_is_seven_by_default() -> None:
    """Comment 8: "7 is recommended as komi." """
    assert Game("tromp-taylor", 9).komi == 7.0


# -- comments 1 and 3: rectangles, handicap as consecutive moves ----------------------------


def test_a_rectangle_may_be_used() -> None:
    """Comment 1: "By prior agreement a rectangle of different dimensions may be used."
    A 7x3 board: columns A-G, rows 1-3; G3 is the top-right corner."""
    g = Game("tromp-taylor", 7, 3)
    assert (g.width, g.height) == (7, 3)
    ev = g.play(vertex(g, "G3"))
    assert ev.point == Point(6, 2)
    with pytest.raises(CoordinateError):
        vertex(g, "A4")


def test_handicap_is_consecutive_black_moves() -> None:
    """Comment 3: "an 'n stone handicap'; these are n consecutive moves played before the
    first white move." With three stones Black plays three times, then White; the stones
    are moves (numbered), not setup."""
    g = Game("tromp-taylor", 9, handicap=3)
    assert g.position.stones() == []
    assert g.to_move is BLACK
    play(g, "C3 G7")
    assert g.to_move is BLACK
    play(g, "G3")
    assert g.to_move is WHITE
    assert g.number == 3
    assert g.handicap_stones == 3
    assert g.komi == 7.0
    assert g.score().white.compensation == 0


# -- rule 4: a pass is a turn, not a move ------------------------------------------------


def test_a_pass_leaves_no_grid_coloring() -> None:
    """Rule 4: "A turn is either a pass; or a move not leaving a grid coloring left by that
    player before." Black passes at the ko; White takes at B2 and Black's retake at C2
    brings back the grid Black passed at, which he never left by a move: legal, and the
    board is as before the pass."""
    start = """
        . . . . . .
        . X O . . .
        X . X O . .
        . X O . . .
    """
    g = game_from_diagram("tromp-taylor", start, BLACK)
    play(g, "pass B2")
    assert g.legality(vertex(g, "C2")) is None
    assert g.play(vertex(g, "C2")).captured == (vertex(g, "B2"),)
    assert_board(g, start)


# -- setup stones: the rules know none ---------------------------------------------------


@pytest.mark.parametrize("rules", ["tromp-taylor", "chinese", "japanese", "aga"])
def test_setup_stones_without_liberties_are_refused(rules: str) -> None:
    """Rule 3 starts "with an empty grid" and rule 5 clears colours only in a move, so no
    rule removes setup stones left without liberties, and rule 7 would count them: kifu
    refuses such a setup, naming the stones, and the game is unchanged."""
    g = Game(rules, 5)
    with pytest.raises(SetupError) as err:
        g.setup(black=[vertex(g, "A1")], white=[vertex(g, "A2"), vertex(g, "B1")])
    assert err.value.points == (vertex(g, "A1"),)
    assert "A1" in str(err.value)
    assert g.position.stones() == []
    g.setup(black=[vertex(g, "A1")], white=[vertex(g, "B1")])
    with pytest.raises(SetupError) as err:
        g.setup(white=[vertex(g, "A2")])
    assert set(err.value.points) == {vertex(g, "A1")}
    assert len(g.position.stones()) == 2
