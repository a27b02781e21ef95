"""The Streamable HTTP binding under hostile input: every fault a raw-socket run once found.

Each test reproduces one fault against `python -m mcp_lab.servers.calendar --http PORT` over a
raw socket and asserts what a client now sees: a valid JSON-RPC answer, or a clean HTTP error
whose body is JSON -- never HTML, never a dropped connection, never a second request smuggled
in, never a write stored but unanswered.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

import mcp_lab

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


@pytest.fixture(scope="module")
def server():
    with mcp_lab.serve_http("calendar") as srv:
        yield srv


def _raw(srv, data: bytes, timeout: float = 5.0) -> bytes:
    """Send bytes on a fresh connection; read until the server closes it or the deadline."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=timeout) as s:
        s.sendall(data)
        chunks, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                b = s.recv(65536)
            except socket.timeout:
                break
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)


def _post(body: bytes, headers: dict | None = None, extra: bytes = b"", *, close: bool = True) -> bytes:
    head = {
        "Host": "127.0.0.1",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(len(body)),
        **({"Connection": "close"} if close else {}),
        **(headers or {}),
    }
    lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
    return f"POST /mcp HTTP/1.1\r\n{lines}\r\n".encode("latin-1") + body + extra


def _responses(raw: bytes) -> list[tuple[int, dict, bytes]]:
    """Split raw bytes into (status, headers, body) responses (Content-Length framed)."""
    out = []
    while raw:
        head, _, rest = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
        n = int(headers.get("content-length", len(rest)))
        out.append((status, headers, rest[:n]))
        raw = rest[n:]
    return out


def _request(method: str, params: dict | None = None, rid=1) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": {**(params or {}), "_meta": META}}


def _headers_for(msg: dict, **over) -> dict:
    h = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": msg["method"]}
    name = msg["params"].get("name") or msg["params"].get("uri")
    if name:
        h["Mcp-Name"] = name
    return {**h, **over}


def _only(raw: bytes) -> tuple[int, dict, dict]:
    responses = _responses(raw)
    assert len(responses) == 1, f"expected exactly one response, got {len(responses)}: {raw[:300]!r}"
    status, headers, body = responses[0]
    assert headers.get("content-type", "").startswith("application/json"), f"not JSON: {headers} {body[:200]!r}"
    return status, headers, json.loads(body)


def _titles(srv) -> list[str]:
    with srv.connect() as c:
        week = c.request("resources/read", {"uri": "calendar://week"})
    data = json.loads(week.result["contents"][0]["text"])
    return [e["title"] for e in (data["events"] if isinstance(data, dict) else data)]


def test_a_lone_surrogate_gets_a_parse_error_and_is_never_stored(server):
    body = (
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_event","arguments":'
        '{"title":"bad \\udc80","startsAt":"2026-09-10T08:30:00Z"},"_meta":' + json.dumps(META) + "}}"
    ).encode()
    status, _, answer = _only(
        _raw(
            server,
            _post(body, {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "create_event"}),
        )
    )
    assert (status, answer["error"]["code"]) == (400, -32700), answer
    assert not any(t.startswith("bad ") for t in _titles(server)), "the write was stored though refused"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(server, constant):
    body = f'{{"jsonrpc":"2.0","id":{constant},"method":"tools/list"}}'.encode()
    status, _, answer = _only(_raw(server, _post(body)))
    assert (status, answer["error"]["code"]) == (400, -32700), answer


def test_a_malformed_bracketed_origin_is_refused_with_json(server):
    status, _, answer = _only(_raw(server, _post(b"{}", {"Origin": "http://[::1"})))
    assert status == 403 and "error" in answer, answer


def test_a_chunked_body_is_read_as_one_request(server):
    msg = json.dumps(_request("tools/list")).encode()
    head = (
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        b"MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nConnection: close\r\n\r\n"
    )
    chunked = f"{len(msg):x}\r\n".encode() + msg + b"\r\n0\r\n\r\n"
    raw = _raw(server, head + chunked)
    assert raw.startswith(b"HTTP/1.1 200"), raw[:200]
    assert b'"tools"' in raw and raw.count(b"HTTP/1.1") == 1, raw[:400]


