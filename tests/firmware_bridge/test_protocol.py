"""The protocol codec: frames, CRC, every message both ways, and a decoder that raises
nothing but the protocol's own errors whatever it is fed."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.errors import ChecksumError, FrameError, ProtocolError
from rules import Cell


def test_module_examples() -> None:
    assert doctest.testmod(p).failed == 0


def test_crc_is_xmodem() -> None:
    # the catalogued check value of CRC-16/XMODEM
    assert p.crc16(b"123456789") == 0x31C3
    assert p.frame("D") == b"D*" + b"%04X" % p.crc16(b"D") + b"\n"


MESSAGES: list[p.Message] = [
    p.Identity(1, 0, 19, 19, "kifu-avr-0.1"),
    p.Identity(2, 7, 9, 13, "name with spaces"),
    p.Dump(0, "." * 361),
    p.Dump(65535, "X.O?" * 20 + "X"),
    p.Change(1, 0, 0, "X"),
    p.Change(40000, 18, 18, "."),
    p.Heartbeat(12, 0xBEEF),
    p.Row("R", 3, (0, 128, 255)),
    p.Row("B", 18, tuple(range(19))),
    p.Settings(3, 10, 24, 1000),
    p.Ack("Z"),
    p.ErrorReport("CRC", "bad checksum or frame"),
    p.ErrorReport("CAL", ""),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(message: p.Message) -> None:
    assert p.decode(p.encode(message)) == message


def test_carriage_return_before_newline_is_ignored() -> None:
    line = p.encode(p.Change(5, 1, 2, "O"))
    assert p.decode(line.replace(b"\n", b"\r\n")) == p.Change(5, 1, 2, "O")


@pytest.mark.parametrize("line, fault", [
    (b"C 1 2 3 X\n", "no checksum"),
    (b"C 1 2 3 X*12g4\n", "four upper-case hex"),
    (b"C 1 2 3 X*12345\n", "four upper-case hex"),
    (p.frame("Q 1"), "unknown message type"),
    (p.frame("C 1 2 X"), "needs 4 fields"),
    (p.frame("C 1 2 3 Z"), "state 'Z'"),
    (p.frame("C -1 2 3 X"), "not a decimal number"),
    (p.frame("C 01 2 3 X"), "not a decimal number"),
    (p.frame("C 70000 2 3 X"), "out of range"),
    (p.frame("C 1 25 3 X"), "x 25 is out of range"),
    (p.frame("D 3 ..x"), "dump states"),
    (p.frame("I 1.0 19x19"), "identity needs"),
    (p.frame("I 1.0 30x19 fw"), "outside 2x2..25x25"),
    (p.frame("H 1 beef"), "four hex digits"),
    (p.frame("S DEB=3 PER=10 THR=24"), "must give DEB, PER, THR and HB"),
    (p.frame("S DEB=3 DEB=3 PER=10 THR=24 HB=1"), "once"),
    (p.frame("R 1 256"), "reading 256 is out of range"),
    (p.frame("E crc lower"), "upper-case code"),
    (b"C 1 2 3 \x00X*0000\n", "non-printable"),
])
def test_malformed_lines_are_frame_errors_naming_the_fault(line: bytes, fault: str) -> None:
    with pytest.raises(FrameError, match=fault) as info:
        p.decode(line)
    assert info.value.line == line


def test_a_flipped_bit_is_a_checksum_error() -> None:
    good = p.encode(p.Change(7, 3, 15, "X"))
    bad = good.replace(b"X*", b"O*")
    with pytest.raises(ChecksumError, match="checksum"):
        p.decode(bad)


def test_commands_are_checked_before_sending() -> None:
    assert p.decode_command(p.command("S", DEB=4, HB=500)) == p.Command(
        "S", (("DEB", 4), ("HB", 500)))
    assert p.decode_command(p.command("?")) == p.Command("?")
    with pytest.raises(ValueError, match="DEB=0 is out of range 1..20"):
        p.command("S", DEB=0)
    with pytest.raises(ValueError, match="unknown setting 'FOO'"):
        p.command("S", FOO=1)
    with pytest.raises(ValueError, match="unknown board command 'X'"):
        p.command("X")
    with pytest.raises(ValueError, match="takes no settings"):
        p.command("D", DEB=3)
    with pytest.raises(FrameError, match="unknown board command"):
        p.decode_command(p.frame("X"))


def test_states_and_cells_are_the_observation_codes() -> None:
    assert p.states_to_cells(".XO?") == (0, 1, 2, 3)
    assert p.cells_to_states((3, 2, 1, 0)) == "?OX."


def test_messages_keep_the_wire_characters_and_give_cells() -> None:
    """The wire format is the protocol's promise: the messages hold its characters, and
    convert to `rules.Cell` at this edge."""
    change = p.decode(b"C 7 3 15 X*CBD0\n")
    assert change == p.Change(7, 3, 15, "X") and change.cell is Cell.BLACK
    dump = p.decode(p.frame("D 4 .XO?"))
    assert dump == p.Dump(4, ".XO?")
    assert dump.cells == (Cell.EMPTY, Cell.BLACK, Cell.WHITE, Cell.UNKNOWN)
    assert p.encode(dump) == p.frame("D 4 .XO?")


def test_line_splitter_cuts_lines_and_refuses_overlong_ones() -> None:
    s = p.LineSplitter(limit=10)
    assert s.feed(b"ab") == []
    assert s.feed(b"c\nde") == [b"abc"]
    assert s.pending() == b"de"
    out = s.feed(b"fghijklmnop\nq\n")
    assert isinstance(out[0], FrameError) and "too long" in str(out[0])
    assert out[1:] == [b"q"]


# ---- fuzzing --------------------------------------------------------------------------

VALID_LINES = [p.encode(m) for m in MESSAGES]


@st.composite
def mutated_lines(draw: st.DrawFn) -> bytes:
    line = bytearray(draw(st.sampled_from(VALID_LINES)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        pos = draw(st.integers(0, max(0, len(line) - 1)))
        if op == "flip" and line:
            line[pos] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            line[pos:pos] = bytes([draw(st.integers(0, 255))])
        elif op == "delete" and line:
            del line[pos]
        elif op == "truncate":
            del line[pos:]
    return bytes(line)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=800))
def test_random_bytes_raise_only_protocol_errors(data: bytes) -> None:
    try:
        p.decode(data)
    except ProtocolError:
        pass


@settings(max_examples=800, deadline=None)
@given(mutated_lines())
def test_mutated_lines_decode_or_raise_protocol_errors(line: bytes) -> None:
    try:
        message = p.decode(line)
    except ProtocolError:
        return
    # a mutation that survives the CRC must still be a well-formed message
    assert p.decode(p.encode(message)) == message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300))
def test_random_bodies_with_a_correct_crc_raise_only_frame_errors(body: bytes, tail: bytes) -> None:
    line = body + b"*%04X\n" % p.crc16(body)
    for candidate in (line, line + tail):
        try:
            p.decode(candidate)
        except ProtocolError:
            pass


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(VALID_LINES), max_size=8), st.data())
def test_splitting_does_not_depend_on_how_bytes_arrive(lines: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(lines)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    s = p.LineSplitter()
    got: list[bytes | ProtocolError] = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)]):
        got += s.feed(stream[a:b])
    assert got == [line[:-1] for line in lines]
