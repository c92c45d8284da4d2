"""The host's resync rules (PROTOCOL.md, "Host rules"), on a link fed scripted lines."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.errors import ConnectionLost, VersionError
from firmware_bridge.link import Link, State

EMPTY = "." * 9


def line(body: str) -> bytes:
    return p.frame(body)


def sent(link: Link) -> list[str]:
    return [p.unframe(x) for x in link.outgoing()]


def synced_link(states: str = EMPTY, seq: int = 0) -> Link:
    """A link to a 3x3 board, handshake done, mirror from a dump."""
    link = Link(source="test")
    link.start(0.0)
    assert sent(link) == ["?"]
    link.feed(line("I 1.0 3x3 test") + line("S DEB=3 PER=10 THR=24 HB=1000"), 0.0)
    assert sent(link) == ["S", "D"]
    [obs] = link.feed(line(f"D {seq} {states}"), 0.0)
    assert obs.cells == p.states_to_cells(states)
    assert link.state is State.SYNCED
    return link


def test_handshake_asks_identity_then_settings_and_a_dump() -> None:
    link = synced_link("X.O......", seq=41)
    assert link.identity == p.Identity(1, 0, 3, 3, "test")
    assert link.expected == 42


def test_lines_before_the_identity_are_ignored() -> None:
    link = Link()
    link.start(0.0)
    assert link.feed(line("D 3 X........") + line("C 4 0 0 ."), 0.0) == []
    assert link.state is State.HANDSHAKE


def test_a_change_in_sequence_is_applied() -> None:
    link = synced_link(seq=5)
    [obs] = link.feed(line("C 6 1 2 X"), 1.0)
    # (1, 2) is the top row's middle point: index 2 * 3 + 1
    assert obs.rows() == [".X.", "...", "..."]
    assert obs.time == 1.0 and obs.source == "test"
    assert link.expected == 7


def test_a_sequence_gap_asks_for_a_dump_and_ignores_changes_until_it_comes() -> None:
    link = synced_link(seq=5)
    assert link.feed(line("C 7 0 0 X"), 1.0) == []  # 6 was lost
    assert link.state is State.SYNCING and sent(link) == ["D"]
    assert link.feed(line("C 8 1 0 O"), 1.1) == []
    [obs] = link.feed(line("D 8 XO......."), 1.2)
    assert obs.rows() == ["...", "...", "XO."]
    assert link.counters.resyncs == 1


def test_a_bad_checksum_asks_for_a_dump() -> None:
    link = synced_link()
    good = line("C 1 0 0 X")
    assert link.feed(good.replace(b"X*", b"O*"), 1.0) == []
    assert link.counters.bad_lines == 1 and sent(link) == ["D"]


def test_garbage_and_a_truncated_line_ask_for_one_dump() -> None:
    link = synced_link()
    assert link.feed(b"\x00\xff garbage\n" + line("C 1 0 0 X")[:6] + b"\n", 1.0) == []
    assert sent(link) == ["D"]
    assert link.counters.bad_lines == 2


def test_a_heartbeat_that_agrees_confirms_the_board() -> None:
    link = synced_link("X........", seq=3)
    [obs] = link.feed(line(f"H 3 {p.board_hash('X........'):04X}"), 2.0)
    assert obs.time == 2.0 and obs.rows()[-1] == "X.."
    assert sent(link) == []


@pytest.mark.parametrize("beat", ["H 3 0000", "H 2 {hash}"], ids=["hash", "sequence"])
def test_a_heartbeat_that_disagrees_asks_for_a_dump(beat: str) -> None:
    link = synced_link("X........", seq=3)
    assert link.feed(line(beat.format(hash=f"{p.board_hash('X........'):04X}")), 2.0) == []
    assert sent(link) == ["D"] and link.state is State.SYNCING


def test_a_wrong_major_version_is_refused() -> None:
    link = Link()
    link.start(0.0)
    with pytest.raises(VersionError, match="protocol 2.1; this host understands 1.x"):
        link.feed(line("I 2.1 19x19 future"), 0.0)


def test_a_dump_of_the_wrong_size_is_a_bad_line() -> None:
    link = synced_link()
    assert link.feed(line("D 0 ...."), 1.0) == []
    assert link.counters.bad_lines == 1


def test_silence_probes_then_declares_the_connection_lost() -> None:
    link = synced_link()
    link.tick(2.9)
    assert sent(link) == []
    link.tick(3.1)
    assert sent(link) == ["?"]
    with pytest.raises(ConnectionLost, match="no answer"):
        link.tick(4.2)


def test_an_unanswered_request_is_sent_again() -> None:
    link = Link()
    link.start(0.0)
    link.outgoing()
    link.tick(0.4)
    assert sent(link) == []
    link.tick(0.6)
    assert sent(link) == ["?"]


def test_a_damaged_command_reported_by_the_board_is_repeated() -> None:
    link = Link()
    link.start(0.0)
    link.feed(line("I 1.0 3x3 t"), 0.0)
    link.outgoing()
    link.feed(line("E CRC bad checksum or frame"), 0.1)
    assert sorted(sent(link)) == ["D", "S"]


# ---- no wrong board, whatever the line does -------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 3), min_size=1, max_size=40))
def test_noise_never_makes_a_board_that_was_not(seed: int, damage: list[int]) -> None:
    """A 3x3 board changes point by point; the stream is damaged (bytes flipped, lines
    dropped, garbage inserted). Every Observation the link emits is a board that was."""
    rng = random.Random(seed)
    board = list(EMPTY)
    history = {"".join(board)}
    link = synced_link()
    seq = 0
    t = 0.0
    for d in damage:
        i = rng.randrange(9)
        board[i] = rng.choice(".XO")
        seq += 1
        history.add("".join(board))
        data = line(f"C {seq} {i % 3} {i // 3} {board[i]}")
        if d == 1:
            flipped = bytearray(data)
            flipped[rng.randrange(len(data) - 1)] ^= 1 << rng.randrange(8)
            data = bytes(flipped)
        elif d == 2:
            data = b""
        elif d == 3:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))) + b"\n" + data
        t += 0.01
        for obs in link.feed(data, t):
            assert p.cells_to_states(obs.cells) in history
        if "D" in [p.unframe(x) for x in link.outgoing()]:
            for obs in link.feed(line(f"D {seq} {''.join(board)}"), t):
                assert p.cells_to_states(obs.cells) in history
    # a heartbeat at the end brings the mirror back to the board in any case
    link.feed(line(f"H {seq} {p.board_hash(''.join(board)):04X}"), t + 1)
    if link.outgoing():
        link.feed(line(f"D {seq} {''.join(board)}"), t + 1)
    assert link.mirror == "".join(board)
