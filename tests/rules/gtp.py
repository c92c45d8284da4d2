"""A small GTP client: an engine (GNU Go, in these tests) on subprocess pipes.

    with GtpEngine([gnugo, "--mode", "gtp", "--positional-superko"]) as engine:
        engine.send("boardsize 9")
        engine.send("play b E5")
        engine.send("list_stones black")       # -> "E5"

Commands may also be sent in batches (`send_many`): GTP engines answer in order, so a
whole move's worth of queries costs one round trip. Writing and reading are interleaved,
so a batch whose answers overflow the pipe cannot deadlock.

Errors say who failed: `GtpFailure` is the engine refusing a command (a ``?`` answer,
e.g. an illegal move); `GtpEngineError` is the engine misbehaving (it could not start,
died, answered nonsense or took too long), with the tail of its stderr.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import tempfile
import time
from collections.abc import Sequence
from types import TracebackType


class GtpEngineError(RuntimeError):
    """The engine could not start, died, broke the protocol or did not answer in time."""


class GtpFailure(Exception):
    """The engine answered a command with a failure (``? message``)."""

    def __init__(self, command: str, message: str) -> None:
        self.command = command
        self.message = message
        super().__init__(f"GTP command {command!r} failed: {message}")


def parse_response(command: str, block: str) -> str | GtpFailure:
    """The text of one GTP answer block (``=`` or ``?``, an optional id, the text),
    or the `GtpFailure` it reports. Raises `GtpEngineError` for anything else."""
    if block.startswith("="):
        status, rest = "=", block[1:]
    elif block.startswith("?"):
        status, rest = "?", block[1:]
    else:
        raise GtpEngineError(f"answer to {command!r} is not GTP: {block[:200]!r}")
    # An id may follow the status character directly: "=12 text".
    digits = len(rest) - len(rest.lstrip("0123456789"))
    text = rest[digits:].strip()
    return text if status == "=" else GtpFailure(command, text)


class GtpEngine:
    """A running GTP engine. Use as a context manager, or call `close`."""

    def __init__(self, argv: Sequence[str], *, timeout: float = 30.0) -> None:
        """Start ``argv`` (the engine and its flags). ``timeout`` bounds the wait for
        the answers to one `send` or `send_many`. Raises `GtpEngineError` when the
        program cannot be started."""
        self.argv = list(argv)
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr, bufsize=0,
            )
        except OSError as exc:
            self._stderr.close()
            raise GtpEngineError(f"cannot start {' '.join(self.argv)}: {exc}") from None
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._in = self._proc.stdin.fileno()
        self._out = self._proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buffer = b""

    # -- talking -------------------------------------------------------------------------

    def send(self, command: str) -> str:
        """Send one command; its answer's text. Raises `GtpFailure` when the engine
        refuses it, `GtpEngineError` when the engine misbehaves."""
        answer = self.send_many([command])[0]
        if isinstance(answer, GtpFailure):
            raise answer
        return answer

    def send_many(self, commands: Sequence[str]) -> list[str | GtpFailure]:
        """Send the commands in one go; their answers in order, a refusal as a
        `GtpFailure` value (not raised). Raises `GtpEngineError` when the engine
        misbehaves."""
        for c in commands:
            if "\n" in c or not c.strip():
                raise ValueError(f"not a single GTP command: {c!r}")
        if self._proc.poll() is not None:
            raise self._died("before the commands were sent")
        pending = memoryview("".join(c + "\n" for c in commands).encode("ascii"))
        answers: list[str | GtpFailure] = []
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self._out, selectors.EVENT_READ)
            if pending:
                sel.register(self._in, selectors.EVENT_WRITE)
            while len(answers) < len(commands):
                answers.extend(self._take_blocks(commands[len(answers):]))
                if len(answers) >= len(commands):
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise GtpEngineError(
                        f"{self.argv[0]}: no answer within {self.timeout:g} s to "
                        f"{commands[len(answers)]!r}"
                    )
                for key, _ in sel.select(left):
                    if key.fd == self._in:
                        try:
                            n = os.write(self._in, pending)
                        except BrokenPipeError:
                            raise self._died(f"while sending {commands[len(answers)]!r}") from None
                        pending = pending[n:]
                        if not pending:
                            sel.unregister(self._in)
                    else:
                        chunk = os.read(self._out, 1 << 16)
                        if not chunk:
                            raise self._died(f"while answering {commands[len(answers)]!r}")
                        self._buffer += chunk
        return answers

    def _take_blocks(self, waiting: Sequence[str]) -> list[str | GtpFailure]:
        """The complete answers in the buffer (each ends with an empty line)."""
        out: list[str | GtpFailure] = []
        while len(out) < len(waiting):
            end = self._buffer.find(b"\n\n")
            if end < 0:
                break
            block = self._buffer[:end].decode("ascii", "replace").replace("\r", "")
            self._buffer = self._buffer[end + 2:]
            out.append(parse_response(waiting[len(out)], block.lstrip("\n")))
        return out

    def _died(self, when: str) -> GtpEngineError:
        code = self._proc.wait(timeout=5)
        self._stderr.seek(0)
        tail = self._stderr.read()[-2000:].decode("utf-8", "replace").strip()
        return GtpEngineError(
            f"{' '.join(self.argv)} exited with status {code} {when}"
            + (f"; stderr:\n{tail}" if tail else "")
        )

    # -- the end -------------------------------------------------------------------------

    def close(self) -> None:
        """Ask the engine to quit, kill it if it does not, and release the pipes."""
        proc = self._proc
        if proc.poll() is None:
            try:
                os.set_blocking(self._in, True)
                os.write(self._in, b"quit\n")
            except OSError:
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for f in (proc.stdin, proc.stdout):
            if f is not None:
                f.close()
        self._stderr.close()

    def __enter__(self) -> GtpEngine:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
