"""kifu's rules engine against GNU Go, over seeded random games on 9x9 and 19x19.

Each game is played by kifu (`random_games.play_random_game`), then replayed into GNU Go
(``gnugo --mode gtp`` with the ko and suicide flags that match the preset), and at every
turn the two must agree on:

- which points are legal for the player to move: all of them on 9x9 (GNU Go's
  ``all_legal``), a sample on 19x19 weighted to ko, atari and suicide points (``is_legal``),
  and two occupied points every turn;
- the board after the move (``list_stones``), hence the captures, and the capture counts;
- at the end of a finished game, who owns each point in the area count (`gnugo_owners`).

Presets and GNU Go flags (GNU Go 3.8, ``engine/board.c``, ``is_allowed_move``):

==============  ===========================================  ===============================
preset          ko / suicide in kifu                         GNU Go flags
==============  ===========================================  ===============================
japanese        simple ko, suicide forbidden                 --simple-ko --forbid-suicide
go-gadget-7a    simple ko, suicide forbidden                 --simple-ko --forbid-suicide
go-gadget       simple ko, suicide allowed (any size)        --simple-ko --allow-all-suicide
chinese, timin  positional superko, suicide forbidden        --positional-superko --forbid-suicide
aga             same position with same player to move       --situational-superko --forbid-suicide
==============  ===========================================  ===============================

GNU Go's "situational superko" is "repetition of a previous position with the same player
to move" (its source says so), which is AGA rule 6, kifu's ``KoRule.SITUATIONAL_TO_MOVE``:
the aga games agree with it move for move, including well over a hundred points that
positional superko would forbid (the board occurred, with the other player to move) and
that both allow. It is not Tromp-Taylor's "a position the same player has left", for
which GNU Go has no flag.

Where GNU Go is known to be wrong, the generator does not go:

- suicide together with superko (tromp-taylor, concise, new-zealand): GNU Go's superko
  check ignores the stones a suicide removes, and ``--allow-all-suicide`` accepts a
  single-stone suicide (which recreates the position) even under positional superko
  (shown below). Those presets are not compared with GNU Go; test_sgfmill_oracle checks
  their captures, suicides, ko and counts instead.
- GNU Go keeps 500 moves of history for superko (then forgets the oldest): 9x9 superko
  games are cut at 480 turns (passes count), so every earlier position is still known to
  it; 19x19 games run on, and after turn 480 a point kifu refuses for superko is not
  compared (forgetting can only make GNU Go more permissive; all else still is).
- ``final_score`` applies GNU Go's own judgement of dead stones, so it is not a count of
  the board as it stands; the area is compared through ``unconditional_status`` instead.
- ``--allow-suicide`` forbids single-stone suicide, which no kifu preset does: not used.

About 2,600 9x9 and 24 19x19 games (about 350,000 turns, 13 million points judged); these
tests cost about four minutes of one core; the counts of turns, games and refusals
(ko, superko, suicide, occupied) that both engines agreed on are printed (``pytest -s``)
and have asserted minimums, so a run that compared nothing cannot pass.
"""

from __future__ import annotations

import collections
import dataclasses
import sys
import time
from collections.abc import Sequence

import pytest

from rules import Color, Game, IllegalMoveError, KoRule, Passed, Point, Position, Reason, preset
from tests.conftest import gnugo_path, need

from .gtp import GtpEngine, GtpEngineError, GtpFailure
from .random_games import RandomGame, Step, area_score, play_random_game

FORBID = ["--forbid-suicide"]
SIMPLE = ["--simple-ko"]
POSITIONAL = ["--positional-superko"]
SITUATIONAL = ["--situational-superko"]

GNUGO_HISTORY = 500
"""GNU Go 3.8's MAX_MOVE_HISTORY: the turns its superko check remembers."""
SUPERKO_PLIES = GNUGO_HISTORY - 20


@dataclasses.dataclass(frozen=True)
class Config:
    """A batch of random games: a preset, the GNU Go flags that match it, the board."""

    preset: str
    flags: tuple[str, ...]
    size: int
    games: int
    max_plies: int
    first_seed: int

    @property
    def judge_all(self) -> bool:
        """Every empty point judged each turn (9x9), or a sample (19x19)."""
        return self.size <= 9

    @property
    def trusted_history(self) -> int:
        """The turns for which GNU Go's superko refusals are complete."""
        return SUPERKO_PLIES if "--simple-ko" not in self.flags else self.max_plies

    def __str__(self) -> str:
        return f"{self.preset}-{self.size}x{self.size}"


