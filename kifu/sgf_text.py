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
import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from rules import Point
from rules.rotation import rotate_point

_START = re.compile(rb"\(\s*;")
_TOKEN = re.compile(
    rb"\s*(?:\[(?P<V>[^\\\]]*(?:\\.[^\\\]]*)*)\]|(?P<I>[A-Za-z]{1,64})|(?P<D>[;()]))",
    re.DOTALL,
)


_VALUE = rb"\[[^\\\]]*(?:\\.[^\\\]]*)*\]"
_TO_PAREN = re.compile(rb"(?:[^\[()]|" + _VALUE + rb")*([()])", re.DOTALL)
_TO_CLOSE = re.compile(rb"(?:[^\[)]|" + _VALUE + rb")*", re.DOTALL)
_NODE_END = re.compile(rb"(?:[^\[;()]|" + _VALUE + rb")*", re.DOTALL)
_VALUES = re.compile(_VALUE, re.DOTALL)
_LOWER_NAME = re.compile(rb"(?<![A-Za-z])[a-z]+(?![A-Za-z])")


def game_span(data: bytes) -> tuple[int, int] | None:
    """Where the first game lies: its ``(`` to just after its ``)`` (the parentheses
    counted outside values; None without a ``(;``). Found without reading the tokens one
    by one, as are `main_line_end` and the root in `RecordText`: a long record is looked
    at in a few passes of the regular-expression engine."""
    m = _START.search(data)
    if not m:
        return None
    depth, i = 0, m.start()
    while True:
        t = _TO_PAREN.match(data, i)
        if not t:
            return m.start(), len(data)
        depth += 1 if t.group(1) == b"(" else -1
        i = t.end()
        if depth == 0:
            return m.start(), i


def main_line_end(data: bytes) -> int:
    """Where nodes are added to the main line: its first ``)`` outside a value (the main
    line follows the first variation at every branch, so it ends at the first close)."""
    span = game_span(data)
    if span is None:
        raise ValueError("no SGF game in the data")
    m = _TO_CLOSE.match(data, span[0])
    assert m is not None  # (it matches the empty string)
    return m.end()


def has_lower_case_names(data: bytes) -> bool:
    """Does the first game have a property name written in lower case alone?"""
    span = game_span(data)
    return span is not None and bool(_LOWER_NAME.search(_VALUES.sub(b"", data[span[0]:span[1]])))


class Token(NamedTuple):
    """``kind`` ``"I"`` (a property identifier), ``"V"`` (a value, without its brackets)
    or ``"D"`` (``;``, ``(`` or ``)``); ``text`` as written; it lies at ``start:end``
    (brackets included)."""

    kind: str
    text: bytes
    start: int
    end: int


@functools.lru_cache(maxsize=4)
def tokens(data: bytes) -> tuple[tuple[Token, ...], int]:
    """The tokens of the first game in ``data``, and where the data after it begins.
    (The last few records' tokens are kept: reading and resuming one looks at them
    several times.)"""
    m = _START.search(data)
    if not m:
        return (), 0
    out: list[Token] = []
    i, depth = m.start(), 0
    match = _TOKEN.match
    while True:
        t = match(data, i)
        if not t:
            break
        kind = t.lastgroup or "D"
        text = t.group(kind)
        i = t.end()
        out.append(Token(kind, text, t.start(kind) - (kind == "V"), i))
        if kind == "D" and text != b";":
            depth += 1 if text == b"(" else -1
            if depth == 0:
                break
    return tuple(out), i


@functools.lru_cache(maxsize=256)
def identifier(written: bytes) -> str:
    """A property identifier as it counts: FF[3]'s long names lose their lower-case
    letters (``AddBlack`` is ``AB``); a name written in lower case alone, as some old
    programs did (``b``, ``sz``), is read in upper case."""
    text = written.decode("ascii")
    upper = "".join(c for c in text if c.isupper())
    return upper or text.upper()


def upper_cased(data: bytes) -> bytes:
    """``data`` with every identifier written in lower case alone upper-cased (sgfmill
    would read such a name as nothing)."""
    if not has_lower_case_names(data):
        return data
    out = bytearray(data)
    for t in tokens(data)[0]:
        if t.kind == "I" and t.text.islower():
            out[t.start:t.end] = t.text.upper()
    return bytes(out)


class Prop(NamedTuple):
    """One property of a node: its identifier (as it counts), its values as written, and
    where it lies (from its identifier to its last value's bracket)."""

    ident: str
    values: tuple[bytes, ...]
    start: int
    end: int


