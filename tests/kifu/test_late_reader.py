"""A sensor board reports at its own pace; kifu may read it late (a starved computer, a
slow disk). Whatever waited on the serial line is still every move, in order: each change
the board reported is a reading of its own. When the line lost bytes, the board's dump
shows several moves at once: recorded in their order when the rules leave one, else in
the likeliest, with the players told how many orders fit and how to say theirs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.simulator import SimulatedBoard
from kifu.tracker import MAX_HIDDEN, Announcement, Kind, Output, Tracker
from rules import Color, Game, MovePlayed, Point, preset
from tests.firmware_bridge.test_client import lockstep

# 9x9: Black captures White's E5 with E6; White plays elsewhere; Black fills E5.
#     7 . . . . . . .          7 . . . . . . W
#     6 . . . . X . .          6 . . . . X . .
#     5 . . . X O X .   then   5 . . . X X X .
#     4 . . O O X . .          4 . . O O X . .
#       C D E F G                C D E F G
MOVES = ["B E4", "W E5", "B D5", "W D4", "B F5", "W C4", "B E6", "W G7", "B E5"]
CAPTURE = ("B E6", "E5")


@pytest.fixture
def board() -> Iterator[SimulatedBoard]:
    b = SimulatedBoard(9, 9)
    try:
        yield b
    finally:
        b.close()


def play(board: SimulatedBoard, garble_after: str | None = None) -> None:
    """The players play `MOVES` on ``board`` (the captured stone lifted after the capture),
    the board running 200 ms after each; the line garbled after ``garble_after``."""
    for text in MOVES:
        color, vertex = text.split()
        p = Point.from_gtp(vertex, 9, 9)
        board.place(p.x, p.y, Color.parse(color))
        board.run(200)
        if text == CAPTURE[0]:
            q = Point.from_gtp(CAPTURE[1], 9, 9)
            board.lift(q.x, q.y)
            board.run(200)
        if text == garble_after:
            board.garble(b"C 7 zz\n")


def record_late(board: SimulatedBoard, garble_after: str | None = None) -> list[Output]:
    """Hand-shake, then let the whole game be played before reading anything; what the
    tracker said of the readings then read."""
    client = lockstep(board, board.port)  # the host's time is the board's
    client.handshake()
    game = Game(preset("chinese"), 9)
    tracker = Tracker(game, stable_for=0.0, max_moves=MAX_HIDDEN, guess=True)
    said: list[Output] = []
    for obs in client.poll():
        said += tracker.feed(obs)
    play(board, garble_after)
    for _ in range(200):  # a second of the board's time: the heartbeat confirms it
        board.run(5)
        for obs in client.poll():
            said += tracker.feed(obs)
    client.close()
    return said


def moves(said: list[Output]) -> list[str]:
    return [f"{e.color.letter} {e.point.gtp()}" for e in said if isinstance(e, MovePlayed)]


def test_a_game_read_only_after_it_was_played_is_every_move_in_order(
        board: SimulatedBoard) -> None:
    said = record_late(board)
    assert moves(said) == MOVES
    assert not [a for a in said if isinstance(a, Announcement)
                and a.kind not in (Kind.WAITING_FOR_REMOVAL,)]


def test_after_bytes_lost_on_the_line_the_dump_shows_two_moves_in_their_one_order(
        board: SimulatedBoard) -> None:
    said = record_late(board, garble_after="B E6")  # then W G7 and B E5, in one dump
    assert moves(said) == MOVES
    [hidden] = [a for a in said if isinstance(a, Announcement) and a.kind is Kind.HIDDEN]
    assert hidden.text == "2 moves while the board was hidden: W G7, B E5"


def test_when_the_dump_shows_moves_of_several_orders_it_says_so(board: SimulatedBoard) -> None:
    said = record_late(board, garble_after="B D5")  # the six moves after it in one dump
    assert moves(said)[:3] == MOVES[:3]
    assert sorted(moves(said)[3:]) == sorted(MOVES[3:])
    [hidden] = [a for a in said if isinstance(a, Announcement) and a.kind is Kind.HIDDEN]
    assert "(one of 12 orders to this position: if it was another, say 'order " in hidden.text
