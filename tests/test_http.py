"""Streamable HTTP: the transport, the calendar's HTTP rules, SSE parsing, bad input, the probe.

Real processes on 127.0.0.1 (the bundled calendar, the SDK calendar, the pinned reference
server) and, for replies no well-behaved server sends, a tiny stdlib fake (tests/fakes).
Every test checks afterwards that nothing it started is still listening.
"""

from __future__ import annotations

import json
import sys

import pytest
from _support import ROOT
from fakes.http_fake import FakeServer

import mcp_lab
from mcp_lab import http_servers, jsonrpc
from mcp_lab.session.connect import connect_http
from mcp_lab.transport.http import HttpError, HttpTransport, ResponseTooLarge, override_headers
from mcp_lab.wire.headers import headers_for
from mcp_lab.wire.jsonrpc import DeadlineExceeded

PORTS: list[int] = []


@pytest.fixture(autouse=True)
def nothing_left_listening():
    PORTS.clear()
    yield
    assert http_servers.live() == [], f"servers still running: {http_servers.live()}"
    still = [p for p in PORTS if http_servers.port_open(p)]
    assert still == [], f"ports still listening after the test: {still}"


@pytest.fixture
def cal():
    with mcp_lab.serve_http("calendar") as srv:
        PORTS.append(srv.port)
        yield srv


@pytest.fixture
def fake():
    made: list[FakeServer] = []

    def make(**kw) -> FakeServer:
        f = FakeServer(**kw)
        PORTS.append(f.port)
        made.append(f)
        return f

    yield make
    for f in made:
        f.close()


def require_reference():
    """A missing reference server FAILS (make test installs it), never skips."""
    try:
        http_servers.argv_for("everything", 1)
    except FileNotFoundError as e:
        pytest.fail(str(e), pytrace=False)


M = mcp_lab.meta()
MODERN_HEADERS = {"MCP-Protocol-Version": "2026-07-28"}


# -- the transport against the calendar ----------------------------------------------------
def test_connect_over_http_gives_the_same_client_api(cal):
    with mcp_lab.connect(cal.url, capabilities={"elicitation": {"form": {}}}) as c:
        d = c.request("server/discover").unwrap()
        assert d["supportedVersions"] == ["2026-07-28"]
        ex = c.transport.last_exchange
        assert ex.status == 200 and ex.content_type == "application/json"
        sent = dict(ex.request_headers)
        assert sent["Accept"] == "application/json, text/event-stream"
        assert sent["MCP-Protocol-Version"] == "2026-07-28" and sent["Mcp-Method"] == "server/discover"
        assert "Mcp-Name" not in sent
        # The chapter's multi round-trip, byte for byte the stdio exchange.
        first = c.request("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}}).unwrap()
        assert first["resultType"] == "input_required"
        assert first["requestState"] == "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="
        assert dict(c.transport.last_exchange.request_headers)["Mcp-Name"] == "create_event"
        done = c.request(
            "tools/call",
            {
                "name": "create_event",
                "arguments": {"title": "Dentist"},
                "requestState": first["requestState"],
                "inputResponses": {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}},
            },
        )
        assert done.unwrap()["content"][0]["text"] == "Created e3: Dentist at 2026-09-10T08:30:00Z"
        r = c.request("resources/read", {"uri": "calendar://week"})
        assert dict(c.transport.last_exchange.request_headers)["Mcp-Name"] == "calendar://week"
        assert [e["id"] for e in json.loads(r.unwrap()["contents"][0]["text"])] == ["e1", "e2", "e3"]
        # The trace holds the raw HTTP before each answer it carried.
        kinds = [e.kind for e in c.trace if e.kind in ("send", "http", "recv")]
        assert kinds[:3] == ["send", "http", "recv"]
        http = c.trace.of("http")[0]
        assert http.line.startswith("POST /mcp HTTP/1.1\n") and "\n\nHTTP/1.1 200 OK\n" in http.line
        assert "~~ HTTP POST /mcp -> 200 OK (application/json" in c.trace.text()
        assert "Note over C," in c.trace.mermaid()
        assert "<details>" in c.trace._repr_html_()


