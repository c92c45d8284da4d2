"""The ``chinese``, ``japanese`` and ``new-zealand`` presets (as the design's preset table
states them; their texts are not among the seeds), and one finished 9x9 game counted
under every preset: territory and area must agree on the winner."""

from __future__ import annotations

import pytest

from rules import BLACK, WHITE, Game, IllegalMoveError, MovePlayed, Phase, Point, Reason

from tests.rules.diagrams import assert_board, game_from_diagram, play, points, vertex

# A finished 9x9 game. Black walls off the E column, White the F column; White's A1 is
# captured in play, Black's H5 is left dead inside White's side; both played 12 stones
# and passed once, White last.
FINISHED_MOVES = (
    "E1 F1 E2 F2 E3 F3 E4 F4 E5 F5 E6 F6 E7 F7 E8 F8 E9 F9 "
    "H5 A1 A2 J9 B1 J8 pass pass"
)
FINISHED = """
    . . . . X O . . O
    . . . . X O . . O
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . X .
    . . . . X O . . .
    . . . . X O . . .
    X . . . X O . . .
    . X . . X O . . .
"""

# The count, with H5 removed as dead. Black: stones E1-E9 A2 B1 = 11, territory A-D
# columns 36 - 2 stones = 34, one prisoner (A1). White: stones F1-F9 J8 J9 = 11, territory
# G-J columns 27 - 2 stones = 25 (H5 emptied), one prisoner (dead H5).
FINISHED_SCORES = [
    # Territory + prisoners: B 34 + 1 = 35; W 25 + 1 + 6.5 = 32.5.
    ("japanese", 35.0, 32.5, "B+2.5"),
    ("timin", 35.0, 32.5, "B+2.5"),
    # AGA territory, plus a pass stone each: B 34 + 1 + 1 = 36; W 25 + 1 + 1 + 5.5 = 32.5.
    ("aga", 36.0, 32.5, "B+3.5"),
    # Area: B 11 + 34 = 45; W 11 + 25 = 36, + komi.
    ("aga-area", 45.0, 41.5, "B+3.5"),
    ("chinese", 45.0, 43.5, "B+1.5"),
    ("tromp-taylor", 45.0, 43.0, "B+2"),
    ("concise", 45.0, 43.0, "B+2"),
    ("new-zealand", 45.0, 43.0, "B+2"),
    ("go-gadget", 45.0, 36.0, "B+9"),
    ("go-gadget-7a", 45.0, 36.0, "B+9"),
]


def finished_game(rules: str, komi: float | None = None) -> Game:
    """The finished game above, played out under ``rules``, with H5 marked dead."""
    g = Game(rules, 9, komi=komi)
    play(g, FINISHED_MOVES)
    assert g.phase is Phase.COUNTING
    g.mark_dead([vertex(g, "H5")])
    return g


def test_the_finished_game_reaches_its_diagram() -> None:
    """The moves give the diagram, with A1 captured by B1."""
    g = Game("japanese", 9)
    events = play(g, FINISHED_MOVES)
    assert_board(g, FINISHED)
    take = events[22]
    assert isinstance(take, MovePlayed) and take.captured == (vertex(g, "A1"),)
    assert g.captures[BLACK] == 1 and g.captures[WHITE] == 0


@pytest.mark.parametrize("rules, black, white, result", FINISHED_SCORES)
def test_finished_game_score(rules: str, black: float, white: float, result: str) -> None:
    """Territory rules count surrounded points plus prisoners (captures and dead stones);
    area rules count stones plus surrounded points and ignore prisoners; each adds its
    komi. The winner is the same under every rule set."""
    g = finished_game(rules)
    s, ended = g.finish()
    assert (s.black.total, s.white.total) == (black, white)
    assert s.result() == result
    assert ended.winner is BLACK and g.phase is Phase.OVER
    assert s.dead_stones == (vertex(g, "H5"),)


@pytest.mark.parametrize("komi", [0.0, 6.5, 7.0, 9.5])
def test_territory_and_area_margins_agree_when_both_played_as_many_stones(komi: float) -> None:
    """With the same komi, territory (japanese) and area (chinese) give the same margin
    when both sides played the same number of stones (each filled stone costs a point of
    territory and gains a point of area alike): 35 - 26 = 45 - 36 = 9, less komi."""
    t = finished_game("japanese", komi).score()
    a = finished_game("chinese", komi).score()
    assert t.black.total - t.white.total == a.black.total - a.white.total == 9 - komi


def test_without_agreement_the_dead_stone_spoils_white_area() -> None:
    """Area counting of the board as it stands (no stones marked dead): Black's H5 touches
    White's whole side, so its 27 - 3 stones = 24 empty points count for nobody.
    Black 12 stones + 34 = 46; White 11 stones + 7.5 = 18.5."""
    g = Game("chinese", 9)
    play(g, FINISHED_MOVES)
    s = g.score()
    assert (s.black.total, s.white.total, s.neutral) == (46.0, 18.5, 24)


# -- chinese ---------------------------------------------------------------------------------


def test_chinese_komi_and_suicide() -> None:
    """Chinese as OGS, KGS and CGOS apply them: komi 7.5, suicide forbidden."""
    g = game_from_diagram("chinese", """
        . X .
        X . X
        . X .
    """, WHITE)
    assert g.komi == 7.5
    assert g.legality(vertex(g, "B2")) is Reason.SUICIDE


