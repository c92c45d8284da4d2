"""SGF in and out, at the edge: records are read and written with sgfmill and converted to
the engine's own types here, nowhere else.

Bytes in, bytes out; only the CLI opens files.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Union

from sgfmill import sgf  # type: ignore[import-untyped]

from rules import Color, Game, Move, Point


class SgfError(ValueError):
    """A record that cannot be read. The message names the record and the fault."""

    def __init__(self, name: str, fault: str) -> None:
        self.name = name
        self.fault = fault
        super().__init__(f"{name}: malformed SGF: {fault}")


@dataclasses.dataclass(frozen=True)
class Setup:
    """Setup stones (``AB``/``AW``/``AE``), and the player to move (``PL``) if given."""

    black: tuple[Point, ...] = ()
    white: tuple[Point, ...] = ()
    empty: tuple[Point, ...] = ()
    to_move: Color | None = None


Node = Union[Move, Setup]


@dataclasses.dataclass(frozen=True)
class Record:
    """A game record's main line, in the engine's terms.

    ``setup`` is the root's setup (handicap stones or a given position); ``nodes`` the
    moves that follow, with any setup met along the way. ``komi`` is None when the record
    does not say. ``properties`` keeps the root's other text properties (PB, PW, RE, DT...).
    """

    name: str
    width: int
    height: int
    komi: float | None
    handicap: int
    rules: str | None
    setup: Setup
    nodes: tuple[Node, ...]
    properties: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def moves(self) -> list[Move]:
        """The moves alone."""
        return [n for n in self.nodes if isinstance(n, Move)]

    @property
    def plain(self) -> bool:
        """True when no setup follows the root: a plain move sequence."""
        return all(isinstance(n, Move) for n in self.nodes)

    def ends_with_two_passes(self) -> bool:
        """Does the main line end with two consecutive passes?"""
        moves = self.nodes[-2:]
        return len(moves) == 2 and all(
            isinstance(n, Move) and n.point is None for n in moves
        )


def normalise_komi(value: float) -> float:
    """Komi as points. Fox writes hundredths (``KM[750]`` is 7.5), and a quarter value is
    Chinese komi in stones (``KM[375]``, 3.75 stones, is 7.5 points)."""
    if abs(value) >= 100:
        value /= 100
    if (value * 4) % 2 == 1:  # x.25 or x.75
        value *= 2
    return value


def _points(coords: Iterable[tuple[int, int]]) -> tuple[Point, ...]:
    # sgfmill gives (row, col) with row 0 at the bottom.
    return tuple(sorted(Point(col, row) for row, col in coords))


def _color(c: str) -> Color:
    return Color.BLACK if c == "b" else Color.WHITE


def parse(data: bytes, name: str = "<sgf>") -> Record:
    """Read the main line of an SGF game. Raises `SgfError` naming ``name`` and the fault."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise SgfError(name, str(exc)) from None
    root = game.get_root()
    size = game.get_size()
    try:
        komi_raw = root.get("KM") if root.has_property("KM") else None
    except ValueError as exc:
        raise SgfError(name, f"KM: {exc}") from None
    komi = normalise_komi(float(komi_raw)) if komi_raw is not None else None
    try:
        handicap = game.get_handicap() or 0
    except ValueError:
        handicap = 0  # e.g. HA[7.5]: a komi written in the wrong property
        if root.get_raw("HA").strip() == b"1":
            handicap = 1  # sgfmill refuses HA[1]; AGA rule 4 knows a one-stone handicap
    rules = root.get("RU") if root.has_property("RU") else None
    nodes: list[Node] = []
    for i, node in enumerate(game.get_main_sequence()):
        try:
            if i == 0:
                setup = _setup(node)
                continue
            if node.has_setup_stones() or node.has_property("PL"):
                nodes.append(_setup(node))
            colour, move = node.get_move()
        except ValueError as exc:
            raise SgfError(name, f"node {i}: {_describe(node)}: {str(exc) or 'off the board or unreadable'}") from None
        if colour is not None:
            point = None if move is None else Point(move[1], move[0])
            nodes.append(Move(_color(colour), point))
    props = {}
    for key in ("PB", "PW", "BR", "WR", "RE", "DT", "EV", "RO", "PC", "GN", "TM"):
        if root.has_property(key):
            try:
                props[key] = str(root.get(key))
            except ValueError:
                pass
    # Handicap stones written as Black's first moves belong in the setup.
    if handicap >= 2 and not setup.black and len(nodes) >= handicap and all(
        isinstance(n, Move) and n.color is Color.BLACK and n.point is not None
        for n in nodes[:handicap]
    ):
        setup = Setup(black=tuple(n.point for n in nodes[:handicap]), to_move=Color.WHITE)  # type: ignore[union-attr,misc]
        nodes = nodes[handicap:]
    return Record(name, size, size, komi, handicap, rules, setup, tuple(nodes), props)


