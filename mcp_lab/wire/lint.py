"""Theory of operation.  The lint answers one question: "what will a 2026-07-28 server (or the
legacy server this connection talks to) think of this exact text?".  It never refuses to send;
seeing the server's own error is the lesson, so the lint is a forecast, not a gate.

The checks run in layers, outermost first, and a layer that cannot run stops the ones below it:

1. framing   -- on stdio one line is one message; an embedded newline (only possible with
                `--raw`, since the magics compact JSON to one line) splits the message.
2. envelope  -- JSON at all, an object, `jsonrpc: "2.0"`, an id that is a string or an
                integer (never null), not reused while pending, a string method, params an
                object; whether it is a request or a notification, and what that implies.
3. era       -- a method the connection's era does not have (`initialize`/`ping` to a modern
                server, `server/discover` to a legacy one), and `_meta` sent to a legacy server.
4. `_meta`   -- the two required per-request keys, the SHOULD for clientInfo, the version
                value, and the key-naming rules (the reserved `modelcontextprotocol`/`mcp`
                prefixes).
5. schema    -- params validated against the official schema of the era.  The models are the
                ones `mcp-types` (the official SDK's wire-type package) generates from the
                official JSON Schema of each revision; `mcp_types.methods.validate_client_request`
                picks the model by (method, version).  Nothing is read from disk at run time and
                no copy of the schema lives in this repository.  pydantic's error locations are
                turned back into JSON paths of the learner's message (union branch names removed).

`era` is the connection's era: "modern", "legacy", or None when nobody has probed it; None is
linted as the revision this course teaches (2026-07-28), with era mistakes softened to warnings.

Where things are: the findings and their views in `mcp_lab.wire.findings`, the `_meta` rules in
`mcp_lab.wire.lint_meta`, the schema check in `mcp_lab.wire.lint_schema`; the envelope rules are
`jsonrpc.parse_obj`'s own.
"""

from __future__ import annotations

import json
from typing import Any, Collection

from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.findings import (
    LEGACY_REQUEST_METHODS,
    REQUEST_META_KEYS,
    REQUEST_METHODS,
    SEVERITIES,
    SPEC_BASE,
    Finding,
    Findings,
    render_html,
    render_text,
)
from mcp_lab.wire.lint_meta import check_meta_keys, check_request_meta, contains_id
from mcp_lab.wire.lint_schema import check_schema
from mcp_lab.wire.revisions import (
    CLIENT_INFO_KEY,
    LATEST,
    LEGACY,
    LEGACY_ONLY_METHODS,
    LOG_LEVEL_KEY,
    MODERN_ONLY_METHODS,
    MODERN_REQUEST_METHODS,
)

__all__ = [
    "Finding",
    "Findings",
    "lint",
    "compact",
    "fill_meta",
    "render_text",
    "render_html",
    "SPEC_BASE",
    "REQUEST_META_KEYS",
    "LEGACY_REQUEST_METHODS",
    "SEVERITIES",
]


# -- helpers the magics and the kernel share -------------------------------------------------
def compact(text: str) -> tuple[str, Any]:
    """The one line a framed message must be, and the decoded value (None when not JSON).

    Valid JSON is re-encoded compactly (key order and values unchanged).  Text that is not
    JSON cannot be re-encoded; its line breaks are turned into spaces so it still travels as
    one line and the server answers it once, with -32700.
    """
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return " ".join(part.strip() for part in text.strip().splitlines()), None
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")), obj


def fill_meta(obj: Any, meta: dict) -> Any:
    """Add a request's missing `_meta` keys from `meta`; keys the caller typed win."""
    if not isinstance(obj, dict) or "method" not in obj or "id" not in obj:
        return obj
    params = obj.get("params")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        return obj
    given = params.get("_meta")
    merged = {**meta, **given} if isinstance(given, dict) else dict(meta)
    return {**obj, "params": {**params, "_meta": merged}}


