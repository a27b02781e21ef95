"""The bridges the conformance suite talks through (issue 38, point 8).

* `serve_stdio` starts one server process per HTTP connection and reuses it for that
  connection's 2026-07-28 requests (and, once the connection closed, for the next one); a request without that envelope gets a process of its own,
  so it cannot set the reused process's era (the official SDK locks a stdio connection to the
  handshake era at the first request without `_meta`).  Counted in processes started, on the
  engineer's SDK server (tests/fakes/engineer_server.py).  No timing here: `make bench` and the
  report hold those.
* `forward` (`--header`, `--bearer-env`) keeps the suite's `Host` and `Origin`: one naming the
  bridge is re-aimed at the real server, any other (the DNS-rebinding scenario's
  evil.example.com) reaches the server as written.  The upstream is a real HTTP server on
  127.0.0.1 that writes down the headers it got.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from mcp_lab.session.bridge import forward, serve_stdio
from mcp_lab.wire.revisions import meta

FAKES = Path(__file__).resolve().parent / "fakes"
ENGINEER = [sys.executable, str(FAKES / "engineer_server.py")]
ACCEPT = {"Accept": "application/json, text/event-stream"}


def _modern(rid: int, method: str, params: dict | None = None) -> dict:
    p = dict(params or {})
    p["_meta"] = meta("2026-07-28", {}, {"name": "bridge-test", "version": "1"})
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": p}


def _call(client: httpx.Client, url: str, body: dict) -> dict:
    r = client.post(url, json=body, headers=ACCEPT, timeout=30)
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()


@pytest.mark.system
def test_one_process_serves_a_connection_and_keeps_its_state():
    with serve_stdio(ENGINEER, spares=0) as b:
        with httpx.Client() as one:
            assert "result" in _call(one, b.url, _modern(1, "server/discover"))
            stored = {"name": "add_note", "arguments": {"name": "k", "text": "kept"}}
            assert "result" in _call(one, b.url, _modern(2, "tools/call", stored))
            read = _call(one, b.url, _modern(3, "tools/call", {"name": "read_note", "arguments": {"name": "k"}}))
            assert "kept" in json.dumps(read["result"]), read  # the same process answered
            assert b.backend.processes_started == 1

            # A request without the envelope: a process of its own, and the reused one is untouched.
            bare = {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {}}
            one.post(b.url, json=bare, headers=ACCEPT, timeout=30)
            assert b.backend.processes_started == 2
            listed = _call(one, b.url, _modern(5, "tools/list"))
            assert [t["name"] for t in listed["result"]["tools"]] == ["add_note", "read_note"], listed
            assert b.backend.processes_started == 2

            with httpx.Client() as other:  # a second connection at the same time: a process of its own
                read = _call(other, b.url, _modern(6, "tools/call", {"name": "read_note", "arguments": {"name": "k"}}))
                assert "no note k" in json.dumps(read["result"]), read
                assert b.backend.processes_started == 3

        with httpx.Client() as later:  # after they closed: an idle process serves the next connection
            assert "result" in _call(later, b.url, _modern(7, "tools/list"))
            assert b.backend.processes_started == 3
        assert b.backend.framing_lines() == []


@pytest.mark.system
def test_a_process_that_exits_after_answering_is_replaced():
    one_shot = [
        sys.executable,
        "-c",
        "import sys; l = sys.stdin.readline(); import json; "
        "m = json.loads(l); print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': {}}), flush=True)",
    ]
    with serve_stdio(one_shot, spares=0) as b, httpx.Client() as c:
        for rid in range(1, 4):
            assert _call(c, b.url, _modern(rid, "ping")) == {"jsonrpc": "2.0", "id": rid, "result": {}}
        assert b.backend.processes_started == 3


class _Recorder(BaseHTTPRequestHandler):
    seen: list[dict[str, str]] = []

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        type(self).seen.append({k.lower(): v for k, v in self.headers.items()})
        body = b'{"jsonrpc":"2.0","id":1,"result":{}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_the_forwarding_bridge_keeps_the_suites_host_and_origin():
    _Recorder.seen = []
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    real = f"127.0.0.1:{upstream.server_address[1]}"
    try:
        with forward(f"http://{real}/mcp", {"Authorization": "Bearer tok-1"}) as b, httpx.Client() as c:
            own = f"127.0.0.1:{b.port}"
            # what the suite sends for an ordinary request (httpx sets Host from the URL, as Node does)
            c.post(b.url, json=_modern(1, "tools/list"), headers={"Origin": f"http://{own}"}, timeout=10)
            # the DNS-rebinding scenario: a foreign Host and Origin
            evil = {"Host": "evil.example.com", "Origin": "http://evil.example.com"}
            c.post(b.url, json=_modern(1, "server/discover"), headers=evil, timeout=10)
    finally:
        upstream.shutdown()
        upstream.server_close()
    ordinary, rebinding = _Recorder.seen
    assert ordinary["host"] == real and ordinary["origin"] == f"http://{real}", ordinary
    assert ordinary["authorization"] == "Bearer tok-1"
    assert rebinding["host"] == "evil.example.com" and rebinding["origin"] == "http://evil.example.com", rebinding
    assert rebinding["authorization"] == "Bearer tok-1"
