"""The `Transport` protocol: what a `Client` needs from whatever carries its lines.

A transport moves text and interprets nothing of MCP. It takes whole lines (each ending in the
newline delimiter) and gives back lines with the monotonic time each arrived; the server's log
lines go to `on_stderr` as they arrive. Failures are translated at this boundary into the error
tree of `mcp_lab.wire.errors`: `TransportClosed` when the peer is gone (`HttpError`, a subclass,
for Streamable HTTP), `DeadlineExceeded` (a `TimeoutError`) when a wait runs out.

Implementations: `transport.stdio.StdioTransport` (a child process), `transport.http.HttpTransport`
(Streamable HTTP), `transport.memory.MemoryTransport` (a server's line handler called in-process).
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, runtime_checkable

__all__ = ["Transport", "StderrHook", "HttpHook", "HeadersHook", "AnswerHook"]

# The hooks a session sets on a transport. A hook's return value is ignored (`object`), so a
# callback that happens to return something (Trace.add returns the Event) still fits.
StderrHook = Callable[[str], object]
HttpHook = Callable[[Any, "str | None"], object]
HeadersHook = Callable[[Any], "dict[str, str]"]
AnswerHook = Callable[[Any, Any], object]


@runtime_checkable
class Transport(Protocol):
    on_stderr: StderrHook | None
    # Streamable HTTP reports each raw exchange here (status, headers, SSE events); the other
    # transports never call it.
    on_http: HttpHook | None
    # Streamable HTTP asks the session for a body's MCP headers and tells it what each matched
    # answer was (mcp_lab.session.http_headers); the other transports never call these.
    derive_headers: HeadersHook | None
    on_answer: AnswerHook | None

    @property
    def pid(self) -> int | None: ...

    @property
    def returncode(self) -> int | None: ...

    @property
    def alive(self) -> bool: ...

    @property
    def stderr_lines(self) -> list[str]: ...

    def start(self) -> Transport: ...

    def write(self, text: str, timeout: float) -> None: ...

    def send_line(self, line: str, timeout: float) -> None: ...

    def read_line(self, timeout: float) -> tuple[float, str]: ...

    def stderr_tail(self, n: int = ...) -> list[str]: ...

    def settle(self) -> None:
        """After a failure: wait, briefly and with a deadline, for the peer's exit and last words."""
        ...

    def end_input(self) -> bool:
        """No more input is coming (stdio: close stdin).  True when the peer's output is now to be
        read until it ends (EOF); False when there is no such stream (HTTP, in-memory)."""
        ...

    def close(self) -> int | None: ...
