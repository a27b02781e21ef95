"""`mcp-lab check` / `mcp_lab.check()`: shown catching a server with each defect it exists for
(tests/fakes/defective_server.py, one defect per run; the SDK's plain MCPServer for the error
codes), and passing the bundled servers built to be right."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.__main__ import main

FAKES = Path(__file__).resolve().parent / "fakes"
DEFECTIVE = [sys.executable, str(FAKES / "defective_server.py")]
SPEC = "https://modelcontextprotocol.io/specification/2026-07-28/"


@pytest.mark.parametrize(
    "defect, kind, severity, says, spec",
    [
        pytest.param(
            "schema", "schema", "defect", "inputSchema: Field required", "schema#listtoolsresult",
            marks=pytest.mark.wire_deliberate(server="the defective server's tools/list lacks inputSchema on purpose"),
        ),
        ("undeclared", "undeclared", "defect", "without declaring the `prompts` capability", "server/prompts#capabilities"),
        ("not-served", "not-served", "defect", "declares `resources` but answered resources/list with -32601",
         "server/resources#capabilities"),
        ("resource-code", "error-code", "defect", "answered JSON-RPC error -32002", "basic#error-codes"),
        ("reserved-code", "error-code", "defect", "answered JSON-RPC error -32050", "basic#error-codes"),
        ("prompt-code", "error-code", "warning", "answered JSON-RPC error -32603", "server/prompts#error-handling"),
        ("empty", "error-code", "defect", "empty `contents`", "server/resources#error-handling"),
    ],
)  # fmt: skip
def test_each_defect_is_caught_with_its_spec_link(defect, kind, severity, says, spec):
    report = mcp_lab.check([*DEFECTIVE, defect])
    assert [(f.kind, f.severity) for f in report.findings] == [(kind, severity)], report.text()
    f = report.findings[0]
    assert says in f.message and f.spec == SPEC + spec, f
    assert report.ok == (severity == "warning")


def test_severity_follows_the_spec_level_and_the_era():
    """One table decides: a MUST of 2026-07-28 is not binding on a 2025-11-25 server, a SHOULD
    never fails a run, and every row's link is a page of the spec."""
    from mcp_lab.wire import severity

    assert severity.verdict("unknown-resource", "modern") == "defect"
    assert severity.verdict("unknown-resource", "legacy") is None
    assert severity.verdict("unknown-prompt", "modern") == "warning"
    assert severity.code_rule(-32002, "modern").id == "retired-code"
    assert severity.code_rule(-32002, "legacy") is None
    assert severity.code_rule(-32050, "modern").id == "reserved-code"
    assert severity.code_rule(-32021, "modern") is None and severity.code_rule(-32603, "modern") is None
    assert all(r.url.startswith(SPEC) and r.verdict in ("defect", "warning") for r in severity.RULES)


def test_a_correct_server_passes_and_its_answers_were_judged():
    report = mcp_lab.check([*DEFECTIVE, "none"])
    assert report.ok and report.findings == [], report.text()
    assert report.served == {"tools": 1, "prompts": 1, "resources": 1} and report.judged >= 8


def test_the_sdks_plain_mcpserver_is_caught_on_both_error_codes(capsys):
    code = main(["check", "--json", "--", sys.executable, str(FAKES / "engineer_server.py")])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and [f["rule"] for f in data["defects"]] == ["unknown-tool"], data
    assert [(f["rule"], f["level"]) for f in data["warnings"]] == [("unknown-prompt", "SHOULD")], data
    got = {f["what"].split(" (")[0]: f["message"] for f in data["findings"]}
    assert "isError: true" in got["tools/call of an unknown tool"], got
    assert "-32603" in got["prompts/get of an unknown prompt"], got
    assert {f["spec"] for f in data["findings"]} == {
        SPEC + "server/tools#error-handling",
        SPEC + "server/prompts#error-handling",
    }


@pytest.mark.parametrize("name", ["calendar", "sdk_calendar"])
def test_bundled_servers_built_to_the_spec_pass(capsys, name):
    assert main(["check", name]) == 0, capsys.readouterr().out


def test_a_server_that_cannot_start_is_exit_2(capsys):
    assert main(["check", "--", sys.executable, "-c", "import sys; sys.exit(4)"]) == 2
    err = capsys.readouterr().err.strip()
    assert "exit code 4" in err and "\n" not in err
