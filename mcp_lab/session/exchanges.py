"""Exchanges: a conversation read off a Trace, each client message paired with its answer.

An *exchange* is one client message and the server's answer to it (a request and its result or
error; a notification and nothing), or one message the server sent unasked.  `exchanges(trace)`
reads them off a Trace, in order.  Cassettes show their recording this way
(`Cassette.exchanges`), and `mcp_lab.session.diff` compares two lists of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.trace import Trace

__all__ = ["RpcExchange", "exchanges"]

_NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


@dataclass
class RpcExchange:
    """One client message and its answer, or one message the server sent unasked."""

    kind: str  # request | notification | raw | server
    peer: str
    request: dict | None = None  # the client's message as sent (a dict), None for `server`
    answer: dict | None = None  # the answer (result or error), or the server's own message
    request_line: str | None = None
    answer_line: str | None = None
    # A replay's exchange read in the recording's names (minted values mapped back): what the
    # diff compares.  The fields above stay exactly what was sent and received.
    compared_as: "RpcExchange | None" = field(default=None, repr=False)

    @property
    def method(self) -> str:
        src = self.answer if self.kind == "server" else self.request
        if isinstance(src, dict) and isinstance(src.get("method"), str):
            return src["method"]
        return "(raw text)" if self.kind == "raw" else "(unknown)"

    @property
    def params(self) -> dict:
        src = self.answer if self.kind == "server" else self.request
        p = src.get("params") if isinstance(src, dict) else None
        return p if isinstance(p, dict) else {}

    @property
    def key(self) -> tuple:
        """What was asked, for alignment: kind, method, and the named tool/prompt/resource."""
        name = self.params.get(_NAMED.get(self.method, ""), None)
        return (self.kind, self.method, name if isinstance(name, str) else None)

    @property
    def label(self) -> str:
        name = self.key[2]
        return self.method + (f" {name}" if name else "") + (" (sent by the server)" if self.kind == "server" else "")

    @property
    def outcome(self) -> str:
        """One short phrase: what came back."""
        a = self.answer
        if self.kind == "notification":
            return "(no answer: a notification)"
        if not isinstance(a, dict):
            return "(no answer)"
        if "error" in a and isinstance(a["error"], dict):
            return f"error {a['error'].get('code')}"
        r = a.get("result")
        if isinstance(r, dict):
            return r.get("resultType") or "result [no resultType]"
        return "message" if self.kind == "server" else "?"


def exchanges(trace: Trace) -> list[RpcExchange]:
    """The exchanges of a Trace, in the order the client sent (or the server volunteered) them."""
    out: list[RpcExchange] = []
    pending: dict[tuple, RpcExchange] = {}
    last_raw: dict[str, RpcExchange] = {}
    for e in trace:
        m = e.message
        x: RpcExchange | None
        if e.kind == "send":
            if isinstance(m, jsonrpc.Request):
                x = RpcExchange("request", e.peer, m.to_dict(), request_line=e.line)
                pending[(e.peer, m.id)] = x
            elif isinstance(m, jsonrpc.Notification):
                x = RpcExchange("notification", e.peer, m.to_dict(), request_line=e.line)
            else:
                x = RpcExchange("raw", e.peer, None, request_line=e.line)
                last_raw[e.peer] = x
            out.append(x)
        elif e.kind == "recv":
            if isinstance(m, (jsonrpc.Result, jsonrpc.Error)):
                x = pending.pop((e.peer, m.id), None)
                if x is None and m.id is None or x is None and last_raw.get(e.peer) is not None:
                    x = last_raw.pop(e.peer, None)  # an answer to text the server could not read
                if x is not None and x.answer is None:
                    x.answer, x.answer_line = m.to_dict(), e.line
                    continue
            out.append(RpcExchange("server", e.peer, None, m.to_dict() if m is not None else None, answer_line=e.line))
    return out
