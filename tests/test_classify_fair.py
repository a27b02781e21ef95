"""A fair classifier: a caching check on a method of a capability the server did not declare is
`capability` (durable declares no prompts), and a pass of a scenario whose fixture the server
lacks is `not-observed`, never a pass (the SDK answers an unknown tool with isError: true, so
tools-call-error passes on a server without test_error_handling)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from mcp_lab.__main__ import main

ENGINEER = [sys.executable, str(Path(__file__).resolve().parent / "fakes" / "engineer_server.py")]


def _json(argv: list[str]) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, json.loads(out.getvalue())


def test_a_caching_check_of_an_undeclared_capability_is_not_a_defect():
    code, data = _json(["conformance", "durable", "--no-baseline", "--scenario", "caching", "--json"])
    assert code == 0 and data["defects"] == [], data["defects"]
    assert data["classified"] == {"capability": ["caching:sep-2549-prompts-list-caching-hints"]}, data["classified"]


def test_a_pass_without_its_fixture_is_not_observed(tmp_path):
    junit = tmp_path / "j.xml"
    argv = ["conformance", "--no-baseline", "--scenario", "tools-call-error", "--json", "--junit", str(junit)]
    code, data = _json([*argv, "--", *ENGINEER])
    assert "tools-call-error:tools-call-error" in data["not_observed"], data
    row = next(c for c in data["checks"] if c["id"] == "tools-call-error")
    assert row["status"] == "SUCCESS" and row["kind"] == "not-observed", row
    case = next(c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") == "tools-call-error")
    assert case.find("skipped").get("message").startswith("not observed"), ET.tostring(case)


def test_a_fixture_failure_that_shows_a_check_finding_points_at_check():
    """The SDK answers the missing test_simple_prompt with -32603: still a fixture failure, but the
    answer is what `mcp-lab check` reports (unknown-prompt), and the reason says so."""
    code, data = _json(["conformance", "--no-baseline", "--scenario", "prompts-get-simple", "--json", "--", *ENGINEER])
    row = next(c for c in data["checks"] if c["id"] == "prompts-get-simple")
    assert row["kind"] == "fixture" and code == 0, row
    assert "finding of `mcp-lab check` (rule unknown-prompt, SHOULD" in row["kind_reason"], row["kind_reason"]