def test_chinese_free_handicap_and_one_point_per_stone() -> None:
    """Chinese: free handicap placement, and under area counting White gets one point per
    handicap stone. Three stones where Black chose: Black's area is all 361 points; White
    has komi 0 and 3 points of compensation."""
    chosen = [Point.from_gtp(v, 19) for v in ("C3", "K10", "R17")]
    g = Game("chinese", 19, handicap=chosen)
    assert sorted(g.position.stones(BLACK)) == sorted(chosen)
    assert g.to_move is WHITE
    s = g.score()
    assert s.black.total == 361
    assert s.white.compensation == 3 and s.white.total == 3.0


# Sending two, returning one: Black's A1 puts two stones in atari, White's C1 takes them,
# and Black's B1 takes C1 back, recreating this board with White to play.
SEND_TWO = """
    . . . . .
    O O X . .
    O O X . .
    . X . X .
"""


@pytest.mark.parametrize("rules, reason", [
    ("chinese", Reason.POSITIONAL_SUPERKO),
    ("japanese", None),
    ("new-zealand", None),
])
def test_positional_superko_ignores_whose_turn_it_is(rules: str, reason: Reason | None) -> None:
    """Chinese: positional superko ("no move may recreate any earlier board position"):
    sending two (A1) and returning one (B1 after White's C1 took two) recreates the
    starting board, so Chinese rules refuse B1; Japanese simple ko and New Zealand's
    situational superko allow it."""
    g = game_from_diagram(rules, SEND_TWO)
    play(g, "A1 C1")
    assert g.legality(vertex(g, "B1")) is reason


# -- japanese --------------------------------------------------------------------------------

KO = """
    . . . . . .
    . X O . . .
    X . X O . .
    . X O . . .
"""


def test_japanese_simple_ko() -> None:
    """Japanese: simple ko. White takes the ko at B2; Black may not retake at C2 at once,
    but may after a threat (F4) and its answer (F3)."""
    g = game_from_diagram("japanese", KO, WHITE)
    play(g, "B2")
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "C2"))
    assert err.value.reason is Reason.KO
    play(g, "F4 F3")
    assert g.play(vertex(g, "C2")).captured == (vertex(g, "B2"),)


def test_japanese_territory_and_prisoners() -> None:
    """Japanese: territory + prisoners, komi 6.5. Black's A1 takes B1:

        . . . .
        O X . .     Black: B1 surrounded by Black = 1 point + 1 prisoner = 2.
        X . X .     White: nothing surrounded, no prisoner, komi 6.5.
    """
    g = game_from_diagram("japanese", """
        . . . .
        O X . .
        . O X .
    """)
    play(g, "A1")
    s = g.score()
    assert s.black.captures == 1 and s.black.territory == 1
    assert (s.black.total, s.white.total) == (2.0, 6.5)


def test_japanese_handicap_is_fixed_without_komi() -> None:
    """Japanese: fixed handicap placement, no komi in a handicap game, no compensation."""
    g = Game("japanese", 19, handicap=4)
    assert set(g.position.stones(BLACK)) == {Point.from_gtp(v, 19) for v in "D4 Q4 D16 Q16".split()}
    assert g.komi == 0.0
    assert g.score().white.compensation == 0


# -- new zealand -----------------------------------------------------------------------------


def test_new_zealand_multi_stone_suicide() -> None:
    """New Zealand: suicide allowed. Black's A1 leaves A1 A2 B2 without a liberty: the
    three stones are removed and reported as suicided."""
    g = game_from_diagram("new-zealand", """
        O O O .
        X X O .
        . O . .
    """)
    ev = g.play(vertex(g, "A1"))
    assert set(ev.suicided) == points(g, "A1 A2 B2")
    assert_board(g, """
        O O O .
        . . O .
        . O . .
    """)


def test_new_zealand_komi_and_area() -> None:
    """New Zealand: area scoring, no handicap compensation; "In an even game, 7 points
    (komi) are added to the white players territory." "In a handicap game ... There is no
    komi." """
    assert Game("new-zealand", 19).komi == 7.0
    g = Game("new-zealand", 19, handicap=3)
    assert g.komi == 0.0
    s = g.score()
    assert s.black.total == 361 and s.white.total == 0.0


NZ_KO = """
    . . . . . .
    . X O . . .
    X . X O . .
    . X O . . .
"""


def test_new_zealand_a_pass_is_a_move_that_leaves_a_position() -> None:
    """New Zealand: "A move consists of 1. making a play so that the resulting board
    position does not repeat the whole board position as it was after any of that player's
    previous moves or 2. saying 'pass'." Black passes at the diagram, so the diagram is the
    position after one of Black's moves; White takes the ko at B2 and Black's retake at C2
    would bring it back: refused. After a threat (F4) and its answer (F3), it is new."""
    g = game_from_diagram("new-zealand", NZ_KO, BLACK)
    play(g, "pass B2")
    assert g.legality(vertex(g, "C2")) is Reason.KO
    play(g, "F4 F3")
    assert g.play(vertex(g, "C2")).captured == (vertex(g, "B2"),)
