"""Notebook 16's words and helpers: its prediction, its typed task, its quiz, and the small
functions its cells call in one line.

- `ASKS`: what the calendar (2026-07-28 only) answers to a removed method;
- `TASKS`: the learner writes the one 2026-07-28 request that replaces an old client's
  `logging/setLevel` + `tools/list`; the judge hands it to the calendar's own request handler
  (in-process, no I/O), so "right" means "the calendar serves it at that level";
- helpers that are not the lesson: the lifecycle dates, the deprecated registry's rows, the
  reference server after a legacy handshake, the first event of its HTTP+SSE stream, and the
  three forms of `RequestId` (schema.ts, schema.json, the SDK's model) asked about the same ids.

The quiz lives here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

import contextlib
import inspect
import json
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire import revisions
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.words import N_, _

ASKS = {
    "old-subscribe-on-new-server": Ask(
        N_("The calendar speaks only 2026-07-28. It gets a resources/subscribe with a valid _meta. What comes back?"),
        options=[N_("a result: subscribed"), "-32601", "-32602", "-32022"],
        why=N_(
            "resources/subscribe is not part of 2026-07-28 (changelog, major change 4: it moved to "
            "subscriptions/listen), so to a modern-only server it is an unknown method: -32601, "
            "Method not found. -32602 would mean the method exists and the params are wrong; -32022 "
            "is about the version in _meta, which was valid."
        ),
    ),
}


def _judge_one_request(value: Any) -> str | None:
    """None when the calendar serves `value` as a tools/list at level debug, else what is wrong."""
    from mcp_lab.servers import calendar

    if not isinstance(value, dict):
        return _("my_request should be a dict: one JSON-RPC request, with jsonrpc, id, method and params.")
    if value.get("method") != "tools/list":
        return _("the method is {method}: the request should list the tools (tools/list).").format(
            method=repr(value.get("method"))
        )
    answer = calendar.handle({"jsonrpc": "2.0", "id": 1, **value})
    if answer is None:
        return _("that is a notification (no id): give the request an id, or nothing comes back.")
    if "error" in answer:
        return _("the calendar refuses it: {code} {message}").format(
            code=answer["error"]["code"], message=answer["error"]["message"]
        )
    meta = value.get("params", {}).get("_meta", {})
    if meta.get(revisions.LOG_LEVEL_KEY) != "debug":
        return _("the calendar serves it, but at no level: put {key}: 'debug' in its _meta.").format(
            key=repr(revisions.LOG_LEVEL_KEY)
        )
    return None


TASKS = {
    "one-request-at-debug": Task(
        judge=_judge_one_request,
        hint=N_(
            "Start from {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/list', 'params': {'_meta': "
            "revisions.meta()}} and add one key to that _meta: revisions.LOG_LEVEL_KEY."
        ),
        prompt=N_("Set my_request to the one 2026-07-28 request, run that cell, then this one."),
        done=N_("the calendar serves it: the tools, listed at level debug, in one request."),
    ),
}


def earliest_removal(deprecated_in: str, months: int = 12) -> date:
    """The first day a revision may remove a feature deprecated in `deprecated_in` (ordinary window)."""
    d = date.fromisoformat(deprecated_in)
    years, month = divmod(d.month - 1 + months, 12)
    return d.replace(year=d.year + years, month=month + 1)


def expedited_floor(deprecated_in: str, days: int = 90) -> date:
    """The earliest removal when an active security risk shortens the window (never below 90 days)."""
    return date.fromisoformat(deprecated_in) + timedelta(days=days)


# feature -> (deprecated in, migration path, earliest removal), from the spec's deprecated registry
# (the English words are marked for the catalog; `registry_text` shows them in the edition's language)
REGISTRY = {
    "roots": ("2026-07-28", N_("tool arguments, resource URIs or configuration"), "2027-07-28"),
    "sampling": ("2026-07-28", N_("the LLM provider's API, called by the server"), "2027-07-28"),
    "logging": ("2026-07-28", N_("stderr on stdio; OpenTelemetry"), "2027-07-28"),
    "dynamic client registration": ("2026-07-28", N_("client ID metadata documents"), "2027-07-28"),
    "includeContext thisServer/allServers": ("2025-11-25", N_('omit it, or "none"'), N_("with sampling")),
    "HTTP+SSE transport": ("2025-03-26", "Streamable HTTP", N_("3 months after SEP-2596 is Final")),
}


def registry_text() -> str:
    """The registry's rows, one line each."""
    return "\n".join(
        _("{feature} deprecated {since} -> {migrate} removable: {removal}").format(
            feature=f"{feature:37}", since=since, migrate=f"{_(migrate):46}", removal=_(removal)
        )
        for feature, (since, migrate, removal) in REGISTRY.items()
    )


