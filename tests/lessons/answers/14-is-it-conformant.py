"""What the test-learner answers in notebooks/14-is-it-conformant.ipynb (quizzes: the right answer)."""

from mcp_lab.course.conformance_reading import FIXTURE, NOT_OFFERED, READ_IT

# The failures the exercise picks from the shipped lab 10 server's run (the pinned suite), in
# row order: a diagnostic tool missing, completion/complete not offered, the multi-round check
# whose message names no fixture, and the suite's test_simple_text.
ANSWERS = {"read-your-failures": [FIXTURE, NOT_OFFERED, READ_IT, FIXTURE]}
AFTER = {
    "c14-sort-ex": (
        "from mcp_lab.notebook import interactions\n"
        "sorted_out = interactions.get('read-your-failures').owner\n"
        "assert sorted_out.score == len(sorted_out.solution), 'every failure sorted right'"
    ),
}
