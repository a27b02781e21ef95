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
        ("resource-code", "error-code", "warning", "answered -32002", "server/resources#error-handling"),
        ("empty", "error-code", "defect", "empty `contents`", "server/resources#error-handling"),
    ],
)  # fmt: skip
def test_each_defect_is_caught_with_its_spec_link(defect, kind, severity, says, spec):
    report = mcp_lab.check([*DEFECTIVE, defect])
    assert [(f.kind, f.severity) for f in report.findings] == [(kind, severity)], report.text()
    f = report.findings[0]
    assert says in f.message and f.spec == SPEC + spec, f
    assert report.ok == (severity == "warning")


def test_a_correct_server_passes_and_its_answers_were_judged():
    report = mcp_lab.check([*DEFECTIVE, "none"])
    assert report.ok and report.findings == [], report.text()
    assert report.served == {"tools": 1, "prompts": 1, "resources": 1} and report.judged >= 8


def test_the_sdks_plain_mcpserver_is_caught_on_both_error_codes(capsys):
    code = main(["check", "--json", "--", sys.executable, str(FAKES / "engineer_server.py")])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["defects"] == 2
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
