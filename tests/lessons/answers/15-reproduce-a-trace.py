"""What the test-learner answers in notebooks/15-reproduce-a-trace.ipynb (quizzes: the right answer).

AFTER holds the facts the cells show, checked off screen right after each cell.  The check after
`c15-names-reveal` (and the TRUTH of `replayed-tool-name`) reads the bytes the replay wrote: it
fails while mcp_lab/session/replay.py remaps a tool name learned from another server's tools/list
(issue 38), and passes once a replay sends exactly the recorded requests.
"""

from mcp_lab.course.lessons.n15 import NAMES

TRUTH = {"replayed-tool-name": NAMES[0], "my-replay": "3"}
# The SDK calendar words tools/list, the call's result and the week differently: all three change.
ANSWERS = {"replayed-tool-name": NAMES[0], "my-replay": 3}
EDITS = {
    "c15-player-edit": (
        'my_request = ("tools/call", {"name": "create_event", "arguments": {"title": "Not recorded"}})\n'
    ),
}
AFTER = {
    "c15-05b": (
        "assert loaded.text() == verdict.trace.text() and loaded.mermaid() == verdict.trace.mermaid(), "
        "'the loaded trace renders exactly as the one recorded'"
    ),
    "c15-07": "assert same.same, 'replaying the calendar against itself changes nothing'",
    "c15-names-reveal": (
        "assert n15.tool_calls(there) == n15.tool_calls(saved)[: len(n15.tool_calls(there))], "
        "'the replay wrote the recorded tool names'\n"
        "assert n15.tool_calls(there), 'the recorded tools/call was sent'\n"
        "assert names.held is True, names.verdict()"
    ),
    "c15-15b": "assert again.same, 'the pinned reference server still answers as recorded'",
    "c15-17b": "assert counted == [13, 12], '13 tools once a session is open, 12 without one'",
    "c15-19b": "assert codes == [-32601, -32602], 'initialize is unknown here; a call without _meta is refused'",
    "c15-21b": (
        "assert primitives.same and abc.same, 'both recordings replay the same against the calendar'\n"
        "assert len(week) == 2, 'C sees only the two seed events'"
    ),
    "c15-27": "assert unknown.code == -32601, 'a method the recording lacks is unknown to the player'",
    "c15-player-run": "assert answer.code == -32602, 'a known method with other params: -32602'",
    "c15-mine-replay": "assert guess.held is True and theirs.counts['changed'] == 3, 'the diff marks three changed'",
}
