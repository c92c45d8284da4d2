"""The picture seen under a neutral light: a coloured lamp or an exposure too bright taken out
before the board is looked for again.

A lamp multiplies each colour channel by its own gain. Where a gain lifts a channel past the
sensor's ceiling that channel is clipped: flat at 255 over the wood, the grid lines gone
from it. A grey made with the fixed weights of a white light (BT.601) still counts the
clipped channels, so the lines' contrast in it falls to what the unclipped channels give,
weighted down (a magenta lamp clips red and blue and leaves the lines in green alone, at
0.587 of their weight), and a threshold in grey levels no longer sees them. What a person's
eye does instead, step by step, each a function of its own:

1. `clipped_share`: how much of the picture each channel has lost to the ceiling.
2. `white_gains`: the lamp's gain per channel, estimated from the brightest surfaces
   (white patch: white stones and the wood's highlights are white under a neutral light).
3. `channel_weights`: each channel weighted by what it holds: its share of a white light's
   grey, times the share of the picture it has not clipped.
4. `neutral_gray`: the channels divided by the lamp's gains, weighted so, and stretched
   between the picture's own dark and bright percentiles: a grey whose contrast is the
   picture's, not the lamp's.

Everything is a function of a numpy image and a `LightConfig`; `vision.read_board` looks
for the board in `neutral_gray` too when it finds none in the picture as taken, only a
doubtful one, or the picture was taken under a coloured lamp (`lamp_gains`) or has a
channel clipped over much of it (`clipped_over`), and keeps the neutral light's grid where
it is another and surer, or under a lamp sure enough
(`vision.reading.locate_in_any_light`).

The stones are read in colour, against the wood's tint and lightness; under a coloured lamp
the wood's tint and the white stones' are the lamp's, and white stones read empty. So where
the brightest surfaces' channels differ as only a lamp makes them (`lamp_gains`), the stones
are read in the picture with the lamp's gains divided out (`under_white`); a picture under
a room's light is read as taken.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import LIGHT, LightConfig

LUMA = np.array([0.114, 0.587, 0.299])
"""BGR weights of a pixel's brightness under a white light (ITU-R BT.601, as OpenCV's grey)."""


def _bgr(image: np.ndarray) -> np.ndarray:
    """``image`` (H, W, 3 or 4) uint8 as its three BGR channels; raises ValueError on others."""
    if image.ndim != 3 or image.shape[2] not in (3, 4) or image.dtype != np.uint8:
        raise ValueError(f"expected a uint8 BGR image (H, W, 3), got {image.dtype} "
                         f"{image.shape}")
    return image[:, :, :3]


def share_at(plane: np.ndarray, level: int) -> float:
    """The share of the pixels of ``plane`` (one channel, uint8) at ``level`` or above; 0
    for a plane of no pixels. Counted channel by channel: a mean over the pixels of a
    whole picture's three channels at once copies it and is many times slower."""
    return int(np.count_nonzero(plane >= level)) / max(plane.size, 1)


