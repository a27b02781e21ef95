"""Notebook 13's typed task judges what came back from a real calendar, not what was typed.

`break-a-header` passes only when the server refused the learner's header with 400 and -32020;
a value the body carries (the call goes through), a header that is not mirrored, and the lower-case
spelling of a mirrored header (which must replace the derived one, not join it) are each shown.
"""

from __future__ import annotations

from mcp_lab.course.lessons import n13, tasks
from mcp_lab.session import serve

JUDGE = tasks()["break-a-header"].judge


def test_a_contradicting_header_is_what_the_task_asks_for(capsys):
    ex = n13.send_with_header({"mcp-name": "delete_everything"})
    assert JUDGE(ex) is None
    assert "-32020" in capsys.readouterr().out
    assert serve.live() == []


def test_a_value_the_body_carries_is_not_yet_breaking_anything():
    reason = JUDGE(n13.send_with_header({"Mcp-Name": "create_event"}))
    assert reason is not None and "accepted" in reason


def test_a_header_that_mirrors_nothing_is_named_as_such():
    reason = JUDGE(n13.send_with_header({"X-Something": "1"}))
    assert reason is not None and "Mcp-Name" in reason


def test_the_cell_as_given_sends_nothing():
    assert n13.send_with_header({"Mcp-Name": ...}) is ...