def test_sse_reply_form_by_query_and_by_flag(cal):
    c = cal.connect(query="sse=1")
    try:
        r = c.request("tools/list").unwrap()
        assert r["tools"][0]["name"] == "create_event"
        ex = c.transport.last_exchange
        assert ex.status == 200 and ex.is_sse
        assert ex.header("X-Accel-Buffering") == "no"
        assert ex.body.startswith(": ")  # a comment line, ignored by the parser
        assert [e["event"] for e in ex.events] == ["message"]  # one event: the response, then the end
        assert json.loads(ex.events[0]["data"])["result"] == r
    finally:
        c.close()
    with mcp_lab.serve_http("calendar", sse=True) as srv:
        PORTS.append(srv.port)
        with srv.connect() as c2:
            assert c2.request("server/discover").ok
            assert c2.transport.last_exchange.is_sse


def test_notification_gets_202_and_no_body(cal):
    with cal.connect() as c:
        c.notify("notifications/cancelled", {"requestId": 99})
        ex = c.transport.last_exchange
        assert (ex.status, ex.body) == (202, "")
        assert dict(ex.request_headers)["Mcp-Method"] == "notifications/cancelled"
        assert c.request("tools/list").ok  # the next request is unaffected


# -- the calendar's HTTP rules -------------------------------------------------------------
def test_foreign_origin_is_refused_with_403_and_loopback_is_fine(cal):
    with cal.connect(headers={"Origin": "http://evil.example"}) as c:
        with pytest.raises(HttpError, match="HTTP 403"):
            c.request("tools/list")
        assert c.transport.last_exchange.status == 403
        c.transport.headers["Origin"] = f"http://localhost:{cal.port}"
        assert c.request("tools/list").ok


def test_get_and_delete_are_405_with_allow_post(cal):
    with cal.connect() as c:
        for verb in ("GET", "DELETE"):
            ex = c.transport.request(verb)
            assert ex.status == 405 and ex.header("Allow") == "POST"
        assert [e.note.split(" ->")[0] for e in c.trace.of("http")] == ["HTTP GET /mcp", "HTTP DELETE /mcp"]


def test_headers_disagreeing_with_the_body_are_400_header_mismatch(cal):
    with cal.connect() as c:
        c.transport.headers["MCP-Protocol-Version"] = "2025-11-25"
        e = c.request("tools/list")
        assert (c.transport.last_exchange.status, e.code) == (400, jsonrpc.HEADER_MISMATCH)
        c.transport.headers = {"Mcp-Method": "tools/list"}
        assert c.request("prompts/list").code == -32020
        c.transport.headers = {"Mcp-Name": "delete_everything"}
        assert c.request("tools/call", {"name": "create_event", "arguments": {"title": "x"}}).code == -32020
        c.transport.headers = {"Mcp-Method": None}  # a required header missing
        e = c.request("tools/list")
        assert e.code == -32020 and "missing" in e.message


def test_a_header_override_replaces_the_derived_one_whatever_its_case(cal):
    """Header names are case-insensitive: `mcp-name` replaces `Mcp-Name`, it does not join it."""
    with cal.connect(headers={"mcp-name": "delete_everything"}) as c:
        e = c.request("tools/call", {"name": "create_event", "arguments": {"title": "x"}})
        sent = c.transport.last_exchange.request_headers
        names = [v for k, v in sent if k.lower() == "mcp-name"]
        assert names == ["delete_everything"], f"one Mcp-Name field, the override: {sent}"
        assert (c.transport.last_exchange.status, e.code) == (400, jsonrpc.HEADER_MISMATCH)
        assert "more than once" not in e.message, e.message
        c.transport.headers = {"mcp-method": None}  # removal is case-insensitive too
        e = c.request("tools/list")
        assert e.code == -32020 and "missing" in e.message