CONFIGS = [
    Config("chinese", (*POSITIONAL, *FORBID), 9, 700, SUPERKO_PLIES, 1000),
    Config("timin", (*POSITIONAL, *FORBID), 9, 200, SUPERKO_PLIES, 2000),
    Config("aga", (*SITUATIONAL, *FORBID), 9, 700, SUPERKO_PLIES, 3000),
    Config("japanese", (*SIMPLE, *FORBID), 9, 400, 400, 4000),
    Config("go-gadget-7a", (*SIMPLE, *FORBID), 9, 200, 400, 5000),
    Config("go-gadget", (*SIMPLE, "--allow-all-suicide"), 9, 400, 400, 6000),
    # 19x19 games under superko run to the end (about 450-650 turns); GNU Go's superko
    # refusals are compared for the first 480 turns only (`Config.trusted_history`).
    Config("chinese", (*POSITIONAL, *FORBID), 19, 14, 2000, 7000),
    Config("aga", (*SITUATIONAL, *FORBID), 19, 6, 2000, 8000),
    # Random games under simple ko often cycle for ever on 19x19: cut at 800 turns.
    Config("japanese", (*SIMPLE, *FORBID), 19, 4, 800, 9000),
]


@dataclasses.dataclass
class Tally:
    """What was compared, and the refusals both engines agreed on, by kifu's reason."""

    games: int = 0
    finished: int = 0
    plies: int = 0
    passes: int = 0
    points_judged: int = 0
    refusals: collections.Counter[Reason] = dataclasses.field(default_factory=collections.Counter)
    captures: int = 0
    suicides: int = 0
    area_points: int = 0
    areas_compared: int = 0
    situational_only: int = 0

    def line(self, name: str, seconds: float) -> str:
        refused = ", ".join(f"{r.value} {n}" for r, n in sorted(self.refusals.items()))
        return (
            f"{name}: {self.games} games ({self.finished} to the end), {self.plies} turns, "
            f"{self.passes} passes, {self.points_judged} points judged, refusals agreed: "
            f"{refused}; {self.captures} capturing moves, {self.suicides} suicides; owner "
            f"agreed on {self.area_points} final points, whole area count in "
            f"{self.areas_compared} games; {self.situational_only} points allowed that "
            f"positional superko forbids; {seconds:.1f} s"
        )


def vertex(point: Point | None) -> str:
    return "pass" if point is None else point.gtp()


def stones(position: Position, color: Color) -> set[str]:
    return {p.gtp() for p in position.stones(color)}


def replay_script(game: RandomGame, upto: int) -> str:
    """The moves up to turn ``upto`` as GTP commands: paste them into ``gnugo --mode gtp``."""
    lines = [f"boardsize {game.size}", "clear_board"]
    for step in game.steps[:upto]:
        lines.append(f"play {step.color.letter} {vertex(getattr(step.event, 'point', None))}")
    return "\n".join(lines)


def commands_for(step: Step) -> list[str]:
    """The GTP questions for one turn, in the order `check_step` reads the answers."""
    c = step.color.letter
    out: list[str] = []
    if step.all_judged:
        out.append(f"all_legal {c}")
        out.extend(f"is_legal {c} {p.gtp()}" for p, r in step.verdicts if r is Reason.OCCUPIED)
    else:
        out.extend(f"is_legal {c} {p.gtp()}" for p, _ in step.verdicts)
    out.append(f"play {c} {vertex(getattr(step.event, 'point', None))}")
    out += ["list_stones black", "list_stones white", "captures black", "captures white"]
    return out


class Disagreement(AssertionError):
    pass


SUPERKO = (Reason.POSITIONAL_SUPERKO, Reason.SITUATIONAL_SUPERKO)