# -- the lint ----------------------------------------------------------------------------------
def lint(text: str, *, era: str | None = None, pending: Collection = (), raw: bool = False) -> Findings:  # noqa: C901 -- one check per rule, in the order a learner meets them
    """Lint one hand-typed message.

    `text` is what will be sent (with `raw=True`, byte-exact, so a newline in it is a framing
    error; otherwise newlines are JSON whitespace the sender compacts away).  `era` is the
    connection's era ("modern", "legacy" or None); `pending` holds ids still awaiting answers.
    """
    out = Findings()
    add = lambda *a, **k: out.append(Finding(*a, **k))  # noqa: E731
    if era not in (None, "modern", "legacy"):
        raise ValueError(f"era must be 'modern', 'legacy' or None, not {era!r}")

    body = text[:-1] if text.endswith("\n") else text
    if raw and "\n" in body:
        n = body.count("\n")
        add(
            "error",
            "embedded-newline",
            "basic/transports/stdio",
            f"the text holds {n} embedded newline(s): on stdio that is {n + 1} separate lines, "
            "and the server parses each fragment on its own (expect -32700 for each)",
        )
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError) as e:
        add(
            "error",
            "not-json",
            "basic/index#messages",
            f"not JSON ({e}); the server can only answer -32700 Parse error, with no id",
        )
        return out
    if isinstance(obj, list):
        add(
            "error",
            "batch",
            "basic/index#messages",
            "a JSON array is a JSON-RPC batch, and MCP has no batches: send one object per line",
        )
        return out
    if not isinstance(obj, dict):
        add("error", "not-object", "basic/index#messages", "a message must be a JSON object")
        return out

    # -- envelope ------------------------------------------------------------------------------
    if "jsonrpc" not in obj:
        add(
            "error",
            "jsonrpc-version",
            "basic/index#messages",
            'the "jsonrpc": "2.0" member is missing; the server answers -32600 Invalid Request',
            path="jsonrpc",
        )
    elif obj["jsonrpc"] != "2.0":
        add(
            "error",
            "jsonrpc-version",
            "basic/index#messages",
            f'"jsonrpc" must be exactly the string "2.0", not {json.dumps(obj["jsonrpc"])}',
            path="jsonrpc",
        )

    has_id = "id" in obj
    rid = obj.get("id")
    if has_id:
        if rid is None:
            add(
                "error",
                "id-null",
                "basic/index#requests",
                "id must not be null in MCP (stricter than JSON-RPC): use a string or an integer",
                path="id",
            )
        elif not jsonrpc.is_valid_id(rid):
            add(
                "error",
                "id-type",
                "basic/index#requests",
                f"id must be a string or an integer, not {type(rid).__name__} {json.dumps(rid)}",
                path="id",
            )
        elif contains_id(pending, rid):
            add(
                "error",
                "id-pending",
                "basic/index#requests",
                f"id {json.dumps(rid)} is still pending (sent, not yet answered): a sender must not "
                "reuse it; pick a new id",
                path="id",
            )

    if "method" not in obj:
        if "result" in obj or "error" in obj:
            sev = "error" if era != "legacy" else "warning"
            add(
                sev,
                "response-from-client",
                "basic/patterns/index",
                "this is a response; in 2026-07-28 servers never send requests, so a client never "
                "sends a response" + (" (a legacy server may have asked one)" if era == "legacy" else ""),
            )
        else:
            add(
                "error",
                "method-missing",
                "basic/index#requests",
                'no "method": this is neither a request nor a notification',
                path="method",
            )
        return out
    method = obj["method"]
    if not isinstance(method, str) or not method:
        add("error", "method-type", "basic/index#requests", '"method" must be a non-empty string', path="method")
        return out
    if "result" in obj or "error" in obj:
        add("error", "mixed-message", "basic/index#messages", "a request cannot also carry result or error")
    if "params" in obj and not isinstance(obj["params"], dict):
        add(
            "error",
            "params-type",
            "basic/index#requests",
            f'"params" must be an object in MCP, not {json.dumps(obj["params"])[:40]}',
            path="params",
        )
        return out
    params = obj.get("params")

    is_notification_method = method.startswith("notifications/")
    if has_id and is_notification_method:
        add(
            "info",
            "notification-with-id",
            "basic/index#notifications",
            f"{method} carries an id, so it is a request, not a notification: the server must "
            "answer it (expect -32601 Method not found)",
        )
    elif not has_id and not is_notification_method:
        known = " (" + method + " is a request method)" if method in REQUEST_METHODS else ""
        add(
            "info",
            "request-without-id",
            "basic/index#notifications",
            f"no id, so this is a notification{known}: the server must not answer it, and nothing will come back",
        )
    elif not has_id:
        add(
            "info",
            "notification",
            "basic/index#notifications",
            f"{method} is a notification: the server never answers it, even when it does not know it",
        )

    # -- era -----------------------------------------------------------------------------------
    meta = params.get("_meta") if isinstance(params, dict) else None
    legacy_only = method in LEGACY_ONLY_METHODS
    if era == "legacy":
        if method in MODERN_ONLY_METHODS:
            add(
                "warning",
                "modern-only-method",
                "changelog",
                f"{method} is new in {LATEST}; a legacy server answers it with an error of its own choosing "
                "(often -32601, sometimes -32602) or not at all, so a probe treats any answer that is not a "
                "DiscoverResult or a recognised modern error as 'legacy', never one code",
            )
        if isinstance(meta, dict) and any(k in meta for k in revisions.REQUIRED_META_KEYS + (CLIENT_INFO_KEY,)):
            add(
                "warning",
                "meta-on-legacy",
                "basic/versioning",
                "2026-07-28 _meta keys on a legacy connection: a legacy-only server ignores them, but a "
                "dual-era server (the official SDK's) fixes the era per connection and answers -32600; "
                "on this connection version and capabilities were negotiated by initialize",
                path="params._meta",
            )
        if has_id and method in LEGACY_REQUEST_METHODS:
            check_schema(out, method, LEGACY, params, notification=False)
        elif not has_id and method.startswith("notifications/"):
            check_schema(out, method, LEGACY, params, notification=True)
        elif method not in MODERN_ONLY_METHODS:
            add(
                "warning",
                "unknown-method",
                "changelog",
                f"{method} is not a {LEGACY} client {'request' if has_id else 'notification'}; "
                "expect -32601 unless the server defines it",
            )
        return out

    if legacy_only:
        replacement = {
            "initialize": "server/discover plus _meta on every request",
            "notifications/initialized": "nothing: there is no handshake",
            "ping": "nothing",
            "logging/setLevel": f"the per-request _meta key {LOG_LEVEL_KEY}",
            "resources/subscribe": "subscriptions/listen",
            "resources/unsubscribe": "subscriptions/listen",
            "notifications/roots/list_changed": "nothing",
        }[method]
        answer = (
            "an error of its own choosing on stdio (the code is implementation-defined; "
            "the bundled calendar's is -32601) and 400 over HTTP, and SHOULD name its versions"
            if method == "initialize"
            else ("-32601" if has_id else "nothing (a notification is never answered)")
        )
        if era == "modern":
            add(
                "error",
                "legacy-only-method",
                "changelog",
                f"{method} was removed in {LATEST} (replaced by {replacement}); this modern server answers {answer}",
            )
        else:
            add(
                "warning",
                "legacy-only-method",
                "changelog",
                f"{method} exists only in the handshake era (<= {LEGACY}); a {LATEST} server answers "
                f"{answer}; its replacement is {replacement}",
            )
            check_schema(out, method, LEGACY, params, notification=not has_id)
        return out

    # -- _meta (modern, or unknown era linted as modern) ---------------------------------------
    if has_id:
        check_request_meta(out, params)
    elif isinstance(meta, dict):
        check_meta_keys(out, meta, request=False)

    # -- schema --------------------------------------------------------------------------------
    if has_id and not is_notification_method:
        if method in MODERN_REQUEST_METHODS:
            check_schema(out, method, LATEST, params, notification=False)
        else:
            add(
                "warning",
                "unknown-method",
                "schema",
                f"{method} is not a {LATEST} client request; expect -32601 Method not found "
                "unless the server defines it (an extension)",
            )
    elif not has_id:
        if method == "notifications/cancelled":
            check_schema(out, method, LATEST, params, notification=True)
        elif is_notification_method:
            add(
                "warning",
                "unknown-notification",
                "schema",
                f"{method} is not a {LATEST} client notification (only notifications/cancelled is); "
                "the server ignores it silently",
            )
    return out
