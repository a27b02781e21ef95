"""Theory of operation.  The lint answers one question: "what will a 2026-07-28 server (or the
legacy server this connection talks to) think of this exact text?".  It never refuses to send;
seeing the server's own error is the lesson, so the lint is a forecast, not a gate.

The checks run in layers, outermost first, and a layer that cannot run stops the ones below it:

1. framing   -- on stdio one line is one message; an embedded newline (only possible with
                `--raw`, since the magics compact JSON to one line) splits the message.
2. envelope  -- JSON at all, an object, `jsonrpc: "2.0"`, an id that is a string or an
                integer (never null), not reused while pending, a non-empty string method, params an
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
`mcp_lab.wire.lint_meta`, the schema check in `mcp_lab.wire.lint_schema`.  The envelope rules of
layer 2 are not written here: they are the rows of `jsonrpc.ENVELOPE_RULES`, the one table the
parser, the lint, the wire check and the bundled HTTP binding all read; `envelope_findings`
turns the rows of one part of that table into findings, and only the pending id is the lint's own.
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
    LEGACY_ONLY_METHODS,
    LEGACY_VERSION,
    LOG_LEVEL_KEY,
    MODERN_ONLY_METHODS,
    MODERN_REQUEST_METHODS,
    Era,
)
from mcp_lab.wire.words import N_, _, ngettext

__all__ = [
    "Finding",
    "Findings",
    "lint",
    "Draft",
    "CHECKS",
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


# -- the lint: a table of checks ----------------------------------------------------------------
class Draft:
    """One hand-typed message as the checks read it: the text to send, the connection's era,
    the ids still pending, and the text decoded once (`obj`, or `json_error` when it is not JSON)."""

    def __init__(self, text: str, *, era: Era | None = None, pending: Collection = (), raw: bool = False):
        self.text, self.era, self.pending, self.raw = text, era, pending, raw
        self.body = text[:-1] if text.endswith("\n") else text
        self.obj: Any = None
        self.json_error: Exception | None = None
        try:
            self.obj = json.loads(self.body)
        except (ValueError, RecursionError) as e:
            self.json_error = e

    @property
    def fields(self) -> dict:
        return self.obj if isinstance(self.obj, dict) else {}

    @property
    def has_id(self) -> bool:
        return "id" in self.fields

    @property
    def method(self) -> Any:
        return self.fields.get("method")

    @property
    def params(self) -> Any:
        return self.fields.get("params")

    @property
    def meta(self) -> Any:
        return self.params.get("_meta") if isinstance(self.params, dict) else None

    @property
    def notification_method(self) -> bool:
        return isinstance(self.method, str) and self.method.startswith("notifications/")


# Each check adds its findings to `out` and returns True when the checks below it cannot run (the
# layers of the module docstring, outermost first). `lint` runs them in the order of CHECKS.
def check_framing(d: Draft, out: Findings) -> bool:
    """With `raw`, an embedded newline splits the message into several stdio lines."""
    if d.raw and "\n" in d.body:
        n = d.body.count("\n")
        out.append(
            Finding(
                "error",
                "embedded-newline",
                "basic/transports/stdio",
                ngettext(
                    "the text holds {n} embedded newline: on stdio that is {lines} separate lines, and the server "
                    "parses each fragment on its own (expect -32700 for each)",
                    "the text holds {n} embedded newlines: on stdio that is {lines} separate lines, and the server "
                    "parses each fragment on its own (expect -32700 for each)",
                    n,
                ).format(n=n, lines=n + 1),
            )
        )
    return False


def envelope_findings(d: Draft, out: Findings, part: str) -> bool:
    """The rows of one part of the envelope table (`jsonrpc.ENVELOPE_RULES`) that the message
    breaks, as error findings; True when a broken row says the checks below cannot run.  A rule
    a request or notification breaks names the server's answer, from the row's code."""
    stop = False
    for row in jsonrpc.broken_rules(d.obj, parts=(part,)):
        answer = (
            ""
            if part == "answer"
            else _("; the server answers {code} {name}").format(code=row.code, name=jsonrpc.ERROR_NAMES[row.code])
        )
        out.append(Finding("error", row.rule, row.anchor, row.shown(d.obj) + answer, path=row.path))
        stop = stop or row.stops
    return stop


def check_json_object(d: Draft, out: Findings) -> bool:
    """JSON at all, and one object (not a batch, not a scalar): nothing below runs otherwise."""
    if d.json_error is not None:
        why = _("not JSON ({error}); the server can only answer -32700 Parse error, with no id").format(
            error=d.json_error
        )
        out.append(Finding("error", "not-json", "basic/index#messages", why))
        return True
    return envelope_findings(d, out, "value")


def check_jsonrpc_member(d: Draft, out: Findings) -> bool:
    """`"jsonrpc": "2.0"`, present and exact."""
    envelope_findings(d, out, "version")
    return False


def check_id(d: Draft, out: Findings) -> bool:
    """An id, when there is one: never null, a string or an integer, not pending already."""
    if envelope_findings(d, out, "id") or not d.has_id or not jsonrpc.is_valid_id(d.obj["id"]):
        return False
    rid = d.obj["id"]
    if contains_id(d.pending, rid):
        why = _("id {id} is still pending (sent, not yet answered): a sender must not reuse it; pick a new id").format(
            id=json.dumps(rid)
        )
        out.append(Finding("error", "id-pending", "basic/index#requests", why, path="id"))
    return False


def check_method_and_params(d: Draft, out: Findings) -> bool:
    """A non-empty string method (else a response, or nothing at all), no result or error
    beside it, params an object: without these nothing below can be judged."""
    obj = d.obj
    if "method" not in obj and ("result" in obj or "error" in obj):
        envelope_findings(d, out, "answer")
        asked = " (a legacy server may have asked one)" if d.era == Era.LEGACY else ""
        why = (
            f"this is a response; in 2026-07-28 servers never send requests, so a client never sends a response{asked}"
        )
        severity = "error" if d.era != Era.LEGACY else "warning"
        out.append(Finding(severity, "response-from-client", "basic/patterns/index", why))
        return True
    return envelope_findings(d, out, "method")


def check_request_or_notification(d: Draft, out: Findings) -> bool:
    """Whether the id makes it a request or a notification, and what that implies."""
    method = d.method
    if d.has_id and d.notification_method:
        why = _(
            "{method} carries an id, so it is a request, not a notification: the server must answer it "
            "(expect -32601 Method not found)"
        ).format(method=method)
        out.append(Finding("info", "notification-with-id", "basic/index#notifications", why))
    elif not d.has_id and not d.notification_method:
        if method in REQUEST_METHODS:
            why = _(
                "no id, so this is a notification ({method} is a request method): the server must not answer it, "
                "and nothing will come back"
            ).format(method=method)
        else:
            why = _("no id, so this is a notification: the server must not answer it, and nothing will come back")
        out.append(Finding("info", "request-without-id", "basic/index#notifications", why))
    elif not d.has_id:
        why = _("{method} is a notification: the server never answers it, even when it does not know it").format(
            method=method
        )
        out.append(Finding("info", "notification", "basic/index#notifications", why))
    return False


def check_legacy_connection(d: Draft, out: Findings) -> bool:
    """On a legacy connection: modern-only methods, modern `_meta`, and the legacy schema. The
    modern checks below do not apply, so this ends the lint on such a connection."""
    if d.era != Era.LEGACY:
        return False
    method, meta = d.method, d.meta
    if method in MODERN_ONLY_METHODS:
        why = _(
            "{method} is new in {latest}; a legacy server answers it with an error of its own choosing "
            "(often -32601, sometimes -32602) or not at all, so a probe treats any answer that is not a "
            "DiscoverResult or a recognised modern error as 'legacy', never one code"
        ).format(method=method, latest=LATEST)
        out.append(Finding("warning", "modern-only-method", "changelog", why))
    if isinstance(meta, dict) and any(k in meta for k in revisions.REQUIRED_META_KEYS + (CLIENT_INFO_KEY,)):
        why = _(
            "2026-07-28 _meta keys on a legacy connection: a legacy-only server ignores them, but a "
            "dual-era server (the official SDK's) fixes the era per connection and answers -32600; "
            "on this connection version and capabilities were negotiated by initialize"
        )
        out.append(Finding("warning", "meta-on-legacy", "basic/versioning", why, path="params._meta"))
    if d.has_id and method in LEGACY_REQUEST_METHODS:
        check_schema(out, method, LEGACY_VERSION, d.params, notification=False)
    elif not d.has_id and method.startswith("notifications/"):
        check_schema(out, method, LEGACY_VERSION, d.params, notification=True)
    elif method not in MODERN_ONLY_METHODS:
        why = (
            _("{method} is not a {legacy} client request; expect -32601 unless the server defines it")
            if d.has_id
            else _("{method} is not a {legacy} client notification; expect -32601 unless the server defines it")
        ).format(method=method, legacy=LEGACY_VERSION)
        out.append(Finding("warning", "unknown-method", "changelog", why))
    return True


def _has_required_meta(meta: Any) -> bool:
    return isinstance(meta, dict) and all(k in meta for k in revisions.REQUIRED_META_KEYS)


# What replaced each method the handshake era had and 2026-07-28 removed.
LEGACY_REPLACEMENTS = {
    "initialize": N_("server/discover plus _meta on every request"),
    "notifications/initialized": N_("nothing: there is no handshake"),
    "ping": N_("nothing"),
    "logging/setLevel": N_("the per-request _meta key {key}"),
    "resources/subscribe": "subscriptions/listen",
    "resources/unsubscribe": "subscriptions/listen",
    "notifications/roots/list_changed": N_("nothing"),
}


def check_legacy_only_method(d: Draft, out: Findings) -> bool:
    """A method 2026-07-28 removed, sent to a modern (or unprobed) server: what it answers and
    what replaced the method. Such a message is judged no further."""
    method = d.method
    if method not in LEGACY_ONLY_METHODS:
        return False
    replacement = _(LEGACY_REPLACEMENTS[method]).format(key=LOG_LEVEL_KEY)
    if method == "initialize":
        answer = _(
            "an error of its own choosing on stdio (the code is implementation-defined; "
            "the bundled calendar's is -32601) and 400 over HTTP, and SHOULD name its versions"
        )
    elif not d.has_id:
        answer = _("nothing (a notification is never answered)")
    elif _has_required_meta(d.meta):
        answer = _("-32601 (method not found)")
    else:
        # Two faults, two codes: the unknown method (-32601) and the missing `_meta` (-32602).
        # Which one a server checks first is its own choice (notebook 04b shows both).
        answer = _(
            "-32601 (method not found) or, if it reads the missing _meta first, -32602 "
            "(the bundled calendar answers -32601, the official SDK's server -32602)"
        )
    if d.era == Era.MODERN:
        why = _(
            "{method} was removed in {latest} (replaced by {replacement}); this modern server answers {answer}"
        ).format(method=method, latest=LATEST, replacement=replacement, answer=answer)
        out.append(Finding("error", "legacy-only-method", "changelog", why))
    else:
        why = _(
            "{method} exists only in the handshake era (<= {legacy}); a {latest} server answers {answer}; its "
            "replacement is {replacement}"
        ).format(method=method, legacy=LEGACY_VERSION, latest=LATEST, answer=answer, replacement=replacement)
        out.append(Finding("warning", "legacy-only-method", "changelog", why))
        check_schema(out, method, LEGACY_VERSION, d.params, notification=not d.has_id)
    return True


def check_modern_meta(d: Draft, out: Findings) -> bool:
    """`_meta` of a modern request (the required keys and their values), or of a notification."""
    if d.has_id:
        check_request_meta(out, d.params)
    elif isinstance(d.meta, dict):
        check_meta_keys(out, d.meta, request=False)
    return False


def check_modern_schema(d: Draft, out: Findings) -> bool:
    """The params against the 2026-07-28 schema, or why the method has none there."""
    method = d.method
    if d.has_id and not d.notification_method:
        if method in MODERN_REQUEST_METHODS:
            check_schema(out, method, LATEST, d.params, notification=False)
        else:
            why = _(
                "{method} is not a {latest} client request; expect -32601 Method not found unless the server "
                "defines it (an extension)"
            ).format(method=method, latest=LATEST)
            out.append(Finding("warning", "unknown-method", "schema", why))
    elif not d.has_id:
        if method == "notifications/cancelled":
            check_schema(out, method, LATEST, d.params, notification=True)
        elif d.notification_method:
            why = _(
                "{method} is not a {latest} client notification (only notifications/cancelled is); the server "
                "ignores it silently"
            ).format(method=method, latest=LATEST)
            out.append(Finding("warning", "unknown-notification", "schema", why))
    return False


CHECKS = (
    check_framing,
    check_json_object,
    check_jsonrpc_member,
    check_id,
    check_method_and_params,
    check_request_or_notification,
    check_legacy_connection,
    check_legacy_only_method,
    check_modern_meta,
    check_modern_schema,
)


def lint(text: str, *, era: Era | str | None = None, pending: Collection = (), raw: bool = False) -> Findings:
    """Lint one hand-typed message: each check of CHECKS in turn, until one says stop.

    `text` is what will be sent (with `raw=True`, byte-exact, so a newline in it is a framing
    error; otherwise newlines are JSON whitespace the sender compacts away).  `era` is the
    connection's era ("modern", "legacy" or None); `pending` holds ids still awaiting answers.
    """
    if era is not None and era not in tuple(Era):
        raise ValueError(f"era must be one of {', '.join(repr(e) for e in Era)} or None, not {era!r}")
    draft = Draft(text, era=None if era is None else Era(era), pending=pending, raw=raw)
    out = Findings()
    for check in CHECKS:
        if check(draft, out):
            break
    return out
