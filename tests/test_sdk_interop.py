"""Interop with the official Python SDK (`mcp` 2.3.0), both directions, against real processes.

1. mcp_lab's raw view of the SDK-built server (`mcp_lab.servers.sdk_calendar`): the exact
   results and errors an `MCPServer` puts on the wire, including how its sealed requestState
   behaves when the retry reaches a fresh process.
2. The SDK's own `mcp.Client` against the bundled stdlib calendar (`mcp_lab.servers.calendar`):
   the chapter's server must be a server the official client can drive, MRTR included.
3. The SDK client against the SDK server, as a sanity baseline for (2).

Every wait has a deadline (the mcp_lab client's timeout, `anyio.fail_after` for the SDK
client) and every process is reaped in a `finally` / `async with`.
"""

from __future__ import annotations

import secrets
import sys

import pytest
from _support import ROOT as REPO  # noqa: E402

import mcp_lab
from mcp_lab import jsonrpc, revisions
from mcp_lab.session.client import Client
from mcp_lab.transport.stdio import StdioTransport

SDK_SERVER = [sys.executable, "-m", "mcp_lab.servers.sdk_calendar"]
BUNDLED_SERVER = ["-m", "mcp_lab.servers.calendar"]
# A cold SDK server needs about a second to import `mcp.server`; leave room for a busy CI box.
TIMEOUT = 20.0
WHEN = "2026-09-10T08:30:00Z"
FORM = {"elicitation": {"form": {}}}
ASK_DENTIST = {"name": "create_event", "arguments": {"title": "Dentist"}}


def _spawn(argv=SDK_SERVER, *, capabilities=None, env=None) -> Client:
    """Start one server process behind mcp_lab's raw client."""
    return mcp_lab.connect(
        argv, timeout=TIMEOUT, env=env, cwd=str(REPO), capabilities=FORM if capabilities is None else capabilities
    )


@pytest.fixture
def sdk():
    client = _spawn()
    try:
        yield client
    finally:
        client.close()


def _ok(answer) -> dict:
    assert isinstance(answer, jsonrpc.Result), f"expected a result, got {answer!r}"
    return answer.result


def _retry_params(first: dict, starts_at: str = WHEN) -> dict:
    return {
        **ASK_DENTIST,
        "inputResponses": {"when": {"action": "accept", "content": {"startsAt": starts_at}}},
        "requestState": first["requestState"],
    }


# --------------------------------------------------------------------------------------------
# 1. mcp_lab's raw view of the SDK server
# --------------------------------------------------------------------------------------------


def test_discover(sdk):
    result = _ok(sdk.request("server/discover"))
    assert revisions.LATEST in result["supportedVersions"]
    assert result["resultType"] == "complete"
    assert result["_meta"][revisions.SERVER_INFO_KEY]["name"] == "mcp-lab-sdk-calendar"
    assert result["instructions"]


def test_tools_list_and_cache_hint(sdk):
    result = _ok(sdk.request("tools/list"))
    tools = {t["name"]: t for t in result["tools"]}
    assert set(tools) == {"create_event", "book_table"}
    schema = tools["create_event"]["inputSchema"]
    assert schema["required"] == ["title"]
    assert schema["properties"]["startsAt"] == {
        "type": "string",
        "format": "date-time",
        "title": "Starts at",
        "description": schema["properties"]["startsAt"]["description"],
    }
    assert (result["ttlMs"], result["cacheScope"], result["resultType"]) == (300000, "public", "complete")


def test_create_event_with_date_completes(sdk):
    result = _ok(
        sdk.request("tools/call", {"name": "create_event", "arguments": {"title": "Dentist", "startsAt": WHEN}})
    )
    assert result["resultType"] == "complete"
    assert result["isError"] is False
    assert result["content"] == [{"type": "text", "text": f"Created e3: Dentist at {WHEN}"}]
    assert result["structuredContent"] == {"id": "e3", "title": "Dentist", "startsAt": WHEN}


def test_create_event_without_date_asks_then_retry_completes(sdk):
    first = _ok(sdk.request("tools/call", ASK_DENTIST))
    assert first["resultType"] == "input_required"
    when = first["inputRequests"]["when"]
    assert when["method"] == "elicitation/create"
    assert when["params"]["mode"] == "form"
    assert when["params"]["message"] == 'When should "Dentist" start?'
    assert when["params"]["requestedSchema"] == {
        "type": "object",
        "properties": {"startsAt": {"type": "string", "format": "date-time"}},
        "required": ["startsAt"],
    }
    # The SDK seals our plaintext (the partial arguments) into an AES-GCM token.
    assert first["requestState"].startswith("v1.")

    done = _ok(sdk.request("tools/call", _retry_params(first)))
    assert done["resultType"] == "complete"
    assert done["content"][0]["text"] == f"Created e3: Dentist at {WHEN}"
    assert done["structuredContent"] == {"id": "e3", "title": "Dentist", "startsAt": WHEN}

    week = _ok(sdk.request("resources/read", {"uri": "calendar://week"}))
    assert (week["ttlMs"], week["cacheScope"]) == (60000, "private")
    assert week["contents"][0]["mimeType"] == "application/json"
    assert '"e3"' in week["contents"][0]["text"]


