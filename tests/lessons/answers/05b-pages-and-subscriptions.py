"""What the test-learner answers in notebook 05b: the cursor typed from page 1, two predictions a
learner could get wrong (a tampered cursor "starts over", an empty cursor "is the end"), and the
facts each cell shows, checked right after it."""

from mcp_lab.course.lessons.n05b import FIRST_PAGE, FOLLOW, STOP

ANSWERS = {
    "tampered-cursor": FIRST_PAGE,
    "empty-string-cursor": STOP,
    "ack-keeps": "Only toolsListChanged",
    "after-restart": 1,
}

TRUTH = {
    "tampered-cursor": "-32602",
    "empty-string-cursor": FOLLOW,
    "ack-keeps": "Only toolsListChanged",
    "after-restart": "0",
}

EDITS = {"pg-follow-edit": 'my_cursor = first["nextCursor"]   # pasted from the answer above'}

AFTER = {
    "pg-first": 'assert len(first["tools"]) == 3 and first["nextCursor"], "a page, and more to come"',
    "pg-loop": """
from mcp_lab.servers.paged import TOOLS
assert [t["name"] for p in pages for t in p["tools"]] == [t["name"] for t in TOOLS], "every tool, once"
assert "nextCursor" not in pages[-1] and all("nextCursor" in p for p in pages[:-1])
""",
    "pg-cache": 'assert len({(p["ttlMs"], p["cacheScope"]) for p in pages}) == 1, "the same hints on each page"',
    "pg-tamper": 'assert bad.code == -32602, "an invalid cursor is invalid params"',
    "pg-empty": 'assert page1["nextCursor"] == "" and len(page2.result["tools"]) == 3, "page 2 after the empty cursor"',
    "sub-ack": """
assert ack.method == "notifications/subscriptions/acknowledged"
assert ack.params["_meta"]["io.modelcontextprotocol/subscriptionId"] == "tools-stream"
""",
    # A cell run again publishes the same list: no change, nothing owed; never another kind.
    "sub-change": """
assert set(lesson.tagged(news)) <= {("notifications/tools/list_changed", "tools-stream")}
""",
    "sub-stale": 'assert stale.code == -32602 and "changed" in stale.message, "a cursor of the old list"',
    "sub-second": """
assert set(lesson.tagged(news)) <= {("notifications/tools/list_changed", "tools-stream"),
                                    ("notifications/resources/updated", "summary-stream")}
""",
    "sub-end": """
assert set(lesson.tagged(news)) <= {("notifications/resources/updated", "summary-stream")}
""",
    "sub-close": """
lines = [json.loads(x) for x in done.stdout.splitlines()]
assert [m.get("method", "result") for m in lines] == [
    "notifications/subscriptions/acknowledged", "result", "notifications/cancelled"]
assert lines[1]["id"] == "until-shutdown" == lines[2]["params"]["requestId"]
""",
}