def _describe(node: sgf.Tree_node) -> str:
    """The node's move and setup properties as written, e.g. ``B[zz]``."""
    parts = []
    for key in ("B", "W", "AB", "AW", "AE", "PL"):
        if node.has_property(key):
            values = node.get_raw_list(key)
            parts.append(key + "".join(f"[{v.decode('utf-8', 'replace')}]" for v in values))
    return " ".join(parts) or "node"


def _setup(node: sgf.Tree_node) -> Setup:
    b, w, e = node.get_setup_stones()
    pl = node.get("PL") if node.has_property("PL") else None
    return Setup(_points(b), _points(w), _points(e), None if pl is None else _color(pl))


def load(path: str | os.PathLike[str]) -> Record:
    """Read a record from a file; `SgfError` names the file."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise SgfError(str(p), exc.strerror or str(exc)) from None
    return parse(data, str(p))


RULES_BY_RU = {
    "chinese": "chinese", "cn": "chinese", "japanese": "japanese", "jp": "japanese",
    "aga": "aga", "new zealand": "new-zealand", "nz": "new-zealand",
    "tromp-taylor": "tromp-taylor", "tromp taylor": "tromp-taylor", "korean": "japanese",
}


def rules_for(record: Record, default: str = "chinese") -> str:
    """The preset that a record's ``RU`` names, else ``default``."""
    return RULES_BY_RU.get((record.rules or "").strip().lower(), default)


def serialise(
    game: Game,
    moves: Sequence[tuple[Color, Point | None]],
    *,
    setup: Setup = Setup(),
    properties: dict[str, str] | None = None,
    comments: Sequence[str | None] = (),
    move_properties: Sequence[Mapping[str, str]] = (),
) -> bytes:
    """A game as SGF bytes: the root with size, komi, rules, handicap and setup stones,
    then one node per move (with its comment, if any), and the result when known.

    ``move_properties`` gives each move node extra properties, written as given (e.g. the
    time a move was seen: ``{"KT": "12.50"}``); identifiers are upper-case letters."""
    if game.width != game.height:
        raise ValueError("SGF records of rectangular boards are not supported by sgfmill")
    out = sgf.Sgf_game(game.width)
    root = out.get_root()
    root.set("KM", game.komi)
    root.set("RU", game.rules.name)
    if game.handicap_stones:
        root.set("HA", game.handicap_stones)
    if setup.black or setup.white:
        root.set_setup_stones(
            [(p.y, p.x) for p in setup.black], [(p.y, p.x) for p in setup.white]
        )
    if setup.to_move is not None:
        root.set("PL", setup.to_move.letter.lower())
    for key, value in (properties or {}).items():
        root.set(key, value)
    for k, (color, point) in enumerate(moves):
        node = out.extend_main_sequence()
        node.set_move(color.letter.lower(), None if point is None else (point.y, point.x))
        if k < len(comments) and comments[k]:
            node.set("C", comments[k])
        if k < len(move_properties):
            for ident, value in move_properties[k].items():
                if not (ident.isalpha() and ident.isupper()):
                    raise ValueError(f"not an SGF property identifier: {ident!r}")
                escaped = value.replace("\\", "\\\\").replace("]", "\\]")
                node.set_raw(ident, escaped.encode("utf-8"))
    data: bytes = out.serialise()
    return data


def move_property(data: bytes, ident: str, name: str = "<sgf>") -> list[str | None]:
    """The value of property ``ident`` on each move node of the main line (None where a
    move has none): what `serialise` wrote with ``move_properties``. Raises `SgfError`."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise SgfError(name, str(exc)) from None
    out: list[str | None] = []
    for node in game.get_main_sequence()[1:]:
        if node.get_move()[0] is None:
            continue
        raw = node.get_raw(ident) if node.has_property(ident) else None
        text = None if raw is None else raw.decode("utf-8", "replace")
        out.append(None if text is None else re.sub(r"\\(.)", r"\1", text))
    return out


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` so that a crash leaves the old or the new
    file, never a torn one."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
