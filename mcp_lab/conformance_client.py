"""mcp_lab's own Client, driven through the official conformance suite's client scenarios.

    conformance client --command "python -m mcp_lab.conformance_client" --scenario tools_call

Theory of operation.  In client mode the suite starts a small mock server for one scenario,
then runs the command with the mock's URL as the LAST argument and the scenario's name in
`MCP_CONFORMANCE_SCENARIO` (its per-scenario data, if any, as JSON in
`MCP_CONFORMANCE_CONTEXT`; the wire version in `MCP_CONFORMANCE_PROTOCOL_VERSION`).  The
mock records what the client sent and judges it.  This module is that command: it reads the
scenario's name and does what a real host would do with mcp_lab's public API --
`mcp_lab.session.probe_http` to find the era and version, `Client.request` for each call,
`mcp_lab.session.mrtr.call` for a multi round-trip call -- so the suite judges mcp_lab's client, not a
script written to please it.  Nothing here builds headers or `_meta` by hand.

Only the 2026-07-28 scenarios that need no authorization are driven (`SCENARIOS`); the
suite's `auth/*` scenarios test an OAuth client, which mcp_lab does not implement
(`OUT_OF_SCOPE` says so, and an unknown name is a one-line error with exit status 2).

Exit status: 0 when the scenario's steps ran, 1 when a step failed (one line on stderr),
2 for a usage error.  The verdict itself is the suite's, read from its checks.json.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Callable

from mcp_lab.wire.revisions import Era

__all__ = ["SCENARIOS", "OUT_OF_SCOPE", "EXTRA_SCENARIOS", "main", "run_scenario"]

# Required for a client by the 2026-07-28 requirement set of the pinned suite, minus auth/*.
SCENARIOS = (
    "tools_call",
    "request-metadata",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
)
# Run and reported by the suite but not scored for 2026-07-28 (added after the release).
EXTRA_SCENARIOS = ("json-schema-2020-12-preservation",)
# Why the rest of the requirement set's client list is not driven here.
OUT_OF_SCOPE = {
    "auth/*": "the suite's auth/* scenarios test an OAuth 2.1 client (discovery, registration, "
    "token exchange, scopes); mcp_lab's Client implements no authorization",
}

TIMEOUT = 10.0  # seconds, each request's deadline (the suite's own per-scenario deadline is longer)


class ScenarioFailed(Exception):
    """A step of a scenario could not be completed; the message is the one line shown."""


def _connect(url: str):
    """Probe the mock server (server/discover, retrying a refused version) and return the Client."""
    from mcp_lab.session.probe_http import probe_http

    verdict = probe_http(url, timeout=TIMEOUT, name="conformance-mock")
    if not verdict.ok or verdict.era != Era.MODERN:
        verdict.close()
        raise ScenarioFailed(
            f"the mock server at {url} did not probe as a modern server (era {verdict.era}, version {verdict.version})"
        )
    # The probe told the client its era and version (Client.adopt_era); it goes on from there.
    return verdict.client


def _result(answer, what: str) -> dict:
    from mcp_lab.wire.jsonrpc import Error

    if isinstance(answer, Error):
        raise ScenarioFailed(f"{what} answered error {answer.code}: {answer.message}")
    return answer.result


def _tools(client) -> list[dict]:
    """tools/list, minus the tools a client must drop (an invalid x-mcp-header annotation)."""
    tools = _result(client.request("tools/list"), "tools/list").get("tools") or []
    dropped = client.http_state.invalid_tools  # learnt from this tools/list (mcp_lab.session.http_headers)
    return [t for t in tools if isinstance(t, dict) and t.get("name") not in dropped]


def _arguments_for(tool: dict) -> dict:
    """Plausible arguments for a tool's inputSchema: a number for each number, a string for each string."""
    schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    samples = {"number": 2, "integer": 3, "string": "x", "boolean": True}
    return {name: samples[p["type"]] for name, p in props.items() if isinstance(p, dict) and p.get("type") in samples}


# -- the scenarios -------------------------------------------------------------------------
def _list_and_call_each(client, context: dict) -> None:
    """tools/list, then call every tool the client keeps, with arguments from its schema."""
    for tool in _tools(client):
        _result(
            client.request("tools/call", {"name": tool["name"], "arguments": _arguments_for(tool)}),
            f"tools/call {tool['name']}",
        )


def _tools_call(client, context: dict) -> None:
    tools = _tools(client)
    if not tools:
        raise ScenarioFailed("tools/list returned no tool to call")
    tool = tools[0]
    _result(
        client.request("tools/call", {"name": tool["name"], "arguments": {"a": 2, "b": 3}}),
        f"tools/call {tool['name']}",
    )


def _list_only(client, context: dict) -> None:
    _tools(client)


def _every_method(client, context: dict) -> None:
    """One request of each kind whose headers 2026-07-28 defines (Mcp-Method, Mcp-Name)."""
    _list_and_call_each(client, context)
    for r in _result(client.request("resources/list"), "resources/list").get("resources") or []:
        _result(client.request("resources/read", {"uri": r["uri"]}), f"resources/read {r['uri']}")
    for p in _result(client.request("prompts/list"), "prompts/list").get("prompts") or []:
        _result(client.request("prompts/get", {"name": p["name"], "arguments": {}}), f"prompts/get {p['name']}")