def clipped_share(image: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """(3,) per BGR channel of ``image`` (uint8, H x W x 3), the share of its pixels at or
    above ``cfg.clip_level``: what that channel has lost to the sensor's ceiling."""
    bgr = _bgr(image)
    return np.array([share_at(bgr[:, :, k], cfg.clip_level) for k in range(3)])


def white_gains(image: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """(3,) the lamp's gain per BGR channel of ``image``, relative to full scale: each
    channel's ``cfg.white_percentile`` (its brightest surfaces, which a neutral light shows
    white) over 255. A channel whose brightest surfaces clip has gain 1: its lamp gain is
    not known beyond that, and dividing by 1 leaves it as it is."""
    bgr = _bgr(image)
    top = np.percentile(bgr.reshape(-1, 3), cfg.white_percentile, axis=0)
    out: np.ndarray = np.maximum(top, 1.0) / 255.0
    return out


def channel_weights(image: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """(3,) weights summing to 1 of the BGR channels of ``image`` in `neutral_gray`: each
    channel's share of a white light's grey (`LUMA`) times the share of the picture it
    has not clipped (`clipped_share`). An unclipped picture keeps the usual weights; a
    channel clipped all over (flat, no lines left in it) weighs nothing. If every channel
    is clipped all over, the usual weights."""
    w = LUMA * (1.0 - clipped_share(image, cfg))
    if w.sum() <= 0:
        return LUMA.copy()
    out: np.ndarray = w / w.sum()
    return out


def stretch(gray: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """``gray`` (float or uint8, any shape) as uint8, its ``cfg.stretch_percentiles`` (low,
    high) mapped to 0 and 255 and the rest clipped: contrast relative to the picture's own
    range, as thresholds in grey levels expect of a well-exposed photo. A flat picture
    (both percentiles equal) is returned as it is."""
    g = gray.astype(np.float32)
    lo, hi = np.percentile(g, cfg.stretch_percentiles)
    if hi - lo < 1.0:
        return np.clip(g, 0, 255).astype(np.uint8)
    out: np.ndarray = np.clip((g - lo) * (255.0 / (hi - lo)), 0, 255).astype(np.uint8)
    return out


def neutral_gray(image: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """``image`` (uint8, grey or BGR/BGRA) as a uint8 grey seen under a neutral light:
    each channel divided by the lamp's gain (`white_gains`, read off at most
    ``cfg.gain_sample`` pixels, as `lamp_gains` reads it), the channels weighted by what
    they still hold (`channel_weights`), and the result `stretch`-ed to the picture's own
    range. A grey image is only stretched."""
    if image.ndim == 2:
        return stretch(image, cfg)
    bgr = _bgr(image)
    w = channel_weights(bgr, cfg) / _sampled_gains(bgr, cfg)
    return stretch(bgr.astype(np.float32) @ w.astype(np.float32), cfg)


def _sample(image: np.ndarray, pixels: int) -> np.ndarray:
    """``image`` (H, W, C) taken every k-th row and column, k the smallest step that leaves
    at most ``pixels`` pixels."""
    step = max(1, int(np.ceil(np.sqrt(image.shape[0] * image.shape[1] / max(pixels, 1)))))
    return image[::step, ::step]


def _sampled_gains(bgr: np.ndarray, cfg: LightConfig) -> np.ndarray:
    """`white_gains` of ``bgr`` (H, W, 3 uint8) read off at most ``cfg.gain_sample`` of its
    pixels, taken evenly over the picture (`_sample`)."""
    return white_gains(_sample(bgr, cfg.gain_sample), cfg)


def lamp_gains(image: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray | None:
    """(3,) the coloured lamp's gains per BGR channel of ``image`` (uint8 BGR or BGRA),
    relative to the strongest (which is 1), or None where the light is a room's: the
    brightest surfaces' channels (`white_gains`, read off at most ``cfg.gain_sample``
    pixels) differ by less than ``cfg.lamp_ratio``, and their green lies no more than
    ``cfg.room_green`` above the line from amber to blue that room lights keep to
    (`_green_excess`; a green lamp whose clipped channel hides its ratio is off it). A grey
    image has no lamp. The white patch takes the brightest surfaces to be white: a picture
    with nothing white in it (an empty board of warm wood filling the frame) can show the
    wood's own colour as a lamp."""
    if image.ndim == 2:
        return None
    gains = _sampled_gains(_bgr(image), cfg)
    if (gains.max() < cfg.lamp_ratio * gains.min()
            and _green_excess(gains) <= cfg.room_green):
        return None
    out: np.ndarray = gains / gains.max()
    return out


def clipped_over(image: np.ndarray, cfg: LightConfig = LIGHT) -> bool:
    """Whether one channel of ``image`` (uint8 BGR or BGRA) is at the ceiling over
    ``cfg.clipped_again`` of the picture or more (`clipped_share`, read off at most
    ``cfg.gain_sample`` pixels): the board's lines may be gone from that channel over much
    of the wood, and the grey made with a white light's weights holds them in the other
    channels alone. A grey image has no channel to weigh out: False."""
    if image.ndim == 2:
        return False
    share = clipped_share(_sample(_bgr(image), cfg.gain_sample), cfg)
    return bool(share.max() >= cfg.clipped_again)


def _green_excess(gains: np.ndarray) -> float:
    """How far the green gain of BGR ``gains`` (3,) lies above the geometric mean of the
    blue and red ones, as a natural log: off the amber-to-blue line of room lights."""
    logs = np.log(np.maximum(gains, 1e-3))
    return float(logs[1] - 0.5 * (logs[0] + logs[2]))


def balanced(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` (uint8 BGR or BGRA) with each channel divided by its ``gains`` (3,) (as
    `lamp_gains` gives them: none above 1, so no channel is darkened), rounded and clipped
    to uint8, as BGR: the picture as a white light would show it, up to the channels the
    lamp clipped."""
    bgr = _bgr(image)
    tables = [np.clip(np.rint(np.arange(256) / max(float(g), 1e-3)), 0, 255).astype(np.uint8)
              for g in gains]
    return cv2.merge([cv2.LUT(np.ascontiguousarray(bgr[:, :, c]), tables[c])
                      for c in range(3)])


def under_white(image: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """``image`` as the stones are read in it: `balanced` by the lamp's gains where it was
    taken under a coloured lamp (`lamp_gains`), else ``image`` itself, untouched."""
    gains = lamp_gains(image, cfg)
    return image if gains is None else balanced(image, gains)
