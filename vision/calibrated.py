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
            1.034,  # raw
            0.6898,  # black
            -0.1462,  # white
            -2.639,  # stone_neighbours
        ),
        bias=3.289,
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
            0.02331,  # grid
            -0.4185,  # size9
            0.1261,  # size13
            -0.9677,  # doubt
            0.3777,  # stones
            0.1476,  # cell
            -0.03562,  # inside
        ),
        bias=3.688,
    ),
)