def check_step(
    game: RandomGame, k: int, answers: Sequence[str | GtpFailure], tally: Tally,
    trust_superko: bool = True,
) -> int:
    """Compare turn ``k`` of ``game`` with GNU Go's answers (as `commands_for` asked);
    return how many answers were used. Raises `Disagreement` naming the game and turn.

    Without ``trust_superko`` (GNU Go has forgotten the oldest positions), a point kifu
    refuses for superko is not compared: GNU Go may not know the earlier position. Every
    other verdict still is (forgetting history can only make GNU Go more permissive)."""
    step = game.steps[k]
    before = game.steps[k - 1].position if k else Position.empty(game.size)

    def fail(what: str) -> Disagreement:
        return Disagreement(
            f"{game.describe()}, turn {k + 1} ({step.color.letter} to play): {what}\n"
            f"board before the turn:\n{before.diagram()}\n"
            f"GTP to reproduce:\n{replay_script(game, k)}"
        )

    def text(j: int) -> str:
        a = answers[j]
        if isinstance(a, GtpFailure):
            raise fail(f"GNU Go refused {a.command!r}: {a.message}")
        return a

    j = 0
    if step.all_judged:
        assert trust_superko, "every empty point is judged only while GNU Go's history holds"
        gnugo_legal = set(text(j).split())
        j += 1
        kifu_legal = {p.gtp() for p, r in step.verdicts if r is None}
        if gnugo_legal != kifu_legal:
            reasons = dict(step.verdicts)
            diff = sorted(gnugo_legal ^ kifu_legal)
            details = ", ".join(
                f"{v}: kifu {reasons.get(Point.from_gtp(v)) or 'legal'}, GNU Go "
                f"{'legal' if v in gnugo_legal else 'illegal'}" for v in diff
            )
            raise fail(f"legal moves differ: {details}")
        judged = [(p, r) for p, r in step.verdicts if r is not Reason.OCCUPIED]
        for p, r in step.verdicts:
            if r is Reason.OCCUPIED:
                if text(j) != "0":
                    raise fail(f"GNU Go says {p.gtp()} (occupied) is legal")
                j += 1
                tally.refusals[r] += 1
        tally.points_judged += len(step.verdicts)
        for _, r in judged:
            if r is not None:
                tally.refusals[r] += 1
    else:
        for p, r in step.verdicts:
            legal = text(j) == "1"
            j += 1
            if r in SUPERKO and not trust_superko:
                continue
            if legal != (r is None):
                raise fail(
                    f"{p.gtp()}: kifu says {r or 'legal'}, GNU Go says "
                    f"{'legal' if legal else 'illegal'}"
                )
            if r is not None:
                tally.refusals[r] += 1
        tally.points_judged += len(step.verdicts)
    move = vertex(getattr(step.event, "point", None))
    text(j)  # the play itself: a refusal raises
    j += 1
    black, white = set(text(j).split()), set(text(j + 1).split())
    j += 2
    if black != stones(step.position, Color.BLACK) or white != stones(step.position, Color.WHITE):
        raise fail(
            f"boards differ after {step.color.letter} {move}: kifu has\n"
            f"{step.position.diagram()}\nGNU Go has black {sorted(black)}, white {sorted(white)}"
        )
    counts = (int(text(j)), int(text(j + 1)))
    j += 2
    if counts != step.captures:
        raise fail(f"capture counts after {move}: kifu {step.captures}, GNU Go {counts}")
    tally.plies += 1
    if isinstance(step.event, Passed):
        tally.passes += 1
    elif step.event.suicided:
        tally.suicides += 1
    elif step.event.captured:
        tally.captures += 1
    return j


def gnugo_owners(position: Position, statuses: Sequence[str]) -> dict[Point, Color] | None:
    """Who owns each point by GNU Go's ``unconditional_status`` (Benson's unconditional
    life, a proof rather than a judgement): ``alive`` stones and ``black_territory`` /
    ``white_territory``; ``undecided`` points (seki, dame, groups that could still die)
    are left out. None when any stone is ``dead``: GNU Go would then count territory
    through dead stones, where the board as it stands counts those points for nobody."""
    owners: dict[Point, Color] = {}
    for p, status in zip(position.points(), statuses):
        if status == "alive":
            owners[p] = position[p]  # type: ignore[assignment]
        elif status == "black_territory":
            owners[p] = Color.BLACK
        elif status == "white_territory":
            owners[p] = Color.WHITE
        elif status == "dead":
            return None
    return owners


def kifu_owners(position: Position) -> dict[Point, Color]:
    """Who owns each point in kifu's area count of the board as it stands."""
    score = area_score(position)
    owners = {p: position[p] for p in position.stones()}
    owners.update({p: Color.BLACK for p in score.territory[0]})
    owners.update({p: Color.WHITE for p in score.territory[1]})
    return owners  # type: ignore[return-value]


