"""The stdio transport: a server process, one line per message, and nothing else.

Theory of operation.  The client launches the server as a child process and owns three
pipes.  stdin carries the client's lines; stdout carries the server's lines and, by the
spec, nothing but MCP messages; stderr is free-form logging that must never be treated as an
error signal.

* stdout is read in the caller's own thread, with `select` and a deadline, into a byte buffer
  that is split on b"\n".  No thread hand-off sits on the hot path, so a round trip costs
  about what the raw pipe costs (measured in `make bench`), and a read never blocks forever.
* stderr is drained by a daemon thread as it arrives, so a chatty server cannot stall on a
  full stderr pipe that nobody reads while the client is idle.  (The classic Jupyter pitfall
  is the opposite one: handing the child the kernel's `sys.stderr`, which has no file
  descriptor.  We never do that: stderr always goes to our own pipe.)

This layer moves lines; it does not know what JSON-RPC is.  Whether a stdout line is a
valid message is the client's question, which is how a stray `print()` in a server becomes
a visible event in the Trace instead of a crash.

Read to the end.  A server's stdout is often block-buffered on a pipe (Python's is, without
PYTHONUNBUFFERED): a stray `print()` at start-up may only reach the pipe when the server exits,
after its answers.  So the end is read too: `end_input()` closes stdin (the server's cue to
exit and flush), and the owner then reads lines until EOF, within a deadline, before `close()`
(the Client does this in `finish()`), so every line the server wrote is judged, not only those
that arrived while a request was waiting.

Shutdown follows the stdio transport's own rule: close stdin, wait, SIGTERM, wait, SIGKILL.
The child runs in its own process group so that wrappers (a shell script, npx) and their
children go down together, and a `weakref.finalize` reaps it if the owner forgets.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence

from mcp_lab.transport.base import StderrHook, TransportDescription
from mcp_lab.transport.process import opened, pump_lines, reap, spawn
from mcp_lab.wire.errors import ConnectionClosed, DeadlineExceeded, TransportClosed

__all__ = ["StdioTransport", "reap"]

_STDERR_TAIL = 5
_CHUNK = 1 << 16


class StdioTransport:
    """Spawn `argv` (a list, never a shell string) and exchange lines with it."""

    def __init__(self, argv: Sequence[str], *, env: dict | None = None, cwd: str | None = None, grace: float = 2.0):
        if isinstance(argv, os.PathLike):
            argv = [os.fspath(argv)]
        if isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence) or not argv:
            raise TypeError("argv must be a non-empty list such as [sys.executable, 'server.py'], not a shell string")
        argv = [os.fspath(a) if isinstance(a, os.PathLike) else a for a in argv]
        if not all(isinstance(a, str) for a in argv):
            raise TypeError("every argv item must be a string (or a path)")
        self.argv = list(argv)
        self.env = env
        self.cwd = cwd
        self.grace = grace
        self.proc: subprocess.Popen | None = None
        self.stderr_lines: list[str] = []
        self.on_stderr: StderrHook | None = None
        self._buf = bytearray()
        self._eof = False
        self._threads: list[threading.Thread] = []
        self._finalizer: weakref.finalize | None = None
        self._closed = False  # close() was called: every later read or write says so in one line
        self._input_ended: float | None = None  # when end_input() closed stdin (monotonic)

    # -- life cycle -------------------------------------------------------------------
    def start(self) -> "StdioTransport":
        if self.proc is not None:
            return self
        exe = self.argv[0]
        if os.sep not in exe and shutil.which(exe, path=(self.env or os.environ).get("PATH")) is None:
            raise TransportClosed(f"cannot start the server: {exe!r} is not on PATH; install it or give the full path")
        if self.cwd is not None and not os.path.isdir(self.cwd):
            raise TransportClosed(f"cannot start the server: the working folder {self.cwd!r} does not exist")
        self.proc = spawn(self.argv, env=self.env, cwd=self.cwd, stdin=True)
        os.set_blocking(opened(self.proc.stdin).fileno(), False)  # writes wait in select, with a deadline
        self._finalizer = weakref.finalize(self, reap, self.proc, self.grace)
        self._threads = [
            threading.Thread(
                target=pump_lines,
                args=(self.proc.stderr, self.stderr_lines, weakref.ref(self), "on_stderr"),
                name=f"mcp-stderr-{self.proc.pid}",
                daemon=True,
            ),
        ]
        for t in self._threads:
            t.start()
        return self

    def close(self) -> int | None:
        """Close stdin, then SIGTERM, then SIGKILL, each after `grace` seconds.  Returns the exit code."""
        self._closed = True
        if self.proc is None:
            return None
        waited = 0.0 if self._input_ended is None else time.monotonic() - self._input_ended
        reap(self.proc, self.grace, eof_wait=self.grace - waited)
        for t in self._threads:
            t.join(self.grace)
        for pipe in (self.proc.stdout, self.proc.stderr):
            try:
                if pipe:
                    pipe.close()
            except OSError:
                pass
        if self._finalizer is not None:
            self._finalizer.detach()
        return self.proc.returncode

    def __enter__(self) -> "StdioTransport":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def returncode(self) -> int | None:
        return self.proc.poll() if self.proc else None

    def describe(self) -> TransportDescription:
        return TransportDescription("stdio", argv=tuple(self.argv), pid=self.pid, exit_code=self.returncode)

    # -- lines --------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        """The process runs and its stdin is still open."""
        p = self.proc
        return p is not None and p.poll() is None and p.stdin is not None and not p.stdin.closed

    def end_input(self) -> bool:
        """Close stdin: no more input is coming.  True: the server's stdout is now to be read to
        its end (EOF), where the lines a buffered server kept until exit arrive."""
        if self.proc is None or self._closed:
            return False
        if self._input_ended is None:
            self._input_ended = time.monotonic()
            try:
                if self.proc.stdin is not None and not self.proc.stdin.closed:
                    self.proc.stdin.close()
            except OSError:
                pass
        return True

    def send_line(self, line: str, timeout: float = 10.0, *, verbatim: bool = False) -> None:
        """Write `line` and its newline delimiter, UTF-8 encoded; a `verbatim` text (the learner's,
        as typed) is written the same way, embedded newlines and all.

        stdin is non-blocking: a server that stops reading cannot stall the caller past the
        deadline (the pipe holds 64 KiB; a larger message waits for the server to drain it).
        """
        proc = self._check_open()
        data = memoryview((line + "\n").encode("utf-8"))
        fd = opened(proc.stdin).fileno()
        deadline = time.monotonic() + max(0.0, timeout)
        try:
            while data:
                try:
                    n = os.write(fd, data)
                    data = data[n:]
                    continue
                except BlockingIOError:
                    pass
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise DeadlineExceeded(
                        f"the server did not read its stdin within {timeout:g} s ({len(data)} bytes still unsent)"
                    )
                select.select([], [fd], [], remaining)
        except DeadlineExceeded:  # a TimeoutError, hence an OSError: not a closed pipe
            raise
        except (BrokenPipeError, ValueError, OSError):
            raise TransportClosed(self._gone("the server closed its stdin")) from None

    def read_line(self, timeout: float) -> tuple[float, str]:
        """Wait at most `timeout` seconds for the next stdout line: (monotonic time, text without newline)."""
        proc = self._check_open()
        deadline = time.monotonic() + max(0.0, timeout)
        fd = opened(proc.stdout).fileno() if not self._eof else -1
        while True:
            cut = self._buf.find(b"\n")
            if cut >= 0:
                raw = bytes(self._buf[:cut])
                del self._buf[: cut + 1]
                return time.monotonic(), raw.decode("utf-8", errors="surrogateescape")
            if self._eof:
                if self._buf:  # a last line without its delimiter is still a line
                    raw = bytes(self._buf)
                    self._buf.clear()
                    return time.monotonic(), raw.decode("utf-8", errors="surrogateescape")
                self._wait_exit(self.grace)
                raise TransportClosed(self._gone("the server closed its stdout"))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DeadlineExceeded(f"no line from the server within {timeout:g} s")
            try:
                ready, _, _ = select.select([fd], [], [], remaining)
            except (OSError, ValueError):
                self._eof = True
                continue
            if ready:
                chunk = os.read(fd, _CHUNK)
                if chunk:
                    self._buf += chunk
                else:
                    self._eof = True

    def stderr_tail(self, n: int = _STDERR_TAIL) -> list[str]:
        return self.stderr_lines[-n:]

    # -- internals ----------------------------------------------------------------------
    def _check_open(self) -> subprocess.Popen:
        """The running process, or the one line saying why there is none."""
        if self._closed:
            raise ConnectionClosed()
        if self.proc is None:
            raise TransportClosed("the transport was not started")
        return self.proc

    def _wait_exit(self, timeout: float) -> None:
        try:
            if self.proc is not None:
                self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        # Let the stderr pump finish so the message below can quote the last words.
        for t in self._threads:
            t.join(timeout)

    def _gone(self, what: str) -> str:
        code = self.proc.poll() if self.proc else None
        status = f"exit code {code}" if code is not None else "still running"
        tail = " | ".join(self.stderr_tail())
        return f"{what} ({status})" + (f"; its stderr ended with: {tail}" if tail else "")
