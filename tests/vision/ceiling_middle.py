"""How much of a picture's middle (where the board lies, as the reader takes it:
`vision.locate._middle`) is at the sensor's ceiling (`LocateConfig.ceiling`), for the tests
of clipped light. Counted here with numpy, not with the reader's own count."""

from __future__ import annotations

import importlib

import numpy as np

from vision.config import VISION

_locate = importlib.import_module("vision.locate")  # the name `locate` is its function
CFG = VISION.locate


def at_ceiling(image: np.ndarray) -> np.ndarray:
    """The share of the middle of ``image`` at the ceiling: per channel, (3,), for a colour
    picture (BGR); one share, (), for a grey one."""
    clipped = _locate._middle(image, CFG) >= CFG.ceiling
    out: np.ndarray = clipped.reshape(-1, 3).mean(axis=0) if clipped.ndim == 3 else \
        np.mean(clipped)
    return out
