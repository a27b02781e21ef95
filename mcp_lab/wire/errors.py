"""The error tree: every exception mcp_lab raises on purpose, grouped by cause.

    McpError                          catch-all for mcp_lab's own errors
    +-- ProtocolError                 something wrong ON THE WIRE; carries a JSON-RPC code
    |   +-- RemoteError               a server's error answer (`Error.unwrap()`): code, message
    |                                 and data are the server's, unchanged
    +-- LocalError                    something on OUR side; never travels, so it has no code
        +-- TransportClosed           the peer is gone or cannot be reached
        |   +-- HttpError             Streamable HTTP refused or failed (connection refused, a
        |                             4xx/5xx without a JSON-RPC answer, a body too large)
        +-- DeadlineExceeded          no answer before the deadline; also a `TimeoutError`
        +-- RoundsExceeded            the multi-round-trip loop gave up; also a `RuntimeError`
        +-- CatalogError              a tools/list walk that cannot finish (a cursor loop, too
                                      many pages, a page that is not a list of tools)

Decisions, written down once:
- A malformed line (`jsonrpc.parse`) is a plain `ProtocolError` with the code the receiver would
  answer (-32700 / -32600); it is local in origin but it is *about the wire*, and a server built on
  this module answers with exactly that error.
- `HttpError` is a `TransportClosed`: `except mcp_lab.TransportClosed` catches "I cannot talk to
  this server" on stdio and HTTP alike. Its `exchange` keeps the HTTP status and body to show.
- `DeadlineExceeded` is a `TimeoutError` and `RoundsExceeded` a `RuntimeError`, so `except` clauses
  a Python user already writes catch them. Neither borrows or invents a JSON-RPC code: the SDKs' -32000
  / -32001 are local conventions, not codes a server sends, and the -32020..-32099 block belongs
  to the MCP specification.
Translation happens at one boundary per transport (`mcp_lab.transport.*`): OS and httpx failures
become `LocalError`s there, and a JSON-RPC error object becomes a `RemoteError` only in
`Error.unwrap()`.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "McpError", "ProtocolError", "RemoteError", "LocalError", "TransportClosed", "HttpError",
    "DeadlineExceeded", "RoundsExceeded", "CatalogError", "InvalidAnswer", "CONNECTION_CLOSED", "ConnectionClosed",
]  # fmt: skip

# What every transport and the Client say when a cell uses a connection an earlier cell closed.
CONNECTION_CLOSED = "this connection is closed: run the connect cell again"


class McpError(Exception):
    """Base of every error mcp_lab raises on purpose."""

    message: str  # the one line to show; both branches below set it


class ProtocolError(McpError):
    """Something is wrong on the wire, with the JSON-RPC code that says what.

    `id` is the request id when it could be read, so a server can still answer with it.
    """

    def __init__(self, code: int, message: str, data: Any = None, id: Any = None):
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.data = data
        self.id = id


class RemoteError(ProtocolError):
    """A server answered with a JSON-RPC error; `code`, `message` and `data` are the server's."""


class LocalError(McpError):
    """A failure on our side of the wire. It never travels, so it carries no JSON-RPC code.

    `message` is the one line to show; `data` holds what helps to explain it (a server's stderr,
    the failing HTTP exchange).
    """

    def __init__(self, message: str, data: Any = None):
        super().__init__(message)
        self.message = message
        self.data = data


class InvalidAnswer(LocalError):
    """The server's answer breaks the protocol, as judged here (an unknown resultType, an
    input_required with nothing to answer).  Raised locally with no JSON-RPC code, so it cannot be
    mistaken for an error the server sent; `data` holds what was received."""


class TransportClosed(LocalError):
    """The peer is gone: the server process exited or closed its stdout, or cannot be reached."""


class ConnectionClosed(TransportClosed):
    """This side closed the connection (`close()` was called) and a later cell used it.

    A foreseeable mistake in a notebook (re-running a cell after the final `close()`), so IPython
    shows the one sentence instead of a traceback into mcp_lab: `_render_traceback_` is the hook
    IPython reads on an exception, and nothing outside IPython looks at it."""

    def __init__(self, message: str = CONNECTION_CLOSED, data: Any = None):
        super().__init__(message, data)

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self.message}"]


class HttpError(TransportClosed):
    """Streamable HTTP refused or failed; `exchange` is the HTTP exchange, when there was one."""

    def __init__(self, message: str, exchange: Any = None):
        super().__init__(message, exchange)
        self.exchange = exchange
        self.status = getattr(exchange, "status", None)


class DeadlineExceeded(LocalError, TimeoutError):
    """No answer arrived before the deadline. Every wait in mcp_lab has one."""


class RoundsExceeded(LocalError, RuntimeError):
    """The server still asked for input after the allowed number of rounds."""

    def __init__(self, rounds: int, exchange: Any = None):
        super().__init__(
            f"the server still asked for input after {rounds} rounds; giving up (a server may re-ask, but not forever)",
            {"rounds": rounds},
        )
        self.rounds = rounds
        self.exchange = exchange


class CatalogError(LocalError):
    """A tools/list walk that cannot finish: a repeated cursor, too many pages, a malformed page."""