def test_override_headers_matches_names_case_insensitively():
    hdrs = {"Accept": "a", "Mcp-Name": "create_event"}
    override_headers(hdrs, {"MCP-NAME": "other", "accept": None})
    assert hdrs == {"MCP-NAME": "other", "accept": None}


def test_non_ascii_names_travel_base64_encoded(cal):
    assert headers_for({"method": "prompts/get", "params": {"name": "café"}})["Mcp-Name"] == "=?base64?Y2Fmw6k=?="
    with cal.connect() as c:
        e = c.request("prompts/get", {"name": "café"})
        # the server decoded the header and found it equal to the body: the error is about the prompt
        assert (c.transport.last_exchange.status, e.code) == (400, -32602) and "Unknown prompt" in e.message


def test_body_errors_map_to_http_statuses(cal):
    with cal.connect() as c:
        e = c.request("tools/list", meta=False)  # no _meta at all
        assert (c.transport.last_exchange.status, e.code) == (400, -32602)
        e = c.request("tools/list", {"_meta": mcp_lab.meta("1999-01-01")})
        assert (c.transport.last_exchange.status, e.code) == (400, -32022)
        assert e.data == {"supported": ["2026-07-28"], "requested": "1999-01-01"}
        c.capabilities = {}
        e = c.request("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}})
        assert (c.transport.last_exchange.status, e.code) == (400, -32021)
        e = c.request("nope/nothing")
        assert (c.transport.last_exchange.status, e.code) == (404, -32601)
        e = c.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}},
            meta=False,
        )
        # a method this modern-only server does not implement: 404 with -32601, naming its versions
        assert (c.transport.last_exchange.status, e.code) == (404, -32601), (c.transport.last_exchange.status, e)
        assert e.data == {"supported": ["2026-07-28"]}, e.data
        got = c.send_raw("{not json")  # the learner's exact text
        assert c.transport.last_exchange.status == 400 and got[0].code == -32700


# -- SSE parsing and bad input (the fake server) -------------------------------------------
def sse(*events: str) -> list[bytes]:
    return [e.encode() for e in events]


@pytest.mark.wire_deliberate(server="a fake HTTP server whose results only exercise SSE framing")
def test_sse_split_events_multiline_data_and_notifications(fake):
    def reply(body):
        answer = json.dumps(
            {"jsonrpc": "2.0", "id": body["id"], "result": {"resultType": "complete", "n": 1}}, indent=1
        )  # pretty JSON: one data: line per JSON line
        data = "".join(f"data: {line}\n" for line in answer.splitlines())
        progress = json.dumps(
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 0.5}}
        )
        whole = f": keep-alive\n\nevent: message\ndata: {progress}\n\n" + data + "\n"
        # split mid-line and mid-field, as a network would
        return [whole[:7].encode(), whole[7:40].encode(), whole[40:90].encode(), whole[90:].encode()]

    f = fake(headers={"Content-Type": "text/event-stream"}, reply=reply)
    with mcp_lab.connect(f.url) as c:
        r = c.request("tools/list")
        assert r.ok and r.result["n"] == 1
        ex = c.transport.last_exchange
        assert len(ex.events) == 2 and "\n" in ex.events[1]["data"]
        recv = [e for e in c.trace if e.kind == "recv"]
        assert isinstance(recv[0].message, jsonrpc.Notification) and recv[0].message.method == "notifications/progress"
        assert isinstance(recv[1].message, jsonrpc.Result)
        assert not c.trace.of("noise")


def test_sse_stream_closed_before_the_response(fake):
    def reply(body):
        note = json.dumps(
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}
        )
        return sse(f"data: {note}\n\n", 'data: {"jsonrpc":"2.0","id":')  # cut inside an event

    f = fake(headers={"Content-Type": "text/event-stream"}, reply=reply)
    with mcp_lab.connect(f.url) as c:
        with pytest.raises(HttpError, match="SSE stream ended after 1 event.*new id"):
            c.request("tools/list")
        assert len(c.transport.last_exchange.events) == 1  # the incomplete event was not dispatched


