"""An in-memory transport: a server's line handler called in this process, no pipe, no child.

`MemoryTransport(serve_line)` takes the function a stdio server runs for each line it reads
(`serve_line(line) -> bytes | str | None`: the framed answer, or None for a notification), for
example `mcp_lab.servers.calendar.handle_line`. A write calls it once per complete line and queues
what it returns; a read takes the next queued line. What the server prints on stderr meanwhile is
captured and reported through `on_stderr`, as a real process's would be.

It is the test double of the transport boundary (httpcore's mock backend, the SDK's memory
streams): the session layer above it, the real server logic below it, no process in between.
Because the server answers inside `send_line()`, a read with nothing queued can never be answered
later; it still honours its deadline (it waits it out, then raises `DeadlineExceeded`), so code
above behaves exactly as it would on a silent pipe.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections import deque
from typing import Callable

from mcp_lab.transport.base import StderrHook, TransportDescription
from mcp_lab.wire.errors import DeadlineExceeded, TransportClosed

__all__ = ["MemoryTransport"]

ServeLine = Callable[[str], "bytes | str | None"]


class MemoryTransport:
    """Lines in, lines out, through `serve_line` in this process."""

    def __init__(self, serve_line: ServeLine, *, name: str = "in-memory server", copy_number: int | None = None):
        self.serve_line = serve_line
        self.name = name
        # No OS process: `pid` is None, or the number of the fresh server copy the caller made
        # (the browser edition numbers them 1, 2, ... so isolated()'s table still tells them apart).
        self.pid: int | None = copy_number
        self.on_stderr: StderrHook | None = None
        self.stderr_lines: list[str] = []
        self._out: deque[tuple[float, str]] = deque()
        self._partial = ""
        self._closed = False

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> MemoryTransport:
        return self

    def end_input(self) -> bool:
        """Nothing to read to an end: every answer comes back with its own request."""
        return False

    def close(self) -> int | None:
        self._closed = True
        return 0

    def __enter__(self) -> MemoryTransport:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        return not self._closed

    @property
    def returncode(self) -> int | None:
        return 0 if self._closed else None

    def describe(self) -> TransportDescription:
        return TransportDescription("memory", pid=self.pid, exit_code=self.returncode)

    # -- lines ------------------------------------------------------------------------------
    def send_line(self, line: str, timeout: float = 10.0, *, verbatim: bool = False) -> None:
        """Serve each complete line of `line` and its delimiter (a verbatim text may hold several)."""
        if self._closed:
            raise TransportClosed(f"{self.name}: the transport is closed")
        *lines, self._partial = (self._partial + line + "\n").split("\n")
        for one in lines:
            self._serve(one)

    def read_line(self, timeout: float) -> tuple[float, str]:
        if self._out:
            return self._out.popleft()
        if self._closed:
            raise TransportClosed(f"{self.name}: the transport is closed")
        time.sleep(max(0.0, timeout))  # nothing can arrive later: the deadline is all there is
        raise DeadlineExceeded(f"no line from {self.name} within {timeout:g} s")

    def _serve(self, line: str) -> None:
        log = io.StringIO()
        with contextlib.redirect_stderr(log):
            answer = self.serve_line(line)
        for entry in log.getvalue().splitlines():
            self.stderr_lines.append(entry)
            if self.on_stderr is not None:
                self.on_stderr(entry)
        if answer is None:
            return
        text = answer.decode("utf-8", "surrogateescape") if isinstance(answer, bytes) else answer
        now = time.monotonic()
        for out in text.split("\n"):
            if out:
                self._out.append((now, out))
