"""What the test-learner answers in notebook 06, and the facts its cells are checked against.

The first prediction is answered right, the second wrong (a learner expecting the full catalogue):
the verdict must still be computed and revealed.  The typed task is typed into its cell.
"""

ANSWERS = {
    "reference-discover": "-32601",
    "bare-tools-list": 13,
}

TRUTH = {
    "reference-discover": "-32601",
    "bare-tools-list": 12,
}

EDITS = {
    "read-era-mine": 'my_eras = {"A": "modern", "B": "legacy", "C": "legacy", "D": "modern", "E": "legacy"}',
}

# The facts each cell shows, checked right after it (off the learner's screen).
AFTER = {
    "first-verdict": """
assert came_back["error"]["code"] == jsonrpc.METHOD_NOT_FOUND, "the reference server lacks server/discover"
assert came_back["error"]["code"] not in jsonrpc.MODERN_ERROR_CODES, "not a modern error, so: legacy, fall back"
assert first_answer.held, first_answer.verdict()
""",
    "asked-answered": """
assert (asked, answered) == (LEGACY, LEGACY), (asked, answered)
""",
    "practice-instructions-3": """
assert discovered.code == jsonrpc.METHOD_NOT_FOUND, discovered
assert greeted.result["instructions"] == ref.instructions, "the instructions come with initialize"
""",
    "db11c375": """
assert {k: len(v[k]) for k, v in listed.items()} == {"tools": 13, "resources": 7, "prompts": 4}, "as measured"
""",
    "bare-missing": """
assert after_handshake - no_handshake == {"simulate-research-query"}, "served, one tool short"
assert bare_count.held is False, "the test-learner predicted the full catalogue"
""",
    "practice-bare-3": """
assert after - before == {"simulate-research-query"}, "the notification adds exactly one tool"
""",
    "per-connection-run": """
assert with_form == with_nothing, "a modern list does not depend on the connection"
""",
    "b479e798": """
assert (cal.era, cal.version) == ("modern", LATEST), "one discover line, a modern verdict"
assert [json.loads(line)["method"] for line in cal.trace.sent] == ["server/discover"], cal.trace.sent
""",
    "64cb74cf": """
assert (sdk.era, sdk.version) == ("modern", LATEST), "the SDK server answers the discover too"
""",
    "read-era-check": """
from mcp_lab.course import lessons
assert lessons._SOLVED.get("read-the-era"), "the typed eras were judged right"
""",
    "future-sent": """
later_sent = [json.loads(line)["method"] for line in later.trace.sent]
assert later.version is None and later_sent == ["server/discover"], "no mutual version: stop"
""",
    "future-sdk-read": """
assert [m.get("method") for m in run.received][:2] == ["server/discover", "initialize"], (
    "mcp 2.3 sends initialize after this DiscoverResult; a newer SDK may not")
""",
}
