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
    """Points added to White's score in a handicap game (two stones or more)."""
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

TIMIN = Ruleset(
    name="timin",
    ko=KoRule.POSITIONAL,
    suicide=False,
    scoring=Scoring.TERRITORY,
    komi=6.5,
    handicap_komi=0.5,
    handicap=Handicap.FIXED,
    source=(
        "timin-complete-rules.txt: rule 5, no prior configuration of the whole board; rule 6, "
        "suicide forbidden unless an enemy group is killed; rule 9, territory plus captives "
        "(dead stones count); rule 8, seki gives no points; convention 4, komi 6.5."
    ),
)

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
    source=(
        "aga-1991.txt: rule 3, komi 5.5 even and 0.5 with handicap; rule 4, star points in the "
        "AGA order; rule 5, self-capture illegal; rule 6, same board position with the same "
        "player to play; rule 7, pass stones; rule 11, White moves last; rule 12, territory "
        "counting less the opponent's prisoners."
    ),
)

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
    source=(
        "Japanese rules: simple ko, suicide forbidden, territory plus prisoners, komi 6.5, "
        "no points in seki."
    ),
)

NEW_ZEALAND = Ruleset(
    name="new-zealand",
    ko=KoRule.SITUATIONAL,
    suicide=True,
    scoring=Scoring.AREA,
    komi=7.0,
    handicap_komi=7.0,
    handicap=Handicap.FREE,
    handicap_bonus=-1,
    source="New Zealand rules: situational superko, suicide allowed, area scoring, komi 7.",
)

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