LEGACY_HELLO = {
    "protocolVersion": "2025-11-25",
    "capabilities": {"sampling": {}, "roots": {}},
    "clientInfo": {"name": "nb16", "version": "1"},
}
TRIGGER_SAMPLING = {
    "jsonrpc": "2.0",
    "id": 900,
    "method": "tools/call",
    "params": {"name": "trigger-sampling-request", "arguments": {"prompt": "hi", "maxTokens": 5}},
}


@contextlib.contextmanager
def reference_after_handshake(timeout: float = 10) -> Iterator[tuple[Any, dict]]:
    """The pinned reference server (2025-11-25 era) after a handshake declaring roots and sampling:
    yields (client, the initialize result)."""
    from mcp_lab.session.connect import connect

    with connect("everything", timeout=timeout) as ref:
        ref.adopt_era(Era.LEGACY)
        hello = ref.request("initialize", LEGACY_HELLO, meta=False).unwrap()
        ref.notify("notifications/initialized")
        yield ref, hello


def requests_from_the_server(listen: float = 3.0) -> dict[str, dict]:
    """Call the reference server's sampling tool and collect the requests it sends back, by method.

    The call waits on our answers, which never come: this listens `listen` seconds, then stops."""
    from mcp_lab.wire import jsonrpc

    with reference_after_handshake() as (ref, _hello):
        came = ref.send_raw(json.dumps(TRIGGER_SAMPLING), timeout=listen, quiet=1.0)
    return {m.method: m.params for m in came if isinstance(m, jsonrpc.Request)}


def first_sse_event(max_lines: int = 6) -> tuple[int, list[str]]:
    """(status, first lines) of the reference server's old HTTP+SSE transport, `GET /sse`."""
    import httpx

    from mcp_lab.session.serve import serve_http

    lines: list[str] = []
    with serve_http("everything-sse", path="/sse") as old_transport:
        with httpx.stream("GET", old_transport.url, timeout=5) as stream:
            for text in stream.iter_lines():
                lines.append(text)
                if text.startswith("data:") or len(lines) >= max_lines:
                    break
    return stream.status_code, lines


def first_reply(name: str, method: str, params: dict, timeout: float = 20) -> Any:
    """The first message server `name` sends back to one request (a long-lived stream stays open:
    keep its first message rather than wait for an end): a method name, or an error code."""
    from mcp_lab.session.connect import connect

    message = {"jsonrpc": "2.0", "id": "l", "method": method, "params": {"_meta": revisions.meta(), **params}}
    with connect(name, timeout=timeout) as c:
        first = c.send_raw(json.dumps(message), timeout=timeout, stop_after=1)[0]
    return getattr(first, "method", None) or first.code


SCHEMA_TS = "export type RequestId = string | number;"  # as it stands in schema.ts (normative)
SCHEMA_JSON = {"type": ["string", "integer"]}  # as it stands in schema.json (generated)


def request_id_sources() -> dict[str, str]:
    """The three forms of RequestId, the SDK's read from the installed package."""
    import importlib.metadata

    from mcp_types import jsonrpc as sdk_jsonrpc

    sdk_line = next(line for line in inspect.getsource(sdk_jsonrpc).splitlines() if line.startswith("RequestId ="))
    return {
        "schema.ts": SCHEMA_TS,
        "schema.json": json.dumps(SCHEMA_JSON),
        "mcp_types": f"{sdk_line}   (mcp-types {importlib.metadata.version('mcp-types')})",
    }


