"""The tracker: board readings in, refereed moves out.

A `Tracker` is fed `rules.Observation`s from any source (camera, sensor board, a test
script) and holds the `rules.Game` they are a picture of. It is pure logic: no clock, no
I/O; time is the observations' own.

What it does with a stream of readings:

* **Occlusion.** A reading with an unknown point (a hand over the board) shows a board in
  motion: it is never judged, and it restarts the stability clock.
* **Stability.** A fully read state is *accepted* once it has been seen unchanged for
  ``stable_for`` seconds. A stone nudged or misread for a frame or two, or a noisy frame,
  never lasts that long and is never judged.
* **The diff.** An accepted state is compared with the game. New stones are explained as
  moves: one stone of the colour to play is a move; several new stones are several moves
  when exactly one order of them is legal and leaves the board the state shows (otherwise
  they are announced as ambiguous). Stones a move captures may stay on the board for a
  while: they are *pending removal*, expected to disappear, never read as new moves.
* **Moves seen together** (``guess=True``, as ``kifu record`` runs it). When the board
  reappears with several new stones (a camera blacked out, a player leaning over the
  board, a webcam that keeps a frame every few seconds, a sensor board after a resync),
  every order of them the rules allow is searched, in turn (Black and White alternate, so
  the colour to play picks the next stone at each step), and kept when it leaves the board
  the state shows, captured stones gone or still lying. Orders that end in the same
  position with the same captures are one choice. One choice: it is recorded and
  announced ("3 moves while the board was hidden: B D4, W Q16, B C3"). Several: the most
  likely is recorded (fewest captured stones still lying on the board, then the order in
  which partial views glimpsed the stones) and the ambiguity is announced; `reorder` (the
  keyboard's ``order D4 Q16 C3``) re-records them in the order the players give. The
  bounds: every order is weighed for up to ``max_moves`` new stones (``kifu record`` uses
  `MAX_HIDDEN`, 10). The search visits each set of stones already played and the position
  it leaves once: 462 positions for 10 stones (5 of each colour), under a second. Past
  it, up to `MAX_GUESSED` (24) stones, the first order found within `GUESS_BUDGET`
  positions is recorded and announced as a guess. Past that, or when no order of legal
  moves explains the reading, the tracker stops and asks, as for any trouble.
* **Trouble.** A stone removed that no move captured, a stone of the wrong colour, an
  illegal move (ko, superko, suicide, an occupied point) is announced and nothing is
  recorded (but where the rules count an illegal stone as a pass, AGA rule 8: that pass,
  with the `IllegalMove` event saying so); the tracker then waits until the board
  matches the game again (the player takes the stone back, puts the stone back) and
  announces the resync.
* **Handicap.** Black stones on the board before the first move become setup stones.
* **The end.** Passes come from outside (`pass_`). After two passes, strings the players
  lift off are marked dead (put back, alive again); `finish` counts the game.

Everything the tracker says comes out of `feed`, `pass_`, `resign`, `finish` and
`reorder` as a list of outputs: the rules' events (`MovePlayed`, `Passed`,
`StonesRemoved`, `Resigned`, `GameEnded`, `Score`), `SetupStones`, `Reordered` and
`Announcement`s. `turn` changes the coordinates
of everything when the board turns out to be seen from another side.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Union

from rules import (
    Cell, Color, Event, Game, IllegalMove, IllegalMoveError, MovePlayed, Observation, Passed,
    Phase, Point, Reason, geometry, strings,
)
from rules.rotation import rotate_cells, rotate_point

EMPTY, BLACK, WHITE, UNKNOWN = Cell.EMPTY, Cell.BLACK, Cell.WHITE, Cell.UNKNOWN


class Kind(str, enum.Enum):
    """What an announcement is about. The value is the word printed and sent as JSON."""

    AMBIGUOUS = "ambiguous"
    """Several new stones whose order the rules cannot decide (with ``guess``: the likeliest
    order was recorded; ``order`` corrects it)."""
    HIDDEN = "hidden-moves"
    """Several moves recorded at once, played while the board could not be seen."""
    UNEXPECTED_REMOVAL = "unexpected-removal"
    """Stones gone from the board that no move captured."""
    WRONG_COLOUR = "wrong-colour"
    """A new stone of the colour not to play, or a stone that changed colour."""
    ILLEGAL = "illegal"
    """A new stone the rules forbid there now (``reason`` says why)."""
    WAITING_FOR_REMOVAL = "waiting-for-removal"
    """A move captured stones that are still on the board."""
    RESYNC = "resync"
    """After trouble, the board matches the game again."""
    UNEXPLAINED = "unexplained"
    """A change that no short sequence of moves explains (too many new stones at once)."""
    MOVED = "moved"
    """A stone slid from its point to another (knocked or nudged)."""
    REFUSED = "refused"
    """A command that cannot be carried out now (counting before two passes)."""
    CORRECTION = "correction"
    """A move taken back or a reading corrected (`kifu.corrections.Correction`)."""
    COUNTING = "counting"
    """The counting phase: what to do now, the score as it stands, play resumed."""
    NO_BOARD = "no-board"
    """The camera has not found the board for a while (and why)."""

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True)
class Announcement:
    """Something the players should hear about. Nothing was recorded because of it, except
    for `Kind.HIDDEN` and a guessed `Kind.AMBIGUOUS`, which tell of moves just recorded,
    and a `Kind.ILLEGAL` after an `IllegalMove` counted as a pass (AGA rule 8)."""

    kind: Kind
    text: str
    points: tuple[Point, ...] = ()
    reason: Reason | None = None


@dataclasses.dataclass(frozen=True)
class SetupStones:
    """Stones put on the board as setup (handicap stones), not as moves."""

    black: tuple[Point, ...]
    white: tuple[Point, ...] = ()


_TURNS = {90: "a quarter clockwise", 180: "half round", 270: "a quarter anticlockwise"}


@dataclasses.dataclass(frozen=True)
class Oriented:
    """The orientation of the readings was set (from the calibration page, the keyboard):
    from now on every reading is turned ``orientation`` degrees clockwise before it is
    judged. ``turn`` is how far the game recorded so far was turned to stay on the board
    as now read (0 when the orientation was only confirmed); ``width`` and ``height`` are
    the board's size before that turn; ``moves`` the moves and passes turned."""

    orientation: int
    turn: int
    width: int
    height: int
    moves: int

    @property
    def text(self) -> str:
        """The sentence said about it."""
        if not self.turn:
            return f"Orientation {self.orientation}° confirmed"
        head = f"Orientation now {self.orientation}°"
        if not self.moves:
            return head
        moves = "the move" if self.moves == 1 else f"the {self.moves} moves"
        return f"{head}: {moves} so far turned {_TURNS[self.turn]} to match"


