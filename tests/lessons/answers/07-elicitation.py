"""What the test-learner answers in notebook 07 (each key is an interaction the notebook registers),
and the facts its cells are checked against, right after them (off the learner's screen).

The prediction is answered wrong (a learner who expects the server to ask for the roots anyway):
the verdict must still be computed from the exchange and revealed.
"""

ANSWERS = {
    "dentist": {"startsAt": "2026-09-10T08:30:00Z"},
    "decline": "decline",
    "booking": {"seating": "terrace", "partySize": 4, "highChair": True},
    "secret": "accept",
    "url-consent": "accept",
    "no-roots": "input_required",
    "traversal-uri": "-32002",  # a plausible wrong guess: the retired code
    "brief": ["file:///projects/learner/projects/calendar"],  # the roots form: share one root
    "brief/2": "A calendar server the course's lessons drive.",  # the sampling form: the reply
}

TRUTH = {
    "no-roots": "-32021",
    "traversal-uri": "-32602",
}

EDITS = {
    "url-bind": (
        "def my_check(elicited_for, session_user, url_user):\n"
        "    return session_user is not None and session_user == elicited_for"
    ),
    "own-retry": (
        'my_retry = {**DENTIST, "requestState": first.result["requestState"], "inputResponses": '
        '{"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}}}'
    ),
}

AFTER = {
    "guards-tools": 'assert bad["isError"] is True, "a bad argument is a tool execution error"',
    "url-bind-check": """
from mcp_lab.course.lessons.n07_security import judge_connect_check
assert judge_connect_check(lambda elicited_for, session_user, url_user: url_user == elicited_for)
""",
    "first-answer": """
assert first.result["resultType"] == "input_required", "no start time: the calendar must ask"
assert first.result["inputRequests"]["when"]["method"] == "elicitation/create", first.result
""",
    "bare-call": """
assert refused.code == -32021 and refused.data == {"requiredCapabilities": FORM}, "-32021 names what to declare"
""",
    "retry-state": """
assert final.id != interim.id, "the retry is a new request, with a new id"
assert retry["requestState"] == interim.result["requestState"], "echoed byte for byte"
""",
    "own-retry-check": """
from mcp_lab.course import lessons
assert lessons._SOLVED.get("finish-on-a-fresh-process"), "the typed retry was judged right"
""",
    "decline-read": """
assert retry["inputResponses"] == {"when": {"action": "decline"}} and final.result["isError"], retry
""",
    "binding-stderr": """
assert moved.code == -32602, "a state minted for Chez Mia is refused for another restaurant"
""",
    "secret-sent": """
assert "apiKey" not in secret_form.result.get("content", {}), "a secret never leaves the form"
""",
    "2368e80e": """
assert link.result is not None and "content" not in link.result, "in URL mode Accept is consent only: no content"
""",
    "url-caps": """
import mcp_lab
seen = []
for mode in ({}, {"url": {}}):
    with mcp_lab.connect("calendar", capabilities={"elicitation": mode}) as c:
        r = c.request("tools/call", DENTIST)
    seen.append(getattr(r, "code", None) or r.result_type)
assert seen == ["input_required", -32021], f"{{}} means form only; url alone is not form: {seen}"
""",
    "sampling-verdict": """
assert bare_brief.data == {"requiredCapabilities": {"roots": {}}}, "-32021 names the roots capability"
assert no_roots.held is False, "the test-learner predicted input_required"
""",
    "sampling-read": """
second = json.loads(showcase.trace.sent_line(brief.exchange.answers[1].id))["params"]
assert "requestState" not in second, "round 1 gave no requestState: the retry MUST NOT add one"
""",
}