def check_game(engine: GtpEngine, game: RandomGame, tally: Tally, history: int) -> None:
    """Replay ``game`` into GNU Go and compare every turn, and the final area: on every
    point GNU Go's unconditional analysis decides, and as a whole when it decides all.
    GNU Go's superko refusals are trusted for the first ``history`` turns."""
    commands = [f"boardsize {game.size}", "clear_board"]
    for step in game.steps:
        commands += commands_for(step)
    final = game.final
    points = list(final.points())
    if game.finished:
        commands += [f"unconditional_status {p.gtp()}" for p in points]
    answers = engine.send_many(commands)
    j = 2
    for k in range(len(game.steps)):
        j += check_step(game, k, answers[j:], tally, trust_superko=k < history)
    tally.games += 1
    if not game.finished:
        return
    tally.finished += 1
    statuses = [a if isinstance(a, str) else "?" for a in answers[j:]]
    gnugo = gnugo_owners(final, statuses)
    if gnugo is None:
        return
    kifu = kifu_owners(final)
    differ = sorted(p.gtp() for p in gnugo if gnugo[p] != kifu.get(p))
    if differ:
        raise Disagreement(
            f"{game.describe()}: GNU Go's unconditional status and kifu's count differ "
            f"at {differ}\n{final.diagram()}"
        )
    tally.area_points += len(gnugo)
    if len(gnugo) == len(points):
        tally.areas_compared += 1


def allowed_only_by_situational(game: RandomGame) -> int:
    """How many points the game's rules allowed (and GNU Go with them) that positional
    superko forbids: the board had occurred, but only with the other player to move. Such
    points show that GNU Go's ``--situational-superko`` is not positional. Counted up to
    the first such move actually played."""
    shadow = Game("chinese", game.size, komi=0)
    found = 0
    for step in game.steps:
        for p, r in step.verdicts:
            if r is None and shadow.legality(p, step.color) is Reason.POSITIONAL_SUPERKO:
                found += 1
        try:
            if isinstance(step.event, Passed):
                shadow.pass_(step.color)
            else:
                shadow.play(step.event.point, step.color)
        except IllegalMoveError:
            break
    return found


def run_config(config: Config) -> Tally:
    """Play the configuration's games and compare each with one GNU Go; the tally."""
    gnugo = gnugo_path()
    assert gnugo is not None
    rules = preset(config.preset)
    tally = Tally()
    argv = [gnugo, "--mode", "gtp", "--chinese-rules", *config.flags]
    with GtpEngine(argv, timeout=120) as engine:
        for seed in range(config.first_seed, config.first_seed + config.games):
            game = play_random_game(
                rules, config.size, seed, judge_all=config.judge_all, max_plies=config.max_plies
            )
            check_game(engine, game, tally, config.trusted_history)
            if rules.ko is KoRule.SITUATIONAL_TO_MOVE:
                tally.situational_only += allowed_only_by_situational(game)
    return tally


@pytest.fixture(scope="module")
def gnugo() -> str:
    path = gnugo_path()
    need(path is not None, "GNU Go is not installed (Debian package gnugo)")
    return path  # type: ignore[return-value]


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_games_agree_with_gnugo(gnugo: str, config: Config) -> None:
    """Seeded random games: the same legal moves, boards, captures and area as GNU Go."""
    start = time.perf_counter()
    tally = run_config(config)
    print("\n" + tally.line(str(config), time.perf_counter() - start))
    rules = preset(config.preset)
    assert tally.games == config.games
    # The comparison is not vacuous: refusals of every kind the preset has were compared.
    assert tally.refusals[Reason.OCCUPIED] >= tally.plies
    assert tally.refusals[Reason.KO] >= config.games // 4
    assert tally.captures >= config.games * 2
    assert tally.passes >= config.games // 10
    if rules.suicide:
        assert tally.refusals[Reason.SUICIDE] == 0
    else:
        assert tally.refusals[Reason.SUICIDE] >= config.games * 5
    superko = {
        "chinese": Reason.POSITIONAL_SUPERKO, "timin": Reason.POSITIONAL_SUPERKO,
        "aga": Reason.SITUATIONAL_SUPERKO,
    }.get(config.preset)
    if superko is not None and config.size == 9:
        assert tally.refusals[superko] >= config.games // 4
    if superko is Reason.SITUATIONAL_SUPERKO and config.size == 9:
        # GNU Go allowed repetitions with the other player to move: it is not positional.
        assert tally.situational_only >= 10
    if rules.suicide:
        assert tally.suicides >= config.games
    if superko is not None or config.size == 9:
        assert tally.finished >= config.games // 2
        assert tally.area_points >= tally.finished * config.size * config.size // 2
    if config.size == 9:
        assert tally.areas_compared >= tally.finished // 5