def _ts_accepts(value: Any) -> bool:
    """What `string | number` admits (a boolean is not a number)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, str) or number


def request_id_verdicts(candidates: tuple = ("a1", 7, 1.5, True, None)) -> dict[Any, tuple[bool, bool, bool]]:
    """candidate -> (schema.ts admits it, schema.json admits it, the SDK's model admits it)."""
    import jsonschema
    import mcp_types
    import pydantic

    json_check = jsonschema.Draft202012Validator(SCHEMA_JSON)
    sdk_check = pydantic.TypeAdapter(mcp_types.RequestId)

    def sdk_accepts(value: Any) -> bool:
        try:
            sdk_check.validate_python(value)
            return True
        except pydantic.ValidationError:
            return False

    return {c: (_ts_accepts(c), json_check.is_valid(c), sdk_accepts(c)) for c in candidates}


def request_id_table(candidates: tuple = ("a1", 7, 1.5, True, None)) -> str:
    """The verdicts as a small table."""
    rows = [f"{'id':>6} | schema.ts | schema.json | mcp_types"]
    for c, (ts, js, sdk) in request_id_verdicts(candidates).items():
        rows.append(f"{json.dumps(c):>6} | {ts!s:9} | {js!s:11} | {sdk!s}")
    return "\n".join(rows)


QUESTIONS = [
    Question(
        N_("Where is it stated what the date in a revision name such as 2026-07-28 marks?"),
        [
            N_("In basic/versioning of the spec"),
            N_("In the versioning guide"),
            N_("In schema.ts, beside the version"),
            N_("Nowhere: it is the release day"),
        ],
        1,
        [
            N_("That page says how peers agree on a version, not what the date means."),
            N_(
                "Right: the guide beside the specification says it is the date of the last "
                "backwards-incompatible change."
            ),
            N_("schema.ts carries the version string (LATEST_PROTOCOL_VERSION), not its meaning."),
            N_("The guide says it is the last incompatible change, what a client must know."),
        ],
    ),
    Question(
        N_(
            "A feature is marked Deprecated in a revision released on 2026-07-28, with the usual "
            "window. When may it be removed, at the earliest?"
        ),
        [
            N_("In the very next revision released"),
            N_("On or after 2027-07-28"),
            N_("Never: a deprecated feature stays"),
            N_("In a revision six months later"),
        ],
        1,
        [
            N_(
                "The policy requires a window; only an expedited removal shortens it, to no less "
                "than ninety days, and only for an active security risk."
            ),
            N_("Right: twelve months from the deprecating release; then the maintainers decide."),
            N_("Removal is allowed after the window; deprecation is a notice, not a promise."),
            N_(
                "Six months is below the ordinary floor; only the security exception goes lower (ninety days at least)."
            ),
        ],
    ),
    Question(
        N_("Which of these is Deprecated in 2026-07-28, and not removed?"),
        ["logging/setLevel", "notifications/initialized", "notifications/message", "initialize"],
        2,
        [
            N_("Removed by 2026-07-28 itself: the level now travels in each request's _meta."),
            N_("Removed with the handshake (changelog, major change 2)."),
            N_(
                "Right: logging, its notifications/message and the logLevel key are deprecated by "
                "SEP-2577 and still work during the window."
            ),
            N_("Removed with the handshake: a modern-only server does not implement it."),
        ],
    ),
    Question(
        N_(
            "A post tells you to call resources/subscribe on a 2026-07-28 server. What does that "
            "revision offer instead?"
        ),
        ["resources/watch", "subscriptions/listen", "notifications/initialized", "Mcp-Session-Id"],
        1,
        [
            N_("There is no such method in any revision."),
            N_("Right: one long-lived stream the client opens, naming the notifications it wants."),
            N_("That notification was removed with the handshake."),
            N_("Sessions were removed in 2026-07-28; there is no session to subscribe in."),
        ],
    ),
    Question(
        N_("What replaces MCP logging (notifications/message) according to SEP-2577?"),
        [
            N_("Nothing: servers may not log"),
            N_("stderr or OpenTelemetry"),
            N_("A new logging/v2 method"),
            N_("Log lines on stdout"),
        ],
        1,
        [
            N_("Servers may log; the protocol just stops carrying it."),
            N_("Right: write to stderr (stdio) or export with OpenTelemetry."),
            N_("There is no replacement method; the migration is out of the protocol."),
            N_("stdout carries MCP messages only, in every revision."),
        ],
    ),
    Question(
        N_("Which era does it describe?"),
        [
            N_("The 2025-11-25 era"),
            N_("The 2026-07-28 revision"),
            N_("Any: these never changed"),
            N_("A draft of a later revision"),
        ],
        0,
        [
            N_("Right: `initialize` and `Mcp-Session-Id` are the legacy handshake and session."),
            N_(
                "2026-07-28 has no `initialize` and no sessions: every request carries its own `_meta`, "
                "and a client may call `server/discover` first (it need not)."
            ),
            N_("All three changed in 2026-07-28."),
            N_(
                "The post treats all three as current, and all three were removed or moved in 2026-07-28: "
                "it describes a published revision before that one."
            ),
        ],
        situation=N_(
            "A blog post's example client sends `initialize`, keeps an\n"
            "`Mcp-Session-Id` header, and answers `sampling/createMessage`\n"
            "requests from the server."
        ),
    ),
]
