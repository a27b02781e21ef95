"""The lint of hand-typed messages, against real traffic and the spec's own examples.

Valid traffic is recorded live: requests this client sent and a real server accepted (the bundled
calendar, the SDK calendar, the reference server, which is legacy) must pass.  Invalid messages
are hand-made, and for the calendar each one is also sent, so the test checks that the lint's
forecast matches what the server really answers.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from _support import ROOT, SPEC_2026

import mcp_lab
from mcp_lab import jsonrpc, revisions
from mcp_lab.wire.lint import Finding, Findings, compact, fill_meta, lint, render_html, render_text

META = revisions.meta(capabilities={"elicitation": {"form": {}}})
META_JSON = json.dumps(META)


def _req(id, method, params=None, **extra):
    d = {"jsonrpc": "2.0", "id": id, "method": method, **extra}
    if params is not None:
        d["params"] = params
    return json.dumps(d)


def _bad(findings):
    return [f for f in findings if f.severity in ("error", "warning")]


from _support import reference_argv  # noqa: E402  (fails, never skips, when it is missing)

CALENDAR_SESSION = [
    ("server/discover", {}),
    ("tools/list", {}),
    ("tools/list", {"cursor": None}),
    ("resources/list", {}),
    ("resources/templates/list", {}),
    ("resources/read", {"uri": "calendar://week"}),
    ("prompts/list", {}),
    ("prompts/get", {"name": "prepare_week", "arguments": {"focus": "deep work"}}),
    ("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}}),
]


def _run_session(client, session):
    answers = []
    for method, params in session:
        params = {k: v for k, v in params.items() if v is not None}
        answers.append(client.request(method, params))
    return answers


def _assert_sent_lines_pass(client, era):
    sent = [e for e in client.trace if e.kind == "send" and isinstance(e.message, jsonrpc.Request)]
    assert sent
    for ev in sent:
        f = lint(ev.line, era=era)
        assert _bad(f) == [], f"{ev.line}\n{f}"


def test_calendar_traffic_passes(calendar):
    calendar.era = "modern"
    calendar.capabilities = {"elicitation": {"form": {}}}  # the session below answers the question
    answers = _run_session(calendar, CALENDAR_SESSION)
    assert all(a.ok for a in answers), answers
    # The MRTR retry, exactly as the chapter types it.
    state = answers[-1].result["requestState"]
    done = calendar.request(
        "tools/call",
        {
            "name": "create_event",
            "arguments": {"title": "Dentist"},
            "inputResponses": {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}},
            "requestState": state,
        },
    )
    assert done.ok and done.result["content"][0]["text"].startswith("Created e3")
    _assert_sent_lines_pass(calendar, "modern")
    # Unknown era is linted as the course's revision: still clean.
    _assert_sent_lines_pass(calendar, None)


def test_sdk_calendar_traffic_passes():
    with mcp_lab.connect("sdk_calendar", timeout=15, capabilities={"elicitation": {"form": {}}}) as c:
        c.era = "modern"
        answers = _run_session(c, CALENDAR_SESSION[:2] + CALENDAR_SESSION[3:])
        assert all(a.ok for a in answers), answers
        _assert_sent_lines_pass(c, "modern")


def test_reference_server_traffic_passes_as_legacy():
    from mcp_lab.session.probe import probe

    with mcp_lab.connect(reference_argv(), name="everything", timeout=10) as c:
        v = probe(c, refresh=True)
        assert v.era == "legacy" and c.era == "legacy"
        answers = [
            c.request("tools/list"),
            c.request("prompts/list"),
            c.request("resources/list"),
            c.request("tools/call", {"name": "echo", "arguments": {"message": "hi"}}),
        ]
        assert all(a.ok for a in answers), answers
        sent = [e for e in c.trace if e.kind == "send"]
        # The probe's server/discover went out before the era was known; everything after it
        # was sent knowing the server is legacy.
        assert sent[0].message.method == "server/discover"
        assert _bad(lint(sent[0].line, era=None)) == []
        for ev in sent[1:]:
            f = lint(ev.line, era="legacy")
            assert _bad(f) == [], f"{ev.line}\n{f}"
        # And the modern-only method, sent again now that the era is known, is an era mistake.
        assert "modern-only-method" in lint(sent[0].line, era="legacy").rules


# -- the lint's forecast versus the bundled calendar's real answer --------------------------------
FORECASTS = [
    # (text, raw, rule the lint must raise, code the calendar must answer)
    (_req(1, "tools/list"), False, "meta-missing", -32602),
    (_req(2, "tools/list", {"cursor": "x"}), False, "meta-missing", -32602),
    (_req(3, "tools/list", {"_meta": {revisions.CLIENT_CAPABILITIES_KEY: {}}}), False, "meta-protocol-version", -32602),
    (
        _req(4, "tools/list", {"_meta": {revisions.PROTOCOL_VERSION_KEY: revisions.LATEST}}),
        False,
        "meta-client-capabilities",
        -32602,
    ),
    (
        _req(5, "tools/list", {"_meta": revisions.meta("2025-11-25")}),
        False,
        "meta-protocol-version-unsupported",
        -32022,
    ),
    (
        _req(6, "tools/list", {"_meta": revisions.meta("1999-01-01")}),
        False,
        "meta-protocol-version-unsupported",
        -32022,
    ),
    (_req(7, "ping"), False, "legacy-only-method", -32601),
    (
        _req(
            8,
            "initialize",
            {
                "protocolVersion": "2026-07-28",
                "capabilities": {},
                "clientInfo": {"name": "bare-hands", "version": "0.0.1"},
            },
        ),
        False,
        "legacy-only-method",
        -32601,
    ),
    (_req(9, "logging/setLevel", {"level": "info"}), False, "legacy-only-method", -32601),
    (_req(None, "tools/list", {"_meta": META}), False, "id-null", -32600),
    (_req(True, "tools/list", {"_meta": META}), False, "id-type", -32600),
    ('{"id": 10, "method": "tools/list"}', False, "jsonrpc-version", -32600),
    ('{"jsonrpc": "1.0", "id": 11, "method": "tools/list"}', False, "jsonrpc-version", -32600),
    ('{"jsonrpc": "2.0", "id": 12, "method": "tools/list", "params": []}', False, "params-type", -32600),
    ('[{"jsonrpc": "2.0", "id": 13, "method": "tools/list"}]', False, "batch", -32600),
    ('{"jsonrpc": "2.0", "id": 14, "method": "tools/list"', False, "not-json", -32700),
    ('{"jsonrpc": "2.0",\n "id": 15, "method": "tools/list"}', True, "embedded-newline", -32700),
    (_req(16, "tools/frobnicate", {"_meta": META}), False, "unknown-method", -32601),
    (_req(17, "resources/read", {"_meta": META}), False, "schema", -32602),
]


@pytest.mark.parametrize("text,raw,rule,code", FORECASTS, ids=[f"{r}-{c}" for _, _, r, c in FORECASTS])
def test_lint_forecasts_the_calendars_answer(calendar, text, raw, rule, code):
    calendar.era = "modern"
    findings = lint(text, era="modern", raw=raw)
    assert rule in findings.rules, findings
    hit = next(f for f in findings if f.rule == rule)
    assert hit.section and hit.message and "\n" not in hit.message
    if rule not in ("meta-protocol-version-unsupported", "unknown-method"):
        assert hit.severity == "error", hit
    got = calendar.send_raw(text)
    assert got, "the calendar answered nothing"
    assert all(isinstance(m, jsonrpc.Error) for m in got), got
    assert {m.code for m in got} == {code}


# -- hand-made invalid messages, each with its finding --------------------------------------------
CASES = [
    # (text, kwargs, rule, severity, section)
    (_req(1, "tools/list", {"_meta": META}), {"pending": {1}}, "id-pending", "error", "basic/index#requests"),
    (_req("a", "tools/list", {"_meta": META}), {"pending": jsonrpc.PendingIds()}, None, None, None),
    (
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "notifications/cancelled", "params": {"requestId": 1}}),
        {},
        "notification-with-id",
        "info",
        "basic/index#notifications",
    ),
    (
        json.dumps({"jsonrpc": "2.0", "method": "tools/list", "params": {"_meta": META}}),
        {},
        "request-without-id",
        "info",
        "basic/index#notifications",
    ),
    (
        json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
        {},
        "notification",
        "info",
        "basic/index#notifications",
    ),
    (
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        {"era": "modern"},
        "legacy-only-method",
        "error",
        "changelog",
    ),
    (
        _req(1, "tools/list", {"_meta": {k: v for k, v in META.items() if k != revisions.CLIENT_INFO_KEY}}),
        {},
        "meta-client-info",
        "warning",
        "basic/index#general-fields",
    ),
    (
        _req(1, "tools/list", {"_meta": {**META, "io.modelcontextprotocol/protocolversion": "x"}}),
        {},
        "meta-reserved-prefix",
        "warning",
        "basic/index#general-fields",
    ),
    (
        _req(1, "tools/list", {"_meta": {**META, "dev.mcp/trace": 1}}),
        {},
        "meta-reserved-prefix",
        "warning",
        "basic/index#general-fields",
    ),
    (
        _req(1, "tools/list", {"_meta": {**META, "protocolVersion": "2026-07-28"}}),
        {},
        "meta-key-unprefixed",
        "warning",
        "basic/index#general-fields",
    ),
    (
        _req(1, "tools/list", {"_meta": {**META, "1bad.example/x": 1}}),
        {},
        "meta-key-prefix",
        "warning",
        "basic/index#general-fields",
    ),
    (_req(1, "tools/list", {"_meta": META}), {"era": "legacy"}, "meta-on-legacy", "warning", "basic/versioning"),
    (_req(1, "server/discover", {"_meta": META}), {"era": "legacy"}, "modern-only-method", "warning", "changelog"),
    (
        _req(1, "subscriptions/listen", {"_meta": META, "notifications": {}}),
        {"era": "legacy"},
        "modern-only-method",
        "warning",
        "changelog",
    ),
    (_req(1, "ping"), {}, "legacy-only-method", "warning", "changelog"),
    (
        _req(1, "tools/call", {"_meta": META, "name": "x", "argument": {}}),
        {},
        "unknown-param",
        "warning",
        "schema#calltoolrequest",
    ),
    (_req(1, "tools/call", {"_meta": META, "name": 5}), {}, "schema", "error", "schema#calltoolrequest"),
    (
        _req(1, "tools/list", {"_meta": {**META, revisions.CLIENT_CAPABILITIES_KEY: {"elicitation": 5}}}),
        {},
        "schema",
        "error",
        "schema#listtoolsrequest",
    ),
    (
        _req(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x"}}),
        {"era": "legacy"},
        "schema",
        "error",
        "https://modelcontextprotocol.io/specification/2025-11-25/schema#initializerequest",
    ),
    (
        json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}),
        {"era": "modern"},
        "response-from-client",
        "error",
        "basic/patterns/index",
    ),
    (json.dumps({"jsonrpc": "2.0", "id": 1}), {}, "method-missing", "error", "basic/index#requests"),
    (json.dumps({"jsonrpc": "2.0", "id": 1, "method": 3}), {}, "method-type", "error", "basic/index#requests"),
    ("42", {}, "not-object", "error", "basic/index#messages"),
]


@pytest.mark.parametrize("text,kwargs,rule,severity,section", CASES, ids=[f"{i}-{c[2]}" for i, c in enumerate(CASES)])
def test_hand_made_messages(text, kwargs, rule, severity, section):
    findings = lint(text, **kwargs)
    if rule is None:
        assert _bad(findings) == [], findings
        return
    hits = [f for f in findings if f.rule == rule]
    assert hits, findings
    assert hits[0].severity == severity
    assert hits[0].section == section


def test_an_answer_in_input_responses_is_said_by_what_it_answers():
    """Notebook 04's retry meets the union of answers before notebook 07 teaches sampling and roots:
    the finding says each shape by the request it answers, and a tie goes to the elicitation's
    answer (before, `{"startsAt": ...}` without `content` and `action` was "closest is
    ListRootsResult: roots: Field required")."""
    for answer in ({"content": {"startsAt": "2026-09-10T08:30:00Z"}}, {"startsAt": "2026-09-10T08:30:00Z"}):
        params = {"_meta": META, "name": "create_event", "inputResponses": {"when": answer}, "requestState": "x"}
        [finding] = [x for x in lint(_req(1, "tools/call", params)) if x.rule == "schema"]
        assert "closest is ElicitResult (the answer to elicitation/create): action" in finding.message, finding
        assert "ListRootsResult" not in finding.message and "CreateMessageResult" not in finding.message
        assert "elicitation/create, sampling/createMessage, roots/list" in finding.message
    params = {"_meta": META, "name": "create_event", "inputResponses": {"when": {"roots": 3}}}
    [finding] = [x for x in lint(_req(1, "tools/call", params)) if x.rule == "schema"]
    assert "closest is ListRootsResult (the answer to roots/list)" in finding.message, finding


def test_a_removed_method_without_meta_may_get_either_code():
    """A bare `ping` to a modern server has two faults; the bundled calendar answers -32601, the
    SDK's server -32602 (notebook 04b sends both): the lint names both, and only -32601 once the
    required `_meta` is there (the test of what each server really answers is in test_wire_kernel)."""
    [bare] = lint(_req(1, "ping"), era="modern")
    assert "-32601" in bare.message and "-32602" in bare.message, bare
    [dressed] = lint(_req(1, "ping", {"_meta": META}), era="modern")
    assert "-32601" in dressed.message and "-32602" not in dressed.message, dressed


def test_schema_errors_carry_json_paths():
    f = lint(
        _req(1, "tools/call", {"_meta": META, "name": "create_event", "inputResponses": {"when": {"action": "maybe"}}})
    )
    schema = [x for x in f if x.rule == "schema"]
    assert [x.path for x in schema] == ["params.inputResponses.when"]
    assert "closest is ElicitResult" in schema[0].message and "'accept'" in schema[0].message
    f = lint(_req(1, "tools/list", {"_meta": {**META, revisions.CLIENT_INFO_KEY: {"name": "x"}}}))
    assert [x.path for x in f if x.rule == "schema"] == ['params._meta["io.modelcontextprotocol/clientInfo"].version']


def test_missing_meta_is_said_once():
    f = lint(_req(1, "tools/list"))
    assert f.rules == ["meta-missing"]  # not repeated as three schema "missing" errors


def test_finding_is_frozen_and_renders():
    f = lint(_req(None, "tools/list"), era="modern")
    assert isinstance(f, Findings) and isinstance(f, list) and all(isinstance(x, Finding) for x in f)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f[0].rule = "x"
    assert f[0].url == "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#requests"
    text = render_text(f)
    assert text.splitlines()[0] == "lint: 2 errors" and "id-null" in text
    page = render_html(f)
    assert "<table" in page and "id-null" in page and f[0].url in page
    assert f._repr_html_() == page and str(f) == text
    assert render_text([]) == "lint: no findings"


def test_compact_and_fill_meta():
    line, obj = compact('{"jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/list"}')
    assert line == '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' and obj["id"] == 1
    line, obj = compact('{"jsonrpc": \n nope')
    assert obj is None and "\n" not in line
    mine = {revisions.CLIENT_INFO_KEY: {"name": "bare-hands", "version": "0.0.1"}}
    filled = fill_meta({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": mine}}, META)
    assert filled["params"]["_meta"][revisions.CLIENT_INFO_KEY] == mine[revisions.CLIENT_INFO_KEY]  # caller wins
    assert filled["params"]["_meta"][revisions.PROTOCOL_VERSION_KEY] == revisions.LATEST
    note = {"jsonrpc": "2.0", "method": "notifications/cancelled"}
    assert fill_meta(note, META) is note


def test_validation_comes_from_mcp_types_not_a_copy():
    # The models are generated from the official schema and shipped by mcp-types; the repo
    # carries no schema file of its own.
    from mcp_types import methods

    assert ("tools/list", revisions.LATEST) in methods.CLIENT_REQUESTS
    copies = [
        p
        for p in ROOT.glob("mcp_lab/**/*.json")
        if "node_modules" not in p.parts
        and "modelcontextprotocol" in p.read_text(errors="replace")[:20000]
        and '"$schema"' in p.read_text(errors="replace")[:2000]
    ]
    assert copies == []


# -- the spec's own example messages --------------------------------------------------------------
EXAMPLES_DIR = SPEC_2026 / "examples"
ALL_REQUEST_EXAMPLES = sorted(EXAMPLES_DIR.glob("*Request/*.json")) if EXAMPLES_DIR.is_dir() else []
# In 2026-07-28, sampling/createMessage, elicitation/create and roots/list are not JSON-RPC
# messages a client sends: they ride inside an input_required result, as bare {method, params}.
INPUT_REQUEST_KINDS = {"CreateMessageRequest", "ElicitRequest", "ListRootsRequest"}
REQUEST_EXAMPLES = [p for p in ALL_REQUEST_EXAMPLES if p.parent.name not in INPUT_REQUEST_KINDS]


def test_the_examples_left_out_are_exactly_the_input_requests():
    if not ALL_REQUEST_EXAMPLES:
        pytest.skip(f"spec examples not found at {EXAMPLES_DIR} (the course's shared/ folder is not beside the repo)")
    left_out = {p.parent.name for p in ALL_REQUEST_EXAMPLES} - {p.parent.name for p in REQUEST_EXAMPLES}
    assert left_out == INPUT_REQUEST_KINDS
    for p in ALL_REQUEST_EXAMPLES:
        if p.parent.name in INPUT_REQUEST_KINDS:
            assert "jsonrpc" not in json.loads(p.read_text()), p  # bare {method, params}, no envelope


@pytest.mark.parametrize(
    "path", REQUEST_EXAMPLES or [None], ids=[p.parent.name for p in REQUEST_EXAMPLES] or ["no-examples"]
)
def test_spec_request_examples_pass(path):
    if path is None:
        pytest.skip(f"spec examples not found at {EXAMPLES_DIR} (the course's shared/ folder is not beside the repo)")
    text = path.read_text()
    findings = lint(text, era="modern")
    assert _bad(findings) == [], findings
    # The examples are pretty-printed; sent byte-exact they would break the framing.
    assert "embedded-newline" in lint(text, era="modern", raw=True).rules


def test_modern_only_method_does_not_key_the_fallback_to_one_code():
    """The spec: a probe's fallback MUST NOT be keyed to one error code (stdio, backward compatibility)."""
    finding = next(
        f for f in lint(_req(1, "server/discover", {"_meta": META}), era="legacy") if f.rule == "modern-only-method"
    )
    assert "never one code" in finding.message and "the very answer" not in finding.message, finding.message
