"""The AGA rules of 1991 (shared/seeds/aga-1991.txt) against the ``aga`` and ``aga-area``
presets: the three figures, handicap placement and compensation, pass stones, White
moving last, and the promise that territory and area counting give the same result."""

from __future__ import annotations

import pytest

from rules import (
    BLACK, PRESETS, WHITE, Game, IllegalMove, IllegalMoveError, Move, Phase, Point, Reason,
    fixed_handicap,
)

from tests.rules.diagrams import assert_board, game_from_diagram, parse_diagram, play, vertex

# -- rule 5 and figure 2: White captures from inside -----------------------------------

FIGURE_2 = """
    +++++++++
    ++OOOOO++
    ++OXXXO++
    ++OX*XO++
    ++OXXXO++
    ++OOOOO++
    +++++++++
"""
FIGURE_2_AFTER = """
    +++++++++
    ++OOOOO++
    ++O+++O++
    ++O+O+O++
    ++O+++O++
    ++OOOOO++
    +++++++++
"""


@pytest.mark.parametrize("rules", ["aga", "aga-area"])
def test_figure_2_white_captures_from_inside(rules: str) -> None:
    """Rule 5: "It is ILLEGAL for a player to move so as to create a string of his or her
    own stones which is completely surrounded (without liberties) after any surrounded
    opposing stones are captured. * This means that it is possible to fill an empty space
    within an opponent's group and capture even if the player's own stone or stones would
    momentarily be surrounded by the group being captured. See Figure 2." White at * takes
    the eight Black stones; they become White's prisoners."""
    g = game_from_diagram(rules, FIGURE_2, WHITE)
    star = parse_diagram(FIGURE_2)["*"]
    assert g.legality(star) is None
    ev = g.play(star)
    assert len(ev.captured) == 8 and ev.suicided == ()
    assert_board(g, FIGURE_2_AFTER)
    assert g.captures[WHITE] == 8


@pytest.mark.parametrize("rules", ["aga", "aga-area"])
def test_figure_2_black_may_not_fill_its_own_eye(rules: str) -> None:
    """Rule 5: "SELF-CAPTURE IS ILLEGAL." Black at * would leave its own string of nine
    without a liberty, capturing nothing."""
    g = game_from_diagram(rules, FIGURE_2, BLACK)
    assert g.legality(parse_diagram(FIGURE_2)["*"]) is Reason.SUICIDE


# -- rule 6 and figure 3: ko -------------------------------------------------------------------

FIGURE_3 = """
    ++++++++
    ++++++++
    ++++++++
    +++XO+++
    ++X*XO++
    +++XO+++
    ++++++++
"""
FIGURE_3_TAKEN = """
    ++++++++
    ++++++++
    ++++++++
    +++XO+++
    ++XO+O++
    +++XO+++
    ++++++++
"""


@pytest.mark.parametrize("rules", ["aga", "aga-area"])
def test_figure_3_ko_may_not_be_retaken_at_once(rules: str) -> None:
    """Rule 6: "It is ILLEGAL to play in such a way as to recreate a previous board
    position from the game, with the same player to play. * ... (See figure 3). After the
    first capture the player moving next may NOT capture immediately, as this would repeat
    the board position; instead, that player must play somewhere else on the board (or
    pass)." White takes at *; Black's retake at E3 would bring back figure 3 with White
    to play."""
    g = game_from_diagram(rules, FIGURE_3, WHITE)
    ev = g.play(parse_diagram(FIGURE_3)["*"])
    assert ev.captured == (vertex(g, "E3"),)
    assert_board(g, FIGURE_3_TAKEN)
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "E3"))
    assert err.value.reason is Reason.KO
    assert_board(g, FIGURE_3_TAKEN)


