"""What the test-learner answers in notebook 04: each challenge's solution, sent through `%%rpc`."""

from mcp_lab.course.challenges import CHALLENGES

ANSWERS = {f"challenge-{n}": c.solution for n, c in CHALLENGES.items()}