@pytest.mark.wire_deliberate(server_noise="a fake whose body is not JSON, on purpose")
def test_non_json_body_is_noise_not_a_crash(fake):
    f = fake(status=502, headers={"Content-Type": "text/html"}, reply=lambda b: [b"<html>Bad gateway</html>"])
    with mcp_lab.connect(f.url) as c:
        with pytest.raises(HttpError, match="HTTP 502.*text/html body is not the JSON-RPC answer"):
            c.request("tools/list")
        assert [e.line for e in c.trace.of("noise")] == ["<html>Bad gateway</html>"]
        with pytest.raises(HttpError):  # the client is still usable
            c.request("tools/list")


@pytest.mark.wire_deliberate(server_noise="an SSE stream of 'x' on purpose, past the body limit")
def test_oversized_bodies_are_refused_clearly(fake):
    big = fake(
        headers={"Content-Type": "application/json", "Content-Length": str(9 * 1024 * 1024)}, reply=lambda b: [b"{}"]
    )
    with mcp_lab.connect(big.url) as c:
        with pytest.raises(ResponseTooLarge, match=r"Content-Length 9437184 is over the 8 MiB limit"):
            c.request("tools/list")
    stream = fake(
        headers={"Content-Type": "text/event-stream"}, reply=lambda b: [b"data: " + b"x" * 4096 + b"\n\n"] * 4
    )
    c = connect_http(stream.url, max_body=8192)
    try:
        with pytest.raises(ResponseTooLarge, match="SSE stream passed the 8192 bytes limit"):
            c.request("tools/list")
    finally:
        c.close()


def test_a_server_that_never_answers_meets_the_deadline(fake):
    f = fake(reply=lambda b: None)
    with mcp_lab.connect(f.url, timeout=0.3) as c:
        with pytest.raises(DeadlineExceeded, match="no answer to tools/list"):
            c.request("tools/list")
        f.release.set()


def test_nothing_listening_is_a_one_line_error():
    port = http_servers.free_port()
    with mcp_lab.connect(f"http://127.0.0.1:{port}/mcp") as c:
        with pytest.raises(HttpError, match="cannot connect to .*is the server running"):
            c.request("tools/list")
    with pytest.raises(ValueError, match="not an HTTP URL"):
        HttpTransport("ftp://x")


# -- the other servers, and the probe ------------------------------------------------------
def test_probe_over_http_calendar_is_modern(cal):
    v = mcp_lab.probe_http(cal.url)
    with v:
        assert (v.era, v.version) == ("modern", "2026-07-28")
        assert v.server_info["name"] == "mcp_lab-calendar"
        assert v.client.request("tools/list").ok


def _refuse_first_discovers(refusals: int):
    """A modern server that refuses the first `refusals` server/discover with -32022 although it
    lists the very version asked for (the conformance suite's request-metadata mock does this)."""
    answered: list[int] = []  # the status of each reply, decided when the reply is made

    def reply(body):
        if len(answered) < refusals:
            answered.append(400)
            err = {
                "code": -32022,
                "message": "Unsupported protocol version",
                "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"},
            }
            return [json.dumps({"jsonrpc": "2.0", "id": body["id"], "error": err}).encode()]
        answered.append(200)
        result = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {}}
        return [json.dumps({"jsonrpc": "2.0", "id": body["id"], "result": result}).encode()]

    return (lambda body: answered[-1]), reply