@pytest.mark.parametrize("rules", ["aga", "aga-area"])
def test_figure_3_ko_fight(rules: str) -> None:
    """Rule 6: "If the board position has changed, and the ko has not yet been resolved,
    the opponent is then free to capture, and it is the original player who may not then
    immediately recapture. This process is known as a KO FIGHT, and the moves played away
    from the ko itself are known as KO THREATS." """
    g = game_from_diagram(rules, FIGURE_3, WHITE)
    play(g, "D3 H7 H6")  # White takes; Black threatens; White answers
    ev = g.play(vertex(g, "E3"))
    assert ev.captured == (vertex(g, "D3"),)
    assert g.legality(vertex(g, "D3")) is Reason.KO
    play(g, "A7 A6")  # White's threat, Black's answer
    assert g.legality(vertex(g, "D3")) is None


@pytest.mark.parametrize("rules, retake", [("aga", Reason.KO), ("tromp-taylor", None)])
def test_same_position_same_player_to_move_counts_passes(rules: str, retake: Reason | None) -> None:
    """Rule 6 speaks of a previous position "with the same player to play", whatever
    brought it about. Black passes at figure 3 (so figure 3 occurred with White to play),
    White takes at D3, and Black's retake would bring back figure 3 with White to play:
    illegal. Tromp-Taylor rule 4 looks only at grids a player left by a move, so there
    Black has left nothing and the retake is legal."""
    g = game_from_diagram(rules, FIGURE_3, BLACK)
    play(g, "pass D3")
    assert g.legality(vertex(g, "E3")) is retake


# -- figure 4: seki ----------------------------------------------------------------------------

FIGURE_4 = """
    +++++++++
    +++++++++
    +++++++++
    ++OOOXX++
    ++OXXOX++
    ++OX+OX++
    --OX-OX--
"""


@pytest.mark.parametrize("rules", ["aga", "aga-area", "timin", "japanese"])
def test_figure_4_filling_a_seki_liberty_loses_the_group(rules: str) -> None:
    """Rule 12: "There are situations (Japanese SEKI) in which a region of empty points is
    left at the end of a game which is NOT entirely surrounded by stones of a single color,
    and which neither player would fill because to do so would bring dire consequences.
    See Figure 4." If Black fills E2, White's E1 takes Black's five stones."""
    g = game_from_diagram(rules, FIGURE_4, BLACK)
    play(g, "E2")
    ev = g.play(vertex(g, "E1"))
    assert set(ev.captured) == {vertex(g, v) for v in "D1 D2 D3 E3 E2".split()}


# Figure 4 inside a finished 9x7 board: White owns the left, Black the right.
SEKI_BOARD = """
    . . . . O X . . .
    . . . . O X . . .
    . . . . O X . . .
    . . O O O X X . .
    . . O X X O X . .
    . . O X . O X . .
    . . O X . O X . .
"""


@pytest.mark.parametrize("rules, black, white", [
    # Territory: Black H1-J7 and G5-G7 = 17; White A1-B7, C5-D7 = 20, + komi 5.5.
    ("aga", 17.0, 25.5),
    # Area: Black 12 stones + 17 = 29; White 12 stones + 20 = 32, + komi 5.5.
    ("aga-area", 29.0, 37.5),
    # Timin and Japanese: territory as AGA's, komi 6.5.
    ("timin", 17.0, 26.5),
    ("japanese", 17.0, 26.5),
])
def test_seki_points_count_for_nobody(rules: str, black: float, white: float) -> None:
    """AGA rule 12: "Neutral Points: Any empty points left on the board at the end of the
    game which are NOT completely surrounded by either player's stones are known as NEUTRAL
    POINTS, and are not counted toward either player's territory or area." Timin rule 8:
    "two groups half surrounding each other produce no points for either side". E1 and E2
    are neutral; AGA's two counts give the same margin, W+8.5."""
    g = game_from_diagram(rules, SEKI_BOARD)
    s = g.score()
    assert s.neutral == 2
    assert vertex(g, "E1") not in s.territory[0] + s.territory[1]
    assert (s.black.total, s.white.total) == (black, white)


