"""SGF in and out, at the edge: records are read and written with sgfmill and converted to
the engine's own types here, nowhere else.

Bytes in, bytes out; only the CLI opens files.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from importlib import metadata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Union

from sgfmill import sgf  # type: ignore[import-untyped]

from rules import PRESETS, ROTATIONS, Color, Game, Move, Point, Position

from . import sgf_text

TIME_PROPERTY = "KT"
"""The property of a move node that holds the time the move was seen, in seconds on the
recording's clock (\"kifu time\"): ``;B[pd]KT[12.40]``."""

DEAD_PROPERTY = "KD"
"""The property of the last node that holds the stones counted dead (\"kifu dead\"): the
standard ``TB``/``TW`` give the territory, which a dead stone in a neutral region is not in."""

ORIENTATION_PROPERTY = "KR"
"""The root property that holds the orientation the board was read in, in degrees
clockwise ("kifu rotation", as ``kifu record --rotate`` takes it): ``KR[90]``, absent
for 0. The record's points are the board's own whatever it was; a session resumed from
the record reads the camera turned the same way. Not an FF[4] property: other readers
keep or ignore it."""


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
    ``dead`` and ``territory`` are what the last node says of the count, if anything.
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
    dead: tuple[Point, ...] = ()
    """The stones counted dead at the end (``KD`` on the last node: kifu writes it)."""
    territory: tuple[tuple[Point, ...], tuple[Point, ...]] = ((), ())
    """Black's and White's counted territory (``TB``, ``TW`` on the last node)."""
    seen: tuple[str | None, ...] = ()
    """When each move was seen (kifu's ``KT``, as written; None where a move has none)."""
    orientation: int | None = None
    """The orientation the board was read in when the record was made (kifu's ``KR``:
    0, 90, 180 or 270); None where the record does not say."""

    @property
    def moves(self) -> list[Move]:
        """The moves alone."""
        return [n for n in self.nodes if isinstance(n, Move)]

    @property
    def plain(self) -> bool:
        """True when no setup follows the root: a plain move sequence."""
        return all(isinstance(n, Move) for n in self.nodes)

    def counted_dead(self, position: Position) -> tuple[Point, ...]:
        """The stones the record's count took as dead, in the final ``position``: those
        ``KD`` names, else (a record of another program) the stones lying in the other
        colour's territory (``TB``/``TW``)."""
        if self.dead:
            return self.dead
        black, white = self.territory
        return tuple(sorted([p for p in white if position[p] is Color.BLACK]
                            + [p for p in black if position[p] is Color.WHITE]))

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


def _raw_points(node: sgf.Tree_node, ident: str, size: int) -> tuple[Point, ...]:
    """The points of a property sgfmill does not know (``KD``), compressed lists too."""
    if not node.has_property(ident):
        return ()
    out = []
    for value in node.get_raw_list(ident):
        for v in sgf_text.expand(value):
            p = Point(v[0] - 97, size - 1 - (v[1] - 97)) if len(v) == 2 else None
            if p is None or not (0 <= p.x < size and 0 <= p.y < size):
                raise ValueError(f"{ident}[{value.decode('ascii', 'replace')}]: not a point")
            out.append(p)
    return tuple(sorted(out))


def _color(c: str) -> Color:
    return Color.BLACK if c == "b" else Color.WHITE


SIDES = range(2, 26)
"""The board sizes kifu plays (the engine's)."""

TEXT_PROPERTIES = ("PB", "PW", "BR", "WR", "RE", "DT", "EV", "RO", "PC", "GN", "TM", "OT")
"""The root's text properties a `Record` keeps."""


def read_game(data: bytes, name: str = "<sgf>") -> sgf.Sgf_game:
    """The first game in ``data`` as sgfmill reads it, once kifu's own checks pass: a Go
    game (GM[1]), on a board kifu plays, nothing after it but other games; identifiers
    written in lower case alone (old FF[1-3] records) read in upper case. Raises `SgfError`
    naming ``name`` and the fault."""
    try:
        game = sgf.Sgf_game.from_bytes(sgf_text.upper_cased(data))
    except ValueError as exc:
        raise SgfError(name, str(exc)) from None
    span = sgf_text.game_span(data)
    rest = data[span[1]:].lstrip() if span else b""
    if rest.startswith(b")"):
        line = data.count(b"\n", 0, len(data) - len(rest)) + 1
        raise SgfError(name, f"an extra ')' after the game (line {line})")
    root = game.get_root()
    try:
        gm = root.get("GM") if root.has_property("GM") else 1
    except ValueError:
        gm = root.get_raw("GM").decode("ascii", "replace")
    if gm != 1:
        raise SgfError(name, f"GM[{gm}] is not a game of Go (GM[1])")
    try:
        size = game.get_size()
    except ValueError as exc:
        raise SgfError(name, f"SZ: {exc}") from None
    if size not in SIDES:
        raise SgfError(name, f"SZ[{size}]: kifu plays boards of {SIDES[0]}x{SIDES[0]} to "
                             f"{SIDES[-1]}x{SIDES[-1]}")
    return game


def parse(data: bytes, name: str = "<sgf>") -> Record:
    """Read the main line of an SGF game. Raises `SgfError` naming ``name`` and the fault."""
    game = read_game(data, name)
    try:
        return _record(game, name)
    except SgfError:
        raise
    except ValueError as exc:  # a value sgfmill cannot read: two RU, a UTF-8 fault ...
        raise SgfError(name, str(exc)) from None


