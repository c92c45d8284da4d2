"""The referee's pages in a real headless Chromium, on a phone (390x844) and a TV
(1920x1080), while ``kifu record --serial sim --serve`` records a game from a piped script:
the counting phase after two passes, a dead stone lifted (faded, the live score changes),
Done pressed on the phone, the final score with its territory, still there after the
recording has ended and the page is reloaded; nothing wider than the phone's screen.

Screenshots are kept in the test's tmp_path."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

from tests.kifu.recording import DEAD, GAME, Recording

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
WAIT = 10000
"""Milliseconds within which the pages must show what the recording did."""


def overflow(page: Any) -> int:
    """How many pixels the page is wider than its screen."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_counting_done_and_the_score_that_stays_on_a_phone_and_a_tv(
    browser: Any, tmp_path: Path
) -> None:
    rec = Recording(tmp_path / "club.sgf", "--rules", "japanese", "--serve", "127.0.0.1:0",
                    "--linger", "5", "--player-black", "Ann", "--player-white", "Bo")
    try:
        control = rec.control_url()
        phone = browser.new_page(viewport=PHONE)
        tv = browser.new_page(viewport=TV)
        phone.goto(control)
        tv.goto(control.split("?")[0])
        for page in (phone, tv):
            page.wait_for_selector("#status.live", timeout=WAIT)

        rec.send(*GAME)
        for page in (phone, tv):
            page.wait_for_selector('[data-phase="counting"] .counting-note', state="visible",
                                   timeout=WAIT)
        assert phone.inner_text(".counting-note") == (
            "Counting: take the dead stones off, then press Done")
        assert phone.is_visible(".cmd-done") and not phone.is_visible(".cmd-pass")
        before = phone.inner_text(".score .result")
        assert before == "As it stands: White leads by 11.5"  # A3 alive: no black territory
        phone.screenshot(path=str(tmp_path / "phone-counting.png"), full_page=True)
        tv.screenshot(path=str(tmp_path / "tv-counting.png"))

        rec.send(f"lift {DEAD}")
        for page in (phone, tv):
            page.wait_for_selector(f'circle.stone.white.dead[data-vertex="{DEAD}"]',
                                   timeout=WAIT)
        live = phone.inner_text(".score .result")
        assert live == "As it stands: White leads by 1.5" != before
        assert tv.inner_text(".score .result") == live
        tv.screenshot(path=str(tmp_path / "tv-dead-stone.png"))

        phone.click(".cmd-done")
        for page in (phone, tv):
            page.wait_for_selector('[data-phase="over"]', timeout=WAIT)
        rec.wait_for("the final board stays at")  # the recording is over, the page stays
        for page in (phone, tv):
            page.reload()
            page.wait_for_selector('[data-phase="over"] .score .result', timeout=WAIT)
            assert page.inner_text(".score .result") == "White wins by 1.5"
            rows = page.locator(".breakdown tbody tr").all_inner_texts()
            assert [r.split("\t")[0] for r in rows] == [
                "Territory", "Dead stones", "Komi", "Total"]
            assert page.locator("rect.territory.black").count() == 9
            assert page.locator("rect.territory.white").count() == 5
            assert page.locator(f'circle.stone.dead[data-vertex="{DEAD}"]').count() == 1
            assert page.is_hidden(".controls") and page.is_hidden(".counting-note")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert overflow(tv) <= 0
        board = phone.locator(".board svg").bounding_box()
        assert board is not None and board["width"] >= 390 - 2 * 30  # the board fills the width
        phone.screenshot(path=str(tmp_path / "phone-final.png"), full_page=True)
        tv.screenshot(path=str(tmp_path / "tv-final.png"))

        calibrate = browser.new_page(viewport=PHONE)
        calibrate.goto(control.replace("/?", "/calibrate?"))
        calibrate.wait_for_selector("#result:not([hidden])", timeout=WAIT)
        assert calibrate.inner_text("#result") == "W+1.5 · Black 10, White 11.5"
        assert calibrate.evaluate("document.documentElement.scrollWidth") <= 390
        calibrate.screenshot(path=str(tmp_path / "phone-calibrate.png"), full_page=True)

        t0 = time.monotonic()
        rec.proc.send_signal(signal.SIGINT)  # Ctrl-C ends the lingering at once
        assert rec.finish(timeout=10) == 0
        assert time.monotonic() - t0 < 5
    finally:
        rec.kill()
    for name in ("phone-counting", "tv-counting", "tv-dead-stone", "phone-final", "tv-final",
                 "phone-calibrate"):
        assert (tmp_path / f"{name}.png").stat().st_size > 10000
