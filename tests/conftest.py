"""Shared fixtures: where ../shared is, and skipping that turns into failure under CI."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
GAMES = SHARED / "games"
VISION_DATA = SHARED / "vision-data"
SEEDS = SHARED / "seeds"

ON_CI = os.environ.get("CI", "").lower() == "true"


def need(condition: bool, reason: str) -> None:
    """Skip the test unless ``condition``; under CI (CI=true) fail instead."""
    if condition:
        return
    if ON_CI:
        pytest.fail(f"required under CI: {reason}")
    pytest.skip(reason)


def ctrl_c_as_at_a_terminal() -> None:
    """Run in a child just before it execs: SIGINT back to its default, as a terminal's
    Ctrl-C finds it. A shell that starts the tests in the background ignores SIGINT, an
    ignored signal stays ignored across exec, and Python then installs no KeyboardInterrupt:
    a test that sends the child Ctrl-C would wait for nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def gnugo_path() -> str | None:
    """GNU Go's binary: on PATH, or where Debian puts it."""
    found = shutil.which("gnugo")
    if found:
        return found
    debian = Path("/usr/games/gnugo")
    return str(debian) if debian.exists() else None


@pytest.fixture
def shared_games() -> Path:
    need(GAMES.is_dir(), f"no game corpus at {GAMES}")
    return GAMES
