"""JSON-RPC 2.0 as MCP 2026-07-28 constrains it: one line in, one message out.

This module is sans-IO, in the manner of h11: it never touches a pipe, a socket or a clock.
`parse` turns one line of text into one of four small frozen message classes, or raises the
one error type of the package, `ProtocolError`, whose `code` is the JSON-RPC code a server
would answer with.  `encode` turns a message back into exactly one compact UTF-8 line, which
is what the stdio framing rule demands ("delimited by newlines, MUST NOT contain embedded
newlines").  Compact JSON never contains a raw newline: json escapes it inside strings.

The revision is stricter than plain JSON-RPC in three places, and each is checked here:
an id is a string or an integer and never null; a result object carries `resultType`
(checked by the client, since a legacy server legitimately omits it); an id is not reused
while its request is pending (`PendingIds`, a tiny bookkeeping class the client owns).

The envelope rules themselves are one table, `ENVELOPE_RULES` (the private module
`mcp_lab.wire._envelope`, re-exported here): `parse_obj` raises on its first broken row, and the
lint, the wire check and the bundled HTTP binding read the same rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Union

from mcp_lab.wire._envelope import (
    ENVELOPE_RULES,
    INVALID_REQUEST,
    EnvelopeRule,
    broken_rules,
    first_broken,
    is_valid_id,
)
from mcp_lab.wire.errors import DeadlineExceeded, ProtocolError, RemoteError, TransportClosed

__all__ = [
    "PARSE_ERROR",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "INVALID_PARAMS",
    "INTERNAL_ERROR",
    "HEADER_MISMATCH",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "ERROR_NAMES",
    "MODERN_ERROR_CODES",
    "ProtocolError",
    "TransportClosed",
    "DeadlineExceeded",
    "Request",
    "Notification",
    "Result",
    "Error",
    "Message",
    "parse",
    "parse_obj",
    "encode",
    "to_dict",
    "is_valid_id",
    "PendingIds",
    "ENVELOPE_RULES",
    "EnvelopeRule",
    "broken_rules",
    "first_broken",
]

# Standard JSON-RPC codes (INVALID_REQUEST, the envelope rules' code, is defined beside them in _envelope).
PARSE_ERROR = -32700
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# Codes the MCP specification defines (the -32020..-32099 block is reserved for it).
HEADER_MISMATCH = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022

ERROR_NAMES = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid Request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    HEADER_MISMATCH: "Header mismatch",
    MISSING_REQUIRED_CLIENT_CAPABILITY: "Missing required client capability",
    UNSUPPORTED_PROTOCOL_VERSION: "Unsupported protocol version",
}

# The errors only a modern (2026-07-28) server emits; the probe treats them as proof of era.
MODERN_ERROR_CODES = frozenset({HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION})


@dataclass(frozen=True)
class Request:
    id: str | int
    method: str
    params: dict | None = None

    ok = True

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"jsonrpc": "2.0", "id": self.id, "method": self.method}
        if self.params is not None:
            d["params"] = self.params
        return d


@dataclass(frozen=True)
class Notification:
    method: str
    params: dict | None = None

    ok = True

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"jsonrpc": "2.0", "method": self.method}
        if self.params is not None:
            d["params"] = self.params
        return d


@dataclass(frozen=True)
class Result:
    id: str | int
    result: dict = field(default_factory=dict)

    ok = True

    @property
    def result_type(self) -> str:
        # A legacy-era result has no resultType; the spec says to read it as "complete".
        return self.result.get("resultType", "complete")

    def unwrap(self) -> dict:
        return self.result

    def to_dict(self) -> dict:
        return {"jsonrpc": "2.0", "id": self.id, "result": self.result}


@dataclass(frozen=True)
class Error:
    id: str | int | None
    code: int
    message: str
    data: Any = None

    ok = False

    @classmethod
    def from_exception(cls, e: ProtocolError) -> "Error":
        """The error answer a ProtocolError stands for (its code, message, data and id)."""
        return cls(id=e.id, code=e.code, message=e.message, data=e.data)

    def unwrap(self) -> dict:
        raise RemoteError(self.code, self.message, self.data, self.id)

    def to_dict(self) -> dict:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            err["data"] = self.data
        # An unreadable request's id is omitted (the schema forbids null ids).
        if self.id is None:
            return {"jsonrpc": "2.0", "error": err}
        return {"jsonrpc": "2.0", "id": self.id, "error": err}


Message = Union[Request, Notification, Result, Error]


def to_dict(msg: Message | dict) -> dict:
    return msg if isinstance(msg, dict) else msg.to_dict()


def encode(msg: Message | dict) -> str:
    """One compact line, no trailing newline; the transport adds the delimiter."""
    return json.dumps(to_dict(msg), ensure_ascii=False, separators=(",", ":"))


def parse(line: str | bytes) -> Message:
    """Parse one framed line (trailing newline allowed) into a message.

    Raises ProtocolError(PARSE_ERROR) for text that is not JSON, and
    ProtocolError(INVALID_REQUEST) for JSON that is not a valid envelope, with `id` set
    when it could be recovered so the receiver can still correlate its answer.
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ProtocolError(PARSE_ERROR, f"Parse error: line is not UTF-8 ({e.reason})") from None
    text = line[:-1] if line.endswith("\n") else line
    if text.endswith("\r"):
        text = text[:-1]
    if "\n" in text:
        raise ProtocolError(PARSE_ERROR, "Parse error: a message must not contain an embedded newline")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(PARSE_ERROR, f"Parse error: {e}") from None
    return parse_obj(obj)


def parse_obj(obj: Any) -> Message:
    """Classify an already-decoded JSON value as one message (see `parse`).

    The envelope rules are the rows of `ENVELOPE_RULES` (`mcp_lab.wire._envelope`): the first
    row the value breaks is raised, with its code and message; the one row a peer is forgiven
    (an error answer with a null id) is accepted.  A value no row refuses is one of four kinds.
    """
    rule = first_broken(obj, tolerate=True)
    raw_id = obj.get("id") if isinstance(obj, dict) else None
    if rule is not None:
        known_id = raw_id if is_valid_id(raw_id) else None
        raise ProtocolError(rule.code, f"{ERROR_NAMES[rule.code]}: {rule.message(obj)}", id=known_id)
    params = obj.get("params")
    # The rows guarantee what follows: a request's id is valid, a result carries a valid id.
    if "method" in obj and raw_id is not None:
        return Request(id=raw_id, method=obj["method"], params=params)
    if "method" in obj:
        return Notification(method=obj["method"], params=params)
    if "result" in obj:
        return Result(id=obj["id"], result=obj["result"])
    err = obj["error"]
    return Error(id=raw_id, code=err["code"], message=err["message"], data=err.get("data"))


class PendingIds:
    """Ids sent and not yet answered: the revision forbids reusing one while it is pending."""

    def __init__(self) -> None:
        self._pending: set[str | int] = set()

    def add(self, id: str | int) -> None:
        if not is_valid_id(id):
            raise ProtocolError(INVALID_REQUEST, f"Invalid Request: id {id!r} must be a string or an integer")
        if id in self._pending:
            raise ProtocolError(INVALID_REQUEST, f"Invalid Request: id {id!r} is still pending; use a new id", id=id)
        self._pending.add(id)

    def resolve(self, id: Any) -> bool:
        try:
            self._pending.remove(id)
            return True
        except (KeyError, TypeError):
            return False

    def __contains__(self, id: Any) -> bool:
        try:
            return id in self._pending
        except TypeError:
            return False

    def __len__(self) -> int:
        return len(self._pending)
