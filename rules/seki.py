"""Seki at the count: which stones of a final position live in seki, for the rules that give
no points in seki (Japanese; Timin rule 8: "two groups half surrounding each other
produce no points for either side").

kifu's reading, on the board once the dead stones are off (every stone left is alive, as
the players agreed):

* A *group* is the strings of one colour joined through the empty regions that reach
  only their colour (their eyes and territory): strings that share an eye live or die
  together.
* An eye is *one eye* when the opponent's stone on its vital point leaves it one: every
  eye of up to three points, and the four to six point shapes with fewer than two
  cutting points (square and pyramid four, bulky and crossed five, rabbity six), the
  rectangular six excepted (it lives). In a final position the players agreed on, an
  eye that could still become two would have been made so. A group with two eyes, or
  with an eye that is not one eye (territory), lives on its own.
* A black and a white group that do not live on their own, whose liberties outside
  their eyes all lie in the neutral regions (reaching both colours) they share with
  each other, are in seki when neither can fill those shared liberties without losing
  the race, the other moving next: both with one eye holding as many liberties
  (`EYE_LIBERTIES`: a big eye holds more than its points), or neither with an eye and
  two or more shared points (AGA figure 4). With eyes of different sizes the bigger
  eye wins; an eye against none wins: no seki, and the count is left as the players
  agreed it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .board import Board, Geometry

EYE_LIBERTIES = (0, 1, 2, 3, 5, 8, 12)
"""The liberties a one-eye shape of 1 to 6 points holds in a race, by size (the moves
that fill it when the opponent must play into it)."""


@dataclasses.dataclass
class _Group:
    color: int
    stones: list[int]
    eyes: set[int]
    """The regions (`regions` index) reaching only this colour that the group touches."""
    shared: set[int]
    """The neutral regions it has liberties in."""


def one_eye(region: Sequence[int], geo: Geometry) -> bool:
    """Whether an empty region makes one eye at most (see the module's docstring)."""
    n = len(region)
    if n <= 3:
        return True
    if n >= len(EYE_LIBERTIES):
        return False
    points = set(region)
    nbrs = geo.neighbours
    if n == 6:
        xs = {i % geo.width for i in points}
        ys = {i // geo.width for i in points}
        if sorted((len(xs), len(ys))) == [2, 3]:
            return False  # the rectangular six lives
    cuts = 0
    for p in points:
        rest = points - {p}
        start = next(iter(rest))
        seen = {start}
        stack = [start]
        while stack:
            q = stack.pop()
            for r in nbrs[q]:
                if r in rest and r not in seen:
                    seen.add(r)
                    stack.append(r)
        if len(seen) < len(rest):
            cuts += 1
    return cuts < 2


def seki(cells: Sequence[int], geo: Geometry, found: list[tuple[list[int], int]]) -> set[int]:
    """The stones in seki on a board whose dead stones are gone; ``found`` is
    `rules.scoring.regions`' answer for it (each empty region and the colours it reaches,
    1 black, 2 white, 3 both)."""
    if not any(reach == 3 for _, reach in found):
        return set()
    board = Board(geo.width, geo.height)
    board.set_position(cells)
    string_of = board.string_of
    region_of = [-1] * geo.area
    for k, (region, _) in enumerate(found):
        for i in region:
            region_of[i] = k
    # Groups: strings joined through the regions of their own colour (union-find on the
    # strings' first stones).
    parent: dict[int, int] = {}

    def root(i: int) -> int:
        while parent.setdefault(i, i) != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    nbrs = geo.neighbours
    for region, reach in found:
        if reach == 1 or reach == 2:
            firsts = {s.stones[0] for i in region for n in nbrs[i]
                      if (s := string_of[n]) is not None}
            first = firsts.pop()
            for other in firsts:
                parent[root(other)] = root(first)
    groups: dict[int, _Group] = {}
    done: set[int] = set()
    for s in string_of:
        if s is None or s.stones[0] in done:
            continue
        done.add(s.stones[0])
        g = groups.setdefault(root(s.stones[0]), _Group(s.color, [], set(), set()))
        g.stones.extend(s.stones)
        for lib in s.libs:
            k = region_of[lib]
            (g.shared if found[k][1] == 3 else g.eyes).add(k)
    in_seki: set[int] = set()
    racing = [g for g in groups.values() if g.shared and _racing(g, found, geo)]
    for b in racing:
        if b.color != 1:
            continue
        for w in racing:
            if w.color == 2 and w.shared == b.shared and _stalemate(b, w, found):
                in_seki.update(b.stones)
                in_seki.update(w.stones)
    return in_seki


def _racing(g: _Group, found: list[tuple[list[int], int]], geo: Geometry) -> bool:
    """Whether the group does not live on its own: no eye, or one that is one eye."""
    return not g.eyes or (len(g.eyes) == 1 and one_eye(found[next(iter(g.eyes))][0], geo))


def _eye_liberties(g: _Group, found: list[tuple[list[int], int]]) -> int:
    return sum(EYE_LIBERTIES[len(found[k][0])] for k in g.eyes)


def _stalemate(b: _Group, w: _Group, found: list[tuple[list[int], int]]) -> bool:
    """Whether neither of two groups racing over the same shared regions can fill them
    and win (see the module's docstring)."""
    eb, ew = _eye_liberties(b, found), _eye_liberties(w, found)
    if eb != ew:
        return False
    return eb > 0 or sum(len(found[k][0]) for k in b.shared) >= 2


__all__ = ["EYE_LIBERTIES", "one_eye", "seki"]
