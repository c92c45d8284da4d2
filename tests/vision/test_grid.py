"""Lattice geometry: a grid's homography follows its image when the image is resized."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import grid


def _centre(image: np.ndarray) -> np.ndarray:
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    return np.array([(xs * image).sum(), (ys * image).sum()]) / image.sum()


@pytest.mark.parametrize("factor, how", [(0.5, cv2.INTER_AREA), (0.25, cv2.INTER_AREA),
                                         (2.0, cv2.INTER_LINEAR)])
def test_a_grid_scaled_with_its_image_stays_on_the_same_spot(factor: float, how: int) -> None:
    # A round blob centred on pixel (27, 35), where the homography puts lattice point (0, 0).
    ys, xs = np.mgrid[0:64, 0:64]
    image = np.exp(-((xs - 27.0) ** 2 + (ys - 35.0) ** 2) / 18.0).astype(np.float32)
    h = np.array([[4.0, 0.0, 27.0], [0.0, 4.0, 35.0], [0.0, 0.0, 1.0]])
    resized = cv2.resize(image, None, fx=factor, fy=factor, interpolation=how)
    found = grid.apply(grid.scaled(h, factor), [[0, 0]])[0]
    assert np.allclose(found, _centre(resized), atol=0.02)