def test_declined_answer_is_a_tool_error(sdk):
    first = _ok(sdk.request("tools/call", ASK_DENTIST))
    retry = {**ASK_DENTIST, "inputResponses": {"when": {"action": "decline"}}, "requestState": first["requestState"]}
    result = _ok(sdk.request("tools/call", retry))
    assert result["isError"] is True
    assert "decline" in result["content"][0]["text"]


def test_missing_elicitation_capability_is_32021():
    client = _spawn(capabilities={})
    try:
        answer = client.request("tools/call", ASK_DENTIST)
    finally:
        client.close()
    assert isinstance(answer, jsonrpc.Error), answer
    assert answer.code == jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert answer.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}


@pytest.mark.parametrize("module", ["mcp_lab.servers.sdk_calendar", "mcp_lab.servers.showcase"])
def test_an_unknown_tool_or_prompt_is_a_protocol_error_not_a_tool_result(module):
    # Over stdio, the bundled SDK servers answer as the spec asks (server/tools#error-handling),
    # not as a bare MCPServer does (the in-process test below).
    client = _spawn([sys.executable, "-m", module])
    try:
        tool = client.request("tools/call", {"name": "no_such_tool", "arguments": {}})
        prompt = client.request("prompts/get", {"name": "no_such_prompt"})
        if module.endswith("sdk_calendar"):  # a known tool that fails is still a result the model reads
            bad = _ok(
                client.request("tools/call", {"name": "create_event", "arguments": {"title": "x", "startsAt": "soon"}})
            )
            assert bad["isError"] is True, bad
    finally:
        client.close()
    assert isinstance(tool, jsonrpc.Error), f"an unknown tool must be a JSON-RPC error, got {tool!r}"
    assert tool.code == jsonrpc.INVALID_PARAMS and "no_such_tool" in tool.message, tool
    assert isinstance(prompt, jsonrpc.Error), f"an unknown prompt must be a JSON-RPC error, got {prompt!r}"
    assert prompt.code == jsonrpc.INVALID_PARAMS and "no_such_prompt" in prompt.message, prompt


def test_spec_mcpserver_mends_what_a_bare_mcpserver_gets_wrong():
    """A bare MCPServer (mcp 2.3) beside SpecMCPServer, in process: if the SDK is fixed, the first
    half fails, and mcp_lab.servers.spec_mcpserver can go."""
    import logging

    import anyio
    from mcp import Client as SdkClient
    from mcp.server import MCPServer
    from mcp.shared.exceptions import MCPError

    from mcp_lab.servers.spec_mcpserver import SpecMCPServer

    def build(cls):
        server = cls("probe")

        @server.tool()
        def ping() -> str:
            return "pong"

        @server.prompt()
        def greet(who: str) -> str:
            return f"hello {who}"

        return server

    async def answers(cls) -> list:
        out = []
        with anyio.fail_after(TIMEOUT):
            async with SdkClient(build(cls)) as client:
                for call in (
                    lambda: client.call_tool("no_such_tool", {}),
                    lambda: client.get_prompt("no_such_prompt"),
                    lambda: client.get_prompt("greet", {}),
                    lambda: client.call_tool("ping", {}),
                ):
                    try:
                        result = await call()
                        out.append("isError" if result.is_error else "ok")
                    except MCPError as e:
                        out.append(e.error.code)
        return out

    sdk_logger = logging.getLogger("mcp")
    level, sdk_logger.level = sdk_logger.level, logging.CRITICAL  # the SDK logs a traceback per -32603
    try:
        bare = anyio.run(answers, MCPServer)
        mended = anyio.run(answers, SpecMCPServer)
    finally:
        sdk_logger.setLevel(level)
    assert bare == ["isError", -32603, -32603, "ok"], f"the SDK's own answers changed: {bare}"
    assert mended == [-32602, -32602, -32602, "ok"], mended


