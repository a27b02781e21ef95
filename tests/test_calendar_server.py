"""Every rule of the bundled calendar (issue 2, item 8), each its own test.

Most run in-process (the `calendar` fixture: the server's own handle_line over the in-memory
transport); the ones about the process itself (stdout/stderr discipline, state dying with the
process) run on a real child process (`calendar_process`)."""

import base64
import json

import pytest
from _support import wait_for

from mcp_lab import jsonrpc
from mcp_lab.wire.revisions import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY, meta

FORM = {"elicitation": {"form": {}}}
DENTIST_STATE = "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="  # the chapter's requestState, byte for byte


def call(client, name, arguments, **extra):
    return client.request("tools/call", {"name": name, "arguments": arguments, **extra})


# -- server/discover -----------------------------------------------------------------------
def test_discover_lists_versions_capabilities_cache_hints_and_identity(calendar):
    r = calendar.request("server/discover").unwrap()
    assert r["resultType"] == "complete"
    assert r["supportedVersions"] == ["2026-07-28"]
    assert set(r["capabilities"]) == {"tools", "resources", "prompts"}
    assert isinstance(r["ttlMs"], int) and r["ttlMs"] >= 0 and r["cacheScope"] in ("public", "private")
    assert r["instructions"]
    assert r["_meta"][SERVER_INFO_KEY]["name"] == "mcp_lab-calendar"


# -- the per-request envelope -------------------------------------------------------------
@pytest.mark.parametrize("drop", [PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY])
def test_missing_required_meta_key_is_invalid_params(calendar, drop):
    m = meta(capabilities=FORM)
    del m[drop]
    r = calendar.request("tools/list", {"_meta": m}, meta=False)
    assert r.code == jsonrpc.INVALID_PARAMS and drop in r.message


def test_request_without_meta_is_invalid_params(calendar):
    """The chapter's bare `tools/list` is malformed under 2026-07-28."""
    r = calendar.request("tools/list", meta=False)
    assert r.code == -32602


def test_unsupported_version_is_32022_with_supported_and_requested(calendar):
    r = calendar.request("tools/list", {"_meta": meta("1900-01-01")}, meta=False)
    assert r.code == jsonrpc.UNSUPPORTED_PROTOCOL_VERSION
    assert r.data == {"supported": ["2026-07-28"], "requested": "1900-01-01"}


@pytest.mark.parametrize("version", [7, None, ["2026-07-28"]])
def test_a_version_that_is_not_a_string_is_malformed_not_unsupported(calendar, version):
    """-32022 echoes the requested version as a string; a version that is not one is -32602."""
    m = meta()
    m[PROTOCOL_VERSION_KEY] = version
    r = calendar.request("tools/list", {"_meta": m}, meta=False)
    assert r.code == jsonrpc.INVALID_PARAMS, f"expected -32602 for version {version!r}, got {r}"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_a_parse_error_on_stdio(calendar, constant):
    calendar.send_raw('{"jsonrpc":"2.0","id":%s,"method":"tools/list"}' % constant)
    assert wait_for(lambda: calendar.trace.received, timeout=5), "no answer to a line holding " + constant
    answer = json.loads(calendar.trace.received[-1])
    assert answer["error"]["code"] == -32700 and "id" not in answer, answer


@pytest.mark.wire_deliberate(client="an out-of-range logLevel, sent to see the server refuse it")
def test_log_level_is_optional_but_checked(calendar):
    """logLevel is deprecated (SEP-2577) yet valid; an invalid level is -32602
    (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging#per-request-log-level)."""
    ok = calendar.request("tools/list", {"_meta": {"io.modelcontextprotocol/logLevel": "warning"}})
    assert ok.ok
    bad = calendar.request("tools/list", {"_meta": {"io.modelcontextprotocol/logLevel": "loud"}})
    assert bad.code == jsonrpc.INVALID_PARAMS and "loud" in bad.message


def test_legacy_initialize_is_refused_listing_supported_versions(calendar):
    r = calendar.request(
        "initialize",
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "legacy", "version": "1"}},
        meta=False,
    )
    assert r.code == jsonrpc.METHOD_NOT_FOUND, f"a modern-only server does not implement initialize: {r}"
    assert r.data == {"supported": ["2026-07-28"]}, r.data
    assert "2026-07-28" in r.message, "the versions are named in the message too, for a client that shows only that"


def test_initialize_asking_a_supported_version_is_not_a_32022_echoing_it(calendar):
    """Before, initialize at 2026-07-28 got -32022 "unsupported" naming 2026-07-28 as supported."""
    r = calendar.request(
        "initialize",
        {"protocolVersion": "2026-07-28", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}},
        meta=False,
    )
    assert (r.code, r.data) == (jsonrpc.METHOD_NOT_FOUND, {"supported": ["2026-07-28"]}), r