@dataclasses.dataclass(frozen=True)
class Reordered:
    """The last ``len(moves)`` moves recorded are replaced by ``moves``: the same stones
    in the order the players said (`Tracker.reorder`)."""

    moves: tuple[MovePlayed, ...]

    def line(self) -> str:
        """The sentence said about it."""
        return f"order: {len(self.moves)} moves re-recorded as {_listed(self.moves)}"


Output = Union[Event, Announcement, SetupStones, Oriented, Reordered]

MAX_HIDDEN = 10
"""The most new stones whose every order `kifu record` weighs (its ``max_moves``)."""

MAX_GUESSED = 24
"""With ``guess``, the most new stones explained as moves at all: past ``max_moves``, by the
first order found within `GUESS_BUDGET` positions."""

GUESS_BUDGET = 2000
"""The most positions searched for one order of more than ``max_moves`` new stones."""

_FEW = 3
"""Up to this many new stones whose colours cannot alternate are named as stones of the
wrong colour (a stone put down out of turn); more are unexplained."""


@dataclasses.dataclass(frozen=True)
class _Way:
    """Orders of some stones (from one state of the search on) that end the same way: the
    likeliest of them, how many there are, how well the likeliest agrees with the order
    the stones were glimpsed in, and how many stones it captures that still lie there."""

    order: tuple[int, ...]
    count: int
    score: int
    lying: int


_Outcome = tuple[int, frozenset[tuple[int, Cell]]]
"""How an order ends: the position's hash and the stones captured (cell index, stone)."""


@dataclasses.dataclass
class _Found:
    """What a search of the orders of some new stones found: each way it can end, and the
    furthest any order got otherwise (moves played, the error that stopped it, the stones
    the board lacks that the game still has), for saying what is wrong."""

    ways: dict[_Outcome, _Way]
    furthest: tuple[int, IllegalMoveError | None, list[int]]


def _better(old: _Way | None, new: _Way) -> _Way:
    """Two groups of orders ending the same way, as one: the likelier order (the first
    found on a tie), and how many there are together."""
    if old is None:
        return new
    best = new if new.score > old.score else old
    return dataclasses.replace(best, count=old.count + new.count)


def _vertices(points: Iterable[Point]) -> str:
    return " ".join(p.gtp() for p in points)


def _name(stone: Color | Cell) -> str:
    color = stone.color if isinstance(stone, Cell) else stone
    return "Black" if color is Color.BLACK else "White"


def _listed(moves: Iterable[MovePlayed]) -> str:
    return ", ".join(f"{m.color.letter} {m.point.gtp()}" for m in moves)


def _removal(pts: tuple[Point, ...]) -> Announcement:
    return Announcement(
        Kind.UNEXPECTED_REMOVAL,
        f"{_vertices(pts)} taken off but not captured: put {'them' if len(pts) > 1 else 'it'} back",
        pts,
    )


