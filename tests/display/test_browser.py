"""The page in a real headless Chromium (Debian's ``chromium``, driven by Playwright):
what a club sees on its screen while a game is played on the board.

Screenshots go to test-artifacts/display/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from kifu.display import DisplayServer, LiveBoard, game_commands
from rules import Game, IllegalMove, IllegalMoveError, Point
from tests.display.conftest import ARTIFACTS

PROMPT = 1000
"""Milliseconds within which a change on the board must show on the page."""


class Table:
    """A game on a live board, served, and a page looking at it."""

    def __init__(self, browser: Any, size: int = 9, rules: str = "japanese",
                 with_token: bool = False) -> None:
        self.game = Game(rules, size)
        self.board = LiveBoard("1", size, title="Club night, table 1")
        self.board.describe(players=("Honinbo Shusaku", "Gennan Inseki"))
        self.board.on_command = game_commands(self.board, self.game)
        self.server = DisplayServer([self.board]).start()
        self.page = browser.new_page(viewport={"width": 1280, "height": 800})
        self.page.goto(self.server.control_url if with_token else self.server.url)
        self.page.wait_for_selector('[data-board="1"] svg.goban', timeout=5000)
        self.page.wait_for_selector("#status.live", timeout=5000)

    def play(self, *moves: str) -> None:
        for v in moves:
            try:
                event = self.game.pass_() if v == "pass" else self.game.play(Point.from_gtp(v))
            except IllegalMoveError as exc:
                self.board.publish(IllegalMove(exc.color, exc.point, exc.reason))
            else:
                self.board.update(self.game, event)

    def stone(self, vertex: str, color: str) -> str:
        return f'[data-board="1"] circle.stone.{color}[data-vertex="{vertex}"]'

    def shot(self, name: str) -> None:
        self.page.wait_for_timeout(1300)  # let the newest announcement's flash fade
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def close(self) -> None:
        self.page.close()
        self.server.stop()


@pytest.fixture
def table(browser: Any) -> Iterator[Table]:
    t = Table(browser)
    yield t
    t.close()


def test_the_page_loads_with_the_board_and_the_players(table: Table) -> None:
    page = table.page
    assert page.title() == "kifu · live board"
    assert page.inner_text('[data-board="1"] .title') == "Club night, table 1"
    assert page.inner_text(".player.b .name") == "Honinbo Shusaku"
    assert "to-move" in (page.get_attribute(".player.b", "class") or "")
    assert page.locator("circle.stone").count() == 0
    assert page.locator("circle.star").count() == 5
    assert page.locator(".controls").is_hidden()  # no token, no buttons
    table.shot("empty-board")
    page.click(".rotate")
    page.wait_for_selector('svg.goban[data-rotate="90"]', timeout=PROMPT)
    table.play("C3")  # stays turned as the game goes on
    page.wait_for_selector(table.stone("C3", "black"), timeout=PROMPT)
    assert page.locator('svg.goban[data-rotate="90"]').count() == 1


def test_a_move_appears_on_the_page_within_a_second(table: Table) -> None:
    page = table.page
    t0 = time.monotonic()
    table.play("E5")
    page.wait_for_selector(table.stone("E5", "black"), timeout=PROMPT)
    assert time.monotonic() - t0 < PROMPT / 1000
    page.wait_for_selector('.player.w.to-move', timeout=PROMPT)
    assert page.inner_text(".move-number") == "Move 1"
    assert page.get_attribute('circle.last-move', "data-vertex") == "E5"


def test_a_capture_takes_the_stones_off_the_page(table: Table) -> None:
    page = table.page
    # White D4 and D5 are surrounded; Black D6 takes both.
    table.play("C4", "D4", "C5", "D5", "E4", "A1", "E5", "A2", "D3", "A3")
    page.wait_for_selector(table.stone("D5", "white"), timeout=PROMPT)
    table.play("D6")
    page.wait_for_selector(table.stone("D4", "white"), state="detached", timeout=PROMPT)
    page.wait_for_selector(table.stone("D5", "white"), state="detached", timeout=PROMPT)
    assert page.inner_text(".announcements li:first-child") == (
        "Black captures two stones at D4 and D5")
    assert page.inner_text(".captures-b") == "2"
    table.shot("capture")


def test_a_ko_violation_shows_its_announcement(table: Table) -> None:
    page = table.page
    table.play("D4", "F5", "E5", "G4", "E3", "F3", "pass", "E4", "F4")
    page.wait_for_selector(table.stone("E4", "white"), state="detached", timeout=PROMPT)
    table.play("E4")  # White retakes at once: refused
    ko = page.wait_for_selector(".announcements li.ko", timeout=PROMPT)
    assert ko.inner_text() == "Ko: White may not retake at E4 yet"
    assert page.locator('circle.highlight[data-vertex="E4"]').count() == 1
    assert page.locator(table.stone("E4", "white")).count() == 0
    table.shot("ko")


def test_the_final_score_shows_the_territory(table: Table) -> None:
    page = table.page
    # A wall down the middle: Black owns the left, White the right.
    table.play("E1", "F1", "E2", "F2", "E3", "F3", "E4", "F4", "E5", "F5",
               "E6", "F6", "E7", "F7", "E8", "F8", "E9", "F9", "pass", "pass")
    score, ended = table.game.finish()
    table.board.update(table.game, ended, score)
    result = page.wait_for_selector(".score .result", state="visible", timeout=PROMPT)
    assert result.inner_text() == "Black wins by 2.5"  # 36 against 27 and komi 6.5
    assert page.locator("rect.territory.black").count() == 36
    assert page.locator("rect.territory.white").count() == 27
    rows = page.locator(".breakdown tr.total td").all_inner_texts()
    assert rows == ["Total", "36", "33.5"]
    assert page.inner_text(".announcements li:first-child") == (
        "Black 36, White 33.5: Black wins by 2.5 points")
    table.shot("final-score")


def test_the_buttons_need_the_token_and_pass_for_the_player_to_move(browser: Any) -> None:
    t = Table(browser, with_token=True)
    try:
        t.play("E5")
        t.page.wait_for_selector(".controls", state="visible", timeout=PROMPT)
        t.page.click(".cmd-pass")
        t.page.wait_for_selector('.announcements li.pass', timeout=PROMPT)
        assert t.page.inner_text(".announcements li:first-child") == "White passes"
        assert t.game.number == 2
        t.shot("controls")
    finally:
        t.close()


def test_the_page_reconnects_by_itself_when_the_server_comes_back(table: Table) -> None:
    page = table.page
    port = table.server.port
    table.server.stop()
    page.wait_for_selector("#status.lost", timeout=5000)
    table.play("C3")  # played while the screen was cut off
    table.server = DisplayServer([table.board], port=port).start()
    page.wait_for_selector("#status.live", timeout=5000)
    page.wait_for_selector(table.stone("C3", "black"), timeout=5000)
    table.play("G7")
    page.wait_for_selector(table.stone("G7", "white"), timeout=PROMPT)


def test_several_boards_share_one_page(browser: Any) -> None:
    boards = [LiveBoard(f"table-{n}", 19 if n == 1 else 13, title=f"Table {n}")
              for n in (1, 2)]
    games = [Game("chinese", 19), Game("chinese", 13)]
    server = DisplayServer(boards).start()
    page = browser.new_page(viewport={"width": 1600, "height": 900})
    try:
        page.goto(server.url)
        page.wait_for_selector('[data-board="table-2"] svg.goban', timeout=5000)
        for board, game, moves in zip(boards, games, (["Q16", "D4", "Q4"], ["D10", "K4"])):
            for v in moves:
                board.update(game, game.play(Point.from_gtp(v)))
        page.wait_for_selector('[data-board="table-1"] circle.stone.black[data-vertex="Q4"]',
                               timeout=PROMPT)
        page.wait_for_selector('[data-board="table-2"] circle.stone.white[data-vertex="K4"]',
                               timeout=PROMPT)
        assert page.locator('[data-board="table-1"] circle.stone').count() == 3
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / "two-boards.png"))
    finally:
        page.close()
        server.stop()