# -- resultType and tools -----------------------------------------------------------------
@pytest.mark.parametrize(
    "method, params",
    [
        ("server/discover", {}),
        ("tools/list", {}),
        ("resources/list", {}),
        ("prompts/list", {}),
        ("resources/templates/list", {}),
        ("resources/read", {"uri": "calendar://week"}),
        ("prompts/get", {"name": "prepare_week"}),
        ("tools/call", {"name": "create_event", "arguments": {"title": "x", "startsAt": "2026-09-10T08:30:00Z"}}),
    ],
)
def test_every_result_carries_result_type(calendar, method, params):
    assert calendar.request(method, params).unwrap()["resultType"] in ("complete", "input_required")


def test_tools_list_is_create_event_public_for_five_minutes(calendar):
    r = calendar.request("tools/list").unwrap()
    assert [t["name"] for t in r["tools"]] == ["create_event"]
    assert r["tools"][0]["inputSchema"]["required"] == ["title"]
    assert (r["ttlMs"], r["cacheScope"]) == (300000, "public")


def test_create_event_with_date_returns_content_structured_content_is_error(calendar):
    r = call(calendar, "create_event", {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}).unwrap()
    assert r["content"] == [{"type": "text", "text": "Created e3: Dentist at 2026-09-10T08:30:00Z"}]
    assert r["structuredContent"] == {"id": "e3", "title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}
    assert r["isError"] is False


def test_bad_arguments_are_a_tool_error_not_a_protocol_error(calendar):
    r = call(calendar, "create_event", {"title": "Dentist", "startsAt": "next tuesday"}).unwrap()
    assert r["isError"] is True and "ISO 8601" in r["content"][0]["text"]
    assert call(calendar, "create_event", {}).unwrap()["isError"] is True


# -- multi round-trip ---------------------------------------------------------------------
def test_missing_date_is_input_required_with_form_elicitation_and_opaque_state(calendar):
    calendar.capabilities = FORM
    r = call(calendar, "create_event", {"title": "Dentist"}).unwrap()
    assert r["resultType"] == "input_required"
    ask = r["inputRequests"]["when"]
    assert ask["method"] == "elicitation/create"
    assert ask["params"]["mode"] == "form" and ask["params"]["message"] == 'When should "Dentist" start?'
    assert ask["params"]["requestedSchema"] == {
        "type": "object",
        "properties": {"startsAt": {"type": "string", "format": "date-time"}},
        "required": ["startsAt"],
    }
    assert r["requestState"] == DENTIST_STATE
    assert json.loads(base64.b64decode(r["requestState"])) == {"title": "Dentist"}


def test_missing_date_without_form_capability_is_32021(calendar):
    calendar.capabilities = {}
    r = call(calendar, "create_event", {"title": "Dentist"})
    assert r.code == jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert r.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}
    calendar.capabilities = {"elicitation": {"url": {}}}  # URL mode alone cannot render a form
    assert call(calendar, "create_event", {"title": "Dentist"}).code == -32021
    calendar.capabilities = {"elicitation": {}}  # {} means form mode
    assert call(calendar, "create_event", {"title": "Dentist"}).unwrap()["resultType"] == "input_required"


def test_retry_with_new_id_input_responses_and_same_state_completes(calendar):
    calendar.capabilities = FORM
    first = call(calendar, "create_event", {"title": "Dentist"})
    answer = {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}}
    second = call(
        calendar, "create_event", {"title": "Dentist"}, inputResponses=answer, requestState=first.result["requestState"]
    )
    assert second.id != first.id
    r = second.unwrap()
    assert r["resultType"] == "complete"
    assert r["content"][0]["text"] == "Created e3: Dentist at 2026-09-10T08:30:00Z"


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_and_cancel_are_clear_tool_errors(calendar, action):
    r = call(
        calendar,
        "create_event",
        {"title": "Dentist"},
        inputResponses={"when": {"action": action}},
        requestState=DENTIST_STATE,
    ).unwrap()
    assert r["resultType"] == "complete" and r["isError"] is True and action in r["content"][0]["text"]
    week = json.loads(calendar.request("resources/read", {"uri": "calendar://week"}).unwrap()["contents"][0]["text"])
    assert len(week) == 2


