"""Counting a final position under a rule set: area or territory, with the breakdown."""

from __future__ import annotations

import dataclasses

from collections.abc import Collection, Sequence

from .board import Geometry
from .events import Score, SideScore
from .ruleset import Ruleset, Scoring
from .seki import seki


def regions(cells: Sequence[int], geo: Geometry) -> list[tuple[list[int], int]]:
    """The empty regions of a board and, for each, which colours it reaches: a bit set,
    1 for black and 2 for white (3 both, 0 none)."""
    seen = [False] * geo.area
    nbrs = geo.neighbours
    out: list[tuple[list[int], int]] = []
    for start in range(geo.area):
        if cells[start] or seen[start]:
            continue
        seen[start] = True
        stack = [start]
        region: list[int] = []
        reach = 0
        while stack:
            p = stack.pop()
            region.append(p)
            for n in nbrs[p]:
                c = cells[n]
                if c:
                    reach |= c
                elif not seen[n]:
                    seen[n] = True
                    stack.append(n)
        out.append((region, reach))
    return out


def count(
    cells: Sequence[int],
    geo: Geometry,
    rules: Ruleset,
    *,
    komi: float,
    dead: Collection[int] = (),
    captures: tuple[int, int] = (0, 0),
    pass_stones: tuple[int, int] = (0, 0),
    handicap_stones: int = 0,
) -> Score:
    """Score a final position.

    ``cells`` are cell codes by index; ``dead`` the indices of stones agreed dead (taken
    off before counting); ``captures`` the stones Black and White captured in play;
    ``pass_stones`` the pass stones Black and White handed over. Empty points that reach
    both colours count for nobody (seki and dame), and so do those that reach none unless
    the rules count them for both. Under territory rules with `Ruleset.no_points_in_seki`,
    a region reaching one colour counts for nobody either when it touches stones in seki
    (see `rules.seki`).
    """
    board = list(cells)
    dead_by = [0, 0, 0]  # stones of each colour marked dead
    for i in dead:
        c = board[i]
        if c:
            dead_by[c] += 1
            board[i] = 0
    stones = [0, 0, 0]
    for c in board:
        stones[c] += 1
    terr: list[list[int]] = [[], [], []]
    neutral = 0
    found = regions(board, geo)
    area = rules.scoring is Scoring.AREA
    in_seki = seki(board, geo, found) if rules.no_points_in_seki and not area else set()
    nbrs = geo.neighbours
    for region, reach in found:
        if in_seki and any(n in in_seki for i in region for n in nbrs[i]):
            neutral += len(region)
        elif reach == 1 or reach == 2:
            terr[reach].extend(region)
        elif reach == 0 and rules.untouched_counts_for_both:
            terr[1].extend(region)
            terr[2].extend(region)
        else:
            neutral += len(region)
    sides = []
    for color, opp in ((1, 2), (2, 1)):
        white = color == 2
        side = SideScore(
            stones=stones[color] if area else 0,
            territory=len(terr[color]),
            captures=0 if area else captures[color - 1],
            dead=0 if area else dead_by[opp],
            pass_stones=pass_stones[opp - 1] if (rules.pass_stones and not area) else 0,
            komi=komi if white else 0.0,
            compensation=rules.compensation(handicap_stones) if white else 0.0,
        )
        total = (
            side.stones + side.territory + side.captures + side.dead + side.pass_stones
            + side.komi + side.compensation
        )
        sides.append(dataclasses.replace(side, total=float(total)))
    pts = geo.points
    return Score(
        rules=rules.name,
        black=sides[0],
        white=sides[1],
        neutral=neutral,
        territory=(tuple(pts[i] for i in sorted(terr[1])), tuple(pts[i] for i in sorted(terr[2]))),
        dead_stones=tuple(pts[i] for i in sorted(dead) if cells[i]),
    )
