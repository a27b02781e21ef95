"""Lint one hand-typed JSON-RPC message before it is sent, and say where the spec says so.

Theory of operation.  The lint answers one question: "what will a 2026-07-28 server (or the
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
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any, Collection, Iterable

from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.revisions import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LATEST,
    LEGACY,
    LEGACY_ONLY_METHODS,
    LOG_LEVEL_KEY,
    MODERN_ONLY_METHODS,
    MODERN_REQUEST_METHODS,
    PROTOCOL_VERSION_KEY,
    SERVER_INFO_KEY,
    SUBSCRIPTION_ID_KEY,
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

SPEC_BASE = f"https://modelcontextprotocol.io/specification/{LATEST}/"
SEVERITIES = ("error", "warning", "info")

# Keys a client may put in a request's _meta (the reserved ones, then the unprefixed ones the
# spec names: progress opt-in and W3C trace context, an explicit exception to the prefix rule).
REQUEST_META_KEYS = (
    PROTOCOL_VERSION_KEY,
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    "progressToken",
    "traceparent",
    "tracestate",
    "baggage",
)
# Handshake-era client requests (2025-11-25), for completion and era checks.
LEGACY_REQUEST_METHODS = frozenset(
    {
        "initialize",
        "ping",
        "logging/setLevel",
        "completion/complete",
        "prompts/get",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "tools/call",
        "tools/list",
    }
)
_REQUEST_METHODS = MODERN_REQUEST_METHODS | LEGACY_REQUEST_METHODS
_MAX_SCHEMA_FINDINGS = 6

# Where each method's params are described (spec pages, relative to SPEC_BASE).
_METHOD_PAGE = {
    "server/discover": "server/discover",
    "subscriptions/listen": "basic/patterns/subscriptions",
    "completion/complete": "server/utilities/completion",
}
_PREFIX_LABEL = re.compile(r"^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$")
_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")


@dataclass(frozen=True)
class Finding:
    """One thing the lint noticed: how bad, which rule, where the spec says so, in one line."""

    severity: str  # "error" | "warning" | "info"
    rule: str  # a stable name, e.g. "id-null", "meta-missing", "schema"
    section: str  # spec page and anchor relative to SPEC_BASE, e.g. "basic/index#_meta"
    message: str  # one line for the learner
    path: str = ""  # JSON path inside the message, e.g. "params._meta", when it applies

    @property
    def url(self) -> str:
        return SPEC_BASE + self.section

    def __str__(self) -> str:
        where = f" at {self.path}" if self.path else ""
        return f"{self.severity:<7} {self.rule}{where}: {self.message}  [{self.section}]"


class Findings(list):
    """A plain list of Finding that also renders itself in a notebook (HTML) and a terminal."""

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self if f.severity == "warning"]

    @property
    def rules(self) -> list[str]:
        return [f.rule for f in self]

    @property
    def ok(self) -> bool:
        """No errors (warnings and infos do not stop a message from being valid)."""
        return not self.errors

    def text(self) -> str:
        return render_text(self)

    def __str__(self) -> str:
        return render_text(self)

    def _repr_html_(self) -> str:
        return render_html(self)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(render_text(self))


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
        elif _contains(pending, rid):
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
        known = " (" + method + " is a request method)" if method in _REQUEST_METHODS else ""
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
                f"{method} is new in {LATEST}; this legacy server answers -32601 (the very answer the "
                "probe uses to tell the eras apart)",
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
            _schema(out, method, LEGACY, params, notification=False)
        elif not has_id and method.startswith("notifications/"):
            _schema(out, method, LEGACY, params, notification=True)
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
            "-32022 or -32601"
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
            _schema(out, method, LEGACY, params, notification=not has_id)
        return out

    # -- _meta (modern, or unknown era linted as modern) ---------------------------------------
    if has_id:
        _check_request_meta(out, params)
    elif isinstance(meta, dict):
        _check_meta_keys(out, meta, request=False)

    # -- schema --------------------------------------------------------------------------------
    if has_id and not is_notification_method:
        if method in MODERN_REQUEST_METHODS:
            _schema(out, method, LATEST, params, notification=False)
        else:
            add(
                "warning",
                "unknown-method",
                "schema#clientrequest",
                f"{method} is not a {LATEST} client request; expect -32601 Method not found "
                "unless the server defines it (an extension)",
            )
    elif not has_id:
        if method == "notifications/cancelled":
            _schema(out, method, LATEST, params, notification=True)
        elif is_notification_method:
            add(
                "warning",
                "unknown-notification",
                "schema#clientnotification",
                f"{method} is not a {LATEST} client notification (only notifications/cancelled is); "
                "the server ignores it silently",
            )
    return out


def _contains(pending: Collection, rid: Any) -> bool:
    try:
        return rid in pending
    except TypeError:
        return False


def _check_request_meta(out: Findings, params: Any) -> None:
    add = lambda *a, **k: out.append(Finding(*a, **k))  # noqa: E731
    if params is None:
        add(
            "error",
            "meta-missing",
            "basic/index#_meta",
            f"no params, so no params._meta: every {LATEST} request must carry {PROTOCOL_VERSION_KEY} "
            f"and {CLIENT_CAPABILITIES_KEY}; the server answers -32602 Invalid params",
            path="params",
        )
        return
    meta = params.get("_meta")
    if "_meta" not in params:
        add(
            "error",
            "meta-missing",
            "basic/index#_meta",
            f"params has no _meta: every {LATEST} request must carry {PROTOCOL_VERSION_KEY} and "
            f"{CLIENT_CAPABILITIES_KEY}; the server answers -32602 Invalid params",
            path="params._meta",
        )
        return
    if not isinstance(meta, dict):
        add("error", "meta-type", "basic/index#_meta", "_meta must be an object", path="params._meta")
        return
    if PROTOCOL_VERSION_KEY not in meta:
        add(
            "error",
            "meta-protocol-version",
            "basic/index#_meta",
            f"_meta lacks the required {PROTOCOL_VERSION_KEY}; the server answers -32602",
            path=f"params._meta[{json.dumps(PROTOCOL_VERSION_KEY)}]",
        )
    else:
        v = meta[PROTOCOL_VERSION_KEY]
        if isinstance(v, str) and v != LATEST:
            era = revisions.era_of(v)
            why = (
                f"{v} is a handshake-era revision, negotiated by initialize, not by _meta"
                if era == "legacy"
                else f"{v!s} is not a known revision"
            )
            add(
                "warning",
                "meta-protocol-version-unsupported",
                "basic/versioning",
                f"{why}; a {LATEST}-only server answers -32022 with data.supported",
                path=f"params._meta[{json.dumps(PROTOCOL_VERSION_KEY)}]",
            )
    if CLIENT_CAPABILITIES_KEY not in meta:
        add(
            "error",
            "meta-client-capabilities",
            "basic/index#_meta",
            f"_meta lacks the required {CLIENT_CAPABILITIES_KEY} ({{}} declares no optional "
            "capability); the server answers -32602",
            path=f"params._meta[{json.dumps(CLIENT_CAPABILITIES_KEY)}]",
        )
    if CLIENT_INFO_KEY not in meta:
        add(
            "warning",
            "meta-client-info",
            "basic/index#_meta",
            f'clients SHOULD send {CLIENT_INFO_KEY} ({{"name", "version"}}) on every request',
            path="params._meta",
        )
    _check_meta_keys(out, meta, request=True)


def _check_meta_keys(out: Findings, meta: dict, *, request: bool) -> None:
    """The naming rules of _meta keys: `prefix/name`, prefixes reverse-DNS, MCP's reserved."""
    add = lambda *a, **k: out.append(Finding(*a, **k))  # noqa: E731
    allowed = (
        set(REQUEST_META_KEYS)
        if request
        else {SUBSCRIPTION_ID_KEY, "progressToken", "traceparent", "tracestate", "baggage"}
    )
    for key in meta:
        path = f"params._meta[{json.dumps(key)}]"
        if key in allowed:
            if key == LOG_LEVEL_KEY:
                add(
                    "info",
                    "meta-deprecated",
                    "deprecated",
                    f"{LOG_LEVEL_KEY} is deprecated (SEP-2577) but still valid",
                    path=path,
                )
            continue
        prefix, sep, name = key.rpartition("/")
        if not sep:
            for reserved in (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY):
                if key.lower() == reserved.rsplit("/", 1)[1].lower():
                    add(
                        "warning",
                        "meta-key-unprefixed",
                        "basic/index#_meta",
                        f"{key!r} is not a reserved key; did you mean {reserved!r}?",
                        path=path,
                    )
                    break
            else:
                if not _NAME.match(key):
                    add(
                        "warning",
                        "meta-key-name",
                        "basic/index#_meta",
                        f"{key!r} is not a valid _meta name (alphanumerics, with - _ . inside)",
                        path=path,
                    )
            continue
        labels = prefix.split(".")
        if not all(_PREFIX_LABEL.match(lab) for lab in labels):
            add(
                "warning",
                "meta-key-prefix",
                "basic/index#_meta",
                f"the prefix {prefix + '/'!r} is not dot-separated labels (letters, digits, hyphens)",
                path=path,
            )
        elif len(labels) >= 2 and labels[1] in ("modelcontextprotocol", "mcp"):
            known = ", ".join(sorted(k.rsplit("/", 1)[1] for k in allowed if "/" in k))
            what = (
                "a result key, not a request key"
                if key == SERVER_INFO_KEY
                else f"not a key {LATEST} defines here (known: {known}); check spelling and case"
            )
            add(
                "warning",
                "meta-reserved-prefix",
                "basic/index#_meta",
                f"{key!r} uses a prefix reserved for MCP ({labels[1]!r} as second label), but it is {what}",
                path=path,
            )
        if name and not _NAME.match(name):
            add(
                "warning",
                "meta-key-name",
                "basic/index#_meta",
                f"{name!r} is not a valid _meta name (alphanumerics, with - _ . inside)",
                path=path,
            )


