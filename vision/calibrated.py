"""The calibration `benchmarks/fit_confidence.py` fitted: 121 photos in 457 readings (photo stride
8, perturbation stride 12), 313 grids mistaken for the board's (in one photo of 3) and 18
synthetic scenes: 72667 points (82 wrong), 769 boards found (313 wrong).

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
            1.039,  # raw
            -0.5361,  # black
            -0.2956,  # white
            -1.608,  # stone_neighbours
        ),
        bias=3.652,
    ),
    board=Logistic(
        features=(
            'grid',
            'runs_past',
            'margin',
            'size9',
            'size13',
            'doubt',
            'stones',
            'cell',
            'inside',
        ),
        weights=(
            0.47,  # grid
            -3.627,  # runs_past
            -1.183,  # margin
            -0.7251,  # size9
            -0.3426,  # size13
            -8.533,  # doubt
            -0.7434,  # stones
            -0.2041,  # cell
            0.07178,  # inside
        ),
        bias=4.059,
    ),
)
