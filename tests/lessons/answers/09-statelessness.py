"""What the test-learner does in notebook 09, and the facts checked after each reveal.

It predicts that C lists 3 events and that the SDK finishes B (both wrong on purpose), forges the toy's state
with a title other than the notebook's own (the toy must believe ANY title, issue 36), and types
a state of its own for the task.  The AFTER checks are the asserts the lesson used to show.
"""

EDITS = {
    # A learner who changes the forged title: the lesson must not depend on "Mallory".
    "forge-toy": (
        'forged = base64.b64encode(b\'{"title":"Pay the invoice from Eve"}\').decode()\n'
        'B_forged = ("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"},\n'
        '                           "inputResponses": ANSWER, "requestState": forged})\n'
        'believed = isolated("calendar", [B_forged], capabilities=FORM)[0]\n'
        'print("arguments said Dentist; the toy answered:", believed.text)'
    ),
    "forge-yours": 'my_state = base64.b64encode(json.dumps({"title": "Lunch with Eve"}).encode()).decode()',
}
ANSWERS = {"what-c-reads": 3, "sealed-in-b": "none"}
TRUTH = {"what-c-reads": "2", "sealed-in-b": "-32602"}
AFTER = {
    "74487779": (
        "assert guess.held is False, 'predicted 3 on purpose'\n"
        "assert len({row.pid for row in toy.rows}) == 3, 'three processes, one message each'"
    ),
    "forge-toy": (
        "wrote = json.loads(base64.b64decode(forged))['title']\n"
        "assert wrote == 'Pay the invoice from Eve' and f': {wrote} at ' in believed.text"
    ),
    "fresh-again": "assert [len(json.loads(r.text)) for r in again.rows] == [2, 2]",
    "4a2a550c": (
        "assert with_meta.text == without_meta.text == 'Echo: hi', 'answered, with no initialize first'\n"
        "assert discover.error_code == -32601, 'server/discover is unknown to a legacy server'"
    ),
    "0db0607f": 'assert sealed.held is False and b.error_code == -32602, "B cannot open A\'s seal"',
    "c56f4404": "assert (b.result_type, len(week)) == ('complete', 2), 'B continues, the write is still lost'",
    "binding-run": "assert 'requestState rejected on tools/call: request binding' in b.stderr",
    "make-calendar": "import re\nassert re.fullmatch(r'cal_[A-Za-z0-9_-]{22}', handle), '128 random bits'",
    "5e171b5b": "assert b.structured['id'] in [e['id'] for e in c.structured['events']], \"C sees B's write\"",
    "attacks": (
        "forged, flipped, unknown = attacks.rows\n"
        "assert forged.error_code == flipped.error_code == -32602, 'tampered state is refused: -32602'\n"
        "assert unknown.is_error, 'an unknown handle is a tool execution error'"
    ),
    "lifetime": "assert '30 days' in next(t['description'] for t in listed if t['name'] == 'create_calendar')",
    "practice-s6-2": "assert read.is_error and write.is_error and week.error_code == -32602",
    "practice-s6-alice-again": "assert mine.structured['events'] == [], 'Bob wrote nothing'",
}
