"""The Streamable HTTP header rules of 2026-07-28, sans-IO: which headers mirror a message body,
and how a header value is encoded so both ends agree byte for byte.

See https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
"""

from __future__ import annotations

import base64
from typing import Any

from mcp_lab.wire import revisions

__all__ = ["NAMED_METHODS", "encode_header_value", "decode_header_value", "headers_for"]

# The methods whose target is mirrored in the Mcp-Name header, and the param that names it.
NAMED_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def encode_header_value(value: str) -> str:
    """A header value as 2026-07-28 sends it: printable ASCII without edge spaces as is, else
    `=?base64?...?=` (also for a value that already looks like that wrapper), the same rule as
    the official SDK's, so both ends agree byte for byte."""
    if (
        all(0x20 <= ord(ch) < 0x7F for ch in value)
        and value == value.strip()
        and not (value.startswith("=?base64?") and value.endswith("?="))
    ):
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


def decode_header_value(value: str) -> str:
    """The inverse of `encode_header_value`; a malformed wrapper raises ValueError."""
    if value.startswith("=?base64?") and value.endswith("?="):
        payload = value[9:-2]
        raw = base64.b64decode(payload, validate=True)  # binascii.Error is a ValueError
        if base64.b64encode(raw).decode("ascii") != payload:
            raise ValueError("non-canonical base64 in a header value")
        return raw.decode("utf-8")
    return value


def headers_for(
    body: Any, *, legacy_version: str | None = None, notification_version: str | None = revisions.LATEST
) -> dict[str, str]:
    """The MCP request headers that mirror a message body (the body stays the source of truth)."""
    out: dict[str, str] = {}
    if not isinstance(body, dict):
        return out
    raw_params = body.get("params")
    params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
    raw_meta = params.get("_meta")
    meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
    version = meta.get(revisions.PROTOCOL_VERSION_KEY)
    if isinstance(version, str):
        out["MCP-Protocol-Version"] = version
    elif legacy_version and body.get("method") != "initialize":
        # A legacy (2025-06-18+) session: the negotiated version rides in the header only.
        out["MCP-Protocol-Version"] = legacy_version
    elif "id" not in body and notification_version:
        # A notification carries no _meta to mirror; the header still says which revision
        # it belongs to (a dual-era server such as the SDK's reads a missing one as legacy).
        out["MCP-Protocol-Version"] = notification_version
    method = body.get("method")
    if isinstance(method, str):
        out["Mcp-Method"] = method
        key = NAMED_METHODS.get(method)
        if key and isinstance(params.get(key), str):
            out["Mcp-Name"] = encode_header_value(params[key])
    return out
