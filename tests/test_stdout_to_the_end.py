"""Stdout read to the end: a stray start-up print() that a Python server on a pipe flushes only
at exit (PYTHONUNBUFFERED unset, as in CI) is caught by the client, probe, check, record and
`conformance --stdio` alike (tests/fakes/engineer_server.py --stray, the official SDK's server)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.__main__ import main

FAKES = Path(__file__).resolve().parent / "fakes"
STRAY = [sys.executable, str(FAKES / "engineer_server.py"), "--stray"]
LINE = "engineer-notes: starting up"
pytestmark = pytest.mark.wire_deliberate(server="the engineer's server prints a stray line on purpose")


@pytest.fixture(autouse=True)
def buffered(monkeypatch):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue()


def test_the_client_reads_stdout_to_its_end_at_close():
    c = mcp_lab.connect(STRAY, deliberate="a stray print on purpose")
    assert c.request("tools/list").result["tools"]
    before = [e.line for e in c.trace if e.kind == "noise"]
    c.close()
    assert before == [], "buffered: the line is not on the pipe while the server runs"
    assert [e.line for e in c.trace if e.kind == "noise"] == [LINE], c.trace.text()


def test_check_catches_it():
    report = mcp_lab.check(STRAY)
    framing = [f for f in report.findings if f.kind == "framing"]
    assert [(f.severity, f.rule) for f in framing] == [("defect", "framing")], report.text()


def test_probe_catches_it():
    code, out = _run(["probe", "--json", "--", *STRAY])
    findings = json.loads(out)["findings"]
    assert code == 1 and [f["line"] for f in findings if f["kind"] == "framing"] == [LINE], findings


def test_record_keeps_it(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("tools/list\n")
    cassette = tmp_path / "c.jsonl"
    code, _ = _run(["record", str(cassette), "--script", str(script), "--", *STRAY])
    assert code == 0
    trace = mcp_lab.session.cassette.read(cassette).trace
    assert [e.line for e in trace if e.kind == "noise"] == [LINE]


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_the_stdio_bridge_catches_it(unbuffered):
    """ "" : the bridge's own PYTHONUNBUFFERED=1 overridden, so only reading to the end finds it."""
    from mcp_lab.session.bridge import serve_stdio

    with serve_stdio(STRAY, env={"PYTHONUNBUFFERED": unbuffered}, spares=0) as b:
        import httpx

        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/list",
            "params": {"_meta": mcp_lab.wire.revisions.meta("2026-07-28", {}, {"name": "t", "version": "1"})},
        }
        r = httpx.post(b.url, json=body, headers={"Accept": "application/json, text/event-stream"}, timeout=20)
        assert r.status_code == 200 and "tools" in r.text
        assert b.backend.framing_lines() == [LINE]


def test_conformance_stdio_fails_on_it():
    code, out = _run(
        ["conformance", "--stdio", "--no-baseline", "--json", "--scenario", "sep-2164-resource-not-found", "--", *STRAY]
    )
    data = json.loads(out)
    assert code == 1 and data["defects"] == ["mcp-lab-stdio-framing:stdout-carries-only-mcp-messages"], data
