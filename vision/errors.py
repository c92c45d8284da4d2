"""The vision package's errors: one base class, and the one a caller must expect."""

from __future__ import annotations


class VisionError(Exception):
    """Something in `vision` could not be done with the input given."""


class BoardNotFound(VisionError):
    """No Go board could be located in the image; ``reason`` says what failed."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"board not found: {reason}")
        self.reason = reason
