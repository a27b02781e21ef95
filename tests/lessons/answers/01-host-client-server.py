"""What the test-learner answers in notebook 01: a wrong guess, a typed call, a careful person.

The prediction is answered wrong on purpose (many learners expect the sentence the note is
about to reach the notes server); the verdict must then say so.  The typed call carries the
title to the notes server.  In the consent demo the learner denies the add_note that would carry
the conversation to the poisoned notes server and allows the create_event that follows; after
the quiz cell (long after the prompts appeared under Run All) the checks read what happened.
AFTER also holds the facts the cells used to assert on screen.
"""

ANSWERS = {"notes-log-holds": "1", "consent/1": "deny", "consent/2": "allow"}

TRUTH = {"notes-log-holds": "0"}

EDITS = {
    "task-1": 'my_call = {"name": "add_note", "arguments": {"text": "Dentist, 10 September 08:30", "about": "e3"}}',
}

AFTER = {
    "c07": 'assert reply == "Booked e3 and left a note.", "the model booked, then left the note about e3"',
    "c09-count": """
assert saw.held is False and saw.actual == 0, saw.verdict()
""",
    "c10": """
from mcp_lab import revisions
methods = {name: [m["method"] for m in log] for name, log in (("cal", cal_log), ("notes", notes_log))}
assert methods["cal"] == ["tools/list", "tools/call"], "one list, one booking"
called = [m["params"]["name"] for m in notes_log if m["method"] == "tools/call"]
assert called == ["add_note", "list_notes"], "only the notes calls"
assert envelopes == {frozenset(revisions.meta())}, "no conversation, no turn id in any envelope"
""",
    "c12": 'assert not [s for s in said if s in cal_text + notes_text], "the conversation stays in the host"',
    "c12-result": 'assert "Dentist" not in notes_text, "the notes server never saw the calendar\'s result"',
    "c14": 'assert shared == {"e3"}, "exactly one value crossed, as an argument the host sent"',
    "task-2": """
from mcp_lab.course.lessons.n01 import judge_note_that_names_it
assert judge_note_that_names_it(my_call) is None
assert "dentist" in judge_note_that_names_it({"name": "add_note", "arguments": {"text": "x", "about": "e3"}})
""",
    "c16": """
asked = [(p.name, p.decision) for p in consenting.gate.prompts]
assert asked == [("add_note", "deny"), ("create_event", "allow")], asked
assert consenting.replies == ["Booked e3."], consenting.replies
sent = [m["params"]["name"] for m in read_log(POISONED_LOG) if m["method"] == "tools/call"]
assert sent == [], sent
assert "INS-4471" not in POISONED_LOG.read_text()
""",
}