# -- rules 3 and 4: compensation and handicaps ---------------------------------------------


def test_compensation() -> None:
    """Rule 3: "In an even (non-handicap) game, Black gives White a compensation of 5.5
    points ... In handicap games Black gives White 0.5 point compensation." """
    assert Game("aga", 19).komi == 5.5
    assert Game("aga", 19, handicap=2).komi == 0.5
    assert Game("aga-area", 19, handicap=9).komi == 0.5


AGA_ORDER = "Q16 D4 Q4 D16 Q10 D10 K16 K4 K10".split()
HANDICAP_19 = [
    (2, "Q16 D4"),
    (3, "Q16 D4 Q4"),
    (4, "Q16 D4 Q4 D16"),
    (5, "Q16 D4 Q4 D16 K10"),
    (6, "Q16 D4 Q4 D16 Q10 D10"),
    (7, "Q16 D4 Q4 D16 Q10 D10 K10"),
    (8, "Q16 D4 Q4 D16 Q10 D10 K16 K4"),
    (9, "Q16 D4 Q4 D16 Q10 D10 K16 K4 K10"),
]


@pytest.mark.parametrize("stones, vertices", HANDICAP_19)
def test_handicap_stones_on_19x19(stones: int, vertices: str) -> None:
    """Rule 4: "1st star point Q-16, 2nd D-4, 3rd Q-4, 4th D-16, 5th Q-10, 6th D-10, 7th
    K-16, 8th K-4, 9th K-10 (center point)"; "5 stones -- on the 1st through 4th star
    points and the center point", "7 stones -- on the 1st through 6th star points and the
    center point", otherwise the first n. Rule 2: "In handicap games, White plays first
    after Black has placed his or her handicap stones." """
    expected = [Point.from_gtp(v, 19) for v in vertices.split()]
    assert fixed_handicap(stones, 19) == expected
    g = Game("aga", 19, handicap=stones)
    assert sorted(g.position.stones(BLACK)) == sorted(expected)
    assert g.position.stones(WHITE) == []
    assert g.to_move is WHITE and g.number == 0 and g.handicap_stones == stones


@pytest.mark.parametrize("size, order", [
    # Third-line star points on 9x9, fourth-line on 13x13, in the same AGA pattern.
    (9, "G7 C3 G3 C7 G5 C5 E7 E3 E5"),
    (13, "K10 D4 K4 D10 K7 D7 G10 G4 G7"),
    (19, " ".join(AGA_ORDER)),
])
def test_handicap_points_on_smaller_boards(size: int, order: str) -> None:
    """Rule 4: "Handicaps ... on boards with fewer than 19 lines are not standardized."
    kifu uses the same order on the boards' own star points; a 5-stone handicap takes the
    first four and the centre."""
    pts = [Point.from_gtp(v, size) for v in order.split()]
    for n in (2, 3, 4, 6, 8, 9):
        assert fixed_handicap(n, size) == pts[:n]
    assert fixed_handicap(5, size) == pts[:4] + [pts[8]]
    assert fixed_handicap(7, size) == pts[:6] + [pts[8]]


@pytest.mark.parametrize("stones", [1, 10])
def test_no_fixed_placement_outside_two_to_nine(stones: int) -> None:
    """Rule 4: "places 2 to 9 stones on the board"; "Handicaps greater than nine stones
    ... are not standardized." """
    with pytest.raises(ValueError, match=str(stones)):
        fixed_handicap(stones, 19)