def test_transfer_encoding_with_content_length_smuggles_nothing(server):
    smuggled = json.dumps(
        _request(
            "tools/call",
            {"name": "create_event", "arguments": {"title": "SMUGGLED", "startsAt": "2026-09-10T08:30:00Z"}},
            rid=2,
        )
    ).encode()
    inner = _post(smuggled, _headers_for(json.loads(smuggled)), close=False)
    head = b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"
    raw = _raw(server, head + inner)
    status, _, answer = _responses(raw)[0][0], None, json.loads(_responses(raw)[0][2])
    assert status == 400 and "error" in answer, raw[:300]
    assert "SMUGGLED" not in _titles(server), "a second request was smuggled through"


@pytest.mark.parametrize(
    "line",
    [
        b"GARBAGE\r\n\r\n",
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n{}   ",
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 1_0\r\n\r\n{}",
    ],
)
def test_unparseable_requests_get_a_json_400_not_html(server, line):
    status, _, answer = _only(_raw(server, line))
    assert status == 400 and answer["error"]["code"] == -32600, answer


def test_a_notification_is_validated_before_202(server):
    status, _, answer = _only(_raw(server, _post(b'{"method":5}')))
    assert status == 400 and answer["error"]["code"] == -32600, answer
    ok = _responses(_raw(server, _post(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}')))
    assert ok[0][0] == 202 and ok[0][2] == b"", ok


def test_optional_whitespace_around_a_header_value_is_not_part_of_it(server):
    msg = _request(
        "tools/call", {"name": "create_event", "arguments": {"title": "OWS", "startsAt": "2026-09-10T08:30:00Z"}}
    )
    raw = _raw(
        server,
        _post(
            json.dumps(msg).encode(), _headers_for(msg, **{"Mcp-Name": "create_event \t", "Mcp-Method": " tools/call"})
        ),
    )
    status, _, answer = _only(raw)
    assert status == 200 and answer["result"]["isError"] is False, answer


def test_a_header_value_with_a_control_character_is_a_header_mismatch(server):
    msg = _request("tools/list")
    status, _, answer = _only(
        _raw(server, _post(json.dumps(msg).encode(), _headers_for(msg, **{"Mcp-Method": "tools/\x7flist"})))
    )
    assert (status, answer["error"]["code"]) == (400, -32020), answer


def test_conflicting_duplicate_headers_are_a_header_mismatch(server):
    msg = _request("tools/list")
    body = json.dumps(msg).encode()
    raw = _post(body, _headers_for(msg)).replace(
        b"Mcp-Method: tools/list\r\n", b"Mcp-Method: tools/list\r\nMcp-Method: prompts/list\r\n"
    )
    status, _, answer = _only(_raw(server, raw))
    assert (status, answer["error"]["code"]) == (400, -32020), answer


def test_an_oversized_body_is_413_with_json_before_it_is_read(server):
    head = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5242880\r\n\r\n"
    status, _, answer = _only(_raw(server, head + b"{"))
    assert status == 413 and "error" in answer, answer


def test_keep_alive_serves_many_requests_on_one_connection(server):
    msg = _request("tools/list")
    one = _post(json.dumps(msg).encode(), _headers_for(msg), close=False)
    last = _post(json.dumps(msg).encode(), _headers_for(msg))
    responses = _responses(_raw(server, one * 19 + last))
    assert [s for s, *_ in responses] == [200] * 20, [s for s, *_ in responses]


# -- slow and idle connections: a short head deadline, so each case ends within about a second ----

HEAD_DEADLINE = 1.0  # seconds, via MCP_LAB_HTTP_HEAD_DEADLINE (the servers' default is 10)


@pytest.fixture(scope="module")
def quick():
    with mcp_lab.serve_http("calendar", env={"MCP_LAB_HTTP_HEAD_DEADLINE": str(HEAD_DEADLINE)}) as srv:
        yield srv


def _tools_list_ok(srv) -> bool:
    msg = _request("tools/list")
    status, _, answer = _only(_raw(srv, _post(json.dumps(msg).encode(), _headers_for(msg)), timeout=2.0))
    return status == 200 and "tools" in answer["result"]


def _trickle(sock: socket.socket, data: bytes, started: float, limit: float) -> tuple[float, bytes]:
    """Send `data` one byte every 50 ms until the server answers and closes, or `limit` seconds after
    `started`; return (seconds from `started` to the close, what came back)."""
    got = b""
    sock.settimeout(0.05)
    for byte in data:
        if time.monotonic() - started > limit:
            break
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            chunk = None
        except ConnectionResetError:
            return time.monotonic() - started, got
        if chunk == b"":
            return time.monotonic() - started, got
        if chunk:
            got += chunk
            continue
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - started, got
    return float("inf"), got  # never cut off


def _read_one(sock: socket.socket) -> bytes:
    """One Content-Length framed response from a kept-alive connection (head and body may come apart)."""
    raw = b""
    while b"\r\n\r\n" not in raw or len(raw.partition(b"\r\n\r\n")[2]) < int(
        _responses(raw.partition(b"\r\n\r\n")[0] + b"\r\n\r\n")[0][1].get("content-length", 0)
    ):
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection mid-response: {raw[:200]!r}"
        raw += chunk
    return raw


@pytest.mark.parametrize("after_a_reply", [False, True], ids=["fresh-connection", "kept-alive-connection"])
def test_a_head_trickled_byte_by_byte_is_cut_off_at_the_head_deadline(quick, after_a_reply):
    msg = _request("tools/list")
    request = _post(json.dumps(msg).encode(), _headers_for(msg), close=False)
    with socket.create_connection(("127.0.0.1", quick.port), timeout=2.0) as slow:
        if after_a_reply:  # one whole request first: the next head starts on a kept-alive connection
            slow.sendall(request)
            first = _read_one(slow)
            assert first.startswith(b"HTTP/1.1 200"), f"the first request on the connection failed: {first[:200]!r}"
        started = time.monotonic()
        slow.sendall(request[:1])  # the head has begun (on a kept-alive connection, its clock starts)
        assert _tools_list_ok(quick), "a normal request on another connection failed while one trickled"
        seconds, got = _trickle(slow, request[1:-4] * 4, started, limit=HEAD_DEADLINE + 1.5)  # no blank line
    assert seconds <= HEAD_DEADLINE + 1.0, f"a head trickled for {seconds:.1f} s was not cut off ({HEAD_DEADLINE} s)"
    status, headers, answer = _only(got)
    assert status == 408 and headers.get("connection") == "close" and answer["error"]["code"] == -32600, answer


def test_idle_connections_hold_no_slot_past_the_head_deadline(quick):
    from mcp_lab.servers.streamable_http import MAX_CONNECTIONS

    idle = [socket.create_connection(("127.0.0.1", quick.port), timeout=2.0) for _ in range(MAX_CONNECTIONS)]
    started = time.monotonic()
    try:
        # Every slot is held: a request is refused at once, in JSON, not left waiting.
        msg = _request("tools/list")
        status, headers, answer = _only(_raw(quick, _post(json.dumps(msg).encode(), _headers_for(msg)), timeout=2.0))
        assert status == 503 and headers.get("retry-after") and answer["error"]["code"] == -32603, answer
        # The server closes each idle connection at the head deadline, sending nothing (nothing was asked).
        for s in idle:
            s.settimeout(max(0.1, HEAD_DEADLINE + 1.0 - (time.monotonic() - started)))
            try:
                got = s.recv(1)
            except socket.timeout:
                got = None
            assert got == b"", f"an idle connection was still open {time.monotonic() - started:.1f} s on ({got!r})"
    finally:
        for s in idle:
            s.close()
    assert _tools_list_ok(quick), "the slots held by idle connections were not freed"


@pytest.mark.parametrize("raw", ["soon", "0", "-1", "inf", "nan"])
def test_a_bad_head_deadline_setting_is_one_clear_line(raw):
    from mcp_lab.servers.streamable_http import HEAD_DEADLINE, head_deadline_from_env

    with pytest.raises(SystemExit, match=r"MCP_LAB_HTTP_HEAD_DEADLINE must be a positive number of seconds, got"):
        head_deadline_from_env({"MCP_LAB_HTTP_HEAD_DEADLINE": raw})
    assert (
        head_deadline_from_env({}) == HEAD_DEADLINE
        and head_deadline_from_env({"MCP_LAB_HTTP_HEAD_DEADLINE": "2.5"}) == 2.5
    )
