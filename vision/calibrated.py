"""The calibration `benchmarks/fit_confidence.py` fitted: 155 photos in 1034 readings (photo stride
4, perturbation stride 6) and 54 synthetic scenes: 135172 points (223 wrong), 1030 boards found
(24 wrong).

Written by that script with --write; re-run it after any change to the reader's
raw confidences (`vision.stones`, `vision.locate`)."""

from .calibration import Calibration, Logistic

FITTED = Calibration(
    point=Logistic(
        features=(
            'raw',
            'black',
            'white',
            'stone_neighbours',
        ),
        weights=(
            0.9738,  # raw
            0.6291,  # black
            -0.1077,  # white
            -3.046,  # stone_neighbours
        ),
        bias=3.431,
    ),
    board=Logistic(
        features=(
            'grid',
            'size9',
            'size13',
            'doubt',
            'stones',
            'cell',
            'inside',
        ),
        weights=(
            0.0,  # grid
            -0.4143,  # size9
            0.1268,  # size13
            -1.064,  # doubt
            0.3691,  # stones
            0.1484,  # cell
            -0.03442,  # inside
        ),
        bias=3.704,
    ),
)
