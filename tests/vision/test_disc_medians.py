"""The medians the stone reader takes over a disc of pixels at each point are numpy's
medians of those pixels, to the bit: counting bytes instead of sorting floats (the cheap
way, for the tracking path) changes no reading."""

from __future__ import annotations

import numpy as np
import pytest

from vision.stones import _disc_medians, _discs


def numpy_medians(lab: np.ndarray, flat: np.ndarray) -> tuple[np.ndarray, ...]:
    """The medians as the reader used to take them: every pixel a float, sorted."""
    rows, columns = np.divmod(flat, lab.shape[1])
    values = lab[rows, columns].astype(np.float64)
    a, b = values[..., 1] - 128.0, values[..., 2] - 128.0
    return (np.median(values[..., 0], axis=1), np.median(np.hypot(a, b), axis=1),
            np.median(a, axis=1), np.median(b, axis=1))


def same_to_the_bit(ours: tuple[np.ndarray, ...], theirs: tuple[np.ndarray, ...]) -> bool:
    return all(x.dtype == y.dtype and x.tobytes() == y.tobytes() for x, y in zip(ours, theirs))


@pytest.mark.parametrize("seed", range(12))
def test_over_discs_the_medians_are_numpys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, 256, (60, 70, 3), dtype=np.uint8)
    centres = rng.uniform(-4, 74, (25, 2))  # some discs reach past the border
    discs = _discs(lab.shape, centres, rng.uniform(0.5, 9.0))
    assert same_to_the_bit(_disc_medians(lab, discs), numpy_medians(lab, discs))


@pytest.mark.parametrize("count", [1, 2, 4, 7, 10, 49])
def test_the_medians_are_numpys_for_any_number_of_pixels_odd_or_even(count: int) -> None:
    rng = np.random.default_rng(count)
    # Few levels, so that the middle pixels tie and neighbour one another.
    lab = (rng.integers(0, 4, (30, 30, 3)) * 3 + 126).astype(np.uint8)
    flat = rng.integers(0, 30 * 30, (40, count))
    assert same_to_the_bit(_disc_medians(lab, flat), numpy_medians(lab, flat))


def test_chroma_is_ordered_as_its_float_so_the_middle_chroma_is_numpys() -> None:
    """a and b far apart and near the ends of the byte, where the hypotenuse of two
    pairs of one sum of squares may differ in the last bit."""
    rng = np.random.default_rng(7)
    lab = rng.choice(np.array([0, 1, 127, 128, 129, 254, 255], np.uint8), (40, 40, 3))
    flat = rng.integers(0, 40 * 40, (60, 9))
    assert same_to_the_bit(_disc_medians(lab, flat), numpy_medians(lab, flat))


@pytest.mark.parametrize("radius", [0.4, 1.0, 2.5, 3.84, 9.6, 12.0])
def test_a_disc_holds_an_odd_number_of_pixels_so_its_median_is_one_of_them(
        radius: float) -> None:
    discs = _discs((100, 100), np.array([[50.0, 50.0]]), radius)
    assert discs.shape[1] % 2 == 1