@pytest.mark.parametrize("stones", [2, 3, 4, 9])
def test_area_compensation_is_one_point_per_stone_after_the_first(stones: int) -> None:
    """Rule 4: "If the players have agreed to use area counting to score the game (Rule 12),
    White receives an additional point of compensation for each Black handicap stone after
    the first." A board holding only the handicap: Black's area is all 361 points; White
    has 0.5 (rule 3) + (stones - 1). Territory counting gives no such points: Black has
    361 - stones of territory, White 0.5."""
    area = Game("aga-area", 19, handicap=stones).score()
    assert area.black.total == 361
    assert area.white.compensation == stones - 1
    assert area.white.total == 0.5 + stones - 1
    territory = Game("aga", 19, handicap=stones).score()
    assert territory.black.total == 361 - stones
    assert territory.white.total == 0.5 and territory.white.compensation == 0


# -- rules 7, 11 and 12: pass stones, White moves last, the two counts agree ----------------

# Endings of a game on an empty 5x5 board, counted by territory (expected totals below)
# and by area (whose margin must be the same). After the single stone C3 its owner has 24
# points of territory, or 25 of area.
ENDINGS = [
    # B pass, W pass: White moved last. Territory B 0 + 1 (W's pass) = 1,
    # W 0 + 1 (B's pass) + 5.5 = 6.5: W+5.5. Area: B 0, W 5.5: W+5.5.
    pytest.param("pass pass", 1.0, 6.5, id="B-pass W-pass"),
    # B C3, W pass, B pass: Black moved last, so White adds a pass (rule 11).
    # Territory B 24 + 2 pass stones = 26, W 0 + 1 + 5.5 = 6.5: B+19.5.
    # Area: B 25, W 5.5: B+19.5.
    pytest.param("C3 pass pass", 26.0, 6.5, id="B-C3 W-pass B-pass"),
    # B pass, W C3, B pass, W pass: White moved last, no extra pass.
    # Territory W 24 + 2 (B's passes) + 5.5 = 31.5, B 0 + 1 = 1: W+30.5.
    # Area: W 25 + 5.5 = 30.5, B 0: W+30.5.
    pytest.param("pass C3 pass pass", 1.0, 31.5, id="B-pass W-C3 B-pass W-pass"),
    # B C3, W pass, B pass, W pass (a third pass, in the counting phase): White moved last.
    # Territory B 24 + 2 = 26, W 0 + 1 + 5.5 = 6.5: B+19.5. Area: B 25, W 5.5: B+19.5.
    pytest.param("C3 pass pass pass", 26.0, 6.5, id="B-C3 W-pass B-pass W-pass"),
]


@pytest.mark.parametrize("moves, black, white", ENDINGS)
def test_pass_stones_and_white_moves_last(moves: str, black: float, white: float) -> None:
    """Rule 7: "a player may PASS by handing the opponent a stone, referred to as a PASS
    STONE". Rule 11: "White must make the last move -- if necessary, an additional pass,
    with a stone passed to the opponent as usual. The total number of stones played or
    passed by the two players during the entire game must be equal." Rule 12: "the
    difference in their scores, and hence the game result, will be the same" under
    territory and area counting."""
    g = Game("aga", 5)
    play(g, moves)
    s = g.score()
    assert (s.black.total, s.white.total) == (black, white)
    area = Game("aga-area", 5)
    play(area, moves)
    a = area.score()
    assert a.black.total - a.white.total == s.black.total - s.white.total


HANDICAP_ENDINGS = [
    # White moves first after the two handicap stones (rule 2). W K10, B pass, W pass:
    # White moved last. Every empty point reaches both colours: no territory.
    # Territory B 0 + 1 (W's pass) = 1, W 0 + 1 (B's pass) + 0.5 = 1.5: W+0.5.
    # Area: B 2 stones, W 1 stone + 0.5 + (2 - 1) compensation = 2.5: W+0.5.
    pytest.param("K10 pass pass", 1.0, 1.5, id="W-K10 B-pass W-pass"),
    # W pass, B pass: Black moved last, White adds a pass (rule 11).
    # Territory B 359 + 2 = 361, W 0 + 1 + 0.5 = 1.5: B+359.5.
    # Area: B 361, W 0.5 + 1 = 1.5: B+359.5.
    pytest.param("pass pass", 361.0, 1.5, id="W-pass B-pass"),
]


