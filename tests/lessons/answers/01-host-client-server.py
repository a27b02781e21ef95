"""What the test-learner answers in notebook 01: the careful person of the consent demo.

Deny the add_note that would carry the conversation to the poisoned notes server, allow the
create_event that follows; then, after the quiz cell (long after the prompts appeared under Run
All), check that the Allow booked the event and that the notes server never got a tools/call.
"""

ANSWERS = {"consent/1": "deny", "consent/2": "allow"}

AFTER = {
    "c16": """
asked = [(p.name, p.decision) for p in consenting.gate.prompts]
assert asked == [("add_note", "deny"), ("create_event", "allow")], asked
assert consenting.replies == ["Booked e3."], consenting.replies
sent = [m["params"]["name"] for m in read_log(POISONED_LOG) if m["method"] == "tools/call"]
assert sent == [], sent
assert "INS-4471" not in POISONED_LOG.read_text()
""",
}
