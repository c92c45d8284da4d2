"""Playing a game record through the referee, and the text and JSON forms of its events."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rules import (
    Event, Game, GameEnded, IllegalMove, MovePlayed, Passed, Point, Move, Resigned, Ruleset,
    Score, SetupError, StonesRemoved,
)

from .sgf import Record, Setup, SgfError


def start(record: Record, rules: Ruleset, komi: float | None = None) -> Game:
    """A game set up as the record's root says: size, komi (``komi`` overrides the
    record's, which overrides the rules'), handicap and setup stones, player to move.

    Komi defaults are decided here: a record without ``KM`` gets the rules' komi for its
    handicap, so ``RU[AGA]HA[1]`` plays a one-stone handicap with 0.5 komi (AGA rule 4).
    Raises `SgfError` naming the record when its setup stones leave a string without
    liberties."""
    k = komi if komi is not None else record.komi
    game = Game(rules, record.width, record.height, komi=k)
    try:
        _set_up(game, record)
    except SetupError as exc:
        raise SgfError(record.name, f"root: {exc}") from None
    return game


def _set_up(game: Game, record: Record) -> None:
    s = record.setup
    if record.handicap == 1 and not (s.black or s.white):
        game.place_handicap(1)  # Black moves first; komi as the rules give it
    if s.black or s.white or s.empty:
        is_handicap = record.handicap >= 2 and not s.white and len(s.black) == record.handicap
        if is_handicap:
            game.place_handicap(list(s.black))
        else:
            game.setup(s.black, s.white, s.empty)
    elif record.handicap >= 2 and not record.nodes:
        game.place_handicap(record.handicap)
    if s.to_move is not None:
        game.to_move = s.to_move
    elif game.handicap_stones >= 2 and record.nodes:
        first = record.nodes[0]
        if isinstance(first, Move):
            game.to_move = first.color


def replay(game: Game, nodes: Iterable[Move | Setup], name: str = "<sgf>") -> Iterator[Event]:
    """Play the nodes through ``game``, yielding each event. The record's colours are
    followed even out of turn (records may do that); an illegal move is reported as an
    `IllegalMove` event and replay goes on: the move is skipped, or, under rules that treat
    it as a pass (AGA rule 8), counted as that player's pass (`Game.attempt`). Raises
    `SgfError` naming the record (``name``) when a setup node leaves a string without
    liberties."""
    for number, node in enumerate(nodes, 1):
        if isinstance(node, Setup):
            try:
                game.setup(node.black, node.white, node.empty, node.to_move)
            except SetupError as exc:
                raise SgfError(name, f"setup node {number}: {exc}") from None
            continue
        yield game.attempt(node, out_of_turn=True)


def score_events(game: Game, dead: Iterable[Point] = ()) -> list[Event]:
    """Mark ``dead`` and count: the events that close a game."""
    events: list[Event] = []
    dead = list(dead)
    if dead:
        events.append(game.mark_dead(dead))
    how = "passes" if game.consecutive_passes >= 2 else "counted"
    score, ended = game.finish(how=how)
    events.append(ended)
    events.append(score)
    return events


def _vertices(points: Iterable[Point]) -> list[str]:
    return [p.gtp() for p in points]


def to_json(event: Event) -> dict[str, Any]:
    """The JSON object of an event (one per line in ``--json`` output)."""
    if isinstance(event, MovePlayed):
        d: dict[str, Any] = {
            "event": "move", "number": event.number, "color": event.color.letter,
            "vertex": event.point.gtp(), "captures": _vertices(event.captured),
        }
        if event.suicided:
            d["suicided"] = _vertices(event.suicided)
        return d
    if isinstance(event, Passed):
        return {"event": "pass", "number": event.number, "color": event.color.letter}
    if isinstance(event, IllegalMove):
        d = {
            "event": "illegal", "color": event.color.letter,
            "vertex": "pass" if event.point is None else event.point.gtp(),
            "reason": event.reason.value,
        }
        if event.counted_as_pass:
            d["counted_as_pass"] = True
            d["number"] = event.number
            if event.taken_back is not None:
                d["taken_back"] = event.taken_back.gtp()
        return d
    if isinstance(event, StonesRemoved):
        return {"event": "dead" if event.dead else "alive", "stones": _vertices(event.points)}
    if isinstance(event, Resigned):
        return {"event": "resign", "color": event.color.letter}
    if isinstance(event, GameEnded):
        return {"event": "end", "how": event.how,
                "winner": event.winner.letter if event.winner else None}
    if isinstance(event, Score):
        return score_json(event)
    raise TypeError(f"not an event: {event!r}")


def score_json(s: Score) -> dict[str, Any]:
    """The score as JSON: totals, winner, margin, result, and the breakdown per colour."""
    def side(x: Any) -> dict[str, float]:
        return {
            "stones": x.stones, "territory": x.territory, "captures": x.captures,
            "dead": x.dead, "pass_stones": x.pass_stones, "komi": x.komi,
            "compensation": x.compensation, "total": x.total,
        }
    return {
        "event": "score", "rules": s.rules, "black": s.black.total, "white": s.white.total,
        "winner": s.winner.letter if s.winner else "draw", "margin": s.margin,
        "result": s.result(), "komi": s.white.komi, "neutral": s.neutral,
        "dead_stones": _vertices(s.dead_stones),
        "breakdown": {"black": side(s.black), "white": side(s.white)},
    }


def to_text(event: Event) -> str:
    """One line for a person: ``57 W D5 captures D4 E5``, ``W D5 illegal: ko`` ..."""
    if isinstance(event, MovePlayed):
        line = f"{event.number:4d} {event.color.letter} {event.point.gtp()}"
        if event.captured:
            n = len(event.captured)
            line += f"  captures {n} stone{'s' * (n > 1)}: {' '.join(_vertices(event.captured))}"
        if event.suicided:
            line += f"  suicide, removes {' '.join(_vertices(event.suicided))}"
        return line
    if isinstance(event, Passed):
        return f"{event.number:4d} {event.color.letter} pass"
    if isinstance(event, IllegalMove):
        where = "pass" if event.point is None else event.point.gtp()
        if not event.counted_as_pass:
            return f"     {event.color.letter} {where}  illegal: {event.reason.value}"
        also = f", {event.taken_back.gtp()} taken back too" if event.taken_back else ""
        return (f"{event.number:4d} {event.color.letter} {where}  illegal: {event.reason.value}; "
                f"counted as a pass{also} (a pass stone to {event.color.opponent.letter})")
    if isinstance(event, StonesRemoved):
        return f"dead stones{'' if event.dead else ' revived'}: {' '.join(_vertices(event.points))}"
    if isinstance(event, Resigned):
        return f"{event.color.letter} resigns"
    if isinstance(event, GameEnded):
        return "game over" + (f": {event.winner.letter} wins" if event.winner else "")
    if isinstance(event, Score):
        return score_text(event)
    raise TypeError(f"not an event: {event!r}")


def score_text(s: Score) -> str:
    """The score and its breakdown for a person."""
    def side(name: str, x: Any) -> str:
        items = [(k, getattr(x, k)) for k in
                 ("stones", "territory", "captures", "dead", "pass_stones", "komi", "compensation")]
        parts = ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in items if v)
        return f"  {name}: {x.total:g}" + (f" ({parts})" if parts else "")
    lines = [f"score ({s.rules}): {s.result()}", side("black", s.black), side("white", s.white)]
    if s.neutral:
        lines.append(f"  neutral points: {s.neutral}")
    return "\n".join(lines)
