"""`Board`: the stones on a board with their strings and liberties, kept up to date move by
move, and a Zobrist hash of the position. It knows captures and suicide; it decides nothing
about ko, turns or scoring (that is `Game`'s business, under a `Ruleset`).

Internally a point is an index ``y * width + x``; `Point` appears only at the edges.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from functools import lru_cache

from .cell import Cell
from .point import Color, Point, check_size
from .position import Position

EMPTY = Cell.EMPTY.value


class _String:
    """A maximal set of connected stones of one colour, with its liberties."""

    __slots__ = ("color", "stones", "libs")

    color: int
    stones: list[int]
    libs: set[int]

    def __init__(self, color: int, stones: list[int], libs: set[int]) -> None:
        self.color = color
        self.stones = stones
        self.libs = libs


Effect = tuple[int, int, list[int], list[_String], list[_String], list[_String], bool, int]
"""What a stone would do (`Board.analyse`), for `Board.apply` to carry out: ``(at, color,
empty, friends, enemies, dead, suicide, key)``: the point's index and the stone's colour;
its empty neighbours; the own strings it joins; the opponent strings it touches; those of
them it captures; whether it is suicide (own stones left without liberties, nothing
captured); the Zobrist hash of the board afterwards.

A plain tuple, not a NamedTuple or a class, because one is made for every move judged.
On the replay benchmark's records (the first 400, runs alternated, loaded machine)
NamedTuples built with ``tuple.__new__`` for this and for `Game`'s move log, told from a
`Reason` by isinstance, cost 20% (25,382 -> 20,306 moves/s wall clock); plain tuples,
told apart by ``isinstance(a, tuple)``, are level with the untyped code (best of 3x7 by
CPU time: 251,824 -> 265,687 moves/s)."""


def gather(cells: Sequence[int], neighbours: Sequence[Sequence[int]], start: int,
           seen: list[bool]) -> tuple[list[int], set[int]]:
    """The stones of the string on ``start`` and its liberties (empty neighbours; an
    unknown point is neither), marking the stones in ``seen``. The one flood fill of
    strings in kifu."""
    c = cells[start]
    stones: list[int] = []
    libs: set[int] = set()
    stack = [start]
    seen[start] = True
    while stack:
        p = stack.pop()
        stones.append(p)
        for n in neighbours[p]:
            cn = cells[n]
            if not cn:
                libs.add(n)
            elif cn == c and not seen[n]:
                seen[n] = True
                stack.append(n)
    return stones, libs


@dataclasses.dataclass(frozen=True)
class StoneString:
    """Connected stones of one colour and their liberties, as points."""

    color: Color
    stones: tuple[Point, ...]
    liberties: tuple[Point, ...]


def strings(width: int, height: int, cells: Sequence[int]) -> list[StoneString]:
    """The strings of a board's cells (`Cell` codes by index ``y * width + x``, as in
    `Position.cells` and `Observation.cells`), in the order of their first stone. Unknown
    points are neither stones nor liberties."""
    geo = geometry(width, height)
    if len(cells) != geo.area:
        raise ValueError(f"{len(cells)} cells do not fill a {width}x{height} board")
    pts = geo.points
    seen = [False] * geo.area
    out: list[StoneString] = []
    for i, c in enumerate(cells):
        if (c == Cell.BLACK or c == Cell.WHITE) and not seen[i]:
            stones, libs = gather(cells, geo.neighbours, i, seen)
            out.append(StoneString(
                Color(c), tuple(pts[j] for j in sorted(stones)), tuple(pts[j] for j in sorted(libs)),
            ))
    return out


class Geometry:
    """What depends only on the board's size: neighbour tables, Zobrist keys, points."""

    __slots__ = ("width", "height", "area", "neighbours", "zobrist", "side_key", "points")

    def __init__(self, width: int, height: int) -> None:
        check_size(width, height)
        self.width = width
        self.height = height
        self.area = width * height
        nbrs: list[tuple[int, ...]] = []
        for i in range(self.area):
            x, y = i % width, i // width
            n = []
            if y > 0:
                n.append(i - width)
            if x > 0:
                n.append(i - 1)
            if x < width - 1:
                n.append(i + 1)
            if y < height - 1:
                n.append(i + width)
            nbrs.append(tuple(n))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nbrs)
        rng = random.Random(0x6B696675 ^ (width << 8) ^ height)  # fixed: hashes are repeatable
        zero = [0] * self.area
        self.zobrist: tuple[list[int], list[int], list[int]] = (
            zero,
            [rng.getrandbits(64) for _ in range(self.area)],
            [rng.getrandbits(64) for _ in range(self.area)],
        )
        # XORed into a hash to say whose turn it is (index by colour code).
        self.side_key: tuple[int, int, int] = (0, rng.getrandbits(64), rng.getrandbits(64))
        self.points: tuple[Point, ...] = tuple(Point(i % width, i // width) for i in range(self.area))

    def index(self, p: Point) -> int:
        """The internal index of ``p``; raises IndexError when it is off the board."""
        x, y = p
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        raise IndexError(f"{p.gtp() if x >= 0 and y >= 0 else p} is off a {self.width}x{self.height} board")


@lru_cache(maxsize=64)
def geometry(width: int, height: int) -> Geometry:
    """The shared `Geometry` of a board size."""
    return Geometry(width, height)


class Board:
    """Stones, strings and liberties of one board, updated incrementally.

    `analyse` tells what a stone would do without changing anything; `apply` carries it
    out. Together they cost one look at the four neighbours plus the stones that change.
    """

    __slots__ = ("geo", "cells", "string_of", "hash")

    def __init__(self, width: int, height: int | None = None) -> None:
        self.geo = geometry(width, width if height is None else height)
        self.cells: list[int] = [EMPTY] * self.geo.area
        self.string_of: list[_String | None] = [None] * self.geo.area
        self.hash = 0

    @property
    def width(self) -> int:
        return self.geo.width

    @property
    def height(self) -> int:
        return self.geo.height

    # -- the hot path ------------------------------------------------------------------

    def analyse(self, i: int, color: int) -> Effect:
        """What a stone of ``color`` on the empty point ``i`` would do (see `Effect`).
        The board is not changed."""
        cells = self.cells
        string_of = self.string_of
        zob = self.geo.zobrist
        h = self.hash ^ zob[color][i]
        empty: list[int] = []
        friends: list[_String] = []
        enemies: list[_String] = []
        dead: list[_String] = []
        for n in self.geo.neighbours[i]:
            c = cells[n]
            if not c:
                empty.append(n)
            elif c == color:
                s = string_of[n]
                if s not in friends:
                    friends.append(s)  # type: ignore[arg-type]
            else:
                s = string_of[n]
                if s not in enemies:
                    enemies.append(s)  # type: ignore[arg-type]
                    if len(s.libs) == 1:  # type: ignore[union-attr]
                        dead.append(s)  # type: ignore[arg-type]
                        zo = zob[c]
                        for st in s.stones:  # type: ignore[union-attr]
                            h ^= zo[st]
        if empty or dead:
            return (i, color, empty, friends, enemies, dead, False, h)
        for s in friends:
            if len(s.libs) > 1:
                return (i, color, empty, friends, enemies, dead, False, h)
        # Suicide: the stone and the strings it joins leave the board.
        zc = zob[color]
        h ^= zc[i]
        for s in friends:
            for st in s.stones:
                h ^= zc[st]
        return (i, color, empty, friends, enemies, dead, True, h)

    def apply(self, effect: Effect) -> list[int]:
        """Carry out what `analyse` returned. Returns the indices of the stones removed:
        those captured, or in a suicide the player's own, the stone played among them."""
        i, color, empty, friends, enemies, dead, suicide, h = effect
        self.hash = h
        if suicide:
            removed = [i]  # the stone played is cleared with the strings it joined
            for s in friends:
                removed.extend(s.stones)
                self._remove(s)
            return removed
        self.cells[i] = color
        string_of = self.string_of
        if not friends:
            string_of[i] = _String(color, [i], set(empty))
        else:
            big = friends[0]
            if len(friends) > 1:
                for s in friends:
                    if len(s.stones) > len(big.stones):
                        big = s
                for s in friends:
                    if s is not big:
                        big.stones.extend(s.stones)
                        big.libs |= s.libs
                        for st in s.stones:
                            string_of[st] = big
            libs = big.libs
            libs.update(empty)
            libs.discard(i)
            big.stones.append(i)
            string_of[i] = big
        for s in enemies:
            s.libs.discard(i)
        if not dead:
            return []
        captured: list[int] = []
        for s in dead:
            captured.extend(s.stones)
            self._remove(s)
        return captured

    def _remove(self, s: _String) -> None:
        """Take a string off the board, giving its points back as liberties."""
        cells = self.cells
        string_of = self.string_of
        nbrs = self.geo.neighbours
        for st in s.stones:
            cells[st] = EMPTY
            string_of[st] = None
        for st in s.stones:
            for n in nbrs[st]:
                t = string_of[n]
                if t is not None:
                    t.libs.add(st)

    # -- whole-board operations ----------------------------------------------------------

    def place(self, i: int, color: int) -> list[int]:
        """Play a stone with captures and suicide, no questions asked (setup and replays)."""
        return self.apply(self.analyse(i, color))

    def set_position(self, cells: Iterable[int]) -> None:
        """Replace the stones with ``cells`` (codes by index) and rebuild strings and hash.

        Strings without liberties are kept as they are: a setup may hold them."""
        cells = list(cells)
        if len(cells) != self.geo.area:
            raise ValueError(f"{len(cells)} cells do not fill the board")
        if any(c != Cell.EMPTY and c != Cell.BLACK and c != Cell.WHITE for c in cells):
            raise ValueError("a board holds empty, black and white points only")
        self.cells = cells
        string_of: list[_String | None] = [None] * self.geo.area
        zob = self.geo.zobrist
        h = 0
        seen = [False] * self.geo.area
        for i, c in enumerate(cells):
            if not c:
                continue
            h ^= zob[c][i]
            if not seen[i]:
                stones, libs = gather(cells, self.geo.neighbours, i, seen)
                s = _String(c, stones, libs)
                for st in stones:
                    string_of[st] = s
        self.string_of = string_of
        self.hash = h

    def position(self) -> Position:
        """The stones as an immutable `Position`."""
        return Position.from_cells(self.geo.width, self.geo.height, self.cells)

    def cell(self, p: Point) -> Cell:
        """What is on ``p`` (IndexError off the board): for callers outside the engine,
        instead of indexing `cells` themselves."""
        return Cell(self.cells[self.geo.index(p)])

    def string(self, p: Point) -> StoneString | None:
        """The string on ``p`` with its liberties, as points; None on an empty point."""
        s = self.string_of[self.geo.index(p)]
        if s is None:
            return None
        pts = self.geo.points
        return StoneString(Color(s.color), tuple(pts[i] for i in sorted(s.stones)),
                           tuple(pts[i] for i in sorted(s.libs)))

    def strings_without_liberties(self) -> list[int]:
        """The stones of every string that has no liberty (only a setup can leave one)."""
        out: list[int] = []
        seen: set[int] = set()
        for s in self.string_of:
            if s is not None and not s.libs and id(s) not in seen:
                seen.add(id(s))
                out.extend(s.stones)
        return out

    def string_at(self, i: int) -> tuple[list[int], set[int]] | None:
        """The stones and liberties of the string on ``i``, or None if it is empty."""
        s = self.string_of[i]
        return None if s is None else (list(s.stones), set(s.libs))

    def copy(self) -> Board:
        """An independent copy."""
        b = Board(self.geo.width, self.geo.height)
        b.set_position(self.cells)
        return b

    def __repr__(self) -> str:
        return f"Board.from_position({self.position()!r})"

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """A board holding the stones of ``position``."""
        b = cls(position.width, position.height)
        b.set_position(position.cells)
        return b