# -- schema validation through mcp-types ------------------------------------------------------
def _schema(out: Findings, method: str, version: str, params: Any, *, notification: bool) -> None:
    """Validate params with the mcp-types model of (method, version); errors become findings."""
    import pydantic
    from mcp_types import methods

    surface = methods.CLIENT_NOTIFICATIONS if notification else methods.CLIENT_REQUESTS
    model = surface.get((method, version))
    if model is None:
        return
    section = "schema#" + model.__name__.lower()
    validate = methods.validate_client_notification if notification else methods.validate_client_request
    try:
        validate(method, version, params)
    except pydantic.ValidationError as e:
        errors = e.errors(include_url=False)
    else:
        errors = []
    body = {"params": params} if params is not None else {}
    seen: set[str] = set()
    findings: list[Finding] = []
    unions: dict[str, list[tuple[str, str, str, str]]] = {}
    for err in errors:
        path, tag, rest = _json_path(body, err["loc"], err["type"])
        if _covered_by_meta_rules(out, path, err["type"]):
            continue
        if tag is not None:
            unions.setdefault(path, []).append((tag, rest, err["msg"], err["type"]))
            continue
        msg = err["msg"]
        if err["type"] == "missing":
            msg = "required, missing"
        line = f"{path or 'message'}: {msg}"
        if line in seen:
            continue
        seen.add(line)
        findings.append(Finding("error", "schema", section, f"{method} ({version}): {msg}", path=path))
    for path, arms in unions.items():
        by_tag: dict[str, list[str]] = {}
        missing: dict[str, int] = {}
        for tag, rest, msg, etype in arms:
            by_tag.setdefault(tag, []).append(f"{rest + ': ' if rest else ''}{msg}")
            missing[tag] = missing.get(tag, 0) + (etype == "missing")
        # The closest branch is the one the learner's keys fit best: fewest fields missing.
        closest = min(by_tag, key=lambda t: (missing[t], len(by_tag[t])))
        findings.append(
            Finding(
                "error",
                "schema",
                section,
                f"{method} ({version}): matches none of {', '.join(by_tag)}; closest is {closest}: "
                + "; ".join(by_tag[closest][:3]),
                path=path,
            )
        )
    if len(findings) > _MAX_SCHEMA_FINDINGS:
        extra = len(findings) - _MAX_SCHEMA_FINDINGS
        findings = findings[:_MAX_SCHEMA_FINDINGS] + [
            Finding("error", "schema", section, f"... and {extra} more schema error(s)")
        ]
    out.extend(findings)
    if params is not None and not notification and method in MODERN_REQUEST_METHODS | LEGACY_REQUEST_METHODS:
        _unknown_params(out, model, params, method, version, section)


