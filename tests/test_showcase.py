"""The showcase server (`mcp_lab.servers.showcase`), driven over stdio and over Streamable HTTP.

One stdio process and one HTTP process serve the whole module (a cold SDK server takes about a
second to start); only the legacy `initialize` test starts its own, since it needs a fresh
connection. The listen test calls the trigger tool twice, so the tool list is as it was
afterwards. Every assertion is about what travelled on the wire.
"""

from __future__ import annotations

import base64
import json

import httpx
import pytest

import mcp_lab
from mcp_lab import http_servers, jsonrpc

TIMEOUT = 20.0
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# These clients answer the showcase's questions in the tests, so they declare a form.
FORM = {"elicitation": {"form": {}}}


@pytest.fixture(scope="module")
def stdio():
    client = mcp_lab.connect("showcase", timeout=TIMEOUT, capabilities=FORM)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="module")
def http():
    with (
        mcp_lab.serve_http("showcase", timeout=TIMEOUT) as srv,
        srv.connect(timeout=TIMEOUT, capabilities=FORM) as client,
    ):
        yield srv, client
    assert http_servers.live() == [], f"servers still running: {http_servers.live()}"


def ok(answer) -> dict:
    assert isinstance(answer, jsonrpc.Result), f"expected a result, got {answer!r}"
    return answer.result


def call(client, name: str, arguments: dict | None = None, **params) -> dict:
    return ok(client.request("tools/call", {"name": name, "arguments": arguments or {}, **params}))


def received_since(client, start: int, method: str) -> list[dict]:
    """The params of each `method` notification the client received after trace index `start`."""
    return [
        e.message.params
        for e in list(client.trace)[start:]
        if e.kind == "recv" and isinstance(e.message, jsonrpc.Notification) and e.message.method == method
    ]


