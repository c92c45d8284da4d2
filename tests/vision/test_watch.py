"""`BoardWatcher` on filmed games: hands are never read as stones, a flicker never reaches
the tracker, a bumped camera is followed, and a game comes out move for move; the stones
are read only when a point may read differently, never on every frame of a still board."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from kifu.tracker import Announcement, Tracker
from rules import Cell, Color, Game, Move, MovePlayed, Observation, Point, preset
from rules.observation import UNKNOWN
from vision import BoardNotFound, locate
from vision.config import STONES, VISION
from vision.film import Film, Take, script
from vision.perturb import Brightness
from vision.watch import BoardWatcher, WatchConfig, as_reading

from .misreads import scene
from .test_illuminant import faint_board


def random_game(size: int, moves: int, seed: int) -> list[Move]:
    """A seeded legal game that captures now and then (captures are preferred)."""
    rng = random.Random(seed)
    game = Game(preset("chinese"), size)
    out: list[Move] = []
    while len(out) < moves:
        legal = [p for p in game.board.geo.points if game.legality(p) is None]
        capturing = [p for p in legal if _captures(game, p)]
        p = rng.choice(capturing or legal)
        out.append(Move(game.to_move, p))
        game.play(p)
    return out


def _captures(game: Game, p: Point) -> bool:
    """Would the player to move capture by playing at ``p``?"""
    trial = Game(preset("chinese"), game.width)
    trial.setup(black=game.position.stones(Color.BLACK), white=game.position.stones(Color.WHITE),
                to_move=game.to_move)
    return bool(trial.play(p).captured)


def record(moves: list[Move], take: Take, size: int = 9
           ) -> tuple[Game, list[Announcement], BoardWatcher, list[Move]]:
    """The film of ``moves`` recorded: the game, what was said, the watcher and the moves
    recorded, in order."""
    shots = script(moves, size, take)
    film = Film(size, take)
    watcher = BoardWatcher(size)
    game = Game(preset("chinese"), size)
    tracker = Tracker(game, stable_for=0.3)
    said: list[Announcement] = []
    played: list[Move] = []
    for shot in shots:
        for out in tracker.feed(watcher.observe(film.render(shot), shot.time)):
            if isinstance(out, Announcement) and out.kind.value != "waiting-for-removal":
                said.append(out)
            if isinstance(out, MovePlayed) and out.point is not None:
                played.append(Move(out.color, out.point))
    return game, said, watcher, played


def test_a_filmed_game_with_hands_late_captures_light_and_a_bump_is_recorded_exactly() -> None:
    moves = random_game(9, 36, seed=3)
    take = Take(width=960, height=540, fps=8.0, hold=1.0, bump_after=20, seed=1)
    game, said, watcher, played = record(moves, take)
    assert played == moves
    assert said == []
    assert game.captures[1] + game.captures[2] > 0  # the film had captures to lift
    assert watcher.located >= 2  # the bump was followed


def test_a_hand_over_the_board_is_unknown_not_stones() -> None:
    moves = random_game(9, 6, seed=5)
    take = Take(width=960, height=540, fps=10.0, light=False, seed=2)
    shots = script(moves, 9, take)
    film = Film(9, take)
    watcher = BoardWatcher(9)
    before = shots[0].cells  # the board before the hand came in
    for shot in shots:
        obs = watcher.observe(film.render(shot), shot.time)
        if shot.hand is None:
            before = shot.cells
            continue
        # Under and around the hand every point is unknown, or reads what is there now or
        # was before the hand came: the hand itself is never read as stones.
        for i, c in enumerate(obs.cells):
            assert c in (UNKNOWN, shot.cells[i], before[i]), (shot.time, i, c)


def test_a_one_frame_flicker_never_reaches_the_observations() -> None:
    take = Take(width=960, height=540, fps=10.0, hands=False, light=False, seed=4)
    film = Film(9, take)
    empty = tuple([0] * 81)
    watcher = BoardWatcher(9)
    frame = film.render(script([], 9, take)[0])
    for k in range(10):
        img = frame.copy()
        if k == 5:  # a white blob on E5 for one frame only
            centre = film._point(Point(4, 4), 0)
            cv2 = __import__("cv2")
            cv2.circle(img, (int(centre[0]), int(centre[1])), 12, (235, 235, 235), -1)
        obs = watcher.observe(img, k * 0.1)
        assert all(c in (0, UNKNOWN) for c in obs.cells), k
    assert obs.cells == empty


def test_no_board_in_view_is_all_unknown_and_the_watcher_says_why() -> None:
    watcher = BoardWatcher(19)
    blank = np.full((480, 640, 3), 90, np.uint8)
    obs = watcher.observe(blank, 0.0)
    assert set(obs.cells) == {UNKNOWN}
    assert watcher.located == 0 and watcher.fit is None
    with pytest.raises(BoardNotFound) as caught:
        locate(blank, 19)
    assert watcher.reason == caught.value.reason
    assert not any(isinstance(x, MovePlayed) for x in Tracker(Game("chinese", 19)).feed(obs))


def test_the_reason_is_forgotten_once_the_board_is_found() -> None:
    take = Take(width=960, height=540, hands=False, light=False, seed=2)
    board = Film(9, take).render(script([], 9, take)[0])
    watcher = BoardWatcher(9)
    watcher.observe(np.full_like(board, 90), 0.0)
    assert watcher.reason is not None
    watcher.observe(board, 0.1)
    assert watcher.fit is not None and watcher.reason is None


def test_what_the_watcher_saw_is_a_reading_through_its_grid_with_hidden_points_unsure() -> None:
    take = Take(width=960, height=540, hands=False, light=False, seed=2)
    shot = script(random_game(9, 6, seed=6), 9, take)[-1]
    watcher = BoardWatcher(9)
    obs = watcher.observe(Film(9, take).render(shot), 0.0)
    assert watcher.fit is not None and UNKNOWN not in obs.cells
    reading = as_reading(watcher.fit, obs)
    assert reading.observation().cells == obs.cells == shot.cells
    assert reading.size == 9 and reading.board_confidence == watcher.fit.confidence
    assert np.array_equal(reading.homography, watcher.fit.homography)
    assert np.allclose(reading.corners, watcher.fit.corners)
    # A hand over the middle: those points are drawn as empty points read with no confidence.
    cells = list(obs.cells)
    cells[40] = UNKNOWN
    confidence = list(obs.confidence)
    confidence[40] = 0.0
    hidden = as_reading(watcher.fit, Observation(9, 9, tuple(cells), tuple(confidence)))
    assert hidden.position.cells[40] == 0 and hidden.confidence[40] == 0.0
    with pytest.raises(ValueError, match="13x13 observation does not fit a 9x9 grid"):
        as_reading(watcher.fit, Observation(13, 13, (0,) * 169))


def test_a_still_board_is_read_only_every_refresh_seconds_not_on_every_frame() -> None:
    take = Take(width=960, height=540, fps=10.0, hands=False, light=False, seed=2)
    shot = script(random_game(9, 8, seed=6), 9, take)[-1]  # eight stones, nobody moving
    film = Film(9, take)
    watcher = BoardWatcher(9, config=WatchConfig(refresh=2.0))
    for k in range(50):  # five seconds, every frame with its own camera noise
        obs = watcher.observe(film.render(shot), k * 0.1)
        assert obs.cells == shot.cells, k
    assert watcher.reads == 3  # at 0, 2 and 4 s


def test_a_stone_put_down_after_a_still_period_is_read_again_and_reported() -> None:
    take = Take(width=960, height=540, fps=10.0, light=False, seed=2)
    moves = [Move(Color.BLACK, Point(4, 4)), Move(Color.WHITE, Point(2, 6))]
    shots = script(moves, 9, take)
    film = Film(9, take)
    watcher = BoardWatcher(9)
    reads_when_still = None
    for shot in shots:
        obs = watcher.observe(film.render(shot), shot.time)
        if shot.hand is not None and reads_when_still is None:
            reads_when_still = watcher.reads  # a second of still frames went before the hand
    assert reads_when_still == 1
    assert obs.cells == shots[-1].cells  # both stones, and nothing else
    # Each move is read a few times, as its stone settles: not on every one of the frames.
    assert watcher.reads - reads_when_still <= 2 * (1 + watcher.config.persist) < len(shots) // 2


def test_a_new_stone_is_reported_once_read_on_persist_frames_in_a_row() -> None:
    take = Take(width=960, height=540, fps=10.0, hands=False, light=False, seed=4)
    shots = script([Move(Color.BLACK, Point(4, 4))], 9, take)
    film = Film(9, take)
    empty, stone = shots[0], shots[-1]
    watcher = BoardWatcher(9)
    e5 = []
    for k in range(20):  # the stone appears at once in frame 5 (no hand seen)
        obs = watcher.observe(film.render(empty if k < 5 else stone), k * 0.1)
        e5.append(obs.cells[4 * 9 + 4])
    runs = [c for k, c in enumerate(e5) if k == 0 or e5[k - 1] != c]
    assert runs == [0, UNKNOWN, 0, 1]  # empty, moving, empty until it persists, black
    persist = watcher.config.persist
    assert e5.count(0) == 5 + persist - 1
    # The first reading, then one on each frame while the new label was persisting.
    assert watcher.reads == 1 + persist


def test_a_change_too_slow_to_be_motion_is_still_read_and_reported() -> None:
    take = Take(width=960, height=540, fps=10.0, hands=False, light=False, seed=4)
    shots = script([Move(Color.BLACK, Point(4, 4))], 9, take)
    film = Film(9, take)
    empty = film.render(shots[0]).astype(np.float32)
    stone = film.render(shots[-1]).astype(np.float32)
    watcher = BoardWatcher(9)
    steps = 40  # each frame a 40th of the way: far less change than motion
    for k in range(steps + 5):
        share = min(k, steps) / steps
        frame = np.rint((1 - share) * empty + share * stone).astype(np.uint8)
        obs = watcher.observe(frame, k * 0.1)
        assert UNKNOWN not in obs.cells, k
    assert obs.cells == shots[-1].cells


def test_a_board_located_again_where_it_was_keeps_its_grid_and_readings(monkeypatch) -> None:
    # The lines a grid sits on fade as stones cover them; on a crowded board (located from
    # its stones) that can look like a slipped grid. Located again in the same place, the
    # board is the same: no point goes unknown, nothing is read again for it.
    take = Take(width=960, height=540, fps=10.0, hands=False, light=False, seed=2)
    shot = script(random_game(9, 8, seed=6), 9, take)[-1]
    film = Film(9, take)
    scored: list = []  # the grids scored: the first at location, then at every check

    def score(gray, fit, cfg) -> float:  # every check finds half the score at location
        scored.append(fit)
        return 1.0 if len(scored) == 1 else 0.5

    monkeypatch.setattr("vision.watch.lattice_score", score)
    watcher = BoardWatcher(9, config=WatchConfig(refresh=10.0))
    for k in range(20):
        obs = watcher.observe(film.render(shot), k * 0.1)
        assert obs.cells == shot.cells, k
    assert watcher.located == 2  # once more after the first check; then half was the mark
    assert all(fit is scored[0] for fit in scored) and watcher.fit is scored[0]
    assert watcher.reads == 1


def test_a_watched_board_carries_the_doubt_a_photo_does_over_an_object_lying_on_it() -> None:
    # The tracking path reads a frame as a photo is read, confidence and all: the points
    # under a flat object are not stones on their points, and none is read as a stone
    # surely (read empty, or read as a stone with doubt).
    under = sure = 0
    for seed in range(3):
        shot = scene("object", 9, seed, 0.35, frame=(480, 360))
        obs = BoardWatcher(9).observe(shot.image, 0.0)
        labels = np.array(obs.cells).reshape(9, 9)[::-1]
        confidence = np.array(obs.confidence).reshape(9, 9)[::-1]
        stones = shot.hidden & (labels != 0) & (labels != UNKNOWN)
        under += int(shot.hidden.sum())
        sure += int((stones & (confidence >= 0.6)).sum())
    assert under >= 10  # the objects cover points
    assert sure <= under // 5, (sure, under)


def test_the_stone_config_given_is_the_one_the_stones_are_read_with() -> None:
    # `kifu record` hands the watcher its own stone config (stone_config=): it decides.
    # (The measured reader alone: the net, weighed in by default, would see the stones.)
    take = Take(width=960, height=540, hands=False, light=False, seed=2)
    frame = Film(9, take).render(script(random_game(9, 6, seed=6), 9, take)[-1])
    measured = dataclasses.replace(VISION, point_net=None)
    blind = dataclasses.replace(STONES, black_drop=2.0)  # nothing is that much darker
    seen = BoardWatcher(9, vision=measured).observe(frame, 0.0).cells
    watcher = BoardWatcher(9, vision=measured, stone_config=blind)
    unseen = watcher.observe(frame, 0.0).cells
    assert Cell.BLACK in seen and Cell.BLACK not in unseen
    assert watcher.vision.stones is blind


def test_a_pale_board_only_a_neutral_grey_shows_is_watched_as_a_photo_is_read() -> None:
    # Too bright an exposure clips the pale wood and its lines out of the picture's grey;
    # the watcher looks again under a neutral light, as `read_board` does.
    photo, _ = faint_board(0)
    frame = Brightness(1.4).apply(photo).image
    with pytest.raises(BoardNotFound):
        locate(frame, 19)
    watcher = BoardWatcher(19)
    watcher.observe(frame, 0.0)
    assert watcher.located == 1 and watcher.reason is None
