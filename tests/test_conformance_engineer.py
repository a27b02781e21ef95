"""Conformance for a server nobody here wrote: tests/fakes/engineer_server.py (the official SDK's
plain MCPServer, FastMCP-style, with two tools, a resource and a prompt, and its HTTP app built
with host="0.0.0.0" as one does for a container, which turns the SDK's Host check off).

Over HTTP the suite reports 26 failures; exactly one is a defect of the server (DNS rebinding:
`Host: evil.example.com` is served), every other one is classified as a fixture the suite calls,
or a capability the server does not declare.  Over stdio, through the bridge, the same server
runs (one process per connection) and the HTTP binding's checks are untestable.  A bearer-protected
server is refused in one line, and checked with the token.
"""

from __future__ import annotations

import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mcp_lab import conformance, http_servers
from mcp_lab.__main__ import main
from mcp_lab.conformance import suite

FAKES = Path(__file__).resolve().parent / "fakes"
ENGINEER = [sys.executable, str(FAKES / "engineer_server.py")]
DEFECT = "dns-rebinding-protection:localhost-host-rebinding-rejected"


@pytest.fixture(scope="module", autouse=True)
def installed():
    try:
        suite.suite_paths()
    except suite.SuiteNotInstalled as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="module")
def http_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("engineer")
    argv = ["conformance", "--json", "--write-baseline", str(folder / "skeleton.yaml")]
    argv += ["--junit", str(folder / "junit.xml"), "--", *ENGINEER]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, json.loads(out.getvalue()), folder


def test_the_one_real_defect_leads_and_nothing_is_unexplained(http_run):
    code, data, _ = http_run
    assert code == 1 and data["ok"] is False
    assert data["defects"] == [DEFECT], data["defects"]
    assert list(data)[:2] == ["ok", "defects"], "the JSON must lead with the verdict and the defects"
    first = data["checks"][0]
    assert f"{first['scenario']}:{first['id']}" == DEFECT and first["kind"] == "defect"
    kinds = data["classified"]
    assert set(kinds) == {"defect", "fixture", "capability"}, kinds
    assert len(data["unexpected"]) == sum(len(v) for v in kinds.values()) >= 20, data["unexpected"]
    assert kinds["capability"] == ["completion-complete:completion-complete"]
    for c in data["checks"]:
        if c["kind"] == "fixture":
            assert "fixture test_" in c["kind_reason"] or "fixture test://" in c["kind_reason"], c


def test_a_baseline_skeleton_carries_each_classification_and_is_used(http_run, capsys):
    _, data, folder = http_run
    skeleton = folder / "skeleton.yaml"
    b = conformance.load_baseline(skeleton)
    reasons = {e.key: e.reason for e in b.entries}
    assert reasons[DEFECT].startswith("defect:"), reasons[DEFECT]
    assert reasons["tools-call-image:tools-call-image"].startswith(
        "fixture: calls the suite's fixture test_image_content"
    )
    assert set(reasons) >= set(data["unexpected"])
    code = main(
        ["conformance", "--expected-failures", str(skeleton), "--failures-only", "--scenario", "tools-call-image",
         "--scenario", "dns-rebinding-protection", "--", *ENGINEER]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "tools-call-image ::" not in out and "dns-rebinding-protection ::" not in out, out


def test_junit_marks_only_the_defect_as_a_failure(http_run):
    root = ET.parse(http_run[2] / "junit.xml").getroot()
    failed = [(c.get("classname"), c.get("name")) for c in root.iter("testcase") if c.find("failure") is not None]
    assert failed == [("conformance.dns-rebinding-protection", "localhost-host-rebinding-rejected")], failed
    skipped = [c for c in root.iter("testcase") if c.find("skipped") is not None]
    assert any("fixture:" in c.find("skipped").get("message") for c in skipped)


def test_a_stdio_server_is_checked_through_the_bridge():
    r = conformance.run(
        ENGINEER, stdio=True, scenarios=["tools-list", "dns-rebinding-protection", "prompts-get-simple"]
    )
    assert any("one process per HTTP connection" in n for n in r.notes), r.notes
    tools = [c for c in r.checks if c.scenario == "tools-list"]
    assert tools and all(c.status == "SUCCESS" for c in tools), r.text()
    rebinding = [c for c in r.checks if c.scenario == "dns-rebinding-protection" and c.failed]
    assert all(c.kind == "untestable" for c in rebinding), [(c.id, c.kind) for c in rebinding]
    prompt = [c for c in r.checks if c.scenario == "prompts-get-simple" and c.failed]
    assert prompt and prompt[0].kind == "fixture", r.text()
    assert r.ok, r.text()
    assert http_servers.live() == []


def test_without_reuse_the_bridge_starts_one_process_per_request():
    from mcp_lab import connect
    from mcp_lab.session.bridge import serve_stdio

    with serve_stdio(ENGINEER, spares=1, reuse=False) as b:
        with connect(b.url, timeout=20) as c:
            assert c.request("server/discover").ok
            assert c.request("tools/call", {"name": "add_note", "arguments": {"name": "k", "text": "v"}}).ok
            # a fresh process: the note stored by the previous request is not there
            answer = c.request("tools/call", {"name": "read_note", "arguments": {"name": "k"}})
            assert "no note k" in json.dumps(answer.result), answer
        assert b.backend.processes_started >= 3


def test_a_server_with_no_http_and_a_guarded_one_get_one_line(capsys):
    code = main(["conformance", "--", sys.executable, "-c", "import sys; sys.exit(0)"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "before listening" in err and "--stdio" in err and "\n" not in err, err
    os.environ["ENGINEER_TOKEN"] = "tok-conformance-5521"
    with http_servers.serve_http([*ENGINEER, "--http", "{port}", "--bearer-env", "ENGINEER_TOKEN"]) as srv:
        code = main(["conformance", srv.url, "--scenario", "tools-list"])
        err = capsys.readouterr().err.strip()
        assert code == 2 and "401 Unauthorized" in err and "--bearer-env" in err, err
        code = main(["conformance", srv.url, "--scenario", "tools-list", "--bearer-env", "ENGINEER_TOKEN"])
        out = capsys.readouterr().out
        assert code == 0 and "PASS" in out and "adds the given headers" in out, out


def test_a_check_reported_twice_counts_by_its_failing_occurrence():
    from mcp_lab.conformance.baseline import judge
    from mcp_lab.conformance.results import ConformanceResult, build_checks

    raw = {
        "server-stateless": [
            {"id": "sep-2575-http-server-meta-invalid-400", "status": "FAILURE", "errorMessage": "got 404"},
            {"id": "sep-2575-http-server-meta-invalid-400", "status": "SUCCESS"},
        ]
    }
    r = ConformanceResult("t", "2026-07-28", "server", build_checks(raw, None, None), judge(raw, None))
    failing = [c for c in r.checks if c.failed]
    failing[0].kind, failing[0].kind_reason = "untestable", "through the bridge"
    assert r.unexpected_checks() == failing and r.defects() == [] and r.ok, r.text()