# -- the GTP client and the oracle's settings -------------------------------------------

FAKE_ENGINE = """
import sys
for line in sys.stdin:
    if line.startswith("quit"):
        print("=", flush=True)
        break
    if line.startswith("die"):
        sys.stderr.write("fake engine: asked to die\\n")
        sys.exit(3)
    print("=7 " + line.strip() if line.startswith("7 ") else "? no such command")
    print(flush=True)
"""


def test_gtp_client_reports_failures_and_dead_engines() -> None:
    """A ``?`` answer is a `GtpFailure` naming the command; an engine that exits is a
    `GtpEngineError` with its exit status and its stderr; ids in answers are skipped."""
    with GtpEngine([sys.executable, "-c", FAKE_ENGINE], timeout=10) as engine:
        assert engine.send("7 hello") == "7 hello"
        with pytest.raises(GtpFailure, match="'frobnicate' failed: no such command"):
            engine.send("frobnicate")
        with pytest.raises(GtpEngineError, match=r"(?s)exited with status 3 .*asked to die"):
            engine.send_many(["die", "7 never answered"])
    with pytest.raises(GtpEngineError, match="cannot start /nonexistent/engine"):
        GtpEngine(["/nonexistent/engine"])
    with GtpEngine([sys.executable, "-c", FAKE_ENGINE]) as engine:
        with pytest.raises(ValueError, match="not a single GTP command"):
            engine.send("a\nb")


def gnugo_session(gnugo: str, flags: Sequence[str], moves: Sequence[str]) -> GtpEngine:
    engine = GtpEngine([gnugo, "--mode", "gtp", *flags])
    engine.send("boardsize 5")
    for move in moves:
        engine.send(f"play {move}")
    return engine


# A single-stone suicide at A1 for Black recreates the board as it stands:
#     5 . . . . .
#     4 . . . . .
#     3 . . . . .
#     2 O . . . .
#     1 . O . . .
CORNER = ["b E5", "w A2", "b E4", "w B1"]


def test_gnugo_allows_a_repeating_suicide_under_positional_superko(gnugo: str) -> None:
    """Why suicide is never combined with superko against GNU Go: with
    ``--allow-all-suicide`` it accepts a single-stone suicide that leaves the board as it
    was, which positional superko forbids (and kifu refuses)."""
    rules = dataclasses.replace(preset("tromp-taylor"), ko=KoRule.POSITIONAL)
    game = Game(rules, 5)
    for move in CORNER:
        color, vertex_ = move.split()
        game.play(Point.from_gtp(vertex_), Color.BLACK if color == "b" else Color.WHITE,
                  out_of_turn=True)
    assert game.legality(Point.from_gtp("A1"), Color.BLACK) is Reason.POSITIONAL_SUPERKO
    flags = ["--positional-superko", "--allow-all-suicide"]
    with gnugo_session(gnugo, flags, CORNER) as engine:
        assert engine.send("is_legal b A1") == "1"  # GNU Go's fault


def test_gnugo_allow_suicide_forbids_single_stone_suicide(gnugo: str) -> None:
    """``--allow-suicide`` allows only multi-stone suicide, which matches no preset."""
    with gnugo_session(gnugo, ["--simple-ko", "--allow-suicide"], CORNER) as engine:
        assert engine.send("is_legal b A1") == "0"
    with gnugo_session(gnugo, ["--simple-ko", "--allow-all-suicide"], CORNER) as engine:
        assert engine.send("is_legal b A1") == "1"
    game = Game("go-gadget", 5)
    for move in CORNER:
        color, vertex_ = move.split()
        game.play(Point.from_gtp(vertex_), Color.BLACK if color == "b" else Color.WHITE,
                  out_of_turn=True)
    assert game.legality(Point.from_gtp("A1"), Color.BLACK) is None
