"""`benchmarks/vision_dump.py --diff`: which photos' readings a change altered; with
``--readings``, a change to the confidences alone alters none."""

from __future__ import annotations

from typing import Any

from benchmarks.vision_dump import diff


def reading(rows: list[str], confidence: float, board: float) -> dict[str, Any]:
    return {"found": True, "size": 9, "board_confidence": board, "rows": rows,
            "confidence": [confidence] * 81}


BEFORE = {"a.jpg": reading(["X........"], 0.9, 0.7), "b.jpg": {"found": False, "reason": "x"}}


def test_a_new_confidence_is_a_difference_unless_only_readings_are_compared() -> None:
    after = {"a.jpg": reading(["X........"], 0.99, 0.4), "b.jpg": BEFORE["b.jpg"]}
    assert diff(BEFORE, after) == ["a.jpg"]
    assert diff(BEFORE, after, readings=True) == []


def test_a_stone_read_otherwise_is_a_difference_either_way() -> None:
    after = {"a.jpg": reading(["O........"], 0.9, 0.7), "b.jpg": BEFORE["b.jpg"]}
    assert diff(BEFORE, after, readings=True) == ["a.jpg"]


def test_a_photo_the_first_dump_lacks_differs() -> None:
    after = {"c.jpg": reading(["X........"], 0.9, 0.7)}
    assert diff(BEFORE, after, readings=True) == ["c.jpg"]