def _covered_by_meta_rules(out: Findings, path: str, etype: str) -> bool:
    """The meta rules already said it, in the learner's words; do not say it twice."""
    if etype != "missing":
        return False
    rules = set(out.rules)
    if path == "params" and "meta-missing" in rules:
        return True
    if path == "params._meta" and "meta-missing" in rules:
        return True
    if path == f"params._meta[{json.dumps(PROTOCOL_VERSION_KEY)}]" and "meta-protocol-version" in rules:
        return True
    if path == f"params._meta[{json.dumps(CLIENT_CAPABILITIES_KEY)}]" and "meta-client-capabilities" in rules:
        return True
    return False


def _unknown_params(out: Findings, model, params: dict, method: str, version: str, section: str) -> None:
    """A typo in a params key passes the schema (extra keys are allowed) and is then ignored."""
    import typing

    ann = model.model_fields["params"].annotation
    cands = [a for a in (typing.get_args(ann) or (ann,)) if hasattr(a, "model_fields")]
    if not cands:
        return
    names = {f.alias or n for n, f in cands[0].model_fields.items()}
    for key in params:
        if key not in names:
            hint = [n for n in names if n.lower().rstrip("s") == key.lower().rstrip("s")]
            add = f"; did you mean {hint[0]!r}?" if hint else ""
            out.append(
                Finding(
                    "warning",
                    "unknown-param",
                    section,
                    f"{key!r} is not a {method} param in {version}; the server will ignore it{add}",
                    path=f"params.{key}" if key.isidentifier() else f"params[{json.dumps(key)}]",
                )
            )