def _get(node: sgf.Tree_node, key: str) -> object:
    try:
        return node.get(key) if node.has_property(key) else None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{key}: not valid {exc.encoding} (byte {exc.object[exc.start]:#x})") from None
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None


def _text(node: sgf.Tree_node, key: str, encoding: str) -> str:
    """A text property to show. Real records have names in another encoding than their CA
    says, and empty second values (``GN[][]``): such bytes are shown as U+FFFD, and the
    values joined, rather than the record refused."""
    try:
        return str(node.get(key))
    except ValueError:
        values = [v.decode(encoding, "replace") for v in node.get_raw_list(key)]
        text = ", ".join(v for v in values if v.strip())
        return re.sub(r"\\(.)", r"\1", re.sub(r"\\\r?\n", "", text)).strip()


def _record(game: sgf.Sgf_game, name: str) -> Record:
    root = game.get_root()
    size = game.get_size()
    komi_raw = _get(root, "KM")
    komi = normalise_komi(float(komi_raw)) if isinstance(komi_raw, float) else None
    try:
        handicap = game.get_handicap() or 0
    except ValueError:
        handicap = 0  # e.g. HA[7.5]: a komi written in the wrong property
        if root.get_raw("HA").strip() == b"1":
            handicap = 1  # sgfmill refuses HA[1]; AGA rule 4 knows a one-stone handicap
    rules = _get(root, "RU")
    nodes: list[Node] = []
    seen: list[str | None] = []
    main = game.get_main_sequence()
    setup = _setup(root)
    for i, node in enumerate(main[1:], start=1):
        try:
            if node.has_property("B") and node.has_property("W"):
                raise ValueError("a black and a white move in one node")
            if any(node.has_property(c) and len(node.get_raw_list(c)) > 1 for c in "BW"):
                raise ValueError("two moves in one node")
            if node.has_setup_stones() or node.has_property("PL"):
                nodes.append(_setup(node))
            colour, move = node.get_move()
        except ValueError as exc:
            raise SgfError(name, f"node {i}: {_describe(node)}: {str(exc) or 'off the board or unreadable'}") from None
        if colour is not None:
            point = None if move is None else Point(move[1], move[0])
            nodes.append(Move(_color(colour), point))
            seen.append(node.get_raw(TIME_PROPERTY).decode("ascii", "replace")
                        if node.has_property(TIME_PROPERTY) else None)
    encoding = root.get_encoding()
    props = {k: _text(root, k, encoding) for k in TEXT_PROPERTIES if root.has_property(k)}
    last = main[-1]
    dead = _raw_points(last, DEAD_PROPERTY, size)
    territory = (_points(_get(last, "TB") or ()), _points(_get(last, "TW") or ()))  # type: ignore[arg-type]
    # Handicap stones written as Black's first moves belong in the setup.
    if handicap >= 2 and not setup.black and len(nodes) >= handicap and all(
        isinstance(n, Move) and n.color is Color.BLACK and n.point is not None
        for n in nodes[:handicap]
    ):
        setup = Setup(black=tuple(n.point for n in nodes[:handicap]), to_move=Color.WHITE)  # type: ignore[union-attr,misc]
        nodes = nodes[handicap:]
    return Record(name, size, size, komi, handicap, None if rules is None else str(rules),
                  setup, tuple(nodes), props, dead, territory, tuple(seen),
                  _orientation(root, name))


def _orientation(root: sgf.Tree_node, name: str) -> int | None:
    """The root's ``KR`` as degrees, None where it has none; `SgfError` if it is not one
    of `ROTATIONS`."""
    if not root.has_property(ORIENTATION_PROPERTY):
        return None
    raw = root.get_raw(ORIENTATION_PROPERTY).decode("ascii", "replace").strip()
    if raw not in {str(r) for r in ROTATIONS}:
        raise SgfError(name, f"{ORIENTATION_PROPERTY}[{raw}] is not an orientation "
                       f"({', '.join(map(str, ROTATIONS))} degrees)")
    return int(raw)


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
    """The preset that a record's ``RU`` names (a preset's own name, as kifu writes it, or
    a name other programs write), else ``default``."""
    ru = (record.rules or "").strip().lower()
    return ru if ru in PRESETS else RULES_BY_RU.get(ru, default)


def _version() -> str:
    try:
        return metadata.version("kifu")
    except metadata.PackageNotFoundError:
        return "unknown"


VERSION = _version()
"""kifu's version, as ``AP[kifu:VERSION]`` names the program that wrote a record."""


def serialise(
    game: Game,
    moves: Sequence[tuple[Color, Point | None]],
    *,
    setup: Setup = Setup(),
    properties: dict[str, str] | None = None,
    comments: Sequence[str | None] = (),
    move_properties: Sequence[Mapping[str, str]] = (),
) -> bytes:
    """A game as SGF bytes: the root with the program (AP), size, komi, rules, handicap
    and setup stones, then one node per move (with its comment, if any), and the result
    when known.

    ``move_properties`` gives each move node extra properties, written as given (e.g. the
    time a move was seen: ``{"KT": "12.50"}``); identifiers are upper-case letters."""
    if game.width != game.height:
        raise ValueError("SGF records of rectangular boards are not supported by sgfmill")
    out = sgf.Sgf_game(game.width)
    root = out.get_root()
    root.set_raw("AP", f"kifu:{VERSION}".encode())
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
    game = read_game(data, name)
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
        _sync_folder(p.parent)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system lets a folder be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
