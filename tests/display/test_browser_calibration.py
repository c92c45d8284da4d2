"""The calibration page in a real headless Chromium, on a live recording from a
synthetic camera: the operator sees the camera's picture with the grid and stones read,
turns the board until A1 is at Black's lower left, and sees the game turn with it.

Screenshots go to test-artifacts/display/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import vision
from kifu.sgf import load
from tests.display.camera_rig import Recording, board_picture, cloth, eventually
from tests.display.conftest import ARTIFACTS

BLACK_C3 = ["........."] * 6 + ["..X......", ".........", "........."]
WAIT = 15000
"""Milliseconds within which the page must show what the test waits for (a recording
starved of CPU, as on a loaded machine, is several times slower than alone)."""


def test_the_operator_sees_the_camera_and_turns_the_board(browser: Any, tmp_path: Path) -> None:
    rec = Recording(tmp_path / "game.sgf", board_picture(BLACK_C3))
    page = browser.new_page(viewport={"width": 1400, "height": 820})
    try:
        eventually(lambda: rec.state()["number"] == 1)
        page.goto(rec.server.control_url)  # the live page, with the token
        page.click(".calibrate-link", timeout=WAIT)
        page.wait_for_selector("#status.live", timeout=WAIT)
        page.wait_for_selector('#orientation[data-orientation="0"]', timeout=WAIT)
        page.wait_for_selector('#frame[data-shown$="-0"]', timeout=WAIT)  # the picture came
        # (a newer frame may be on its way meanwhile: the picture is whole once it is in)
        page.wait_for_function("document.getElementById('frame').naturalWidth === 960",
                               timeout=WAIT)
        assert page.inner_text("#camera-status").startswith("Board found: 9×9")
        assert page.inner_text("#orientation .where") == "Black sits at the bottom of the picture"
        page.wait_for_selector('.board circle.stone.black[data-vertex="C3"]', timeout=WAIT)
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / "calibration.png"))

        page.click(".turn")
        page.wait_for_selector('#orientation[data-orientation="90"]', timeout=WAIT)
        assert page.inner_text("#orientation .where") == "Black sits at the right of the picture"
        page.wait_for_selector('.board circle.stone.black[data-vertex="C7"]', timeout=WAIT)
        assert page.inner_text(".announcements li:first-child") == (
            "Orientation now 90°: the move so far turned a quarter clockwise to match")
        page.wait_for_selector('#frame[data-shown$="-90"]', timeout=WAIT)  # coordinates redrawn
        assert [m.gtp() for m in load(rec.out).moves] == ["B C7"]
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / "calibration-turned.png"))

        page.click(".confirm")
        page.wait_for_selector('.announcements li:first-child:text("Orientation 90° confirmed")',
                               timeout=WAIT)

        # The picture's marks are explained; a point the camera misreads is corrected.
        assert page.is_visible("#legend")
        assert page.locator("#legend li").all_inner_texts()[:3] == [
            "grid found", "black stone read", "white stone read"]
        page.fill("#set-point input[name=point]", "e5")
        page.select_option("#set-point select[name=stone]", "white")
        page.click("#set-point button")
        page.wait_for_selector('.board circle.stone.white[data-vertex="E5"]', timeout=WAIT)
        assert page.inner_text(".announcements li:first-child") == (
            "E5 set to white (the camera read it empty)")
        assert [m.gtp() for m in load(rec.out).moves] == ["B C7", "W E5"]
    finally:
        page.close()
        rec.stop()


def test_without_a_board_in_sight_the_page_says_why(browser: Any, tmp_path: Path) -> None:
    picture = cloth()
    try:
        vision.read_board(picture, 9)
        raise AssertionError("a board was read on bare cloth")
    except vision.BoardNotFound as exc:
        reason = exc.reason
    rec = Recording(tmp_path / "game.sgf", picture)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(f"{rec.server.url}calibrate")  # no token, no board named
        page.wait_for_selector("#frame[data-shown]", timeout=WAIT)  # the bare frame
        page.wait_for_selector('#camera-status[data-found="false"]', timeout=WAIT)
        assert page.inner_text("#camera-status").startswith(f"No board found: {reason}")
        assert page.locator("#orient-controls").is_hidden()
        assert page.locator("#no-token").is_visible()
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / "calibration-no-board.png"))
    finally:
        page.close()
        rec.stop()
