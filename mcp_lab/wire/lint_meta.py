"""The lint's `_meta` checks: the keys a request must carry in 2026-07-28, and the reserved-prefix
and naming rules every `_meta` key follows
(https://modelcontextprotocol.io/specification/2026-07-28/basic/index#general-fields).
"""

from __future__ import annotations

import json
from typing import Any, Collection

from mcp_lab.wire import revisions
from mcp_lab.wire.findings import NAME_RE, PREFIX_LABEL_RE, REQUEST_META_KEYS, Finding, Findings
from mcp_lab.wire.revisions import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LATEST,
    LOG_LEVEL_KEY,
    PROTOCOL_VERSION_KEY,
    SERVER_INFO_KEY,
    SUBSCRIPTION_ID_KEY,
)
from mcp_lab.wire.words import _


def contains_id(pending: Collection, rid: Any) -> bool:
    try:
        return rid in pending
    except TypeError:
        return False


# Long on purpose: one rule per block, each with its spec anchor.
def check_request_meta(out: Findings, params: Any) -> None:
    add = lambda *a, **k: out.append(Finding(*a, **k))  # noqa: E731
    if params is None:
        add(
            "error",
            "meta-missing",
            "basic/index#general-fields",
            _(
                "no params, so no params._meta: every {latest} request must carry {version_key} and {caps_key}; "
                "the server answers -32602 Invalid params"
            ).format(latest=LATEST, version_key=PROTOCOL_VERSION_KEY, caps_key=CLIENT_CAPABILITIES_KEY),
            path="params",
        )
        return
    meta = params.get("_meta")
    if "_meta" not in params:
        add(
            "error",
            "meta-missing",
            "basic/index#general-fields",
            _(
                "params has no _meta: every {latest} request must carry {version_key} and {caps_key}; the server "
                "answers -32602 Invalid params"
            ).format(latest=LATEST, version_key=PROTOCOL_VERSION_KEY, caps_key=CLIENT_CAPABILITIES_KEY),
            path="params._meta",
        )
        return
    if not isinstance(meta, dict):
        add("error", "meta-type", "basic/index#general-fields", _("_meta must be an object"), path="params._meta")
        return
    if PROTOCOL_VERSION_KEY not in meta:
        add(
            "error",
            "meta-protocol-version",
            "basic/index#general-fields",
            _("_meta lacks the required {key}; the server answers -32602").format(key=PROTOCOL_VERSION_KEY),
            path=f"params._meta[{json.dumps(PROTOCOL_VERSION_KEY)}]",
        )
    else:
        v = meta[PROTOCOL_VERSION_KEY]
        if isinstance(v, str) and v != LATEST:
            era = revisions.era_of(v)
            why = (
                _("{version} is a handshake-era revision, negotiated by initialize, not by _meta").format(version=v)
                if era == revisions.Era.LEGACY
                else _("{version} is not a known revision").format(version=str(v))
            )
            add(
                "warning",
                "meta-protocol-version-unsupported",
                "basic/versioning",
                _("{why}; a {latest}-only server answers -32022 with data.supported").format(why=why, latest=LATEST),
                path=f"params._meta[{json.dumps(PROTOCOL_VERSION_KEY)}]",
            )
    if CLIENT_CAPABILITIES_KEY not in meta:
        add(
            "error",
            "meta-client-capabilities",
            "basic/index#general-fields",
            _(
                "_meta lacks the required {key} ({{}} declares no optional capability); the server answers -32602"
            ).format(key=CLIENT_CAPABILITIES_KEY),
            path=f"params._meta[{json.dumps(CLIENT_CAPABILITIES_KEY)}]",
        )
    if CLIENT_INFO_KEY not in meta:
        add(
            "warning",
            "meta-client-info",
            "basic/index#general-fields",
            _('clients SHOULD send {key} ({{"name", "version"}}) on every request').format(key=CLIENT_INFO_KEY),
            path="params._meta",
        )
    check_meta_keys(out, meta, request=True)


# Long on purpose: one rule per block, each with its spec anchor.
def check_meta_keys(out: Findings, meta: dict, *, request: bool) -> None:
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
                    _("{key} is deprecated (SEP-2577) but still valid").format(key=LOG_LEVEL_KEY),
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
                        "basic/index#general-fields",
                        _("{key} is not a reserved key; did you mean {reserved}?").format(
                            key=repr(key), reserved=repr(reserved)
                        ),
                        path=path,
                    )
                    break
            else:
                if not NAME_RE.match(key):
                    add(
                        "warning",
                        "meta-key-name",
                        "basic/index#general-fields",
                        _("{name} is not a valid _meta name (alphanumerics, with - _ . inside)").format(name=repr(key)),
                        path=path,
                    )
            continue
        labels = prefix.split(".")
        if not all(PREFIX_LABEL_RE.match(lab) for lab in labels):
            add(
                "warning",
                "meta-key-prefix",
                "basic/index#general-fields",
                _("the prefix {prefix} is not dot-separated labels (letters, digits, hyphens)").format(
                    prefix=repr(prefix + "/")
                ),
                path=path,
            )
        elif len(labels) >= 2 and labels[1] in ("modelcontextprotocol", "mcp"):
            known = ", ".join(sorted(k.rsplit("/", 1)[1] for k in allowed if "/" in k))
            what = (
                _("a result key, not a request key")
                if key == SERVER_INFO_KEY
                else _("not a key {latest} defines here (known: {known}); check spelling and case").format(
                    latest=LATEST, known=known
                )
            )
            add(
                "warning",
                "meta-reserved-prefix",
                "basic/index#general-fields",
                _("{key} uses a prefix reserved for MCP ({label} as second label), but it is {what}").format(
                    key=repr(key), label=repr(labels[1]), what=what
                ),
                path=path,
            )
        if name and not NAME_RE.match(name):
            add(
                "warning",
                "meta-key-name",
                "basic/index#general-fields",
                _("{name} is not a valid _meta name (alphanumerics, with - _ . inside)").format(name=repr(name)),
                path=path,
            )
