"""An SGF record as the bytes it was read from: the tokens with where each lies, the main
line's nodes, and a `RecordText` that sets properties and adds nodes at the main line's end
while every other byte stays as written (comments, variations, unknown properties, names in
any encoding, the layout).

The tokens are those sgfmill reads (junk before the first ``(;`` skipped, the first game
only, property identifiers of up to 64 letters); the structure is checked by sgfmill
before any of this is used (see `kifu.sgf`).
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping

from rules import Point
from rules.rotation import rotate_point

_START = re.compile(rb"\(\s*;")
_TOKEN = re.compile(
    rb"\s*(?:\[(?P<V>[^\\\]]*(?:\\.[^\\\]]*)*)\]|(?P<I>[A-Za-z]{1,64})|(?P<D>[;()]))",
    re.DOTALL,
)


@dataclasses.dataclass(frozen=True)
class Token:
    """``kind`` ``"I"`` (a property identifier), ``"V"`` (a value, without its brackets)
    or ``"D"`` (``;``, ``(`` or ``)``); ``text`` as written; it lies at ``start:end``
    (brackets included)."""

    kind: str
    text: bytes
    start: int
    end: int


def tokens(data: bytes) -> tuple[list[Token], int]:
    """The tokens of the first game in ``data``, and where the data after it begins."""
    m = _START.search(data)
    if not m:
        return [], 0
    out: list[Token] = []
    i, depth = m.start(), 0
    while True:
        t = _TOKEN.match(data, i)
        if not t:
            break
        kind = t.lastgroup or "D"
        out.append(Token(kind, t.group(kind), t.start(kind) - (kind == "V"), t.end()))
        i = t.end()
        if kind == "D" and t.group(kind) != b";":
            depth += 1 if t.group(kind) == b"(" else -1
            if depth == 0:
                break
    return out, i


def identifier(written: bytes) -> str:
    """A property identifier as it counts: FF[3]'s long names lose their lower-case
    letters (``AddBlack`` is ``AB``); a name written in lower case alone, as some old
    programs did (``b``, ``sz``), is read in upper case."""
    text = written.decode("ascii")
    upper = "".join(c for c in text if c.isupper())
    return upper or text.upper()


def lower_case_identifiers(data: bytes) -> list[Token]:
    """The identifiers written in lower case alone (which sgfmill would read as nothing)."""
    return [t for t in tokens(data)[0] if t.kind == "I" and t.text.islower()]


def upper_cased(data: bytes) -> bytes:
    """``data`` with every identifier written in lower case alone upper-cased."""
    out = bytearray(data)
    for t in lower_case_identifiers(data):
        out[t.start:t.end] = data[t.start:t.end].upper()
    return bytes(out)


@dataclasses.dataclass(frozen=True)
class Prop:
    """One property of a node: its identifier (as it counts), its values as written, and
    where it lies (from its identifier to its last value's bracket)."""

    ident: str
    values: tuple[bytes, ...]
    start: int
    end: int


@dataclasses.dataclass(frozen=True)
class NodeText:
    """A node: where it lies (its ``;`` to its last property) and its properties."""

    start: int
    end: int
    props: tuple[Prop, ...]

    def get(self, ident: str) -> tuple[bytes, ...]:
        """The values of ``ident`` (all of them, if it is written more than once)."""
        return tuple(v for p in self.props if p.ident == ident for v in p.values)


def _node(toks: list[Token], i: int) -> tuple[NodeText, int]:
    start = end = toks[i].end
    begin = toks[i].start
    i += 1
    props: list[Prop] = []
    while i < len(toks) and toks[i].kind == "I":
        ident, p_start = identifier(toks[i].text), toks[i].start
        i += 1
        values: list[bytes] = []
        while i < len(toks) and toks[i].kind == "V":
            values.append(toks[i].text)
            end = toks[i].end
            i += 1
        props.append(Prop(ident, tuple(values), p_start, end))
    return NodeText(begin, max(start, end), tuple(props)), i


def main_line(data: bytes) -> list[NodeText]:
    """The nodes of the main line (the first variation at every branch), root first."""
    toks, _ = tokens(data)
    nodes: list[NodeText] = []
    i = 1  # past the game's "("
    while i < len(toks):
        t = toks[i]
        if t.text == b";" and t.kind == "D":
            node, i = _node(toks, i)
            nodes.append(node)
        elif t.text == b"(":
            i += 1  # the first variation goes on with the main line
        else:
            break  # ")": this line has no variations; the main line ends here
    return nodes


def escape(text: str, encoding: str = "utf-8") -> bytes:
    """A text value as SGF writes it, ``\\`` and ``]`` escaped, in ``encoding`` (a
    letter it has not: ``?``)."""
    return text.replace("\\", "\\\\").replace("]", "\\]").encode(encoding, "replace")


def render_prop(ident: str, values: Iterable[bytes]) -> bytes:
    """``ID[v1][v2]`` from values as written."""
    return ident.encode("ascii") + b"".join(b"[" + v + b"]" for v in values)


def _edited(data: bytes, node: NodeText, edits: Mapping[str, bytes]) -> bytes:
    """The node's text with the properties named in ``edits`` replaced by their text (a
    property written more than once keeps one place), the others added at its end."""
    out, at, done = [], node.start, set()
    for p in node.props:
        if p.ident in edits:
            out.append(data[at:p.start])
            if p.ident not in done:
                out.append(edits[p.ident])
                done.add(p.ident)
            at = p.end
    out.append(data[at:node.end])
    out += [text for ident, text in edits.items() if ident not in done]
    return b"".join(out)


def _encoding(name: bytes) -> str:
    try:
        return codecs.lookup(name.decode("ascii").strip()).name
    except (LookupError, UnicodeDecodeError):
        return "iso-8859-1"


class RecordText:
    """The bytes of a record, with properties set on its root and on its main line's last
    node, and nodes added at the main line's end. Everything else is kept as it was read.

    Adding a node costs its own bytes only: the record up to the main line's end is kept
    as one piece (made again only when the root or that node is edited)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        line = main_line(data)
        if not line:
            raise ValueError("no SGF game in the data")
        self._root, self._last = line[0], line[-1]
        self._root_edits: dict[str, bytes] = {}
        self._last_edits: dict[str, bytes] = {}
        self.nodes: list[bytes] = []
        self._head: bytes | None = None
        ca = self._root.get("CA")
        self.encoding = _encoding(ca[0] if ca else b"ISO-8859-1")
        """The record's encoding (its ``CA``; FF[4] says ISO-8859-1 without one)."""

    def set_root(self, ident: str, values: Iterable[bytes] | None) -> None:
        """Set (or, with None, remove) a property of the root."""
        self._root_edits[ident] = b"" if values is None else render_prop(ident, values)
        self._head = None

    def set_last(self, ident: str, values: Iterable[bytes]) -> None:
        """Set a property of the main line's last node (the last node added, if any)."""
        text = render_prop(ident, values)
        if self.nodes:
            wrapped = b"(" + self.nodes[-1] + b")"
            self.nodes[-1] = _edited(wrapped, main_line(wrapped)[0], {ident: text})
        else:
            self._last_edits[ident] = text
            self._head = None

    def append(self, node: bytes) -> None:
        """Add a node (``;B[pd]...``) at the main line's end."""
        self.nodes.append(node)

    def pop(self) -> bytes:
        """Take back the last node added."""
        return self.nodes.pop()

    def head(self) -> bytes:
        """The record up to the main line's end, with the edits."""
        if self._head is None:
            d, root, last = self.data, self._root, self._last
            if root is last:
                self._head = d[:root.start] + _edited(d, root, {**self._root_edits, **self._last_edits})
            else:
                self._head = (d[:root.start] + _edited(d, root, self._root_edits)
                              + d[root.end:last.start] + _edited(d, last, self._last_edits))
        return self._head

    def render(self) -> bytes:
        """The record as it stands."""
        return b"".join((self.head(), *self.nodes, self.data[self._last.end:]))


# -- turning a record ----------------------------------------------------------------------

_POINTS = {"B", "W", "AB", "AW", "AE", "TB", "TW", "CR", "MA", "SQ", "TR", "SL", "DD", "VW", "KD"}
_POINT_PAIRS = {"AR", "LN"}
_POINT_TEXT = {"LB"}


def expand(value: bytes) -> list[bytes]:
    """A compressed point list's rectangle (``aa:cc``) as its points."""
    if b":" not in value:
        return [value]
    a, b = value.split(b":", 1)
    if len(a) != 2 or len(b) != 2:
        return [value]
    cols = range(min(a[0], b[0]), max(a[0], b[0]) + 1)
    rows = range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    return [bytes((c, r)) for c in cols for r in rows]


def rotate(data: bytes, degrees: int, size: int) -> bytes:
    """``data`` with every point of every node turned ``degrees`` clockwise on its square
    ``size`` board (moves, setup, markup; passes stay passes); every other byte kept."""

    def turn(v: bytes) -> bytes:
        if len(v) != 2 or (v == b"tt" and size <= 19):
            return v
        p = Point(v[0] - 97, size - 1 - (v[1] - 97))
        if not (0 <= p.x < size and 0 <= p.y < size):
            return v
        q = rotate_point(p, size, size, degrees)
        return bytes((97 + q.x, 97 + size - 1 - q.y))

    how_by: dict[str, Callable[[bytes], list[bytes]]] = {}
    how_by.update({k: lambda v: [turn(x) for x in expand(v)] for k in _POINTS})
    how_by.update({k: lambda v: [b":".join(turn(x) for x in v.split(b":", 1))]
                  for k in _POINT_PAIRS})
    how_by.update({k: lambda v: [turn(v[:2]) + v[2:]] for k in _POINT_TEXT})
    toks, _ = tokens(data)
    out, at, i = [], 0, 0
    while i < len(toks):
        t = toks[i]
        i += 1
        if t.kind != "I" or identifier(t.text) not in how_by:
            continue
        how = how_by[identifier(t.text)]
        while i < len(toks) and toks[i].kind == "V":
            v = toks[i]
            out += [data[at:v.start], b"".join(b"[" + x + b"]" for x in how(v.text))]
            at = v.end
            i += 1
    out.append(data[at:])
    return b"".join(out)
