"""Helpers for rules tests written as board diagrams.

A diagram is text, top row first, one character per point (spaces between points are
ignored)::

    . O X .
    O . O X
    . . . .

``X`` (or ``#``) is Black, ``O`` is White, ``.``, ``+`` and ``-`` are empty points (the
AGA figures draw the edge with ``-``), and ``*`` or a lowercase letter other than ``o``/``x``
is an empty point given a name, so a test can refer to "the point marked ``a``" instead of
working out its vertex. Blank lines and the lines' common indentation are dropped.

Moves are GTP vertices (``D4``, ``pass``), optionally prefixed by a colour (``B D4``,
``w:pass``); without a colour the move is the colour to play.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from rules import Color, Game, Point, Position, Ruleset
from rules.events import MovePlayed, Passed

_EMPTY = ".+-"
_BLACK = "X#"
_WHITE = "O"


@dataclass(frozen=True)
class Diagram:
    """A parsed diagram: the stones, and the named empty points."""

    position: Position
    marks: dict[str, Point]

    def __getitem__(self, name: str) -> Point:
        """The point marked ``name`` (``"*"`` or a letter); KeyError names the marks there are."""
        try:
            return self.marks[name]
        except KeyError:
            raise KeyError(f"no point marked {name!r}; marks: {sorted(self.marks)}") from None


def parse_diagram(text: str) -> Diagram:
    """Read a diagram (see the module docstring). Raises ValueError naming the bad row or
    character, or a mark used twice."""
    lines = [ln.replace(" ", "") for ln in textwrap.dedent(text).splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        raise ValueError("empty diagram")
    height = len(lines)
    rows: list[str] = []
    marks: dict[str, Point] = {}
    for r, line in enumerate(lines):
        y = height - 1 - r
        row = []
        for x, ch in enumerate(line):
            if ch in _EMPTY:
                row.append(".")
            elif ch in _BLACK:
                row.append("X")
            elif ch in _WHITE:
                row.append("O")
            elif ch == "*" or (ch.isalpha() and ch.islower() and ch not in "ox"):
                if ch in marks:
                    raise ValueError(f"mark {ch!r} appears twice in the diagram (row {r + 1})")
                marks[ch] = Point(x, y)
                row.append(".")
            else:
                raise ValueError(f"row {r + 1} of the diagram: {ch!r} is not a point: {line!r}")
        rows.append("".join(row))
    return Diagram(Position(rows), marks)


def game_from_diagram(
    rules: Ruleset | str,
    text: str,
    to_move: Color = Color.BLACK,
    *,
    komi: float | None = None,
) -> Game:
    """A game under ``rules`` whose board is the diagram's (as setup stones, so nothing is
    captured and no move is counted) with ``to_move`` to play."""
    d = parse_diagram(text)
    pos = d.position
    game = Game(rules, pos.width, pos.height, komi=komi)
    game.setup(black=pos.stones(Color.BLACK), white=pos.stones(Color.WHITE), to_move=to_move)
    return game


def vertex(game: Game, text: str) -> Point:
    """The point of a GTP vertex on ``game``'s board (CoordinateError if it is off it)."""
    return Point.from_gtp(text, height=game.height, width=game.width)


def _moves(moves: str | Iterable[str]) -> list[str]:
    """Split a move list: a string of whitespace-separated moves, or an iterable of them.
    A colour and its vertex may be joined by ``:`` or separated by a space."""
    tokens = moves.replace(":", " ").split() if isinstance(moves, str) else [
        t for m in moves for t in m.replace(":", " ").split()
    ]
    out: list[str] = []
    pending_colour = ""
    for t in tokens:
        if t.lower() in ("b", "w", "black", "white"):
            if pending_colour:
                raise ValueError(f"colour {pending_colour!r} is not followed by a move")
            pending_colour = t
            continue
        out.append(f"{pending_colour} {t}".strip())
        pending_colour = ""
    if pending_colour:
        raise ValueError(f"colour {pending_colour!r} at the end of the moves has no move")
    return out


def play(game: Game, moves: str | Iterable[str]) -> list[MovePlayed | Passed]:
    """Play the moves in order (see the module docstring for their form) and return the
    events. An illegal move raises `rules.IllegalMoveError` as `Game.play` does."""
    events: list[MovePlayed | Passed] = []
    for m in _moves(moves):
        parts = m.split()
        color = Color.parse(parts[0]) if len(parts) == 2 else None
        v = parts[-1]
        if v.lower() == "pass":
            events.append(game.pass_(color))
        else:
            events.append(game.play(vertex(game, v), color))
    return events


def points(game: Game, vertices: str) -> set[Point]:
    """The points of whitespace-separated GTP vertices, as a set."""
    return {vertex(game, v) for v in vertices.split()}


def diagram_of(position: Position) -> str:
    """The position drawn with coordinates, as failure messages show it."""
    return position.diagram()


def assert_board(actual: Game | Position, expected: str | Position) -> None:
    """Fail unless the board holds exactly the stones of ``expected`` (a diagram or a
    Position). The failure names the differing points (GTP) and prints both boards."""
    got = actual.position if isinstance(actual, Game) else actual
    want = expected if isinstance(expected, Position) else parse_diagram(expected).position
    if (got.width, got.height) != (want.width, want.height):
        raise AssertionError(
            f"board is {got.width}x{got.height}, expected {want.width}x{want.height}\n"
            f"got:\n{diagram_of(got)}\nexpected:\n{diagram_of(want)}"
        )
    diff = got.difference(want)
    if not diff:
        return
    names = {None: "empty", Color.BLACK: "X", Color.WHITE: "O"}
    detail = ", ".join(f"{p.gtp()} is {names[got[p]]} not {names[want[p]]}" for p in diff)
    raise AssertionError(
        f"{len(diff)} point(s) differ: {detail}\n"
        f"got:\n{diagram_of(got)}\nexpected:\n{diagram_of(want)}"
    )
