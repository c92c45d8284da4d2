"""The headless Chromium the page tests drive (Debian's ``chromium``, through Playwright),
one per test module; their screenshots go to test-artifacts/display/."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, need

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts" / "display"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need(Path(CHROMIUM).exists(), "chromium is not installed (apt-get install chromium)")
    need(importlib.util.find_spec("playwright") is not None, "playwright is not installed")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
