"""A resumed record is the user's: written back as it was read, plus the moves played.

The property: any record sgfmill reads (comments, variations, unknown properties, setup
in mid-game, names in another encoding, any layout), resumed and written with N new
moves, equals the original plus those moves at the main line's end, node for node and
property for property; its bytes are the original's with the new nodes inserted.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sgfmill import sgf  # type: ignore[import-untyped]

from kifu.cli import main
from kifu.session import resume
from kifu.sgf import SgfError, load
from kifu.sgf_text import main_line_end
from kifu.sinks import SgfWriter
from rules import Color, Game, Point, preset

Tree = tuple[dict[str, list[bytes]], list[Any]]


def tree(node: sgf.Tree_node) -> Tree:
    """A node and everything below it as plain values: its properties (raw values as
    written) and its children's trees, in order."""
    props = {k: list(node.get_raw_list(k)) for k in node.properties()}
    return props, [tree(child) for child in node]


def with_moves_at_main_end(t: Tree, nodes: list[dict[str, list[bytes]]]) -> Tree:
    """``t`` with ``nodes`` added, one after the other, below the main line's last node."""
    props, children = t
    if children:
        return props, [with_moves_at_main_end(children[0], nodes), *children[1:]]
    if not nodes:
        return props, []
    return props, [with_moves_at_main_end((nodes[0], []), nodes[1:])]