class Tracker:
    """Follows a physical board and keeps ``game`` in step with it.

    ``stable_for``: seconds a fully read state must stay unchanged before it is judged.
    ``handicap``: the number of handicap stones expected before the first move (0: two or
    more black stones alone on the board at the start are taken as handicap anyway).
    ``max_moves``: the most new stones explained as moves from one accepted state, every
    order of them weighed (with ``guess``, up to `MAX_GUESSED` are explained by the first
    order found).
    ``min_confidence``: points read with a lower confidence (when a reading has them) count
    as unknown, like a hand over them.
    ``captured``: stones captured before the tracker started that may still lie on the
    board (a resumed game), with their colour.
    ``guess``: when several orders of new stones fit the board, record the likeliest and
    say so (``kifu record``); else record nothing and ask for them one by one. With it,
    every recording of several moves at once is announced.
    """

    def __init__(
        self,
        game: Game,
        *,
        stable_for: float = 0.5,
        handicap: int = 0,
        max_moves: int = 3,
        min_confidence: float = 0.0,
        captured: Mapping[Point, Color] | None = None,
        guess: bool = False,
    ) -> None:
        if stable_for < 0:
            raise ValueError(f"stable_for must not be negative: {stable_for}")
        if handicap < 0 or handicap == 1:
            raise ValueError(f"handicap must be 0 or at least 2 stones: {handicap}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1: {max_moves}")
        self.game = game
        self.stable_for = stable_for
        self.handicap = handicap
        self.max_moves = max_moves
        self.min_confidence = min_confidence
        self.guess = guess
        self.pending: dict[int, Cell] = {
            self.index(p): Cell.of(c) for p, c in (captured or {}).items()
            if game.board.cell(p) is EMPTY
        }
        """Points (cell indexes) of captured stones still on the board, and their colour."""
        self.troubled = False
        """True after an announced problem, until the board matches the game again."""
        self.takebacks = False
        """The players may take their last move back by lifting it (a club game: see
        `kifu.session.Session`'s ``takeback``). An illegal stone that leaves the board as
        it was before the last move (a ko retaken at once looks just like the capture
        taken back) is then left to the take-back instead of counting as a pass."""
        self.accepted: tuple[int, ...] | None = None
        """The last accepted state's cells."""
        self.state_time = 0.0
        """When the last accepted state first appeared: the time of the moves it made."""
        self.now = 0.0
        """The time of the last reading."""
        self._candidate: tuple[int, ...] | None = None
        self._since = 0.0
        self._fresh = game.number == 0 and not game.position.stones()
        self.recorded: list[MovePlayed | Passed | IllegalMove] = []
        """The moves and passes this tracker recorded, in order (what `reorder` may change),
        an illegal move counted as a pass (AGA rule 8) among them."""
        self._lying_before: list[dict[int, Cell]] = []
        """For each of ``recorded``: the captured stones lying on the board before it."""
        self._glimpsed: dict[int, float] = {}
        """New stones seen in partial or passing views since the last move: when."""
        self._sighted: dict[int, tuple[int, float]] = {}
        """New stones in the last reading: their colour and since when."""
        self._found: _Found | None = None

    # -- readings --------------------------------------------------------------------------

    def feed(self, obs: Observation) -> list[Output]:
        """Take one reading; return what it made happen (usually nothing)."""
        if (obs.width, obs.height) != (self.game.width, self.game.height):
            raise ValueError(
                f"observation of a {obs.width}x{obs.height} board from "
                f"{obs.source or 'the source'} "
                f"does not fit the game's {self.game.width}x{self.game.height} board"
            )
        self.now = obs.time
        cells = obs.cells
        if self.min_confidence > 0 and obs.confidence:
            least = self.min_confidence
            cells = tuple(UNKNOWN if q < least else c for c, q in zip(cells, obs.confidence))
        if self.guess:
            self._glimpse(cells, obs.time)
        if UNKNOWN in cells:
            self._candidate = None
            return []
        if cells != self._candidate:
            self._candidate = cells
            self._since = obs.time
        if cells == self.accepted or obs.time - self._since < self.stable_for:
            return []
        self.accepted = cells
        self.state_time = self._since
        return self._judge(cells)

    def _glimpse(self, cells: Sequence[int], time: float) -> None:
        """Note when each new stone was first seen in two readings in a row (a reading
        partly hidden, or not held long enough to be judged): a hint of the order in
        which stones went down while the board could not be seen whole."""
        board = self.game.board.cells
        sighted: dict[int, tuple[int, float]] = {}
        for i, (c, g) in enumerate(zip(cells, board)):
            if c != g and (c == BLACK or c == WHITE):
                before = self._sighted.get(i)
                since = before[1] if before is not None and before[0] == c else time
                sighted[i] = (c, since)
                if before is not None and before[0] == c and i not in self._glimpsed:
                    self._glimpsed[i] = since
        self._sighted = sighted

    def _judge(self, seen: tuple[int, ...]) -> list[Output]:
        game = self.game
        if game.phase is Phase.OVER:
            return []
        if self._fresh and game.number == 0:
            out = self._handicap(seen)
            if out is not None:
                return out
        if game.phase is Phase.COUNTING and not self._new_stones(seen):
            return self._counting(seen)
        added, removed, changed = self._diff(seen, game.board.cells, self.pending)
        if not (added or removed or changed):
            self._settle(seen, {})
            if self.troubled:
                self.troubled = False
                return [Announcement(Kind.RESYNC, "the board matches the game again")]
            return []
        self._found = None
        stones = added + changed if self.guess else added
        limit = max(self.max_moves, MAX_GUESSED) if self.guess else self.max_moves
        if (added or removed) and (self.guess or not changed) and len(stones) <= limit:
            result = self._explain(seen, stones)
            if result is not None:
                return result
        return self._trouble(seen, added, removed, changed)

    # -- the diff --------------------------------------------------------------------------

    @staticmethod
    def _diff(
        seen: Sequence[int], cells: Sequence[int], pending: Mapping[int, Cell]
    ) -> tuple[list[int], list[int], list[int]]:
        """Points where the board differs from the game: new stones (not captured stones
        still lying there), stones gone, stones of another colour."""
        added: list[int] = []
        removed: list[int] = []
        changed: list[int] = []
        for i, (s, g) in enumerate(zip(seen, cells)):
            if s == g:
                continue
            if g == EMPTY:
                if pending.get(i) != s:
                    added.append(i)
            elif s == EMPTY:
                removed.append(i)
            else:
                changed.append(i)
        return added, removed, changed

    def _new_stones(self, seen: Sequence[int]) -> bool:
        return bool(self._diff(seen, self.game.board.cells, self.pending)[0])

    def _settle(self, seen: Sequence[int], captured: dict[int, Cell]) -> list[int]:
        """Keep as pending the captured stones still seen; return the newly captured ones
        that are still there."""
        cells = self.game.board.cells
        keep = {**self.pending, **captured}
        self.pending = {i: c for i, c in keep.items() if cells[i] == EMPTY and seen[i] == c}
        return [i for i in captured if i in self.pending]

    def prune(self) -> None:
        """Forget the captured stones expected to lie where the game has a stone again
        (a move taken back put it there)."""
        board = self.game.board
        self.pending = {i: c for i, c in self.pending.items()
                        if board.cell(self._point(i)) is EMPTY}

    def lying(self) -> list[Point]:
        """The points of captured stones still on the board."""
        return sorted(self._point(i) for i in self.pending)

    # -- points at the edge: the tracker works on cell indexes, as readings hold them --

    def index(self, p: Point) -> int:
        """The cell index of ``p`` in the readings (`Observation.cells`) and the game's
        board; IndexError off the board."""
        return geometry(self.game.width, self.game.height).index(p)

    def _point(self, i: int) -> Point:
        return geometry(self.game.width, self.game.height).points[i]

    def _points(self, idx: Iterable[int]) -> tuple[Point, ...]:
        return tuple(sorted(self._point(i) for i in idx))

    # -- explaining new stones ---------------------------------------------------------------

    def _try(
        self, seen: Sequence[int], order: Sequence[int]
    ) -> tuple[bool, list[MovePlayed], IllegalMoveError | None, list[int]]:
        """Play ``order`` on the game. Returns (consistent, events, the error that stopped
        it, the stones the state lacks that the game still has); leaves the moves played
        only if consistent."""
        game = self.game
        events: list[MovePlayed] = []
        error: IllegalMoveError | None = None
        for i in order:
            try:
                events.append(game.play(self._point(i), Color(seen[i])))
            except IllegalMoveError as exc:
                error = exc
                break
        missing: list[int] = []
        ok = False
        if error is None:
            captured = self._captured(events)
            expected = {**self.pending, **captured}
            added, missing, changed = self._diff(seen, game.board.cells, expected)
            ok = not (added or missing or changed)
        if not ok:
            for _ in events:
                game.undo()
        return ok, events, error, missing

    def _captured(self, events: Iterable[MovePlayed]) -> dict[int, Cell]:
        out: dict[int, Cell] = {}
        for e in events:
            for p in e.captured:
                out[self.index(p)] = Cell.of(e.color.opponent)
            for p in e.suicided:
                out[self.index(p)] = Cell.of(e.color)
        return out

    def _explain(self, seen: Sequence[int], added: list[int]) -> list[Output] | None:
        """Record the new stones as moves when exactly one order of them is legal and
        consistent with the board; else announce the ambiguity (with ``guess``: record the
        likeliest of the ways they fit, and announce it). None when no order works (the
        caller says why)."""
        # A captured stone still lying on the board may have been taken off and replaced
        # by a new stone of the same colour while the view was blocked (a ko retaken
        # where the dead stone lay): try each such point as a move too, if the new stones
        # alone explain nothing.
        if len(added) == 1:  # the common case: play it, keep it
            ok, events, error, missing = self._try(seen, added)
            if ok:
                return self._commit(seen, events)
            wrong_turn = error is not None and error.reason is Reason.WRONG_TURN
            self._found = _Found({}, (-1, None, []) if wrong_turn else (0, error, missing))
        budget = GUESS_BUDGET if len(added) > self.max_moves else None
        refills = [i for i, c in self.pending.items() if seen[i] == c]
        levels = [[added]]
        if len(added) < self.max_moves and refills:
            levels.append([added + [i] for i in refills])
        for level in levels:
            ways: dict[_Outcome, _Way] = {}
            for stones in level:
                found = self._search(seen, stones, budget)
                if self._found is None:
                    self._found = found
                for outcome, way in found.ways.items():
                    ways[outcome] = _better(ways.get(outcome), way)
            orders = sum(w.count for w in ways.values())
            if not orders:
                continue
            if orders > 1 and not self.guess:
                self.troubled = True
                pts = self._points(set(itertools.chain.from_iterable(
                    w.order for w in ways.values())))
                return [Announcement(
                    Kind.AMBIGUOUS,
                    f"new stones at {_vertices(pts)} could have been played in "
                    f"{orders} ways: take them off and play them again one by one",
                    pts,
                )]
            likeliest = sorted(ways.values(), key=lambda w: (w.lying, -w.score))
            real: tuple[int, IllegalMoveError | None, list[int]] = (-1, None, [])
            for way in likeliest:
                ok, events, error, missing = self._try(seen, way.order)
                if ok:
                    out = self._commit(seen, events)
                    if self.guess and (len(events) > 1 or len(ways) > 1):
                        out.insert(len(events), self._hidden(
                            events, 0 if budget else len(ways), orders))
                    return out
                if len(events) > real[0]:  # a ko or superko of the game's past
                    real = (len(events), error, missing)
            if self._found is not None and level is levels[0]:
                self._found.furthest = real
        return None

    def _hidden(self, events: list[MovePlayed], ways: int, orders: int) -> Announcement:
        """What is said of moves recorded together: which, and whether it is a guess
        (``ways``: how many ways fit the board; 0: not all were weighed)."""
        pts = tuple(e.point for e in events)
        said = _listed(events)
        n = len(events)
        fix = f"say 'order {_vertices(pts)}' with the points in the order they were played"
        if not ways:
            return Announcement(
                Kind.AMBIGUOUS,
                f"{n} moves while the board was hidden, too many to weigh every order: "
                f"recorded {said}; if they were played otherwise, {fix}",
                pts,
            )
        if ways > 1:
            return Announcement(
                Kind.AMBIGUOUS,
                f"{n} moves while the board was hidden, in one of {ways} ways that fit the "
                f"board: recorded {said}; if they were played otherwise, {fix}",
                pts,
            )
        text = f"{n} moves while the board was hidden: {said}"
        if orders > 1:
            text += f" (one of {orders} orders to this position: if it was another, {fix})"
        return Announcement(Kind.HIDDEN, text, pts)

    def _search(
        self, seen: Sequence[int], stones: Sequence[int], budget: int | None = None
    ) -> _Found:
        """Every order of ``stones`` (cells of new stones) that the rules allow, in turn,
        and that leaves the board ``seen`` shows, grouped by how it ends (with a
        ``budget``: only the first order found within that many positions). The colour to
        play picks the next stone at each step (so the counts of black and white stones
        must alternate); a set of stones played and the position they leave is searched
        once (the key also holds the player to move and the simple-ko point). The search
        plays on a game that starts from the position now, without its past (taking a
        move back replays only the moves since): a ko or superko that only that past
        forbids is caught when the order chosen is played on the game itself."""
        now = self.game
        game = Game(now.rules, now.width, now.height)
        position = now.position
        game.setup(position.stones(Color.BLACK), position.stones(Color.WHITE), to_move=now.to_move)
        points = geometry(game.width, game.height).points
        hints = self._glimpsed
        memo: dict[tuple[frozenset[int], int, int, int], dict[_Outcome, _Way]] = {}
        furthest: list[tuple[int, IllegalMoveError | None, list[int]]] = [(-1, None, [])]

        def note(played: int, error: IllegalMoveError | None, missing: list[int]) -> None:
            if played > furthest[0][0]:
                furthest[0] = (played, error, missing)

        def visit(
            remaining: frozenset[int], captured: dict[int, Cell], ko: int
        ) -> dict[_Outcome, _Way]:
            key = (remaining, game.board.hash, int(game.to_move), ko)
            known = memo.get(key)
            if known is not None:
                return known
            if budget is not None and len(memo) >= budget:
                return {}
            ways: dict[_Outcome, _Way] = {}
            depth = len(stones) - len(remaining)
            if not remaining:
                lying = {**self.pending, **captured}
                added, missing, changed = self._diff(seen, game.board.cells, lying)
                if added or missing or changed:
                    note(depth, None, missing)
                else:
                    still = sum(seen[i] == c for i, c in captured.items())
                    ways[(game.board.hash, frozenset(captured.items()))] = _Way((), 1, 0, still)
                memo[key] = ways
                return ways
            colour = game.to_move
            for i in stones:
                if i not in remaining or seen[i] != colour:
                    continue
                try:
                    event = game.play(points[i], colour)
                except IllegalMoveError as exc:
                    if exc.reason is not Reason.WRONG_TURN:
                        note(depth, exc, [])
                    continue
                rest = remaining - {i}
                t = hints.get(i)
                gain = 0 if t is None else sum(
                    (hints[j] > t) - (hints[j] < t) for j in rest if j in hints)
                try:
                    after = visit(rest, {**captured, **self._captured([event])},
                                  i if len(event.captured) == 1 else -1)
                finally:
                    game.undo()
                for outcome, way in after.items():
                    mine = _Way((i, *way.order), way.count, way.score + gain, way.lying)
                    ways[outcome] = _better(ways.get(outcome), mine)
                if ways and budget is not None:
                    break
            memo[key] = ways
            return ways

        ways = visit(frozenset(stones), {}, -2)
        return _Found(ways, furthest[0])

    def _waiting(self, seen: Sequence[int], events: list[MovePlayed]) -> list[Output]:
        """Keep the stones ``events`` captured that ``seen`` still shows as pending, and
        ask for them to be taken off."""
        waiting = self._settle(seen, self._captured(events))
        if not waiting:
            return []
        pts = self._points(waiting)
        return [Announcement(
            Kind.WAITING_FOR_REMOVAL, f"captured: take {_vertices(pts)} off the board", pts,
        )]

    def _commit(self, seen: Sequence[int], events: list[MovePlayed]) -> list[Output]:
        out: list[Output] = list(events)
        self._lying_before += [dict(self.pending)] * len(events)
        out += self._waiting(seen, events)
        if self.troubled:
            self.troubled = False
        self.recorded += events
        self._glimpsed.clear()
        return out

    # -- trouble ----------------------------------------------------------------------------

    def _trouble(
        self, seen: Sequence[int], added: list[int], removed: list[int], changed: list[int]
    ) -> list[Output]:
        """Say what is wrong with a state no moves explain. Nothing is recorded, but an
        illegal stone under rules that count it as a pass (`_counted_as_pass`)."""
        self.troubled = True
        game = self.game
        to_move = game.to_move
        if changed:
            pts = self._points(changed)
            i = changed[0]
            if len(changed) == 1 and seen[i] == to_move:
                return [Announcement(
                    Kind.ILLEGAL,
                    f"{to_move.letter} {pts[0].gtp()} is illegal (occupied): take it off and "
                    f"put the {_name(game.board.cell(pts[0])).lower()} stone back",
                    pts, Reason.OCCUPIED,
                )]
            return [Announcement(
                Kind.WRONG_COLOUR,
                f"{_vertices(pts)}: the stone there has changed colour; put it back as it was",
                pts,
            )]
        if not added:
            pts = self._points(removed)
            return [_removal(pts)]
        if (len(added) == 1 and len(removed) == 1
                and seen[added[0]] == game.board.cell(self._point(removed[0]))):
            src, dst = self._point(removed[0]), self._point(added[0])
            return [Announcement(
                Kind.MOVED, f"the stone on {src.gtp()} has moved to {dst.gtp()}: put it back",
                (src, dst),
            )]
        if len(added) > self.max_moves:
            pts = self._points(added)
            return [Announcement(
                Kind.UNEXPLAINED,
                f"{len(added)} new stones at once ({_vertices(pts)}): take them off and play "
                f"them one by one",
                pts,
            )]
        colours = [seen[i] for i in added]
        mine = colours.count(Cell.of(to_move))
        if len(added) > _FEW and not len(colours) - mine <= mine <= len(colours) - mine + 1:
            pts = self._points(added)
            return [Announcement(
                Kind.UNEXPLAINED,
                f"{len(added)} new stones at once ({_vertices(pts)}): {mine} "
                f"{_name(to_move).lower()} and {len(colours) - mine} "
                f"{_name(to_move.opponent).lower()} cannot be moves in turn with "
                f"{_name(to_move)} to play; take them off and play them one by one",
                pts,
            )]
        if mine < len(colours) - mine:
            pts = self._points(i for i in added if seen[i] != to_move)
            return [Announcement(
                Kind.WRONG_COLOUR,
                f"{_vertices(pts)}: {_name(to_move)} is to play; take "
                f"{'them' if len(pts) > 1 else 'it'} off",
                pts,
            )]
        if mine > len(colours) - mine + 1:
            pts = self._points(i for i in added if seen[i] == to_move)
            return [Announcement(
                Kind.WRONG_COLOUR,
                f"{mine} {_name(to_move).lower()} stones at once ({_vertices(pts)}): only one "
                f"can be {_name(to_move)}'s move; take the others off",
                pts,
            )]
        # The order that got furthest: an illegal move, or stones missing.
        found = self._found or self._search(seen, added)
        best = found.furthest
        _, error, missing = best
        if error is not None:
            pts = (error.point,) if error.point else ()
            if (game.rules.illegal_move_passes and best[0] == 0 and len(added) == 1
                    and error.color is to_move and error.reason is not Reason.WRONG_TURN
                    and not (self.takebacks and self._before_last_move(seen))):
                return self._counted_as_pass(error, removed)
            return [Announcement(
                Kind.ILLEGAL,
                f"{error.color.letter} {error.point.gtp() if error.point else 'pass'} is illegal "
                f"({error.reason.value}): take it back",
                pts, error.reason,
            )]
        gone = missing or removed
        pts = self._points(gone)
        if not pts:
            pts = self._points(added)
            return [Announcement(
                Kind.UNEXPLAINED, f"no order of moves explains the new stones at {_vertices(pts)}",
                pts,
            )]
        return [_removal(pts)]

    def _before_last_move(self, seen: Sequence[int]) -> bool:
        """Whether ``seen`` shows the game as it was before its last move."""
        game = self.game
        last = self.recorded[-1] if self.recorded else None
        if not isinstance(last, MovePlayed) or last.number != game.number:
            return False
        game.undo()
        try:
            return game.position.cells == tuple(seen)
        finally:
            game.play(last.point, last.color)

    def _counted_as_pass(self, error: IllegalMoveError, removed: list[int]) -> list[Output]:
        """An illegal stone under rules that count it as a pass (AGA rule 8: "the player
        must take back his or her move ... it shall be treated as a PASS, and a pass stone
        exchanged"): the pass is recorded, and the player is asked to take the stone back
        (and to put back any stone lifted with it); the board is in trouble until then."""
        event = self.game.refuse(error)
        self._fresh = False
        self.recorded.append(event)
        self._lying_before.append(dict(self.pending))
        assert error.point is not None
        who = _name(error.color)
        put = self._points(removed)
        back = f" and put {_vertices(put)} back" if put else ""
        return [event, Announcement(
            Kind.ILLEGAL,
            f"{error.color.letter} {error.point.gtp()} is illegal ({error.reason.value}): it "
            f"counts as {who}'s pass, a pass stone to {_name(error.color.opponent)} (AGA rule "
            f"8); take it back{back}",
            (error.point, *put), error.reason,
        )]

    # -- handicap ---------------------------------------------------------------------------

    def _handicap(self, seen: Sequence[int]) -> list[Output] | None:
        """At the start: black stones alone become handicap stones. None: not a handicap
        state, judge it as usual."""
        blacks = [i for i, c in enumerate(seen) if c == BLACK]
        whites = [i for i, c in enumerate(seen) if c == WHITE]
        n = self.handicap
        if n >= 2:
            if not whites and len(blacks) < n:
                return []  # still being placed
            if whites or len(blacks) > n:
                self.troubled = True
                pts = self._points(blacks + whites)
                return [Announcement(
                    Kind.UNEXPLAINED,
                    f"expected {n} black handicap stones, the board shows "
                    f"{len(blacks)} black and {len(whites)} white",
                    pts,
                )]
        elif whites or len(blacks) < 2:
            return None
        pts = self._points(blacks)
        self.game.place_handicap(list(pts))
        self._fresh = False
        self.troubled = False
        return [SetupStones(pts)]

    # -- the end ----------------------------------------------------------------------------

    def _counting(self, seen: Sequence[int]) -> list[Output]:
        """After two passes: strings lifted off whole are dead, strings put back whole are
        alive again; a string partly lifted waits."""
        game = self.game
        out: list[Output] = []
        to_dead: list[Point] = []
        to_alive: list[Point] = []
        for string in strings(game.width, game.height, game.board.cells):
            lifted = [seen[self.index(p)] == EMPTY for p in string.stones]
            first = string.stones[0]
            marked = game.is_dead(first)
            if all(lifted) and not marked:
                to_dead.append(first)
            elif not any(lifted) and marked:
                to_alive.append(first)
        if to_dead:
            out.append(game.mark_dead(to_dead))
        if to_alive:
            out.append(game.mark_dead(to_alive, dead=False))
        self.pending = {i: c for i, c in self.pending.items() if seen[i] == c}
        return out

    # -- from outside -----------------------------------------------------------------------

    def turn(self, degrees: int) -> None:
        """Turn the game and everything the tracker remembers of the board (the accepted
        state, the captured stones still lying there) ``degrees`` clockwise: readings
        turned the same way from now on find the game where they left it."""
        game = self.game
        w, h = game.width, game.height
        before = [self._point(i) for i in self.pending]
        game.rotate(degrees)
        self.pending = {self.index(rotate_point(p, w, h, degrees)): c
                        for p, c in zip(before, self.pending.values())}
        self.recorded.clear()  # (moves turned with the game: not to be reordered)
        self._lying_before.clear()
        self._glimpsed.clear()
        self._sighted.clear()
        if self.accepted is not None:
            self.accepted = rotate_cells(self.accepted, w, h, degrees)
        if self._candidate is not None:
            self._candidate = rotate_cells(self._candidate, w, h, degrees)

    def pass_(self, color: Color | None = None) -> list[Output]:
        """A player passes (said at the keyboard). A wrong-turn pass is announced and not
        recorded. If the board was in trouble, the current state is judged again: a stone
        of the colour that was not to play may be a move now."""
        try:
            out: list[Output] = [self.game.pass_(color)]
        except IllegalMoveError as exc:
            return [Announcement(
                Kind.ILLEGAL, f"{exc.color.letter} pass is illegal ({exc.reason.value})",
                (), exc.reason,
            )]
        self._fresh = False
        self.recorded.append(out[0])  # type: ignore[arg-type]
        self._lying_before.append(dict(self.pending))
        if self.troubled and self.accepted is not None:
            out += self._judge(self.accepted)
        return out

    def reorder(self, points: Sequence[Point]) -> list[Output]:
        """The players say the last ``len(points)`` moves recorded (moves this tracker
        recorded, no pass among them) were stones on ``points``, played in this order:
        take those moves back and play these, each stone of the colour the board shows
        there (so a point where a captured stone still lies may be named in place of
        another). Refused (announced, nothing changed) when the order is illegal, out of
        turn, or does not leave the board as last seen. Returns a `Reordered` with the
        moves played again, and the captured stones still to take off, if any."""
        game = self.game
        n = len(points)
        recent = self.recorded[-n:] if n else []
        named = _vertices(points)

        def refused(why: str) -> list[Output]:
            return [Announcement(Kind.REFUSED, f"cannot record {named or 'no moves'} in "
                                 f"that order: {why}", tuple(points))]

        if n < 2 or len(set(points)) != n:
            return refused("name two or more points, each once")
        if game.phase is Phase.OVER:
            return refused("the game is over")
        moves = [m for m in recent if isinstance(m, MovePlayed)]
        if len(moves) != n or self.accepted is None:
            last = ", ".join(
                f"{m.color.letter} {m.point.gtp() if isinstance(m, MovePlayed) else 'pass'}"
                for m in recent)
            return refused(f"the last {n} moves recorded are not all moves ({last or 'none'})")
        seen = self.accepted
        try:
            order = [self.index(p) for p in points]
        except IndexError:
            order = []
        if not order or any(seen[i] == EMPTY for i in order):
            return refused("there is no stone on each of those points")
        for _ in moves:
            game.undo()
        lying = self.pending
        self.pending = {**self._lying_before[-n], **lying}
        ok, events, error, missing = self._try(seen, order)
        if not ok:
            self.pending = lying
            for m in moves:
                game.play(m.point, m.color)
            if error is not None:
                where = error.point.gtp() if error.point else "pass"
                return refused(
                    f"{error.color.letter} {where} would be illegal ({error.reason.value})")
            return refused(f"the board would not be as it is ({_vertices(self._points(missing))} "
                           f"would be off it)" if missing else "the board would not be as it is")
        del self.recorded[-n:]
        self.recorded += events
        self._lying_before[-n:] = [self.pending] * n
        return [Reordered(tuple(events)), *self._waiting(seen, events)]

    def resign(self, color: Color) -> list[Output]:
        """``color`` resigns: the game is over."""
        return list(self.game.resign(color))

    def finish(self) -> list[Output]:
        """Count the game after two passes, with the stones marked dead: `GameEnded` and
        the `Score`. Raises ValueError before two passes."""
        if self.game.phase is not Phase.COUNTING:
            raise ValueError(
                f"the game can be counted only after two passes (it is in {self.game.phase.value})"
            )
        score, ended = self.game.finish()
        return [ended, score]


__all__ = [
    "GUESS_BUDGET", "MAX_GUESSED", "MAX_HIDDEN", "Announcement", "Kind", "Oriented", "Output",
    "Reordered", "SetupStones", "Tracker",
]