@pytest.mark.wire_deliberate(server="a fake HTTP server with an abridged DiscoverResult (no ttlMs / cacheScope)")
def test_probe_over_http_retries_a_refused_version_the_server_lists_once(fake):
    status, reply = _refuse_first_discovers(1)
    f = fake(status=status, headers={"Content-Type": "application/json"}, reply=reply)
    with mcp_lab.probe_http(f.url) as v:
        assert (v.era, v.version) == ("modern", "2026-07-28"), v.steps
        assert [b["method"] for b in f.bodies] == ["server/discover", "server/discover"]
        assert any("retry server/discover at 2026-07-28" in s for s in v.steps), v.steps
    status, reply = _refuse_first_discovers(5)  # refused again: give up after one retry
    f = fake(status=status, headers={"Content-Type": "application/json"}, reply=reply)
    with mcp_lab.probe_http(f.url) as v:
        assert (v.era, v.version) == ("modern", None), v.steps
        assert len(f.bodies) == 2 and "initialize" not in [b["method"] for b in f.bodies]
        assert any("the retry at 2026-07-28 was refused" in s for s in v.steps), v.steps


def test_sdk_calendar_over_http():
    with mcp_lab.serve_http("sdk_calendar") as srv:
        PORTS.append(srv.port)
        with mcp_lab.probe_http(srv.url) as v:
            assert (v.era, v.version) == ("modern", "2026-07-28")
            t = v.client.transport
            assert t.request("GET").status == 400  # SDK 2.3.0: a legacy session error, not 405
            e = v.client.request("nope/x")
            assert (t.last_exchange.status, e.code) == (404, -32601)
            v.client.notify("notifications/cancelled", {"requestId": 1})
            assert t.last_exchange.status == 202


@pytest.mark.wire_deliberate(
    server="the pinned legacy reference server answers an unreadable request with id null (JSON-RPC 2.0 allows it, the MCP schema does not)"
)
def test_reference_server_over_http_is_legacy():
    require_reference()
    with mcp_lab.serve_http("everything") as srv:
        PORTS.append(srv.port)
        with mcp_lab.probe_http(srv.url) as v:
            assert v.era == "legacy" and v.version == "2025-11-25"
            assert any("not a modern answer" in s for s in v.steps)
            sent = [json.loads(line) for line in v.trace.sent]
            [init] = [m for m in sent if m.get("method") == "initialize"]
            # a legacy method asks a legacy version (before: 2026-07-28, which a dual-era server may echo)
            assert init["params"]["protocolVersion"] == "2025-11-25", init
            t = v.client.transport
            assert t.session_id  # a legacy server mints a session
            tools = v.client.request("tools/list").unwrap()["tools"]
            assert tools and t.last_exchange.is_sse
            assert dict(t.last_exchange.request_headers)["Mcp-Session-Id"] == t.session_id
            assert dict(t.last_exchange.request_headers)["MCP-Protocol-Version"] == "2025-11-25"


def test_x_mcp_header_arguments_travel_as_mcp_param_headers_checked_by_the_real_sdk():
    """A tool argument marked `x-mcp-header` is mirrored into Mcp-Param-{Name}
    (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters);
    the official SDK server checks it, so leaving it out is refused with -32020."""
    argv = [sys.executable, str(ROOT / "tests" / "fakes" / "sdk_header_server.py"), "{port}"]
    with http_servers.serve_http(argv) as srv, mcp_lab.connect(srv.url, timeout=15) as c:
        assert c.request("tools/list").ok
        assert c.http_state.param_headers == {"forecast": {("region",): "Region"}}
        ok = c.request("tools/call", {"name": "forecast", "arguments": {"region": "Açores"}})
        assert ok.unwrap()["content"][0]["text"] == "Sunny in Açores"
        sent = dict(c.transport.last_exchange.request_headers)
        assert sent["Mcp-Param-Region"] == "=?base64?QcOnb3Jlcw==?="  # not plain ASCII: base64-wrapped
        c.http_state.param_headers.clear()  # a client that forgets it...
        refused = c.request("tools/call", {"name": "forecast", "arguments": {"region": "Açores"}})
        assert refused.code == -32020 and c.transport.last_exchange.status == 400