# -- content types --------------------------------------------------------------------------
def test_discover_names_the_server_and_its_capabilities(stdio):
    found = ok(stdio.request("server/discover"))
    assert found["supportedVersions"] == ["2026-07-28"]
    assert found["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcp-lab-showcase"
    assert {"tools", "resources", "prompts", "completions", "logging"} <= set(found["capabilities"])


def test_text_image_audio_embedded_and_mixed_content(stdio):
    text = call(stdio, "test_simple_text")["content"]
    assert text == [{"type": "text", "text": "This is a simple text response for testing."}]
    image = call(stdio, "test_image_content")["content"][0]
    assert (image["type"], image["mimeType"]) == ("image", "image/png")
    assert base64.b64decode(image["data"]).startswith(PNG_SIGNATURE)
    audio = call(stdio, "test_audio_content")["content"][0]
    assert (audio["type"], audio["mimeType"]) == ("audio", "audio/wav")
    assert base64.b64decode(audio["data"])[:4] == b"RIFF"
    embedded = call(stdio, "test_embedded_resource")["content"][0]
    assert embedded["type"] == "resource" and embedded["resource"]["uri"] == "test://embedded-resource"
    mixed = call(stdio, "test_multiple_content_types")["content"]
    assert [block["type"] for block in mixed] == ["text", "image", "resource"]
    assert json.loads(mixed[2]["resource"]["text"]) == {"test": "data", "value": 123}


def test_a_failing_tool_is_a_result_with_is_error(stdio):
    result = call(stdio, "test_error_handling")
    assert result["isError"] is True and result["resultType"] == "complete"
    assert "intentionally" in result["content"][0]["text"]


def test_a_2020_12_schema_is_published_as_written_and_enforced(stdio):
    tools = {t["name"]: t for t in ok(stdio.request("tools/list"))["tools"]}
    schema = tools["json_schema_2020_12_tool"]["inputSchema"]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$defs"]["address"]["$anchor"] == "addressDef" and schema["else"] == {"required": ["email"]}
    saved = call(stdio, "json_schema_2020_12_tool", {"name": "Ada", "contactMethod": "phone", "phone": "123"})
    assert saved["isError"] is False and "by phone" in saved["content"][0]["text"]
    refused = call(stdio, "json_schema_2020_12_tool", {"name": "Ada", "contactMethod": "phone", "email": "a@b"})
    assert refused["isError"] is True and "'phone' is a required property" in refused["content"][0]["text"]


# -- resources, template, prompts, completion -----------------------------------------------
def test_template_substitutes_the_id_and_binary_is_a_blob(stdio):
    templates = ok(stdio.request("resources/templates/list"))["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == ["test://template/{id}/data"]
    read = ok(stdio.request("resources/read", {"uri": "test://template/7/data"}))["contents"][0]
    assert json.loads(read["text"]) == {"id": "7", "templateTest": True, "data": "Data for ID: 7"}
    blob = ok(stdio.request("resources/read", {"uri": "test://static-binary"}))["contents"][0]
    assert blob["mimeType"] == "image/png" and base64.b64decode(blob["blob"]).startswith(PNG_SIGNATURE)
    missing = stdio.request("resources/read", {"uri": "test://nothing-here"})
    assert isinstance(missing, jsonrpc.Error) and missing.code == -32602, f"expected -32602, got {missing!r}"


def test_prompts_with_arguments_and_with_an_image(stdio):
    args = ok(
        stdio.request(
            "prompts/get", {"name": "test_prompt_with_arguments", "arguments": {"arg1": "hello", "arg2": "world"}}
        )
    )
    assert args["messages"][0]["content"]["text"] == "Prompt with arguments: arg1='hello', arg2='world'"
    image = ok(stdio.request("prompts/get", {"name": "test_prompt_with_image"}))["messages"]
    assert [m["content"]["type"] for m in image] == ["image", "text"]


def test_completion_filters_suggestions_by_prefix(stdio):
    prompt = {"type": "ref/prompt", "name": "test_prompt_with_arguments"}
    got = ok(stdio.request("completion/complete", {"ref": prompt, "argument": {"name": "arg1", "value": "par"}}))
    assert got["completion"]["values"] == ["paris", "park", "party"]
    template = {"type": "ref/resource", "uri": "test://template/{id}/data"}
    got = ok(stdio.request("completion/complete", {"ref": template, "argument": {"name": "id", "value": "12"}}))
    assert got["completion"]["values"] == ["123", "1234"]


def test_cacheable_results_carry_ttl_and_scope(stdio):
    listed = ok(stdio.request("tools/list"))
    assert (listed["ttlMs"], listed["cacheScope"]) == (60_000, "public")
    read = ok(stdio.request("resources/read", {"uri": "test://static-text"}))
    assert (read["ttlMs"], read["cacheScope"]) == (0, "private")


# -- progress and logging -------------------------------------------------------------------
def test_progress_notifications_carry_the_request_token(stdio):
    start = len(stdio.trace)
    call(stdio, "test_tool_with_progress", _meta={"progressToken": "tour-1"})
    progress = received_since(stdio, start, "notifications/progress")
    assert [(p["progressToken"], p["progress"], p["total"]) for p in progress] == [
        ("tour-1", 0, 100),
        ("tour-1", 50, 100),
        ("tour-1", 100, 100),
    ]


def test_log_messages_follow_the_requests_meta_log_level(stdio):
    start = len(stdio.trace)
    call(stdio, "test_logging_tool")
    assert received_since(stdio, start, "notifications/message") == [], "no logLevel in _meta: no log messages"
    start = len(stdio.trace)
    call(stdio, "test_logging_tool", _meta={"io.modelcontextprotocol/logLevel": "warning"})
    assert [m["level"] for m in received_since(stdio, start, "notifications/message")] == ["warning", "error"]


# -- input_required rounds ------------------------------------------------------------------
def test_elicitation_round_then_answer(stdio):
    first = call(stdio, "test_input_required_result_elicitation")
    assert first["resultType"] == "input_required"
    asked = first["inputRequests"]["user_name"]
    assert asked["method"] == "elicitation/create" and asked["params"]["requestedSchema"]["required"] == ["name"]
    answer = {"user_name": {"action": "accept", "content": {"name": "Ada"}}}
    second = call(stdio, "test_input_required_result_elicitation", inputResponses=answer)
    assert (second["resultType"], second["content"][0]["text"]) == ("complete", "Hello, Ada!")
    again = call(stdio, "test_input_required_result_elicitation", inputResponses={"wrong_key": answer["user_name"]})
    assert again["resultType"] == "input_required" and "user_name" in again["inputRequests"]


def test_multi_round_state_carries_the_first_answer(stdio):
    tool = "test_input_required_result_multi_round"
    one = call(stdio, tool)
    two = call(
        stdio,
        tool,
        inputResponses={"step1": {"action": "accept", "content": {"name": "Ada"}}},
        requestState=one["requestState"],
    )
    assert two["resultType"] == "input_required" and list(two["inputRequests"]) == ["step2"]
    assert two["requestState"] != one["requestState"]
    three = call(
        stdio,
        tool,
        inputResponses={"step2": {"action": "accept", "content": {"color": "teal"}}},
        requestState=two["requestState"],
    )
    assert three["content"][0]["text"] == "Ada's favorite color is teal."


def test_a_resolver_tool_asks_by_input_required_on_the_modern_wire(stdio):
    sampling = {"io.modelcontextprotocol/clientCapabilities": {"sampling": {}}}
    first = call(stdio, "test_sampling", {"prompt": "Capital of France?"}, _meta=sampling)
    asked = list(first["inputRequests"].items())
    assert first["resultType"] == "input_required" and len(asked) == 1
    key, request = asked[0]
    assert request["method"] == "sampling/createMessage"
    assert request["params"]["messages"][0]["content"]["text"] == "Capital of France?"
    reply = {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"}
    done = call(
        stdio,
        "test_sampling",
        {"prompt": "Capital of France?"},
        inputResponses={key: reply},
        requestState=first["requestState"],
        _meta=sampling,
    )
    assert done["content"][0]["text"] == "LLM response: Paris"


def test_tampered_request_state_is_refused(stdio):
    tool = "test_input_required_result_tampered_state"
    first = call(stdio, tool)
    state = first["requestState"]
    tampered = state[:-4] + ("AAAA" if not state.endswith("AAAA") else "BBBB")
    answer = {"confirm": {"action": "accept", "content": {"ok": True}}}
    refused = stdio.request(
        "tools/call", {"name": tool, "arguments": {}, "inputResponses": answer, "requestState": tampered}
    )
    assert isinstance(refused, jsonrpc.Error) and refused.code == -32602, f"expected -32602, got {refused!r}"
    honest = call(stdio, tool, inputResponses=answer, requestState=state)
    assert honest["content"][0]["text"].startswith("state-ok")


def test_undeclared_capability_is_32021_naming_it(stdio):
    refused = stdio.request(
        "tools/call",
        {
            "name": "test_missing_capability",
            "arguments": {},
            "_meta": {"io.modelcontextprotocol/clientCapabilities": {}},
        },
    )
    assert isinstance(refused, jsonrpc.Error) and refused.code == -32021, f"expected -32021, got {refused!r}"
    assert refused.data["requiredCapabilities"] == {"sampling": {}}
    only_sampling = {"io.modelcontextprotocol/clientCapabilities": {"sampling": {}}}
    asked = call(stdio, "test_input_required_result_capabilities", _meta=only_sampling)
    assert [r["method"] for r in asked["inputRequests"].values()] == ["sampling/createMessage"]


# -- subscriptions/listen, and the legacy era (a fresh process) -----------------------------
def test_listen_stream_gets_the_tools_list_change(stdio):
    listen = {
        "jsonrpc": "2.0",
        "id": "listen-1",
        "method": "subscriptions/listen",
        "params": {"_meta": stdio.meta(), "notifications": {"toolsListChanged": True}},
    }
    # The listen request never completes (its response is the stream): collect for one second.
    ack = stdio.send_raw(json.dumps(listen), timeout=1.0)
    assert [m.method for m in ack] == ["notifications/subscriptions/acknowledged"], f"got {ack!r}"
    start = len(stdio.trace)
    assert "added" in call(stdio, "test_trigger_tool_change")["content"][0]["text"]
    try:
        changed = received_since(stdio, start, "notifications/tools/list_changed")
        assert changed == [{"_meta": {"io.modelcontextprotocol/subscriptionId": "listen-1"}}]
        assert "test_dynamic_tool" in [t["name"] for t in ok(stdio.request("tools/list"))["tools"]]
    finally:  # the second call removes the tool again, so the other tests see the usual list
        assert "removed" in call(stdio, "test_trigger_tool_change")["content"][0]["text"]


def test_legacy_initialize_and_set_level_are_answered_over_stdio():
    with mcp_lab.connect("showcase", timeout=TIMEOUT) as c:
        c.era = "legacy"
        init = ok(
            c.request(
                "initialize",
                {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
                meta=False,
            )
        )
        assert init["protocolVersion"] == "2025-11-25" and init["serverInfo"]["name"] == "mcp-lab-showcase"
        c.notify("notifications/initialized")
        ok(c.request("logging/setLevel", {"level": "error"}, meta=False))  # the 2025 way to pick a level
        start = len(c.trace)
        ok(c.request("tools/call", {"name": "test_logging_tool", "arguments": {}}, meta=False))
        assert [m["level"] for m in received_since(c, start, "notifications/message")] == ["error"]


# -- Streamable HTTP ------------------------------------------------------------------------
def test_http_content_progress_and_round(http):
    _, c = http
    image = call(c, "test_image_content")["content"][0]
    assert base64.b64decode(image["data"]).startswith(PNG_SIGNATURE)
    start = len(c.trace)
    call(c, "test_tool_with_progress", _meta={"progressToken": 9})
    assert [p["progress"] for p in received_since(c, start, "notifications/progress")] == [0, 50, 100]
    first = call(c, "test_input_required_result_request_state")
    done = call(
        c,
        "test_input_required_result_request_state",
        requestState=first["requestState"],
        inputResponses={"confirm": {"action": "accept", "content": {"ok": True}}},
    )
    assert done["content"][0]["text"].startswith("state-ok")


def test_http_x_mcp_header_argument_must_also_travel_as_a_header(http):
    _, c = http
    assert c.request("tools/list").ok  # teaches the client which arguments are mirrored
    assert c.http_state.param_headers.get("test_header_echo") == {("region",): "Region"}
    echoed = call(c, "test_header_echo", {"region": "Açores"})
    assert echoed["content"][0]["text"] == "Region: Açores"
    assert dict(c.transport.last_exchange.request_headers)["Mcp-Param-Region"] == "=?base64?QcOnb3Jlcw==?="
    saved = c.http_state.param_headers.pop("test_header_echo")
    try:
        refused = c.request("tools/call", {"name": "test_header_echo", "arguments": {"region": "Açores"}})
    finally:
        c.http_state.param_headers["test_header_echo"] = saved
    assert isinstance(refused, jsonrpc.Error) and refused.code == -32020, f"expected -32020, got {refused!r}"
    assert c.transport.last_exchange.status == 400


def test_http_refuses_a_foreign_origin_and_answers_legacy_initialize(http):
    srv, _ = http
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    with httpx.Client(timeout=TIMEOUT) as h:
        evil = h.post(srv.url, json=body, headers={**accept, "Origin": "http://evil.example"})
        assert 400 <= evil.status_code < 500, f"a foreign Origin must get a 4xx, got {evil.status_code}"
        legacy = h.post(srv.url, json=body, headers={**accept, "Origin": f"http://127.0.0.1:{srv.port}"})
    assert legacy.status_code == 200, legacy.text
    payload = (
        legacy.text
        if "json" in legacy.headers["content-type"]
        else next(line[5:] for line in legacy.text.splitlines() if line.startswith("data:"))
    )
    assert json.loads(payload)["result"]["protocolVersion"] == "2025-11-25"


# -- notebook 07's lessons: roots then sampling; a requestState-only result ------------------
ROOTS_AND_SAMPLING = {"io.modelcontextprotocol/clientCapabilities": {"roots": {}, "sampling": {}}}


def test_brief_project_asks_roots_then_sampling(stdio):
    one = call(stdio, "brief_project", _meta=ROOTS_AND_SAMPLING)
    assert one["inputRequests"] == {"workspace": {"method": "roots/list"}}
    assert "requestState" not in one, "round 1 has nothing to remember"
    roots = {"workspace": {"roots": [{"uri": "file:///projects/learner/calendar", "name": "Calendar"}]}}
    two = call(stdio, "brief_project", inputResponses=roots, _meta=ROOTS_AND_SAMPLING)
    asked = two["inputRequests"]["summary"]
    assert asked["method"] == "sampling/createMessage" and asked["params"]["maxTokens"] == 60
    assert "file:///projects/learner/calendar" in asked["params"]["messages"][0]["content"]["text"]
    reply = {"role": "assistant", "content": {"type": "text", "text": "A calendar."}, "model": "a person"}
    three = call(
        stdio,
        "brief_project",
        inputResponses={"summary": reply},
        requestState=two["requestState"],
        _meta=ROOTS_AND_SAMPLING,
    )
    assert three["content"][0]["text"] == "Brief of file:///projects/learner/calendar: A calendar."


def test_brief_project_needs_the_roots_capability(stdio):
    refused = stdio.request("tools/call", {"name": "brief_project", "arguments": {}})
    assert isinstance(refused, jsonrpc.Error) and refused.code == -32021
    assert refused.data == {"requiredCapabilities": {"roots": {}}}


def test_prepare_report_answers_request_state_only_twice(stdio):
    one = call(stdio, "prepare_report")
    assert set(one) - {"_meta"} == {"resultType", "requestState"}, "no inputRequests: retry at once"
    two = call(stdio, "prepare_report", requestState=one["requestState"])
    assert set(two) - {"_meta"} == {"resultType", "requestState"}
    three = call(stdio, "prepare_report", requestState=two["requestState"])
    assert three["content"][0]["text"] == "Report ready after 3 requests; the first 2 asked for nothing."
