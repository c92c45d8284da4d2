"""`Ruleset`: every way the rule sets kifu knows differ, as one value, and the presets.

The published texts are kept in ``shared/seeds``; each preset names the paragraphs it
implements. Where two texts differ (does a pass "leave" a position for superko? is suicide
allowed?) each preset follows its own text.
"""

from __future__ import annotations

import dataclasses
import enum


class KoRule(enum.Enum):
    """How repetition is forbidden."""

    SIMPLE = "simple"
    """No immediate recapture of a single stone that just captured a single stone."""
    POSITIONAL = "positional"
    """No move may recreate any earlier board position, whoever is to play."""
    SITUATIONAL = "situational"
    """No move may recreate a position that the same player has left before (Tromp-Taylor)."""
    SITUATIONAL_TO_MOVE = "situational-to-move"
    """No move may recreate an earlier position with the same player to move (AGA rule 6)."""

    def __repr__(self) -> str:
        return f"KoRule.{self.name}"


class Scoring(enum.Enum):
    """How the final position is counted."""

    AREA = "area"
    """Stones on the board plus empty points reaching only one colour; captures ignored."""
    TERRITORY = "territory"
    """Empty points surrounded by one colour plus prisoners (captures, dead stones)."""

    def __repr__(self) -> str:
        return f"Scoring.{self.name}"


class Handicap(enum.Enum):
    """How handicap stones come onto the board."""

    FIXED = "fixed"
    """Placed at once on the star points in the AGA order."""
    FREE = "free"
    """Placed at once where Black chooses (the star points when nothing is chosen)."""
    MOVES = "moves"
    """Played by Black as consecutive moves before White's first (Tromp-Taylor comment 3)."""

    def __repr__(self) -> str:
        return f"Handicap.{self.name}"


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """One rule set. Prints as the code that makes it; compare presets by value."""

    name: str
    ko: KoRule
    suicide: bool
    """True when a move may leave its own stones without liberties (they are removed)."""
    scoring: Scoring
    komi: float
    """Points added to White's score in an even game."""
    handicap_komi: float
    """Points added to White's score in a handicap game (two stones or more, or one stone
    where `one_stone_handicap` says the rules know it)."""
    handicap: Handicap = Handicap.FIXED
    handicap_bonus: int = 0
    """Under area scoring, White gets a point per handicap stone beyond this many: 0 gives
    one per stone (Chinese), 1 one per stone after the first (AGA area, rule 4). -1 gives none."""
    pass_stones: bool = False
    """A pass hands the opponent a prisoner (AGA rule 7)."""
    white_moves_last: bool = False
    """When Black made the last pass, White adds a pass (and a pass stone) (AGA rule 11)."""
    pass_leaves_position: bool = False
    """Under situational superko, a pass also counts as leaving the position (concise)."""
    untouched_counts_for_both: bool = False
    """An empty region that reaches no stone counts for both players (the concise text:
    "empty points that don't contact the opponent's color"); otherwise for nobody."""
    no_points_in_seki: bool = False
    """Under territory scoring, stones in seki produce no points: neither their shared
    liberties nor their own eyes are territory (Japanese rules; Timin rule 8). Otherwise
    only the shared liberties are neutral and the eyes count (AGA rule 12)."""
    illegal_move_passes: bool = False
    """An illegal move is taken back and counts as a pass, with its pass stone (AGA rule 8);
    see `Game.attempt`. Otherwise it is refused and the same player moves again."""
    one_stone_handicap: bool = False
    """A handicap of one stone is a handicap game: Black moves first, no stone is placed,
    and White receives `handicap_komi` (AGA rule 4: "either moves first, giving only 0.5
    point compensation to White ... (this is known as a 'one stone handicap')")."""
    source: str = ""
    """Where the rules come from: the seed text and its paragraphs."""

    def compensation(self, handicap_stones: int) -> float:
        """Points White receives for the handicap under these rules (area scoring only)."""
        if self.scoring is not Scoring.AREA or self.handicap_bonus < 0 or handicap_stones < 2:
            return 0.0
        return float(max(0, handicap_stones - self.handicap_bonus))

    def with_komi(self, komi: float) -> Ruleset:
        """The same rules with another komi (even and handicap games alike)."""
        return dataclasses.replace(self, komi=komi, handicap_komi=komi)


