"""What the package's HTML renderers put on a page: a traceback in a trace table is one row,
pass marks are words (no emoji font needed), and text wraps between words, never mid-word."""

from __future__ import annotations

import re

from mcp_lab.course._check import CheckReport
from mcp_lab.wire.trace import Trace
from mcp_lab.wire.trace_views import tracebacks

TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "server.py", line 10, in handle',
    "    book(room)",
    "KeyError: 'lab02-rooms'",
    "",
    "During handling of the above exception, another exception occurred:",
    "",
    "Traceback (most recent call last):",
    '  File "server.py", line 12, in handle',
    "RuntimeError: no such room",
]


def a_trace_with_a_traceback() -> Trace:
    trace = Trace()
    trace.add("stderr", "starting")
    for line in TRACEBACK:
        trace.add("stderr", line)
    trace.add("stderr", "still serving")
    return trace


def test_a_traceback_in_a_trace_table_is_one_row():
    trace = a_trace_with_a_traceback()
    assert tracebacks(list(trace)) == [(1, 1 + len(TRACEBACK))], "the chained traceback is one run"
    page = trace._repr_html_()
    rows = re.findall(r"<tr style=", page)
    assert len(rows) == 3, f"starting, the traceback, still serving: {len(rows)} rows"
    assert "traceback (10 lines)" in page and "<summary>" in page
    assert page.index("no such room") < page.index("serving")


def test_lines_that_only_look_like_a_traceback_stay_rows():
    trace = Trace()
    trace.add("stderr", "a line")
    trace.add("stderr", "  indented, but no traceback before it")
    assert tracebacks(list(trace)) == [] and len(re.findall(r"<tr style=", trace._repr_html_())) == 2


def test_pass_marks_are_words_not_emoji():
    page = CheckReport(server="lab", passed=["request 1 answered"])._repr_html_()
    assert "&#x2705;" not in page and not re.search(r"[\U0001F300-\U0001FAFF\u2705\u2714]", page)
    assert ">ok</b> request 1 answered" in page


def test_text_the_package_renders_wraps_between_words():
    from mcp_lab.notebook import magics, views
    from mcp_lab.notebook.consent import ConsentPrompt
    from mcp_lab.quiz import Question

    pages = [
        magics.render_sent('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')[1],
        views.folded(["a long error message"], "errors")._repr_html_(),
        ConsentPrompt({"name": "t", "description": "d"}, {"a": 1}, server="s")._html(),
    ]
    q = Question("?", ["a", "b"], 0, ["x", "y"], situation="a scene")
    q.widget
    pages.append(q._ui["box"].children[0].value)
    for page in pages:
        assert "break-all" not in page, page[:200]
        assert "overflow-wrap:break-word" in page, page[:200]