def test_book_table_form_and_summary(sdk):
    first = _ok(sdk.request("tools/call", {"name": "book_table", "arguments": {"restaurant": "Luigi's"}}))
    schema = first["inputRequests"]["booking"]["params"]["requestedSchema"]
    props = schema["properties"]
    assert [c["const"] for c in props["seating"]["oneOf"]] == ["indoor", "terrace", "bar"]
    assert (props["partySize"]["minimum"], props["partySize"]["maximum"], props["partySize"]["default"]) == (1, 12, 2)
    assert props["highChair"] == {"type": "boolean", "title": "Need a high chair?", "default": False}
    assert props["guestName"]["type"] == "string" and "default" in props["guestName"]
    retry = {
        "name": "book_table",
        "arguments": {"restaurant": "Luigi's"},
        "requestState": first["requestState"],
        "inputResponses": {
            "booking": {"action": "accept", "content": {"seating": "terrace", "partySize": 4, "guestName": "Ada"}}
        },
    }
    result = _ok(sdk.request("tools/call", retry))
    assert result["content"][0]["text"] == "Booked a terrace table for 4 at Luigi's under Ada (no high chair)."
    assert result["structuredContent"]["highChair"] is False  # the schema default filled in


def _first_round_then_fresh_process(env: dict) -> jsonrpc.Result | jsonrpc.Error:
    """Ask in one process, stop it, send the retry to a brand-new process."""
    a = _spawn(env=env)
    try:
        first = _ok(a.request("tools/call", ASK_DENTIST))
    finally:
        a.close()
    b = _spawn(env=env)
    try:
        return b.request("tools/call", _retry_params(first))
    finally:
        b.close()


def test_retry_in_fresh_process_fails_with_per_process_key():
    # An empty value means "unset" to the server, whatever the developer's shell exports.
    answer = _first_round_then_fresh_process({"MCP_LAB_STATE_KEY": ""})
    assert isinstance(answer, jsonrpc.Error), answer
    assert (answer.code, answer.message) == (jsonrpc.INVALID_PARAMS, "Invalid or expired requestState")
    assert answer.data == {"reason": "invalid_request_state"}


def test_retry_in_fresh_process_succeeds_with_shared_key():
    answer = _first_round_then_fresh_process({"MCP_LAB_STATE_KEY": secrets.token_hex(32)})
    result = _ok(answer)
    assert result["resultType"] == "complete"
    # The fresh process has its own in-memory list, so the id is e3 again: the statelessness bug.
    assert result["content"][0]["text"] == f"Created e3: Dentist at {WHEN}"


def test_state_key_file(tmp_path):
    key_file = tmp_path / "state.key"
    key_file.write_text(secrets.token_hex(32) + "\n")
    argv = [*SDK_SERVER, "--state-key-file", str(key_file)]
    a = _spawn(argv, env={"MCP_LAB_STATE_KEY": ""})
    try:
        first = _ok(a.request("tools/call", ASK_DENTIST))
    finally:
        a.close()
    b = _spawn(argv, env={"MCP_LAB_STATE_KEY": ""})
    try:
        assert _ok(b.request("tools/call", _retry_params(first)))["resultType"] == "complete"
    finally:
        b.close()


def test_short_state_key_is_a_one_line_error():
    transport = StdioTransport(SDK_SERVER, env={"MCP_LAB_STATE_KEY": "too-short"}, cwd=str(REPO)).start()
    try:
        with pytest.raises(jsonrpc.TransportClosed):
            transport.read_line(TIMEOUT)
        assert transport.returncode == 1
        assert "at least 32 bytes" in transport.stderr_tail(1)[0]
    finally:
        transport.close()


# --------------------------------------------------------------------------------------------
# 2./3. The official SDK client
# --------------------------------------------------------------------------------------------


def _sdk_create_dentist(module_args: list[str]) -> tuple[object, list]:
    """Drive create_event(title="Dentist") through mcp.Client with an answering elicitation callback."""
    import anyio
    import mcp_types as types
    from mcp import Client as SdkClient
    from mcp import StdioServerParameters

    calls: list = []

    async def on_elicit(context, params):
        calls.append(params)
        return types.ElicitResult(action="accept", content={"startsAt": WHEN})

    async def main():
        # The SDK passes the child only a whitelist of environment variables (PATH, HOME, ...),
        # so PYTHONPATH does not reach it; cwd=REPO puts mcp_lab on the child's sys.path.
        server = StdioServerParameters(command=sys.executable, args=module_args, cwd=str(REPO))
        with anyio.fail_after(TIMEOUT):
            async with SdkClient(server, elicitation_callback=on_elicit) as client:
                assert client.protocol_version == revisions.LATEST
                return await client.call_tool("create_event", {"title": "Dentist"})

    return anyio.run(main), calls