TROMP_TAYLOR = Ruleset(
    name="tromp-taylor",
    ko=KoRule.SITUATIONAL,
    suicide=True,
    scoring=Scoring.AREA,
    komi=7.0,
    handicap_komi=7.0,
    handicap=Handicap.MOVES,
    handicap_bonus=-1,
    source=(
        "tromp-taylor.txt (2001): rule 4 and comment 4, situational superko on grid colourings "
        "left by that player (later versions of these rules say positional; kifu follows the "
        "seed); rule 5 and comment 5, suicide clears one's own colour; rule 7 and comment 7, "
        "area scoring; comment 3, handicap as n consecutive Black moves; comment 6, stones "
        "removed by agreement; comment 8, komi 7."
    ),
)
"""Tromp-Taylor as the seed (2001) states it.

Passes and superko, rule 4: "A turn is either a pass; or a move not leaving a grid
coloring left by that player before." Only a *move* leaves a grid coloring: a pass is a
turn but no move, so a grid a player passed at is not one he left, and a ko retaken after
the opponent's pass is legal.

Setup stones: rule 3 starts "with an empty grid" and rule 5 clears colours only as part
of a move, so the rules never clear setup stones; kifu refuses a setup (a record's AB/AW)
that leaves a string without liberties, as under every preset (`Game.setup`).
"""

CONCISE = Ruleset(
    name="concise",
    ko=KoRule.SITUATIONAL,
    suicide=True,
    scoring=Scoring.AREA,
    komi=7.0,
    handicap_komi=7.0,
    handicap=Handicap.MOVES,
    handicap_bonus=-1,
    pass_leaves_position=True,
    untouched_counts_for_both=True,
    source=(
        "concise-ruleset.txt: 'a grid pattern identical to one that this player has generated "
        "previously' with '\"has left previously\" means by either a move or a pass'; suicide "
        "stones removed; area score counting 'empty points that don't contact the opponent's "
        "color' (so a region touching no stone counts for both); komi 7; handicap as n "
        "consecutive Black turns."
    ),
)
"""The concise ruleset (Taylor).

Passes and superko: "A turn is either a pass; or a move that does not generate a grid
pattern identical to one that this player has generated previously", and among the
interpretations: '"Has left previously" means by either a move or a pass.' A pass leaves
the grid as it stands, so a ko retaken after the opponent's pass is illegal."""

TIMIN = Ruleset(
    name="timin",
    ko=KoRule.POSITIONAL,
    suicide=False,
    scoring=Scoring.TERRITORY,
    komi=6.5,
    handicap_komi=0.0,
    handicap=Handicap.FIXED,
    no_points_in_seki=True,
    source=(
        "timin-complete-rules.txt: rule 5, no prior configuration of the whole board; rule 6, "
        "suicide forbidden unless an enemy group is killed; rule 9, territory plus captives "
        "(dead stones count); rule 8, seki gives no points, not even the eyes of the groups in "
        "seki; convention 4, komi 6.5 'when the players have equal standing', none in a "
        "handicap game."
    ),
)
"""Timin's Complete Rules of Go with Thyssen's conventions.

Rules 8 and 9 read together: rule 9 gives "one point for each empty intersection that is
completely surrounded by his color"; rule 8's seki rule, "two groups half surrounding each
other produce no points for either side", takes precedence over it for the groups in seki:
their shared liberties and their own eyes count for nobody (see `rules.seki`).

Rule 9 read literally ("there is no path from the intersection to any enemy stone") gives
each side every point of an empty region that reaches no stone, the whole board before the
first move; kifu reads "completely surrounded by his color" as requiring his stones around
it, so such a region counts for nobody (0 each on an empty board).

Komi: convention 4 gives 6.5 "when the players have equal standing"; no text gives a komi to
a handicap game (convention 2: Black's handicap stones are the compensation), so a handicap
game has none.
"""

