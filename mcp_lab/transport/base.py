"""The `Transport` protocol: what a `Client` needs from whatever carries its lines, and no more.

A transport moves text and interprets nothing of MCP. It is started, takes whole lines, gives
back lines with the monotonic time each arrived, says whether it is still alive, keeps the
server's log lines (`stderr_lines`, and `on_stderr` as each arrives), and is closed. Failures
are translated at this boundary into the error tree of `mcp_lab.wire.errors`: `TransportClosed`
when the peer is gone (`HttpError`, a subclass, for Streamable HTTP), `DeadlineExceeded` (a
`TimeoutError`) when a wait runs out.

What only one transport does stays in that transport: Streamable HTTP's hooks (the headers a
body needs, what an answer taught, each raw exchange) are given to `HttpTransport`'s constructor.
Who is on the other end is asked with `describe()`, a frozen record, never by probing attributes.

Implementations: `transport.stdio.StdioTransport` (a child process), `transport.http.HttpTransport`
(Streamable HTTP), `transport.memory.MemoryTransport` (a server's line handler called in-process).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Protocol, runtime_checkable

__all__ = ["Transport", "TransportDescription", "StderrHook"]

# Called with each stderr line as it arrives. Its return value is ignored (`object`), so a
# callback that happens to return something (Trace.add returns the Event) still fits.
StderrHook = Callable[[str], object]


@dataclass(frozen=True)
class TransportDescription:
    """Who is on the other end of a transport: what a cache key, a label or a table needs.

    `kind` is "stdio" (a child process: `argv`, and `pid` once started), "http" (`url`; `pid`
    only when the server is a local process the transport was given) or "memory" (`pid` is the
    number of the in-process server copy, or None). `exit_code` is the server process's exit
    status once it has exited, else None."""

    kind: Literal["stdio", "http", "memory"]
    argv: tuple[str, ...] | None = None
    url: str | None = None
    pid: int | None = None
    exit_code: int | None = None

    @property
    def target(self) -> str:
        """The command line or the URL, as one line of text."""
        if self.argv is not None:
            return " ".join(self.argv)
        return self.url or self.kind


@runtime_checkable
class Transport(Protocol):
    on_stderr: StderrHook | None

    @property
    def alive(self) -> bool: ...

    @property
    def stderr_lines(self) -> list[str]: ...

    def start(self) -> Transport: ...

    def send_line(self, line: str, timeout: float, *, verbatim: bool = False) -> None:
        """Send one line; the transport adds the delimiter.  `verbatim`: the learner's exact text,
        which may hold several lines or none that parses (Streamable HTTP POSTs it as one body and
        queues whatever comes back; a pipe writes it as it is)."""
        ...

    def read_line(self, timeout: float) -> tuple[float, str]: ...

    def end_input(self) -> bool:
        """No more input is coming (stdio: close stdin).  True when the peer's output is now to be
        read until it ends (EOF); False when there is no such stream (HTTP, in-memory)."""
        ...

    def close(self) -> int | None:
        """Stop, wait (bounded) for the peer's end, and return its exit code when it had one."""
        ...

    def describe(self) -> TransportDescription: ...
