"""A real game played stone by stone on a simulated board: captured stones lifted a little
after the capturing move, a sensor that bounces, the board unplugged for two moves and
plugged back. What the bridge reports, once stable, is the game; fed to the tracker, it
records the game's moves, and the SGF written from them is the source game's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from firmware_bridge.link import State
from kifu import replay, sgf
from kifu.tracker import Tracker
from rules import Game, MovePlayed, Observation, Position, preset

from .conftest import Board, client_for

GAME = Path("computer-go") / "AlphaGo" / "LS vs AG - G4 - English.sgf"
"""Lee Sedol v AlphaGo, game 4: 180 moves, six captures, one of two stones."""
BOUNCE_AT = 30       # this move's stone bounces on its sensor before it rests
UNPLUG_AT = 100      # the board is unplugged before this move...
REPLUG_AFTER = 101   # ...and plugged back after the next one: two moves in the dark
HEARTBEAT_MS = 100   # the board confirms itself this often...
STABLE_S = 0.1       # ...and the tracker accepts a board unchanged this long


def per_point_history(boards: list[tuple[int, ...]]) -> list[list[int]]:
    """For each point, the states it went through (repeats collapsed)."""
    history: list[list[int]] = [[c] for c in boards[0]]
    for cells in boards[1:]:
        for i, c in enumerate(cells):
            if history[i][-1] != c:
                history[i].append(c)
    return history


def test_a_real_game_on_the_board_is_observed_and_recorded(
    make_board: Callable[..., Board], shared_games: Path
) -> None:
    record = sgf.load(shared_games / GAME)
    game = replay.start(record, preset("chinese"))
    board = make_board()
    client = client_for(board)
    client.handshake()
    client.configure(HB=HEARTBEAT_MS)
    assert client.link.mirror == "." * 361
    observed: list[Observation] = []

    def advance(ms: int) -> None:
        for _ in range(ms // 5):
            board.run(5)
            observed.extend(client.poll())

    def settle() -> None:
        deadline = board.now_ms() + 3000
        while not (client.connected and client.link.state is State.SYNCED):
            assert board.now_ms() < deadline, "the bridge did not resync"
            advance(5)

    positions: list[Position] = [game.position]
    plugged = True
    for k, move in enumerate(record.moves):
        assert move.point is not None
        event = game.play(move.point, move.color, out_of_turn=True)
        assert isinstance(event, MovePlayed)
        x, y = move.point
        if k == UNPLUG_AT:
            board.unplug()
            plugged = False
            advance(50)
        if k == BOUNCE_AT:
            for _ in range(5):
                board.place(x, y, move.color)
                board.run(4)
                board.lift(x, y)
                board.run(4)
        board.place(x, y, move.color)
        advance(60)
        for stone in event.captured:  # a little later, one by one
            board.lift(stone.x, stone.y)
            advance(15)
        if k == REPLUG_AFTER:
            board.plug()
            plugged = True
            settle()
        advance(2 * HEARTBEAT_MS + 30)  # long enough for two heartbeats: a stable board
        positions.append(game.position)
        if plugged:
            assert observed[-1].position() == game.position, f"after move {k + 1}"

    # every point went through the same states on the board as in the game: no bounce,
    # no resync, no unplug ever showed a stone that was not there
    seen = [positions[0].cells] + [o.cells for o in observed if o.position() is not None]
    assert per_point_history(seen) == per_point_history([q.cells for q in positions])
    assert client.link.counters.reconnects == 1

    # the tracker, fed the same stream, records the game's moves
    tracker = Tracker(Game(preset("chinese"), 19), stable_for=STABLE_S)
    played = [
        (out.color, out.point)
        for obs in observed
        for out in tracker.feed(obs)
        if isinstance(out, MovePlayed)
    ]
    assert played == [(m.color, m.point) for m in record.moves]
    # and the SGF written from it is the source game's move sequence
    written = sgf.parse(sgf.serialise(tracker.game, played), "recorded.sgf")
    assert written.moves == record.moves
    client.close()