AGA = Ruleset(
    name="aga",
    ko=KoRule.SITUATIONAL_TO_MOVE,
    suicide=False,
    scoring=Scoring.TERRITORY,
    komi=5.5,
    handicap_komi=0.5,
    handicap=Handicap.FIXED,
    handicap_bonus=1,
    pass_stones=True,
    white_moves_last=True,
    one_stone_handicap=True,
    illegal_move_passes=True,
    source=(
        "aga-1991.txt: rule 3, komi 5.5 even and 0.5 with handicap; rule 4, star points in the "
        "AGA order, and a one-stone handicap (Black moves first, 0.5 komi); rule 5, "
        "self-capture illegal; rule 6, same board position with the same player to play; "
        "rule 7, pass stones; rule 8, an illegal move is taken back and treated as a pass, a "
        "pass stone exchanged; rule 11, White moves last; rule 12, territory counting less "
        "the opponent's prisoners."
    ),
)
"""The AGA rules of 1991.

Passes and superko, rule 6: "It is ILLEGAL to play in such a way as to recreate a previous
board position from the game, with the same player to play." A position reached by a pass
occurred with the other player to play, so it counts like any other.

Illegal moves, rule 8: "the player must take back his or her move ..., it shall be treated
as a PASS, and a pass stone exchanged." See `Game.attempt`.

Seki, rule 12: territory is "entirely surrounded by live stones of a single color"; the
eyes of groups in seki are such points and count, only the shared liberties are neutral.
"""

AGA_AREA = dataclasses.replace(
    AGA,
    name="aga-area",
    scoring=Scoring.AREA,
    source=AGA.source + " Area counting (rule 12) with one more point to White per handicap "
    "stone after the first (rule 4).",
)

GO_GADGET = Ruleset(
    name="go-gadget",
    ko=KoRule.SIMPLE,
    suicide=True,
    scoring=Scoring.AREA,
    komi=0.0,
    handicap_komi=0.0,
    handicap=Handicap.FIXED,
    handicap_bonus=-1,
    source=(
        "go-gadget-reference.txt: rule 7, play then capture then self-capture; rule 8, no "
        "single-stone recapture of the stone that just captured a single stone; rules 9-10, "
        "area score of the final position; no komi."
    ),
)

GO_GADGET_7A = dataclasses.replace(
    GO_GADGET,
    name="go-gadget-7a",
    suicide=False,
    source=GO_GADGET.source + " Optional rule 7A in effect: suicide forbidden.",
)

CHINESE = Ruleset(
    name="chinese",
    ko=KoRule.POSITIONAL,
    suicide=False,
    scoring=Scoring.AREA,
    komi=7.5,
    handicap_komi=0.0,
    handicap=Handicap.FREE,
    handicap_bonus=0,
    source=(
        "Chinese rules as OGS, KGS and CGOS apply them: positional superko, suicide forbidden, "
        "area scoring, komi 7.5, free handicap placement with one point to White per stone."
    ),
)

JAPANESE = Ruleset(
    name="japanese",
    ko=KoRule.SIMPLE,
    suicide=False,
    scoring=Scoring.TERRITORY,
    komi=6.5,
    handicap_komi=0.0,
    handicap=Handicap.FIXED,
    no_points_in_seki=True,
    source=(
        "Japanese rules: simple ko, suicide forbidden, territory plus prisoners, komi 6.5, "
        "no points in seki (eye points of stones in seki are not territory)."
    ),
)

NEW_ZEALAND = Ruleset(
    name="new-zealand",
    ko=KoRule.SITUATIONAL,
    suicide=True,
    scoring=Scoring.AREA,
    komi=7.0,
    handicap_komi=0.0,
    handicap=Handicap.FREE,
    handicap_bonus=-1,
    pass_leaves_position=True,
    source=(
        "New Zealand rules (New Zealand Go Society; not among the seeds): a move is a play "
        "not repeating 'the whole board position as it was after any of that player's previous "
        "moves', or saying 'pass' (so a pass is a move too); suicide removes one's own stones; "
        "area scoring; 7 komi in an even game; 'In a handicap game ... There is no komi.'"
    ),
)
"""The New Zealand rules (their text is not among the seeds; quoted from the New Zealand
Go Society's statement).

Passes and superko: "A move consists of 1. making a play so that the resulting board
position does not repeat the whole board position as it was after any of that player's
previous moves or 2. saying 'pass'." Saying pass is one of a player's moves, so the
position after his pass is one he may not bring back: a ko retaken after the opponent's
pass is illegal, as under `concise`.

Handicap: "white passes the first n - 1 moves where n is the size of the handicap. There
is no komi." kifu places the n stones at once (free placement), which leaves the same
board, with White to move; no komi in a handicap game.
"""

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        TROMP_TAYLOR, CONCISE, TIMIN, AGA, AGA_AREA, GO_GADGET, GO_GADGET_7A,
        CHINESE, JAPANESE, NEW_ZEALAND,
    )
}


def preset(name: str) -> Ruleset:
    """The preset called ``name`` (as on the command line); KeyError lists the choices."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise KeyError(f"no rule set {name!r}; choose one of: {', '.join(PRESETS)}") from None
