"""The helpers notebooks 14 to 18 call in one line, each shown doing its job on made-up input.

- a ConformanceResult's HTML opens with the scored failures that fail the run, and folds the
  baselined ones, the unscored scenarios and the passing checks; INFO is counted;
- `conformance_reading.kind_of` sorts failures by their message; its exercise keeps its answers;
- `dating.span` dates a set of features, and says when none fits;
- `host_config.try_entry` answers a broken entry with one line, never a traceback;
- `cassette.from_lines` reads a pasted exchange (continuation lines included) or names the bad line;
- `Trace.notifications` returns the params of the notifications received since an event;
- the diff table keeps its right-hand columns on the page (fixed widths, wrapped values).
"""

from __future__ import annotations

import re

import pytest

from mcp_lab.conformance.baseline import Judgement
from mcp_lab.conformance.results import Check, ConformanceResult
from mcp_lab.course import conformance_reading, dating, host_config
from mcp_lab.session import cassette
from mcp_lab.wire import jsonrpc
from mcp_lab.wire.trace import Trace


def _result() -> ConformanceResult:
    checks = [
        Check("tasks-lifecycle", "tasks-sync", "TasksSync", "FAILURE", error="no tasks", scored=False),
        Check(
            "tools-call-simple-text",
            "tools-call-simple-text",
            "T",
            "FAILURE",
            error="Failed: Unknown tool: 'test_simple_text'",
            baselined="a fixture of the suite's",
        ),
        Check("server-stateless", "sep-2575-bad", "Bad", "FAILURE", error="x" * 400),
        Check("ping", "ping", "Ping", "SUCCESS"),
        Check("server-stateless", "lifecycle-skipped", "Info", "INFO"),
    ]
    judgement = Judgement(unexpected=["sep-2575-bad"], stale=[], expected=["tools-call-simple-text"])
    return ConformanceResult(
        "demo", "2026-07-28", "server", checks, judgement, not_scored={"tasks-lifecycle": "extension"}
    )


def test_conformance_html_shows_what_fails_the_run_first_and_folds_the_rest():
    page = _result().html()
    opened, *folds = page.split("<details><summary>")
    assert "sep-2575-bad" in opened and "tasks-sync" not in opened and "tools-call-simple-text" not in opened
    summaries = [f.split("</summary>")[0] for f in folds if not f.startswith("x")]
    assert any(s.startswith("1 scored failures the baseline expects") for s in summaries), summaries
    assert any("not scored (extension): 1 failing; they do not count" in s for s in summaries), summaries
    assert "table-layout:fixed" in page and "overflow-wrap:anywhere" in page
    assert "1 informational" in _result().summary()


def test_a_long_failure_detail_is_cut_with_the_whole_text_one_click_away():
    page = _result().html()
    assert re.search(r"<details><summary>x{299}…</summary>x{400}</details>", page)


def test_failures_are_sorted_by_their_message():
    def failing(error):
        return Check("s", "c", "n", "FAILURE", error=error)

    assert (
        conformance_reading.kind_of(failing("Failed: Unknown tool: 'test_image_content'"))
        == conformance_reading.FIXTURE
    )
    assert (
        conformance_reading.kind_of(failing("Not testable: needs the diagnostic tool x")) == conformance_reading.FIXTURE
    )
    assert (
        conformance_reading.kind_of(failing("Failed: Method not found: prompts/get")) == conformance_reading.NOT_OFFERED
    )
    assert conformance_reading.kind_of(failing("Expected code -32602, got -32601")) == conformance_reading.NOT_OFFERED
    assert conformance_reading.kind_of(failing("Expected HTTP 403, got 200")) == conformance_reading.READ_IT


def test_the_failure_exercise_picks_one_of_each_kind_and_keeps_its_answers():
    pytest.importorskip("ipywidgets")
    checks = [
        Check("a", "a1", "n", "FAILURE", error="Failed: Unknown tool: 'test_simple_text'"),
        Check("b", "b1", "n", "FAILURE", error="Failed: Method not found: completion/complete"),
        Check("c", "c1", "n", "FAILURE", error="Expected InputRequiredResult"),
    ]
    result = ConformanceResult("mine", "2026-07-28", "server", checks, Judgement(["a1", "b1", "c1"], [], []))
    exercise = conformance_reading.exercise(result, key="test-sort")
    assert [v[0] for v in exercise.solution.values()] == conformance_reading.KINDS
    assert not exercise.checked and "right" not in exercise._feedback.value
    empty = ConformanceResult("none", "2026-07-28", "server", [], Judgement([], [], []))
    assert conformance_reading.exercise(empty).startswith("No scored check failed")


def test_dating_a_set_of_features():
    assert dating.span({"initialize handshake", "Streamable HTTP"}) == ("2025-03-26", "2025-11-25")
    assert dating.span({"server/discover", "tools/call"}) == ("2026-07-28", "2026-07-28")
    assert dating.span({"JSON-RPC batches", "elicitation/create sent by the server"}) is None
    with pytest.raises(ValueError, match="not in the registry"):
        dating.span({"telepathy"})
    assert all(f in dating.FEATURES for _, feats in dating.ARTICLES.values() for f in feats)


def test_a_broken_host_entry_gets_one_line():
    ok, line = host_config.try_entry("x", {"command": "python calendar_server.py"})
    assert not ok and "\n" not in line and "use absolute paths" in line
    assert host_config.try_entry("x", {"command": "python", "args": "server.py"}) == (
        False,
        'x: "args" is a list of strings, never one shell string',
    )
    assert not host_config.try_entry("x", ["python"])[0]


def test_a_pasted_exchange_becomes_a_trace():
    pasted = """
-> {"jsonrpc":"2.0","id":1,"method":"tools/list",
     "params":{}}
<- {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}
"""
    trace = cassette.from_lines(pasted)
    assert [e.kind for e in trace] == ["send", "recv"]
    assert trace[0].message.method == "tools/list"
    with pytest.raises(cassette.CassetteError, match="line 1: start it with ->"):
        cassette.from_lines('{"jsonrpc":"2.0","id":1,"method":"x"}')
    with pytest.raises(cassette.CassetteError, match="line 2: not a JSON-RPC message"):
        cassette.from_lines('-> {"jsonrpc":"2.0","id":1,"method":"x"}\n<- not json')


def test_trace_notifications_since_an_event():
    trace = Trace()
    for line in (
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}',
        '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}',
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}',
    ):
        trace.add("recv", line, jsonrpc.parse(line), peer="server")
    assert trace.notifications("notifications/progress") == [
        {"progressToken": "t", "progress": 1},
        {"progressToken": "t", "progress": 2},
    ]
    assert trace.notifications("notifications/progress", since=1) == [{"progressToken": "t", "progress": 2}]


def test_the_diff_table_fits_the_page():
    from mcp_lab.session.diff import diff

    left = cassette.from_lines(
        '-> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}\n'
        '<- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"' + "a" * 200 + '","inputSchema":{"type":"object"}}]}}'
    )
    right = cassette.from_lines(
        '-> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}\n'
        '<- {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}'
    )
    page = diff(left, right)._repr_html_()
    assert page.count("table-layout:fixed") == 2 and "overflow-wrap:anywhere" in page