class NodeText(NamedTuple):
    """A node: where it lies (its ``;`` to its last property) and its properties."""

    start: int
    end: int
    props: tuple[Prop, ...]

    def get(self, ident: str) -> tuple[bytes, ...]:
        """The values of ``ident`` (all of them, if it is written more than once)."""
        return tuple(v for p in self.props if p.ident == ident for v in p.values)


def _node(toks: Sequence[Token], i: int) -> tuple[NodeText, int]:
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


@functools.lru_cache(maxsize=4)
def main_line(data: bytes) -> tuple[NodeText, ...]:
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
    return tuple(nodes)


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


def _rendered(edits: Mapping[str, tuple[bytes, ...] | None]) -> dict[str, bytes]:
    return {k: b"" if v is None else render_prop(k, v) for k, v in edits.items()}


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
        self._read(data)
        self._root_edits: dict[str, tuple[bytes, ...] | None] = {}
        self._last_edits: dict[str, tuple[bytes, ...]] = {}
        self.nodes: list[bytes] = []
        ca = self._root.get("CA")
        self.encoding = _encoding(ca[0] if ca else b"ISO-8859-1")
        """The record's encoding (its ``CA``; FF[4] says ISO-8859-1 without one)."""

    def _read(self, data: bytes) -> None:
        self.data = data
        self._end = main_line_end(data)
        root = data.index(b";", data.index(b"(", 0, self._end))
        m = _NODE_END.match(data, root + 1)
        assert m is not None  # (it matches the empty string)
        root_end = len(data[:m.end()].rstrip())
        props = main_line(b"(" + data[root:root_end] + b")")[0].props
        self._root = NodeText(root, root_end, tuple(
            Prop(p.ident, p.values, p.start + root - 1, p.end + root - 1) for p in props))
        self._last_node: NodeText | None = None
        self._head: bytes | None = None

    def set_root(self, ident: str, values: Iterable[bytes] | None) -> None:
        """Set (or, with None, remove) a property of the root."""
        self._root_edits[ident] = None if values is None else tuple(values)
        self._head = None

    def set_last(self, ident: str, values: Iterable[bytes]) -> None:
        """Set a property of the main line's last node (the last node added, if any)."""
        if self.nodes:
            wrapped = b"(" + self.nodes[-1] + b")"
            self.nodes[-1] = _edited(wrapped, main_line(wrapped)[0],
                                     {ident: render_prop(ident, values)})
        else:
            self._last_edits[ident] = tuple(values)
            self._head = None

    def last(self, ident: str) -> tuple[bytes, ...]:
        """The values of ``ident`` on the main line's last node, as it stands."""
        if self.nodes:
            return main_line(b"(" + self.nodes[-1] + b")")[0].get(ident)
        edits = {**self._root_edits, **self._last_edits} if self._only_root() else self._last_edits
        if ident in edits:
            return edits[ident] or ()
        return self._last.get(ident)

    def _only_root(self) -> bool:
        return self._last.start == self._root.start

    def append(self, node: bytes) -> None:
        """Add a node (``;B[pd]...``) at the main line's end."""
        self.nodes.append(node)

    def pop(self) -> bytes:
        """Take back the main line's last node: the last added, else the record's own
        (the record is read again without it). ValueError when that is the root, or when
        it begins a variation (the main line would then go on in the next one)."""
        if self.nodes:
            return self.nodes.pop()
        last = self._last
        if self._only_root():
            raise ValueError("the record has no move to take back")
        if self.data[:last.start].rstrip().endswith(b"("):
            raise ValueError("the record's last move begins a variation: it is not taken back")
        text = _edited(self.data, last, _rendered(self._last_edits))
        self._read(self.data[:last.start] + self.data[last.end:])
        self._last_edits = {}
        return text

    @property
    def _last(self) -> NodeText:
        """The main line's last node as read (found when it is edited: rarely)."""
        if self._last_node is None:
            self._last_node = main_line(self.data)[-1]
        return self._last_node

    def head(self) -> bytes:
        """The record up to the main line's end, with the edits."""
        if self._head is None:
            d, root = self.data, self._root
            if not self._root_edits and not self._last_edits:
                self._head = d[:self._end]
                return self._head
            last = self._last if self._last_edits else root
            root_edits, last_edits = _rendered(self._root_edits), _rendered(self._last_edits)
            if root.start == last.start:
                self._head = d[:root.start] + _edited(d, root, {**root_edits, **last_edits})
            else:
                self._head = (d[:root.start] + _edited(d, root, root_edits)
                              + d[root.end:last.start] + _edited(d, last, last_edits))
            self._head += d[max(root.end, last.end):self._end]
        return self._head

    def render(self) -> bytes:
        """The record as it stands."""
        return b"".join((self.head(), *self.nodes, self.data[self._end:]))


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
