"""Counting a final position under a rule set: area or territory, with the breakdown."""

from __future__ import annotations

import dataclasses

from collections.abc import Collection, Sequence

from .board import Board, Geometry
from .events import Score, SideScore
from .ruleset import Ruleset, Scoring


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


MAX_SEKI_EYE = 3
"""The largest one-colour region that counts as an eye of a group in seki; a string with
liberties in a larger region (territory) is alive without the shared liberties."""


def seki(cells: Sequence[int], geo: Geometry, found: list[tuple[list[int], int]]) -> set[int]:
    """The stones in seki on a board whose dead stones are gone; ``found`` is `regions`'
    answer for it.

    kifu's reading of "two groups half surrounding each other" (Timin rule 8; Japanese:
    stones alive but sharing liberties with the opponent's): an empty region reaching both
    colours (neutral) is a seki between a black and a white string that both have a
    liberty in it when neither player can fill it: after filling it, the filler's string
    would have no more liberties than the other's, and the other moves next, so filling
    loses the race. That is when, outside the region, both strings have as many liberties,
    those all lie in eyes (one-colour regions of at most `MAX_SEKI_EYE` points), and
    neither has liberties in two eyes (two eyes live on their own). Dame between living
    groups is no seki: their strings reach territory or two eyes.
    """
    region_of = [-1] * geo.area
    for k, (region, _) in enumerate(found):
        for i in region:
            region_of[i] = k
    board = Board(geo.width, geo.height)
    board.set_position(cells)
    nbrs = geo.neighbours
    in_seki: set[int] = set()
    for k, (region, reach) in enumerate(found):
        if reach != 3:
            continue
        # The strings with a liberty here, by colour and first stone: their stones, and
        # how many liberties they have elsewhere when those all lie in one small eye of
        # their own (-1 otherwise: they live without this region).
        racing: tuple[dict[int, tuple[list[int], int]], ...] = ({}, {}, {})
        for i in region:
            for n in nbrs[i]:
                st = board.string_at(n)
                color = board.cells[n]
                if st is None or st[0][0] in racing[color]:
                    continue
                stones, libs = st
                outside = [j for j in libs if region_of[j] != k]
                eyes = {region_of[j] for j in outside}
                small = all(found[e][1] == color and len(found[e][0]) <= MAX_SEKI_EYE for e in eyes)
                racing[color][stones[0]] = (stones, len(outside) if small and len(eyes) < 2 else -1)
        for black, lb in racing[1].values():
            for white, lw in racing[2].values():
                if lb == lw >= 0:
                    in_seki.update(black)
                    in_seki.update(white)
    return in_seki


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
    (see `seki`).
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