def _json_path(body: Any, loc: Iterable, etype: str) -> tuple[str, str | None, str]:
    """pydantic loc -> (JSON path in the message, union branch name or None, path after the branch).

    Locations of a union error include the name of the branch model (e.g. 'ElicitResult'),
    which is not in the message; we drop it and remember it to group the branches.
    """
    parts: list[str] = []
    tag = None
    rest: list[str] = []
    cur: Any = body
    loc = list(loc)
    for i, el in enumerate(loc):
        step = f"[{el}]" if isinstance(el, int) else (f".{el}" if str(el).isidentifier() else f"[{json.dumps(el)}]")
        if isinstance(cur, dict) and el in cur:
            cur = cur[el]
        elif isinstance(cur, list) and isinstance(el, int) and 0 <= el < len(cur):
            cur = cur[el]
        elif isinstance(el, str) and (i < len(loc) - 1 or etype != "missing") and tag is None and el[:1].isupper():
            tag = el
            continue
        elif i < len(loc) - 1 or etype != "missing":
            if tag is None and isinstance(el, str) and not isinstance(cur, dict):
                continue  # a pydantic-internal step (e.g. 'function-after'), not a key
            cur = None
        (rest if tag is not None else parts).append(step)
    path = "".join(parts).lstrip(".")
    return path, tag, "".join(rest).lstrip(".")


# -- rendering ---------------------------------------------------------------------------------
_COLOURS = {"error": ("#b3261e", "#fce8e6"), "warning": ("#8a5300", "#fef7e0"), "info": ("#1a5fb4", "#e8f0fe")}


def render_text(findings: Iterable[Finding]) -> str:
    findings = list(findings)
    if not findings:
        return "lint: no findings"
    head = "lint: " + ", ".join(
        f"{n} {s}{'s' if n != 1 else ''}" for s in SEVERITIES if (n := sum(f.severity == s for f in findings))
    )
    return "\n".join([head] + [f"  {f}" for f in findings])


def render_html(findings: Iterable[Finding]) -> str:
    findings = list(findings)
    if not findings:
        return "<div style='font-size:12px;color:#137333'>lint: no findings</div>"
    rows = []
    for f in findings:
        fg, bg = _COLOURS.get(f.severity, ("#000", "#fff"))
        path = f" <code>{html.escape(f.path)}</code>" if f.path else ""
        rows.append(
            f"<tr style='background:{bg}'><td style='color:{fg};font-weight:bold'>{html.escape(f.severity)}</td>"
            f"<td><code>{html.escape(f.rule)}</code></td>"
            f"<td style='text-align:left'>{html.escape(f.message)}{path}</td>"
            f"<td><a href='{html.escape(f.url)}' target='_blank'>{html.escape(f.section)}</a></td></tr>"
        )
    return (
        "<table style='font-size:12px'><tr><th>lint</th><th>rule</th>"
        "<th style='text-align:left'>finding</th><th>spec</th></tr>" + "".join(rows) + "</table>"
    )
