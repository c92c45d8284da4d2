"""The real firmware under simavr: a driver for the harness hardware/sim/kifu_sim.c
(built by ``make -C hardware``), with the same methods as `simulator.SimulatedBoard`, so
tests and benchmarks run the same script against either board."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rules import Color

from .errors import BridgeError

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
HARNESS = HARDWARE / "build" / "kifu-sim"
FIRMWARE = HARDWARE / "build" / "firmware" / "kifu-board.elf"


class HarnessError(BridgeError):
    """The simulation harness refused a command or died."""


class SimavrBoard:
    """The firmware ELF running under simavr in lock-step; its UART on ``port``."""

    def __init__(self, harness: Path = HARNESS, firmware: Path = FIRMWARE,
                 spread: int = 0, seed: int = 1) -> None:
        for path in (harness, firmware):
            if not path.exists():
                raise HarnessError(f"{path} is missing: build it with `make -C hardware`")
        self.width = self.height = 19
        self._proc = subprocess.Popen(
            [str(harness), "--spread", str(spread), "--seed", str(seed), str(firmware)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1,
        )
        self.port = self._expect("pty")
        self._ms = 0

    def _say(self, line: str) -> str:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except BrokenPipeError:
            raise HarnessError(f"the harness died before {line!r}") from None
        return self._expect("ok" if not line.startswith("plug") else "pty", line)

    def _expect(self, word: str, line: str = "start") -> str:
        assert self._proc.stdout is not None
        answer = self._proc.stdout.readline().strip()
        if not answer.startswith(word):
            raise HarnessError(f"harness answered {answer!r} to {line!r}")
        return answer[len(word):].strip()

    def run(self, ms: int) -> None:
        """Advance ``ms`` simulated milliseconds."""
        self._ms = int(self._say(f"run {ms}"))

    def now_ms(self) -> int:
        """Simulated milliseconds since start."""
        return self._ms

    def place(self, x: int, y: int, color: Color) -> None:
        self._say(f"place {x} {y} {'b' if color == Color.BLACK else 'w'}")

    def lift(self, x: int, y: int) -> None:
        self._say(f"lift {x} {y}")

    def set_mv(self, x: int, y: int, mv: int | None) -> None:
        self._say(f"set {x} {y} {-1 if mv is None else mv}")

    def garble(self, data: bytes) -> None:
        self._say(f"garble {data.hex()}")

    def unplug(self) -> None:
        self._say("unplug")

    def plug(self) -> str:
        self.port = self._say("plug")
        return self.port

    def close(self) -> None:
        """Stop the harness."""
        if self._proc.poll() is None:
            try:
                self._say("quit")
            except HarnessError:
                pass
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