def _context_calls(client, context: dict) -> None:
    """The tool calls the scenario names in MCP_CONFORMANCE_CONTEXT, after a tools/list (the
    client learns each tool's x-mcp-header annotations there)."""
    _tools(client)
    calls = context.get("toolCalls")
    if not isinstance(calls, list) or not calls:
        raise ScenarioFailed("MCP_CONFORMANCE_CONTEXT names no toolCalls for this scenario")
    for call in calls:
        _result(
            client.request("tools/call", {"name": call["name"], "arguments": call.get("arguments", {})}),
            f"tools/call {call['name']}",
        )


def _echo_schema(client, context: dict) -> None:
    """Send the focal tool's inputSchema back, untouched, through the echo tool."""
    tools = {t["name"]: t for t in _tools(client)}
    focal = tools.get("json_schema_2020_12_tool")
    if focal is None:
        raise ScenarioFailed("tools/list did not list json_schema_2020_12_tool")
    _result(
        client.request("tools/call", {"name": "json_schema_echo", "arguments": {"schema": focal.get("inputSchema")}}),
        "tools/call json_schema_echo",
    )


def _multi_round_trip(client, context: dict) -> None:
    """Each MRTR tool through mcp_lab.session.mrtr.call; an unrelated call goes out mid-flow."""
    from mcp_lab.session.mrtr import call

    def accept(key: str, ask: dict) -> dict:
        if ask.get("method") != "elicitation/create":
            raise ScenarioFailed(f"input request {key!r} asks for {ask.get('method')!r}, not an elicitation")
        # While the "person" answers, the host sends another request: it must carry nothing
        # of this flow (no inputResponses, no requestState).
        if not accepted:
            _result(
                client.request("tools/call", {"name": "test_mrtr_unrelated", "arguments": {}}),
                "tools/call test_mrtr_unrelated",
            )
        accepted.append(key)
        return {"action": "accept", "content": {"confirmed": True}}

    accepted: list[str] = []
    names = {t["name"] for t in _tools(client)}
    for name in ("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"):
        if name not in names:
            raise ScenarioFailed(f"tools/list did not list {name}")
        ex = call(
            client,
            "tools/call",
            {"name": name, "arguments": {}},
            accept,
            capabilities={"elicitation": {"form": {}}},
            timeout=TIMEOUT,
        )
        if not ex.complete:
            raise ScenarioFailed(f"tools/call {name} did not complete after {ex.rounds} round(s)")


RUNNERS: dict[str, Callable] = {
    "tools_call": _tools_call,
    "request-metadata": _list_only,
    "sep-2322-client-request-state": _multi_round_trip,
    "http-standard-headers": _every_method,
    "http-custom-headers": _context_calls,
    "http-invalid-tool-headers": _list_and_call_each,
    "json-schema-ref-no-deref": _list_only,
    "json-schema-2020-12-preservation": _echo_schema,
}


def run_scenario(scenario: str, url: str, context: dict | None = None) -> None:
    """Drive mcp_lab's Client through one scenario against the mock server at `url`."""
    runner = RUNNERS.get(scenario)
    if runner is None:
        raise ValueError(_unknown(scenario))
    client = _connect(url)
    try:
        runner(client, context or {})
    finally:
        client.close()


def _unknown(scenario: str) -> str:
    if scenario.startswith("auth/"):
        return f"scenario {scenario!r} is out of scope: {OUT_OF_SCOPE['auth/*']}"
    return f"unknown scenario {scenario!r}: this client drives {', '.join(RUNNERS)}"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    if not argv or argv[-1].startswith("-"):
        print(
            "usage: MCP_CONFORMANCE_SCENARIO=<scenario> python -m mcp_lab.conformance_client <server-url> "
            "(the conformance suite sets both)",
            file=sys.stderr,
        )
        return 2
    if scenario not in RUNNERS:
        print(
            f"mcp_lab.conformance_client: {_unknown(scenario or '(MCP_CONFORMANCE_SCENARIO unset)')}", file=sys.stderr
        )
        return 2
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    except ValueError:
        print("mcp_lab.conformance_client: MCP_CONFORMANCE_CONTEXT is not JSON", file=sys.stderr)
        return 2
    wanted = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION")
    if wanted and wanted != "2026-07-28":
        print(
            f"mcp_lab.conformance_client: protocol version {wanted} asked; this client drives 2026-07-28 "
            "scenarios only",
            file=sys.stderr,
        )
        return 2
    from mcp_lab.wire.jsonrpc import ProtocolError

    try:
        run_scenario(scenario, argv[-1], context)
    except (ScenarioFailed, ProtocolError, OSError, ValueError) as e:
        msg = e.message if isinstance(e, ProtocolError) else str(e)
        print(f"mcp_lab.conformance_client: {scenario}: {' '.join(msg.split())}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
