"""Every package type-checks under ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT, need

STRICT = ["rules", "vision", "firmware_bridge", "kifu"]


def test_mypy_strict() -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        need(False, "mypy is not installed")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *STRICT],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
