"""The real games of ../shared/games/computer-go through the referee.

Every record that is a plain move sequence (`Record.plain`: no setup after the root) is
replayed as ``kifu replay`` does it (`kifu.replay.start` and `kifu.replay.replay` under
``chinese``, following the record's colours even out of turn), next to sgfmill's
`boards.Board`. No legal move may be refused, and every move must capture what sgfmill
captures.

"No legal move refused" is checked against the rules, not assumed: a few records break
Chinese rules, and a refusal passes only when it is independently confirmed:

- ``occupied``: sgfmill finds a stone on that point too (a record playing on a stone);
- ``positional-superko``: the move recreates an earlier position of the record, found by
  replaying it on sgfmill boards (records of games played under Japanese rules, where
  superko does not apply). The record is not followed past such a move: the referee left
  the move out, so the boards part ways;
- anything else fails the test.

Costs about 30 seconds: 7,259 records parsed, 1.19 million moves replayed twice.
"""

from __future__ import annotations

import collections
import time
from pathlib import Path

import pytest
from sgfmill import boards  # type: ignore[import-untyped]

from kifu.replay import replay, start
from kifu.sgf import Record, load
from rules import Color, IllegalMove, MovePlayed, Passed, Point, Reason, preset
from tests.conftest import GAMES, need

CORPUS = GAMES / "computer-go"
PLAIN_RECORDS = 7245
"""From ../shared/games/README.md: 7,259 records, 14 with setup after the root."""
COLOUR = {Color.BLACK: "b", Color.WHITE: "w"}


def snapshot(board: boards.Board) -> tuple[tuple[str | None, ...], ...]:
    return tuple(tuple(row) for row in board.board)


def setup_board(record: Record) -> boards.Board:
    board = boards.Board(record.width)
    s = record.setup
    board.apply_setup(
        [(p.y, p.x) for p in s.black], [(p.y, p.x) for p in s.white], [(p.y, p.x) for p in s.empty]
    )
    return board


def repeats_a_position(record: Record, index: int) -> bool:
    """Does move ``index`` of ``record`` recreate a position seen before it? Found with
    sgfmill alone: every move played (moves onto stones skipped), every position kept."""
    board = setup_board(record)
    seen = {snapshot(board)}
    for k, move in enumerate(record.moves[: index + 1]):
        if move.point is not None:
            try:
                board.play(move.point.y, move.point.x, COLOUR[move.color])
            except ValueError:
                continue
        position = snapshot(board)
        if k == index:
            return position in seen
        seen.add(position)
    raise IndexError(f"{record.name} has no move {index + 1}")


def captures_differ(board: boards.Board, event: MovePlayed) -> str | None:
    """Play ``event``'s stone on sgfmill's board; what differs from kifu's captures, or
    None. sgfmill removes exactly the enemy strings next to the stone that are left
    without liberties, so (the boards being equal before) the captures are the same when
    every point kifu captured is empty in sgfmill and every enemy neighbour kifu kept is
    still there. The boards are compared whole at the end of each record."""
    p = event.point
    y, x = p.y, p.x
    rows = board.board  # sgfmill's own grid: rows[row][col], row 0 at the bottom
    top = board.side - 1
    mine = COLOUR[event.color]
    neighbours = []
    if y > 0:
        neighbours.append((y - 1, x))
    if y < top:
        neighbours.append((y + 1, x))
    if x > 0:
        neighbours.append((y, x - 1))
    if x < top:
        neighbours.append((y, x + 1))
    enemy = [(r, c) for r, c in neighbours if rows[r][c] not in (None, mine)]
    board.play(y, x, mine)
    if rows[y][x] != mine:
        return f"sgfmill took back the stone at {p.gtp()} (suicide)"
    captured = {(q.y, q.x) for q in event.captured}
    gone = [(r, c) for r, c in captured if rows[r][c] is not None]
    kept = [(r, c) for r, c in enemy if (r, c) not in captured and rows[r][c] is None]
    if gone or kept:
        return (
            f"kifu captured {[q.gtp() for q in event.captured]}; sgfmill left "
            f"{[Point(c, r).gtp() for r, c in gone]} and took "
            f"{[Point(c, r).gtp() for r, c in kept]}"
        )
    return None


@pytest.fixture(scope="module")
def records() -> list[Record]:
    need(CORPUS.is_dir(), f"no game corpus at {CORPUS}")
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() == ".sgf")
    return [load(f) for f in files]


def test_the_corpus_has_7245_plain_records(records: list[Record]) -> None:
    assert len(records) == 7259
    assert sum(r.plain for r in records) == PLAIN_RECORDS


def test_plain_records_replay_under_chinese_as_sgfmill_plays_them(records: list[Record]) -> None:
    """No legal move refused, and every capture as sgfmill makes it."""
    chinese = preset("chinese")
    tally: collections.Counter[str] = collections.Counter()
    stopped: list[str] = []
    started = time.perf_counter()
    for record in records:
        if not record.plain:
            continue
        tally["records"] += 1
        game = start(record, chinese)
        board = setup_board(record)
        where = Path(record.name).relative_to(CORPUS)
        for k, event in enumerate(replay(game, record.nodes)):
            if isinstance(event, MovePlayed):
                tally["moves"] += 1
                tally["captures"] += bool(event.captured)
                fault = captures_differ(board, event)
                assert fault is None, f"{where}, move {k + 1} ({event.color.letter} {event.point.gtp()}): {fault}"
            elif isinstance(event, Passed):
                tally["passes"] += 1
            else:
                assert isinstance(event, IllegalMove) and event.point is not None
                what = f"{where}, move {k + 1}: {event.color.letter} {event.point.gtp()} refused ({event.reason})"
                if event.reason is Reason.OCCUPIED:
                    assert board.get(event.point.y, event.point.x) is not None, what
                    tally["occupied"] += 1
                    continue
                assert event.reason is Reason.POSITIONAL_SUPERKO, what
                assert repeats_a_position(record, k), f"{what}, yet it repeats no position"
                # Under simple ko (the Japanese rules these games name) the record is legal.
                assert not any(
                    isinstance(e, IllegalMove) and e.reason is not Reason.OCCUPIED
                    for e in replay(start(record, preset("japanese")), record.nodes)
                ), f"{what}; it breaks simple ko too"
                tally["superko"] += 1
                stopped.append(f"{where} at move {k + 1}")
                break
        else:
            assert game.position.rows() == [
                "".join(".XO"[" bw".index(c or " ")] for c in row) for row in reversed(board.board)
            ], f"{where}: the final boards differ"
    print(
        f"\ncorpus under chinese: {dict(tally)} in {time.perf_counter() - started:.1f} s; "
        f"followed up to a superko violation: {stopped}"
    )
    assert tally["records"] == PLAIN_RECORDS
    assert tally["moves"] > 1_000_000
    assert tally["captures"] > 50_000
    assert tally["superko"] == len(stopped) < 10
