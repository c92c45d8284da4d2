"""read_board on rendered photos, whose truth is exact: every stone, every corner."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rules import Position
from vision import BoardNotFound, read_board
from vision.synth import Scene, render, random_position


def corner_error_cells(found: np.ndarray, truth: np.ndarray, size: int) -> float:
    """The worst corner distance in cells (the same corner order on both sides)."""
    cell = np.linalg.norm(truth[1] - truth[0]) / (size - 1)
    return float(np.max(np.linalg.norm(found - truth, axis=1)) / cell)


def assert_reads(shot, size=None) -> None:
    reading = read_board(shot.image, size)
    assert reading.size == shot.position.width
    wrong = shot.position.difference(reading.position)
    assert not wrong, (f"misread {[p.gtp() for p in wrong]}\nread:\n{reading.position.diagram()}"
                       f"\ntruth:\n{shot.position.diagram()}")
    assert corner_error_cells(reading.corners, shot.corners, reading.size) < 0.25


@pytest.mark.parametrize("size, seed", [(size, seed) for size in (9, 13, 19) for seed in (1, 2, 3)])
def test_reads_rendered_boards_of_every_size(size: int, seed: int) -> None:
    assert_reads(render(random_position(size, seed), seed))


@pytest.mark.parametrize("seed", [11, 12])
def test_reads_a_steep_angle(seed: int) -> None:
    assert_reads(render(random_position(19, seed, stones=0.2), seed, Scene(tilt=0.22)))


@pytest.mark.parametrize("seed", [21, 22])
def test_reads_a_dark_and_blurred_jpeg(seed: int) -> None:
    scene = Scene(gradient=0.6, noise=10.0, blur=1.6, jpeg_quality=40)
    assert_reads(render(random_position(13, seed), seed, scene))


def test_reads_a_crowded_board() -> None:
    assert_reads(render(random_position(19, 31, stones=0.6), 31))


def test_empty_board_reads_empty() -> None:
    shot = render(Position.empty(19), 41)
    assert read_board(shot.image).position == Position.empty(19)


def test_hand_at_the_edge_leaves_the_grid_found() -> None:
    shot = render(random_position(19, 51, stones=0.15), 51, Scene(hand=True))
    reading = read_board(shot.image)
    assert reading.size == 19
    assert corner_error_cells(reading.corners, shot.corners, 19) < 0.25


@pytest.mark.parametrize("taken", [0.3, 0.75])
def test_bowls_and_lids_of_stones_beside_the_board_are_no_part_of_it(taken: float) -> None:
    # A bowl heaped with black stones is a lattice-less crowd of them, and a lid holds a
    # few more: neither may pull the grid off the board or be read as stones on it.
    position = random_position(19, 4, stones=taken)
    # Drawn in a calm light without noise, the clutter is all that tells the two apart.
    calm = Scene(glare=False, noise=0.0, gradient=0.0)
    cluttered = render(position, 4, dataclasses.replace(calm, bowls=True)).image.astype(int)
    clear = render(position, 4, calm).image
    assert (np.abs(cluttered - clear).max(axis=2) > 40).mean() > 0.03
    shot = render(position, 4, Scene(bowls=True))
    reading = read_board(shot.image)
    assert corner_error_cells(reading.corners, shot.corners, 19) < 0.1
    assert reading.rows() == shot.position.rows()


@pytest.mark.parametrize("seed", [3, 5])
def test_a_crowded_13x13_seen_from_45_degrees_is_found(seed: int) -> None:
    # A refit of the grid took the lattice onto one line of the photo here: its singular
    # map raised LinAlgError out of read_board.
    shot = render(random_position(13, seed, stones=0.75), seed,
                  Scene(camera_tilt=45, stone_height=0.2))
    reading = read_board(shot.image)
    assert reading.size == 13
    assert corner_error_cells(reading.corners, shot.corners, 13) < 0.1


def test_size_given_is_the_size_read() -> None:
    shot = render(random_position(13, 61), 61)
    assert read_board(shot.image, size=13).size == 13


def test_rendering_is_seeded() -> None:
    a = render(random_position(9, 7), 7)
    b = render(random_position(9, 7), 7)
    assert np.array_equal(a.image, b.image) and a.position == b.position


def test_grey_images_are_read_too() -> None:
    shot = render(random_position(9, 71), 71)
    import cv2
    grey = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    assert read_board(grey).size == 9


def test_no_board_is_board_not_found_with_a_reason() -> None:
    rng = np.random.default_rng(0)
    flat = np.full((480, 640, 3), 120, np.uint8)
    noise = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    for image in (flat, noise):
        with pytest.raises(BoardNotFound) as err:
            read_board(image)
        assert err.value.reason


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 2), np.uint8), np.zeros((40, 40), np.float32),
                                 "board.jpg"])
def test_what_is_not_an_image_is_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        read_board(bad)  # type: ignore[arg-type]


def test_a_size_no_board_has_is_a_value_error() -> None:
    shot = render(Position.empty(9), 1)
    with pytest.raises(ValueError, match="board size"):
        read_board(shot.image, size=11)
