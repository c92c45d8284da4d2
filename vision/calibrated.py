"""The calibration `benchmarks/fit_confidence.py` fitted (not yet: the raw figures, as
the identity on the raw confidences).

Written by that script with --write; re-run it after any change to the reader's raw
confidences (`vision.stones`, `vision.locate`)."""

from .calibration import Calibration, Logistic

FITTED = Calibration(
    point=Logistic(("raw", "black", "white", "outer", "stone_neighbours", "cell", "border",
                    "grid", "doubt"), (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0.0),
    board=Logistic(("grid", "size9", "size13", "doubt", "stones", "cell", "inside"),
                   (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0.0))