def test_sdk_client_drives_bundled_calendar_mrtr():
    # What the bundled server asks, seen raw, so the callback can be checked against it.
    raw = _spawn([sys.executable, *BUNDLED_SERVER])
    try:
        asked = _ok(raw.request("tools/call", ASK_DENTIST))["inputRequests"]["when"]["params"]
    finally:
        raw.close()

    result, calls = _sdk_create_dentist(BUNDLED_SERVER)
    assert result.is_error is not True
    assert result.content[0].text == f"Created e3: Dentist at {WHEN}"
    assert len(calls) == 1
    assert calls[0].message == asked["message"]
    assert "Dentist" in calls[0].message
    assert calls[0].requested_schema["required"] == ["startsAt"]


def test_sdk_client_drives_sdk_calendar():
    result, calls = _sdk_create_dentist(SDK_SERVER[1:])
    assert result.content[0].text == f"Created e3: Dentist at {WHEN}"
    assert result.structured_content == {"id": "e3", "title": "Dentist", "startsAt": WHEN}
    assert [c.message for c in calls] == ['When should "Dentist" start?']


def test_sdk_client_reads_resource_and_prompt_of_sdk_calendar():
    import anyio
    from mcp import Client as SdkClient
    from mcp import StdioServerParameters

    async def main():
        server = StdioServerParameters(command=sys.executable, args=SDK_SERVER[1:], cwd=str(REPO))
        with anyio.fail_after(TIMEOUT):
            async with SdkClient(server) as client:
                tools = await client.list_tools()
                week = await client.read_resource("calendar://week")
                prompt = await client.get_prompt("prepare_week", {"focus": "deep work"})
                return tools, week, prompt

    tools, week, prompt = anyio.run(main)
    assert [t.name for t in tools.tools] == ["create_event", "book_table"]
    assert '"Standup"' in week.contents[0].text
    assert prompt.messages[0].content.text == "Read calendar://week and draft a plan. Focus: deep work."


def test_bad_date_argument_is_tool_error_bad_answer_is_32602(sdk):
    bad_arg = _ok(
        sdk.request("tools/call", {"name": "create_event", "arguments": {"title": "X", "startsAt": "tomorrow"}})
    )
    assert bad_arg["isError"] is True and "tomorrow" in bad_arg["content"][0]["text"]
    first = _ok(sdk.request("tools/call", ASK_DENTIST))
    answer = sdk.request("tools/call", _retry_params(first, starts_at="tomorrow"))
    assert isinstance(answer, jsonrpc.Error) and answer.code == jsonrpc.INVALID_PARAMS, answer


# --------------------------------------------------------------------------------------------
# 4. A DiscoverResult sharing no version (mcp_lab.servers.future): the SDK's deviation
# --------------------------------------------------------------------------------------------


def test_sdk_client_falls_back_to_initialize_after_a_discover_result_with_no_mutual_version(tmp_path):
    """mcp 2.3 reads a DiscoverResult that lists no modern version it knows as a legacy server
    and sends initialize, where the spec has the client pick a mutual version or report an error
    (basic/transports/stdio#backward-compatibility). Notebook 06 section 10 teaches this as a
    deviation; mcp_lab's own probe stops (tests/test_probe.py, same server). If this test
    fails because the SDK no longer falls back, update that section."""
    import anyio
    from mcp import Client as SdkClient
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_lab.servers.logged import read_log

    log = tmp_path / "future.log"
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_lab.servers.logged", "--log", str(log), "mcp_lab.servers.future"],
        cwd=str(REPO),
    )

    async def main():
        with open(tmp_path / "stderr", "w") as errlog, anyio.fail_after(TIMEOUT):
            async with SdkClient(stdio_client(server, errlog=errlog), mode="auto") as client:
                called = await client.call_tool("which_revision", {})
                return client.protocol_version, called.content[0].text

    version, said = anyio.run(main)
    received = read_log(log)
    sent = [m.get("method") for m in received]
    assert sent[:3] == ["server/discover", "initialize", "notifications/initialized"], (
        f"the SDK sent {sent}: if it no longer falls back after this DiscoverResult, it has fixed "
        "the deviation notebook 06 section 10 teaches; update the notebook and this test"
    )
    assert received[0]["params"]["_meta"][revisions.PROTOCOL_VERSION_KEY] == revisions.LATEST
    assert received[1]["params"]["protocolVersion"] == revisions.LEGACY_VERSION
    assert version == revisions.LEGACY_VERSION == "2025-11-25"
    assert said.startswith("served under 2025-11-25"), said
