"""What the test-learner answers in notebook 04: each challenge's solution, sent through `%%rpc`,
and a prediction a learner could get wrong (JSON allows newlines, so "one answer")."""

from mcp_lab.course.challenges import CHALLENGES

ANSWERS = {f"challenge-{n}": c.solution for n, c in CHALLENGES.items()}
ANSWERS["lines-on-stdio"] = 1
TRUTH = {"lines-on-stdio": "3"}
AFTER = {
    # Each of the three lines earned a parse error without an id: the server could read none
    # (an error response's id is optional in 2026-07-28's schema: JSONRPCErrorResponse).
    "reveal-lines": "assert [(m.get('id'), m['error']['code']) for m in as_given.all] == [(None, -32700)] * 3",
}