@pytest.mark.parametrize("moves, black, white", HANDICAP_ENDINGS)
def test_handicap_game_counts_agree(moves: str, black: float, white: float) -> None:
    """Rule 4, area counting: White "receives an additional point of compensation for each
    Black handicap stone after the first", and rule 12: the difference "will be the same"
    under both counts. A two-stone game on 19x19."""
    g = Game("aga", 19, handicap=2)
    play(g, moves)
    s = g.score()
    assert (s.black.total, s.white.total) == (black, white)
    area = Game("aga-area", 19, handicap=2)
    play(area, moves)
    a = area.score()
    assert a.black.total - a.white.total == s.black.total - s.white.total


def test_play_resumes_with_the_opponent_of_the_last_to_pass() -> None:
    """Rule 10: "If the players disagree about the status of a group of stones left on the
    board after both have passed, PLAY IS RESUMED, with the opponent of the last player to
    pass having the move." """
    g = Game("aga", 9)
    play(g, "E5 pass pass")  # Black passed last
    assert g.phase is Phase.COUNTING
    g.mark_dead([vertex(g, "E5")])
    assert g.to_move is WHITE
    assert g.legality(vertex(g, "D4"), BLACK) is Reason.WRONG_TURN
    play(g, "D4")
    assert g.phase is Phase.PLAY and g.dead == set()


# -- rule 8: illegal moves -----------------------------------------------------------------

ALL = sorted(PRESETS)


@pytest.mark.parametrize("rules", ALL)
def test_moving_twice_in_a_row_is_illegal(rules: str) -> None:
    """Rule 8: "If a player makes an illegal move -- such as moving twice in a row ...".
    Refused with reason wrong-turn for a stone and for a pass; nothing changes."""
    g = Game(rules, 9)
    play(g, "E5")
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "D4"), BLACK)
    assert err.value.reason is Reason.WRONG_TURN
    with pytest.raises(IllegalMoveError) as err:
        g.pass_(BLACK)
    assert err.value.reason is Reason.WRONG_TURN
    assert g.number == 1 and g.to_move is WHITE


@pytest.mark.parametrize("rules", ALL)
def test_playing_on_an_occupied_intersection_is_illegal(rules: str) -> None:
    """Rule 8: "... attempting to play on an occupied intersection ...". The error names
    the move and shows the board."""
    g = Game(rules, 9)
    play(g, "E5")
    with pytest.raises(IllegalMoveError) as err:
        g.play(vertex(g, "E5"))
    assert err.value.reason is Reason.OCCUPIED
    assert "W E5" in str(err.value) and err.value.position == g.position
    assert g.to_move is WHITE


@pytest.mark.parametrize("rules", ALL)
@pytest.mark.parametrize("point", [Point(9, 0), Point(0, 9), Point(-1, 3), Point(3, -1)])
def test_a_point_off_the_board_is_illegal(rules: str, point: Point) -> None:
    """Rule 1: play is on the grid; a point beyond its lines is refused as off-board."""
    g = Game(rules, 9)
    assert g.legality(point) is Reason.OFF_BOARD
    with pytest.raises(IllegalMoveError) as err:
        g.play(point)
    assert err.value.reason is Reason.OFF_BOARD
    assert g.number == 0


@pytest.mark.parametrize("rules", ALL)
def test_nothing_is_played_after_a_resignation(rules: str) -> None:
    """Once a player resigns the game is over: stones and passes are refused with reason
    game-over, and the other player has won."""
    g = Game(rules, 9)
    play(g, "E5")
    resigned, ended = g.resign(WHITE)
    assert ended.winner is BLACK and g.phase is Phase.OVER
    for attempt in (lambda: g.play(vertex(g, "D4")), lambda: g.pass_()):
        with pytest.raises(IllegalMoveError) as err:
            attempt()
        assert err.value.reason is Reason.GAME_OVER
    assert g.legality(vertex(g, "D4")) is Reason.GAME_OVER


