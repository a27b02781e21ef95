"""The lint's schema check of one message's params, through the official `mcp-types` models of
the message's era (imported on first use).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from mcp_lab.wire.findings import LEGACY_REQUEST_METHODS, MAX_SCHEMA_FINDINGS, Finding, Findings
from mcp_lab.wire.revisions import (
    CLIENT_CAPABILITIES_KEY,
    LATEST,
    MODERN_REQUEST_METHODS,
    PROTOCOL_VERSION_KEY,
)
from mcp_lab.wire.words import _, ngettext


# -- schema validation through mcp-types ------------------------------------------------------
# Long on purpose: one rule per block, each with its spec anchor.
def check_schema(out: Findings, method: str, version: str, params: Any, *, notification: bool) -> None:
    """Validate params with the mcp-types model of (method, version); errors become findings."""
    import pydantic
    from mcp_types import methods

    surface = methods.CLIENT_NOTIFICATIONS if notification else methods.CLIENT_REQUESTS
    model = surface.get((method, version))
    if model is None:
        return
    # The schema reference of the message's own revision: a legacy type has no anchor in 2026-07-28.
    base = "schema#" if version == LATEST else f"https://modelcontextprotocol.io/specification/{version}/schema#"
    section = base + model.__name__.lower()
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
    unions: dict[str, list[tuple[str, str, str, str, Any]]] = {}
    for err in errors:
        path, tag, rest = _json_path(body, err["loc"], err["type"])
        if _covered_by_meta_rules(out, path, err["type"]):
            continue
        if tag is not None:
            unions.setdefault(path, []).append((tag, rest, err["msg"], err["type"], err.get("input")))
            continue
        msg = err["msg"]
        if err["type"] == "missing":
            msg = _("required, missing")
        line = f"{path or 'message'}: {msg}"
        if line in seen:
            continue
        seen.add(line)
        findings.append(Finding("error", "schema", section, f"{method} ({version}): {msg}", path=path))
    for path, arms in unions.items():
        by_tag: dict[str, list[str]] = {}
        missing: dict[str, int] = {}
        given: dict[str, Any] = {}
        for tag, rest, msg, etype, value in arms:
            by_tag.setdefault(tag, []).append(f"{rest + ': ' if rest else ''}{msg}")
            missing[tag] = missing.get(tag, 0) + (etype == "missing")
            if etype == "missing" and rest.isidentifier() and isinstance(value, dict):
                given[tag] = value  # a top-level field missing: `value` is the object written here
        # The closest branch is the one the learner's keys fit best: most of the keys written are
        # its fields (an answer with `content` but no `action` is an ElicitResult gone wrong, not
        # a ListRootsResult), then fewest fields missing, then the shape a learner meets first
        # (an elicitation's answer, notebook 04).
        known = {t: _known_keys(t, given.get(t)) for t in by_tag}
        closest = min(by_tag, key=lambda t: (-known[t], missing[t], _taught(t), len(by_tag[t])))
        findings.append(
            Finding(
                "error",
                "schema",
                section,
                f"{method} ({version}): {_shapes(by_tag, closest)}: " + "; ".join(by_tag[closest][:3]),
                path=path,
            )
        )
    if len(findings) > MAX_SCHEMA_FINDINGS:
        extra = len(findings) - MAX_SCHEMA_FINDINGS
        findings = findings[:MAX_SCHEMA_FINDINGS] + [
            Finding(
                "error",
                "schema",
                section,
                ngettext("... and {n} more schema error", "... and {n} more schema errors", extra).format(n=extra),
            )
        ]
    out.extend(findings)
    if params is not None and not notification and method in MODERN_REQUEST_METHODS | LEGACY_REQUEST_METHODS:
        _unknown_params(out, model, params, method, version, section)


# The answers an entry of `inputResponses` can hold, each said by what it answers, so that a
# finding about an elicitation's answer does not name sampling's or roots' types unexplained
# (notebook 04 meets this union before notebook 07 teaches the other two).  In teaching order.
ANSWER_SHAPES = {
    "ElicitResult": "elicitation/create",
    "CreateMessageResult": "sampling/createMessage",
    "ListRootsResult": "roots/list",
}


def _taught(tag: str) -> int:
    order = list(ANSWER_SHAPES)
    return order.index(tag) if tag in order else len(order)


def _shapes(tags: Iterable[str], closest: str) -> str:
    """'matches none of A, B; closest is A', an answer shape said by the request it answers."""
    tags = list(tags)
    if not set(tags) <= set(ANSWER_SHAPES):
        return _("matches none of {branches}; closest is {closest}").format(branches=", ".join(tags), closest=closest)
    answered = ", ".join(ANSWER_SHAPES[t] for t in sorted(tags, key=_taught))
    return _("not an answer to any of {answered}; closest is {closest} (the answer to {request})").format(
        answered=answered, closest=closest, request=ANSWER_SHAPES[closest]
    )


def _known_keys(tag: str, written: Any) -> int:
    """How many keys of `written` are fields of the mcp-types model named `tag` (0 if unknown)."""
    import mcp_types

    model = getattr(mcp_types, tag, None)
    fields = getattr(model, "model_fields", None)
    if not isinstance(written, dict) or not fields:
        return 0
    names = {f.alias or name for name, f in fields.items()} | set(fields)
    return sum(1 for k in written if k in names)


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
            add = "; " + _("did you mean {name}?").format(name=repr(hint[0])) if hint else ""
            out.append(
                Finding(
                    "warning",
                    "unknown-param",
                    section,
                    _("{key} is not a {method} param in {version}; the server will ignore it").format(
                        key=repr(key), method=method, version=version
                    )
                    + add,
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
