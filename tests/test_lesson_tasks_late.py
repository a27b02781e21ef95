"""The typed tasks of notebooks 16 and 17 judge what a learner types, and refuse what does not work.

The harness (tests/test_rerun.py) types the right answer; here each judge is shown refusing the
wrong ones a learner is likely to type first, with a sentence that says what is still wrong.
"""

from __future__ import annotations

import sys

from mcp_lab.course.lessons import tasks
from mcp_lab.wire import revisions


def test_16_the_one_request_must_be_served_at_debug():
    judge = tasks()["one-request-at-debug"].judge
    right = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": revisions.meta()}}
    right["params"]["_meta"][revisions.LOG_LEVEL_KEY] = "debug"
    assert judge(right) is None
    old = {"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "debug"}}
    assert "tools/list" in judge(old)
    bare = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    assert "-32602" in judge(bare), "the calendar's own handler refuses a request without _meta"
    no_level = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": revisions.meta()}}
    assert revisions.LOG_LEVEL_KEY in judge(no_level)
    bad_level = {**right, "params": {"_meta": {**revisions.meta(), revisions.LOG_LEVEL_KEY: "loud"}}}
    assert "-32602" in judge(bad_level)
    assert "dict" in judge(...) and "dict" in judge('{"method": "tools/list"}')


def test_17_a_host_entry_must_launch_where_a_host_launches_it():
    judge = tasks()["host-entry-of-your-own"].judge
    assert judge({"command": "python", "args": ["calendar_server.py"]}) is not None, "the entry people write first"
    assert "list" in judge({"command": sys.executable, "args": "calendar_server.py"})
    assert "dict" in judge(...)
    assert judge({"command": sys.executable, "args": ["-m", "mcp_lab.servers.calendar"]}) is None
