"""``kifu demo``: the bundled famous game, filmed with hands, late captures, light changes
and a camera bump, is recorded from the film exactly, move for move."""

from __future__ import annotations

import io
from pathlib import Path

from kifu import demo


def test_the_demo_records_the_famous_game_exactly(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = demo.run(tmp_path, out, err)
    text = out.getvalue()
    assert status == 0, text[-3000:]
    assert "check: the recorded SGF equals the source game, all 180 moves" in text
    assert "illegal" not in text
    assert "result: W+R" in text
    films = list(tmp_path.glob("*.avi"))
    assert len(films) == 1 and not list(tmp_path.glob("*.partial.avi"))
    # A second run uses the cached film.
    err2 = io.StringIO()
    assert demo.run(tmp_path, io.StringIO(), err2) == 0
    assert "filming" not in err2.getvalue()
