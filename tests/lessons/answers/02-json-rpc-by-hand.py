"""What the test-learner answers in notebook 02: both predictions right, the primitives right.

The quiz defaults to the right answers.
"""

from mcp_lab.course.exercises import PRIMITIVE_CASES

ANSWERS = {
    "version-mismatch": "-32022",
    "missing-capability": "-32021",
    "primitives": {c.capability: (c.primitive, c.decider) for c in PRIMITIVE_CASES},
}

AFTER = {
    # Once predicted, each verdict says the prediction held.
    "quiz1": """
assert guess.held and need.held, (guess.verdict(), need.verdict())
""",
}
