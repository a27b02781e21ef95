"""Notebook 14's typed task judges a baseline entry against the learner's own conformance run.

One real run of lab 10's shipped server (the pinned suite, a few seconds); the judge must accept
an entry whose check failed for a missing fixture and whose reason names it, and refuse each way
of getting it wrong: a check that did not fail, a failure a fixture does not explain, a reason
that names nothing, a value that is not a pair.
"""

from __future__ import annotations

import sys

import pytest
from _support import ROOT

from mcp_lab import conformance
from mcp_lab.course.lessons import n14, tasks

JUDGE = tasks()["baseline-a-fixture"].judge
FIXTURE_CHECK = "tools-call-embedded-resource:tools-call-embedded-resource"


@pytest.fixture(scope="module")
def run():
    server = ROOT / "labs" / "10-fix-the-calendar" / "calendar_server.py"
    return conformance.run([sys.executable, str(server)], expected_failures=None)


def test_an_entry_naming_the_missing_fixture_is_accepted(run):
    entry = (FIXTURE_CHECK, "calls the suite's test_embedded_resource, which a calendar lacks")
    assert JUDGE(n14.against(run, entry)) is None


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (("server-initialize:nope", "a reason"), "not a failing check"),
        (("prompts-list:prompts-list", "prompts are not offered"), "another reason than a missing fixture"),
        ((FIXTURE_CHECK, "the suite is wrong"), "test_embedded_resource"),
        ("just a string", "pair of two strings"),
    ],
)
def test_each_wrong_entry_is_told_what_is_wrong(run, entry, said):
    reason = JUDGE(n14.against(run, entry))
    assert reason is not None and said in reason, reason


def test_the_cell_as_given_waits():
    assert n14.against(object(), ...) is ...