def test_tampered_request_state_decides_what_is_created_the_lesson_of_notebook_09(calendar):
    # The toy breaks the mrtr MUST on purpose (integrity of a requestState that drives business
    # logic); notebook 09 shows it.  If this starts failing, 09's tamper cell has lost its point.
    forged = base64.b64encode(json.dumps({"title": "Wire the money to Mallory"}).encode()).decode()
    calendar.capabilities = FORM
    r = call(
        calendar,
        "create_event",
        {"title": "Dentist"},
        requestState=forged,
        inputResponses={"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}},
    ).unwrap()
    assert r["content"][0]["text"] == "Created e3: Wire the money to Mallory at 2026-09-10T08:30:00Z"


def test_garbage_request_state_is_invalid_params(calendar):
    r = call(
        calendar,
        "create_event",
        {"title": "Dentist"},
        requestState="%%%not-base64%%%",
        inputResponses={"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}},
    )
    assert r.code == -32602


# -- resources and prompts ----------------------------------------------------------------
def test_resources_list_and_read_week_private_for_a_minute(calendar):
    lst = calendar.request("resources/list").unwrap()
    assert [r["uri"] for r in lst["resources"]] == ["calendar://week"]
    r = calendar.request("resources/read", {"uri": "calendar://week"}).unwrap()
    assert (r["ttlMs"], r["cacheScope"]) == (60000, "private")
    assert json.loads(r["contents"][0]["text"]) == [
        {"id": "e1", "title": "Standup", "startsAt": "2026-09-07T09:00:00Z"},
        {"id": "e2", "title": "Design review", "startsAt": "2026-09-09T15:00:00Z"},
    ]


def test_prompts_list_and_get_prepare_week(calendar):
    assert [p["name"] for p in calendar.request("prompts/list").unwrap()["prompts"]] == ["prepare_week"]
    r = calendar.request("prompts/get", {"name": "prepare_week", "arguments": {"focus": "deep work"}}).unwrap()
    assert r["messages"][0]["content"]["text"] == "Read calendar://week and draft a plan. Focus: deep work."


# -- errors -------------------------------------------------------------------------------
def test_unknown_method_is_32601(calendar):
    assert calendar.request("calendar/teleport").code == jsonrpc.METHOD_NOT_FOUND
    assert calendar.request("ping").code == jsonrpc.METHOD_NOT_FOUND  # removed in 2026-07-28


@pytest.mark.parametrize(
    "method, params",
    [
        ("tools/call", {"name": "delete_everything", "arguments": {}}),
        ("prompts/get", {"name": "nope"}),
        ("resources/read", {"uri": "calendar://year"}),
    ],
)
def test_unknown_tool_prompt_or_resource_is_32602(calendar, method, params):
    r = calendar.request(method, params)
    assert r.code == jsonrpc.INVALID_PARAMS
    if method == "resources/read":
        assert r.data == {"uri": "calendar://year"}


def test_unparsable_line_is_32700_with_id_null(calendar):
    [answer] = calendar.send_raw("{this is not json")
    assert isinstance(answer, jsonrpc.Error) and (answer.code, answer.id) == (-32700, None)


@pytest.mark.parametrize(
    "text, expect_id",
    [
        ('{"jsonrpc":"2.0","id":null,"method":"tools/list"}', None),
        ('{"jsonrpc":"1.0","id":5,"method":"tools/list"}', 5),
        ('{"jsonrpc":"2.0","id":6,"method":"tools/list","params":"x"}', 6),
        ('[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]', None),
    ],
)
def test_invalid_envelope_is_32600(calendar, text, expect_id):
    [answer] = calendar.send_raw(text, timeout=2)
    assert isinstance(answer, jsonrpc.Error) and answer.code == -32600 and answer.id == expect_id


def test_send_raw_can_stop_after_the_first_answer(calendar):
    """`stop_after=1` keeps the first message and leaves the rest on the wire (notebooks 14 and 16
    read the first message of a stream that never closes this way, instead of waiting it out)."""
    two = '{"jsonrpc":"2.0","id":"a","method":"tools/list"}\n{"jsonrpc":"2.0","id":"b","method":"tools/list"}'
    got = calendar.send_raw(two, timeout=5, stop_after=1)
    assert [m.id for m in got] == ["a"], f"expected only the first answer, got {got}"
    later = calendar.read_event(5).message
    assert later.id == "b", f"the second answer should still be there to read, got {later}"


def test_a_notification_gets_no_reply(calendar):
    assert (
        calendar.send_raw('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}', quiet=0.3)
        == []
    )
    assert calendar.request("tools/list").ok  # and the next request is still answered in order


def test_stdout_carries_only_mcp_messages_and_logs_go_to_stderr(calendar_process):
    calendar = calendar_process
    for method in ("server/discover", "tools/list", "resources/read"):
        calendar.request(method, {"uri": "calendar://week"} if method == "resources/read" else None)
    calendar.send_raw("garbage")
    assert calendar.trace.of("noise") == []
    assert all(e.message is not None for e in calendar.trace.of("recv"))
    assert wait_for(lambda: any("serving 2026-07-28" in line for line in calendar.stderr))
    assert calendar.transport.returncode is None  # still alive


def test_events_are_module_state_on_purpose_and_die_with_the_process(calendar_process):
    calendar = calendar_process
    import mcp_lab

    call(calendar, "create_event", {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}).unwrap()
    same = json.loads(calendar.request("resources/read", {"uri": "calendar://week"}).unwrap()["contents"][0]["text"])
    assert len(same) == 3
    with mcp_lab.connect("calendar") as fresh:
        other = json.loads(fresh.request("resources/read", {"uri": "calendar://week"}).unwrap()["contents"][0]["text"])
    assert len(other) == 2
