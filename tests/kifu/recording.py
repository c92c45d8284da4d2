"""``kifu record --serial sim`` run as a user runs it: a process whose standard input is a
pipe the test writes to, line by line, as a player would type (``place C1 b``, ``pass``,
``lift A3``, ``done``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.conftest import ROOT, ctrl_c_as_at_a_terminal

# A 5x5 game: Black walls off the C column, White the D column; White's A3, played into
# Black's side, is dead. After two passes A3 is lifted and the game counted.
#     5 . . X O .
#     4 . . X O .
#     3 O . X O .
#     2 . X X O .
#     1 . . X O .
#       A B C D E
GAME = ["place C1 b", "place D1 w", "place C2 b", "place D2 w", "place C3 b", "place D3 w",
        "place C4 b", "place D4 w", "place C5 b", "place D5 w", "place B2 b", "place A3 w",
        "pass", "pass"]
DEAD = "A3"


class Recording:
    """A running ``kifu record --serial sim --size 5`` writing ``out``; its stderr is
    collected (``err``) as it comes."""

    def __init__(self, out: Path, *options: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kifu.cli", "record", "--serial", "sim", "--size", "5",
             "--out", str(out), *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT, env=env, preexec_fn=ctrl_c_as_at_a_terminal,
        )
        self.err = ""
        self.out = ""
        self._threads = [threading.Thread(target=self._collect, args=(name,), daemon=True)
                         for name in ("stderr", "stdout")]
        for t in self._threads:
            t.start()

    def _collect(self, name: str) -> None:
        stream = getattr(self.proc, name)
        for line in stream:
            if name == "stderr":
                self.err += line
            else:
                self.out += line

    def wait_for(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        """The first match of ``pattern`` in stderr, waiting for it to be printed."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.err)
            if m:
                return m
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in {self.err!r}")

    def control_url(self) -> str:
        """The page's address with the token, as ``record --serve`` prints it."""
        return self.wait_for(r"\(controls: (\S+)\)").group(1)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout: float = 90.0) -> int:
        """Close the input and wait for the process to end; its exit status."""
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        code = self.proc.wait(timeout)
        for t in self._threads:
            t.join(5)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
