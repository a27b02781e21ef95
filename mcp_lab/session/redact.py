"""Secrets out of recordings: what a cassette must never hold, removed when it is saved.

    cassette.save_redacted(trace, "out.jsonl", headers={"X-Api-Key": "..."}, paths=["params.arguments.password"])

Theory of operation.  A secret reaches a Trace in more places than its header: the raw HTTP
request text of an `http` event, that exchange's header list, a `Set-Cookie` in a reply, and,
when the server echoes it, any message body or stderr line.  So redaction is by value, not by
place.  First the secrets are collected: the value of every `Authorization`, `Cookie`,
`Set-Cookie` and `Proxy-Authorization` header in every recorded exchange, of every header the
caller names (`headers=`: the names the user passed with `--header`), and the values found at
the JSON paths the caller marks (`paths=`, matched on every message: `params.arguments.password`,
`**.apiKey`, `[*]` for an index).  Then every string of every event line (the exact `line`, the
parsed `message`, the `http` record, notes) is searched for each secret and the occurrences are
replaced with `<redacted>`; a bearer token is also hidden alone, without its `Bearer ` prefix.
A redacted `line` is no longer byte-exact, and the cassette's header says what was redacted
(names and paths, never values).

The server's command line in the header is a place too (`command_secrets`): the value of every
environment assignment (`env TOKEN=abc python server.py`: `TOKEN=<redacted>`) and of every
option named like a credential (`--token`, `--api-key`, `--password`, `--secret`, ...; as
`--token abc` or `--token=abc`) is masked there, and the values join the secrets searched for
everywhere else, so the server's stderr (recorded as `stderr` events) or an echo in a message
loses them as well.  `mcp_lab.session.cassette.dumps` calls `events()` on every
save, so `trace.save()` from Python hides the standard credentials too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["SENSITIVE_HEADERS", "MASK", "events", "secrets_in", "command_secrets"]

SENSITIVE_HEADERS = ("authorization", "proxy-authorization", "cookie", "set-cookie")
MASK = "<redacted>"
_MIN = 4  # a secret shorter than this would blank ordinary words; such a value is masked by place only


def _header_values(obj: dict, names: set[str]) -> list[str]:
    http = obj.get("http")
    if not isinstance(http, dict):
        return []
    out = []
    for key in ("request_headers", "headers"):
        for pair in http.get(key) or []:
            if isinstance(pair, (list, tuple)) and len(pair) == 2 and str(pair[0]).lower() in names:
                out.append(str(pair[1]))
    return out


def _path_values(value: Any, patterns: tuple[str, ...]) -> list[str]:
    from mcp_lab.wire import jsondiff

    found: list[str] = []
    marker = object()
    masked = jsondiff.normalise(value, patterns, placeholder=marker)

    def walk(a: Any, b: Any) -> None:
        if b is marker:
            found.extend(_strings(a))
        elif isinstance(a, dict) and isinstance(b, dict):
            for k in a:
                walk(a[k], b.get(k))
        elif isinstance(a, list) and isinstance(b, list):
            for x, y in zip(a, b):
                walk(x, y)

    walk(value, masked)
    return found


def _strings(v: Any) -> list[str]:
    import json

    if isinstance(v, str):
        return [v]
    if v is None or isinstance(v, bool):
        return []
    if isinstance(v, (int, float)):
        return [json.dumps(v)]
    return [json.dumps(v, ensure_ascii=False, separators=(",", ":"))] + [
        s for x in (v.values() if isinstance(v, dict) else v) for s in _strings(x)
    ]


def secrets_in(objs: list[dict], headers: Iterable[str] = (), paths: Iterable[str] = ()) -> list[str]:
    """Every secret value in these event records (longest first, so a token inside a header
    value is masked whole)."""
    from mcp_lab.wire.jsondiff import view_rules

    names = set(SENSITIVE_HEADERS) | {h.lower() for h in headers}
    patterns = tuple(p for r in paths for p in view_rules(r) if not p.startswith("request."))
    patterns = tuple(p[len("answer.") :] if p.startswith("answer.") else p for p in patterns)
    found: set[str] = set()
    for obj in objs:
        for v in _header_values(obj, names):
            found.add(v)
            scheme, _, token = v.partition(" ")
            if token and scheme.lower() in ("bearer", "basic", "token"):
                found.add(token)
        if patterns and isinstance(obj.get("message"), dict):
            found.update(_path_values(obj["message"], patterns))
    return sorted((s for s in found if len(s) >= _MIN), key=len, reverse=True)


_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)
_SECRET_OPTION = re.compile(r"token|secret|passw|credential|auth|api[-_]?key|(^|[-_])key($|[-_])", re.I)


def command_secrets(argv: Iterable[str]) -> tuple[list[str], list[str]]:
    """(the argv with secrets masked, the secret values) for a server's command line."""
    masked: list[str] = []
    found: list[str] = []
    pending = False  # the previous item was an option named like a credential: this is its value
    for item in argv:
        item = str(item)
        option, eq, value = item.partition("=") if item.startswith("-") else ("", "", "")
        if pending and not item.startswith("-"):
            found.append(item)
            masked.append(MASK)
            pending = False
            continue
        pending = False
        m = _ASSIGNMENT.match(item)
        if m and m.group(2):
            found.append(m.group(2))
            masked.append(f"{m.group(1)}={MASK}")
        elif option and _SECRET_OPTION.search(option.lstrip("-")):
            if eq and value:
                found.append(value)
                masked.append(f"{option}={MASK}")
            else:
                masked.append(item)
                pending = not eq
        else:
            masked.append(item)
    return masked, found


def _scrub(v: Any, pattern: re.Pattern, names: set[str]) -> Any:
    if isinstance(v, str):
        return pattern.sub(MASK, v)
    if isinstance(v, (list, tuple)):
        if len(v) == 2 and isinstance(v[0], str) and v[0].lower() in names:
            return [v[0], MASK]  # a header pair: its value masked whatever it was
        return [_scrub(x, pattern, names) for x in v]
    if isinstance(v, dict):
        return {k: _scrub(x, pattern, names) for k, x in v.items()}
    return v


def events(
    objs: list[dict], head: dict | None = None, *, headers: Iterable[str] = (), paths: Iterable[str] = (), extra=()
) -> list[dict]:
    """The event records with every secret masked; `head` (the cassette header) notes what was.

    `headers`: more header names whose values are secrets (the standard credentials always
    are); `paths`: JSON paths of messages whose values are secrets; `extra`: secret values known
    beforehand (a token the caller sent)."""
    headers, paths, extra = list(headers), list(paths), list(extra)
    names = set(SENSITIVE_HEADERS) | {h.lower() for h in headers}
    server = head.get("server") if head is not None else None
    if isinstance(server, dict) and isinstance(server.get("command"), list):
        server["command"], in_command = command_secrets(server["command"])
        extra += in_command
    secrets = sorted(
        set(secrets_in(objs, headers, paths)) | {s for s in extra if len(s) >= _MIN}, key=len, reverse=True
    )
    if head is not None and (headers or paths or secrets):
        head["redacted"] = {"headers": sorted(names), "paths": paths, "values": len(secrets)}
    if not secrets:
        return [_scrub(o, re.compile(r"(?!x)x"), names) for o in objs]
    import json

    # A secret can appear as itself, or JSON-escaped inside a line of JSON text.
    forms = {s for sec in secrets for s in (sec, json.dumps(sec)[1:-1])}
    pattern = re.compile("|".join(re.escape(s) for s in sorted(forms, key=len, reverse=True)))
    return [_scrub(o, pattern, names) for o in objs]
