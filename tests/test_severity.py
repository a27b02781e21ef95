"""One severity table (mcp_lab.wire.severity) read by `check`, by conformance's classifier, by
JUnit and by `--json`: the same server gets the same verdict from both tools, a MUST fails the
run whatever status the suite gave it, a SHOULD warns, and `defects` lists every defect."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mcp_lab.__main__ import main

FAKES = Path(__file__).resolve().parent / "fakes"
DEFECTIVE = [sys.executable, str(FAKES / "defective_server.py")]
NOT_FOUND = "sep-2164-resource-not-found"


def _json(argv: list[str]) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize(
    "defect, rule",
    [("resource-code", "retired-code"), ("reserved-code", "reserved-code"), ("none", None)],
)
def test_check_and_conformance_give_one_verdict(defect, rule, tmp_path):
    code, checked = _json(["check", "--json", "--", *DEFECTIVE, defect])
    junit = tmp_path / "junit.xml"
    argv = ["conformance", "--stdio", "--no-baseline", "--scenario", NOT_FOUND, "--json", "--junit", str(junit)]
    ccode, suite = _json([*argv, "--", *DEFECTIVE, defect])
    assert [f["rule"] for f in checked["defects"]] == ([rule] if rule else []), checked
    assert code == ccode == (1 if rule else 0), (code, ccode)
    # The suite calls this check a WARNING; the spec's level makes it a defect, listed as one.
    assert suite["defects"] == ([f"{NOT_FOUND}:sep-2164-error-code"] if rule else []), suite
    if rule:
        row = next(c for c in suite["checks"] if c["id"] == "sep-2164-error-code")
        assert (row["status"], row["verdict"], row["rule"], row["level"]) == ("WARNING", "defect", rule, "MUST NOT")
        failures = [c for c in ET.parse(junit).getroot().iter("testcase") if c.find("failure") is not None]
        assert [c.get("name") for c in failures] == ["sep-2164-error-code"]
        assert "defect (MUST NOT)" in failures[0].find("failure").get("message")


def test_a_should_warns_and_never_fails():
    code, checked = _json(["check", "--json", "--", *DEFECTIVE, "prompt-code"])
    assert code == 0 and checked["defects"] == [], checked
    assert [(w["rule"], w["level"], w["severity"]) for w in checked["warnings"]] == [
        ("unknown-prompt", "SHOULD", "warning")
    ]


def test_junit_names_are_unique_and_the_headline_says_what_unexpected_means(tmp_path):
    from mcp_lab.conformance.baseline import judge
    from mcp_lab.conformance.results import ConformanceResult, build_checks
    from mcp_lab.session.junit import write_conformance

    raw = {"s": [{"id": "a", "status": "FAILURE"}, {"id": "a", "status": "FAILURE"}, {"id": "a", "status": "SUCCESS"}]}
    r = ConformanceResult("t", "2026-07-28", "server", build_checks(raw, None, None), judge(raw, None))
    write_conformance(r, tmp_path / "j.xml")
    names = [c.get("name") for c in ET.parse(tmp_path / "j.xml").getroot().iter("testcase")]
    assert names == ["a", "a (2)", "a (3)"], names
    for c in r.checks:
        c.kind, c.kind_reason = "fixture", "calls test_x"
    head = r.summary()
    assert head.startswith("PASS") and "not in the baseline (unexpected)" in head, head
    assert "PASS because no failure is a defect" in head, head