def neighbours(p: Point, size: int) -> list[Point]:
    return [Point(p.x + dx, p.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= p.x + dx < size and 0 <= p.y + dy < size]


def sgf_point(p: Point, size: int) -> bytes:
    return bytes((97 + p.x, 97 + size - 1 - p.y))


# -- records sgfmill reads, with a legal main line -------------------------------------------

TEXTS = st.text(alphabet=st.sampled_from(list("ab ]\\:\n;()[é") + ["日"]), max_size=8)
UNKNOWN = st.sampled_from(["XY", "MULTIGOGM", "KGSDE", "ZZ", "GC", "BT"])
SPACE = st.sampled_from(["", "", " ", "\n", "\r\n  "])


def escaped(text: str, encoding: str) -> bytes:
    return text.replace("\\", "\\\\").replace("]", "\\]").encode(encoding, "replace")


@st.composite
def records(draw: st.DrawFn) -> tuple[bytes, int]:
    """An SGF record and its board size: the root with any of the usual properties and
    some unknown ones (names encoded as CA says), a legal main line of moves with setup
    nodes here and there, comments and markup, variations of anything below any node."""
    size = draw(st.integers(5, 9))
    encoding = draw(st.sampled_from(["UTF-8", "ISO-8859-1", None]))
    enc = encoding or "ISO-8859-1"
    sp = lambda: draw(SPACE)  # noqa: E731

    def prop(ident: str, *values: bytes) -> bytes:
        return ident.encode() + b"".join(b"[" + v + b"]" for v in values) + sp().encode()

    root = b";" + prop("FF", b"4") + prop("GM", b"1") + prop("SZ", str(size).encode())
    if encoding:
        root += prop("CA", encoding.encode())
    for ident in draw(st.lists(st.sampled_from(["PB", "PW", "GN", "C", "EV", "DT"]),
                               unique=True, max_size=4)):
        # Names in another encoding than CA says are met in real records.
        root += prop(ident, escaped(draw(TEXTS), draw(st.sampled_from([enc, enc, "GB2312"]))))
    if draw(st.booleans()):
        root += prop("KM", draw(st.sampled_from([b"6.5", b"0", b"7.5", b"375"])))
    if draw(st.booleans()):
        root += prop(draw(UNKNOWN), escaped(draw(TEXTS), enc))

    game = Game(preset("chinese"), size)

    def any_point() -> bytes:
        return sgf_point(Point(draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))), size)

    def extras() -> bytes:
        out = b""
        if draw(st.integers(0, 3)) == 0:
            out += prop("C", escaped(draw(TEXTS), enc))
        if draw(st.integers(0, 4)) == 0:
            out += prop(draw(st.sampled_from(["TR", "SQ", "MA"])), any_point())
        if draw(st.integers(0, 5)) == 0:
            out += prop(draw(UNKNOWN), escaped(draw(TEXTS), enc))
        return out

    def variation(depth: int) -> bytes:
        nodes = b"".join(b";" + prop(draw(st.sampled_from(["B", "W"])), any_point()) + extras()
                         for _ in range(draw(st.integers(1, 3))))
        subs = b"".join(variation(depth + 1) for _ in range(draw(st.integers(0, 2 - depth))))
        return b"(" + sp().encode() + nodes + subs + b")" + sp().encode()

    # The main line: each node, and which variations branch off before it.
    line: list[tuple[bytes, list[bytes]]] = []
    for _ in range(draw(st.integers(0, 12))):
        node = b";"
        if draw(st.integers(0, 7)) == 0:  # setup in mid-game: a lone stone, or a point cleared
            empty = [p for p in game.position.points() if game.position[p] is None
                     and all(game.position[q] is None for q in neighbours(p, size))]
            stones = [p for p in game.position.points() if game.position[p] is not None]
            if stones and draw(st.booleans()):
                p = draw(st.sampled_from(stones))
                game.setup(empty=[p])
                node += prop("AE", sgf_point(p, size))
            elif empty:
                p = draw(st.sampled_from(empty))
                game.setup(black=[p])
                node += prop("AB", sgf_point(p, size))
        else:
            legal = [p for p in game.position.points() if game.legality(p) is None]
            if legal and draw(st.integers(0, 9)):
                p = draw(st.sampled_from(legal))
                node += prop(game.to_move.letter, sgf_point(p, size))
                game.play(p)
            else:
                node += prop(game.to_move.letter, b"")
                game.pass_()
        node += extras()
        line.append((node, [variation(1) for _ in range(draw(st.integers(0, 2)) // 2)]))

    # Nest: at a node with variations the main line goes on in the first of them.
    text = b""
    for node, others in reversed(line):
        if others:
            text = b"(" + node + text + b")" + b"".join(others)
        else:
            text = node + text
    data = draw(st.sampled_from([b"", b"junk before\n"])) + b"(" + root + text + b")" + sp().encode()
    return data, size


def play_on(game: Game, count: int, data: st.DataObject) -> list[tuple[Color, Point | None]]:
    moves: list[tuple[Color, Point | None]] = []
    for _ in range(count):
        legal = [p for p in game.position.points() if game.legality(p) is None]
        point = data.draw(st.sampled_from(legal)) if legal and data.draw(st.integers(0, 9)) else None
        moves.append((game.to_move, point))
        game.play(point) if point is not None else game.pass_()
    return moves


@settings(max_examples=int(os.environ.get("KIFU_RESUME_EXAMPLES", "100")), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(records(), st.integers(0, 6), st.data())
def test_a_resumed_record_is_the_original_plus_the_moves_played(
    tmp_path: Path, record: tuple[bytes, int], count: int, data: st.DataObject
) -> None:
    original, size = record
    before = sgf.Sgf_game.from_bytes(original)  # sgfmill reads it
    done = resume(original, preset("chinese"), "game.sgf")
    out = tmp_path / "game.sgf"
    writer = SgfWriter(out, done.game, record=done.data)
    expected = []
    for k, (color, point) in enumerate(play_on(done.game, count, data)):
        writer.add_move(color, point, 10.0 + k)
        value = b"" if point is None else sgf_point(point, size)
        expected.append({color.letter: [value], "KT": [f"{10 + k:.2f}".encode()]})
    writer.write()
    written = out.read_bytes()

    after = sgf.Sgf_game.from_bytes(written)
    assert tree(after.get_root()) == with_moves_at_main_end(tree(before.get_root()), expected)
    # ... and every byte of the original is where it was, the new nodes at the main line's end.
    end = main_line_end(original)
    added = written[end:len(written) - (len(original) - end)]
    assert written == original[:end] + added + original[end:]
    assert [(m.color, m.point) for m in load(out).moves] == done.moves + [
        (c, p) for c, p in _moves(expected, size)]


def _moves(nodes: list[dict[str, list[bytes]]], size: int) -> list[tuple[Color, Point | None]]:
    out: list[tuple[Color, Point | None]] = []
    for n in nodes:
        letter = "B" if "B" in n else "W"
        v = n[letter][0]
        out.append((Color.parse(letter), None if not v else Point(v[0] - 97, size - 1 - (v[1] - 97))))
    return out


def test_turning_a_resumed_record_turns_every_point_and_keeps_the_rest(tmp_path: Path) -> None:
    """``rotate 90`` during a resumed game turns the record: moves, setup (a compressed
    list too), markup and labels, in every variation; the rest is kept. A quarter turn
    clockwise takes the left side to the top: A1 to A5, A4 to D5, A5 to E5, E1 to A1."""
    data = b"(;SZ[5]AB[aa:ab]C[x]LB[aa:corner];B[ee]TR[ea](;W[])(;W[ae]))"
    out = tmp_path / "game.sgf"
    writer = SgfWriter(out, resume(data, preset("chinese")).game, record=data)
    writer.turn(90, 5, 5)
    writer.write()
    assert out.read_bytes() == b"(;SZ[5]AB[ea][da]C[x]LB[ea:corner];B[ae]TR[ee](;W[])(;W[aa]))"


def test_a_resumed_record_is_written_back_as_read_when_nothing_is_played(tmp_path: Path) -> None:
    data = (b"junk before (;FF[3]CA[Latin1]SZ[9]PB[Ren\xe9]\r\nCoPyright[me]"
            b"(;B[ee]C[first\\]]\n;W[cc])(;B[aa]))\ntrailing (;SZ[9]) second game\n")
    out = tmp_path / "game.sgf"
    SgfWriter(out, resume(data, preset("chinese")).game, record=data)
    assert out.read_bytes() == data
    assert [m.gtp() for m in load(out).moves] == ["B E5", "W C7"]


def test_a_record_kifu_cannot_resume_leaves_the_file_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.sgf"
    data = b"(;SZ[9];B[ee];W[ee])"
    game.write_bytes(data)
    script = tmp_path / "none.txt"
    script.write_text("")
    assert main(["record", "--observations", str(script), "--resume", str(game)]) != 0
    assert "cannot resume" in capsys.readouterr().err and game.read_bytes() == data
    with pytest.raises(SgfError, match="game.sgf: malformed SGF: KT\\[soon\\] is not a time"):
        resume(b"(;SZ[9];B[ee]KT[soon])", preset("chinese"), "game.sgf")


def test_a_move_taken_back_leaves_the_record_and_its_comment_goes_to_the_node_now_last(
    tmp_path: Path
) -> None:
    """What a correction (``undo``) needs: a played move taken back, then one of the
    record's own, each one's comment kept on the node that is last after it."""
    data = b"(;SZ[5]C[mine];B[cc]C[good];W[dd])"
    out = tmp_path / "game.sgf"
    writer = SgfWriter(out, resume(data, preset("chinese")).game, record=data)
    writer.add_move(Color.BLACK, Point.from_gtp("B2"), 3.0)
    writer.note("undo at 4.00 s: B B2 taken back")
    writer.take_back()
    writer.write()
    assert out.read_bytes() == b"(;SZ[5]C[mine];B[cc]C[good];W[dd]C[undo at 4.00 s: B B2 taken back])"
    writer.take_back()
    writer.note("undo again")
    writer.write()
    assert out.read_bytes() == (b"(;SZ[5]C[mine];B[cc]C[good\nundo at 4.00 s: B B2 taken back"
                                b"\nundo again])")
    writer.take_back()
    writer.write()
    assert out.read_bytes() == (b"(;SZ[5]C[mine\ngood\nundo at 4.00 s: B B2 taken back"
                                b"\nundo again])")
    with pytest.raises(ValueError, match="no move to take back"):
        writer.take_back()


def test_the_first_move_of_a_variation_is_not_taken_back(tmp_path: Path) -> None:
    data = b"(;SZ[5];B[cc](;W[dd])(;W[bb]))"
    writer = SgfWriter(tmp_path / "game.sgf", resume(data, preset("chinese")).game, record=data)
    with pytest.raises(ValueError, match="begins a variation"):
        writer.take_back()