@pytest.mark.parametrize("rules", ["aga", "aga-area"])
def test_an_illegal_move_is_treated_as_a_pass(rules: str) -> None:
    """Rule 8: "the player must take back his or her move ..., it shall be treated as a
    PASS, and a pass stone exchanged." White takes the ko of figure 3; Black's immediate
    retake is illegal: it is taken back, Black has passed (a pass stone to White), and
    White moves."""
    g = game_from_diagram(rules, FIGURE_3, WHITE)
    play(g, "D3")
    before = g.position
    event = g.attempt(Move(BLACK, vertex(g, "E3")))
    assert isinstance(event, IllegalMove) and event.counted_as_pass
    assert (event.reason, event.number, event.taken_back) == (Reason.KO, 2, None)
    assert g.position == before and g.to_move is WHITE
    assert g.passes[BLACK] == 1 and g.consecutive_passes == 1
    play(g, "pass")  # White passes too: the game is over, White moved last
    assert g.phase is Phase.COUNTING
    assert g.score().white.pass_stones == (1 if rules == "aga" else 0)


@pytest.mark.parametrize("rules", sorted(set(PRESETS) - {"aga", "aga-area"}))
def test_elsewhere_an_illegal_move_is_only_refused(rules: str) -> None:
    """Other rule sets refuse the move (here on White's stone just played) and the same
    player moves again; nothing changes."""
    g = game_from_diagram(rules, FIGURE_3, WHITE)
    play(g, "D3")
    event = g.attempt(Move(BLACK, vertex(g, "D3")))
    assert event == IllegalMove(BLACK, vertex(g, "D3"), Reason.OCCUPIED)
    assert g.to_move is BLACK and g.passes[BLACK] == 0 and g.number == 1


def test_moving_twice_in_a_row_takes_back_both_moves() -> None:
    """Rule 8: "... (BOTH moves, if he or she moved twice in succession), it shall be
    treated as a PASS". Black plays E5, then D4 before White answers: both come off, Black
    has passed, White moves. Undo takes the pass back and leaves the board before E5."""
    g = Game("aga", 9)
    play(g, "E5")
    event = g.attempt(Move(BLACK, vertex(g, "D4")))
    assert isinstance(event, IllegalMove) and event.reason is Reason.WRONG_TURN
    assert event.counted_as_pass and event.taken_back == vertex(g, "E5")
    assert g.position.stones() == [] and g.to_move is WHITE
    assert g.passes[BLACK] == 1 and g.number == 1
    g.undo()
    assert g.number == 0 and g.passes[BLACK] == 0 and g.to_move is BLACK


def test_a_pass_counted_for_an_illegal_move_turns_with_the_board() -> None:
    """Turning the game replays its illegal-move passes too."""
    g = game_from_diagram("aga", FIGURE_3, WHITE)
    play(g, "D3")
    g.attempt(Move(BLACK, vertex(g, "E3")))
    g.rotate(90)
    assert g.passes[BLACK] == 1 and g.to_move is WHITE and g.number == 2


def test_one_stone_handicap() -> None:
    """Rule 4: the weaker player "either moves first, giving only 0.5 point compensation to
    White, as in Rule 3 (this is known as a 'one stone handicap')". No stone is placed, and
    under area counting no compensation point (one per stone *after the first*)."""
    g = Game("aga", 19, handicap=1)
    assert g.komi == 0.5 and g.handicap_stones == 1
    assert g.position.stones() == [] and g.to_move is BLACK
    area = Game("aga-area", 19, handicap=1)
    assert area.komi == 0.5 and area.score().white.compensation == 0
    assert Game("japanese", 19, handicap=1).komi == 6.5  # no one-stone handicap there
