"""What the test-learner answers in notebooks/14-is-it-conformant.ipynb (quizzes: the right answer).

AFTER holds the facts the cells show, checked off screen right after each cell.
"""

from mcp_lab.course.conformance_reading import FIXTURE, NOT_OFFERED, READ_IT
from mcp_lab.course.lessons.n14 import SAME_OR_NOT

# The suite cannot see lab 10's bug: the shipped and the solved server fail the same checks.
TRUTH = {"suite-and-lab10-bug": SAME_OR_NOT[0]}
# The failures the exercise picks from the shipped lab 10 server's run (the pinned suite), in
# row order: a diagnostic tool missing, completion/complete not offered, the multi-round check
# whose message names no fixture, and the suite's test_simple_text.
ANSWERS = {"read-your-failures": [FIXTURE, NOT_OFFERED, READ_IT, FIXTURE], "suite-and-lab10-bug": SAME_OR_NOT[0]}
EDITS = {
    "c14-entry-edit": (
        'my_entry = ("tools-call-embedded-resource:tools-call-embedded-resource",\n'
        '            "calls the suite\'s tool test_embedded_resource, which a calendar does not have")\n'
    ),
}
AFTER = {
    "c14-reqs": "assert len(need['server']) == 37, '37 scored server scenarios: is the pinned suite installed?'",
    "c14-showcase-totals": "assert showcase.ok and t['scenarios'] == len(need['server']) and t['FAILURE'] == 0",
    "c14-reasons": "assert calendar.ok, 'every failure is in the calendar baseline, and no entry is stale'",
    "c14-31-print": (
        "assert check.failed == (suite_like.status_code != 404), 'the reproduction agrees with the suite'\n"
        "assert (legacy_like.status_code, legacy_like.json()['error']['code']) == (404, -32601), 'the callout'"
    ),
    "c14-32-send": (
        "mismatch = status == 400 and '\"code\":-32020' in text\n"
        "assert check.failed == mismatch and not check.scored, 'the reproduction agrees; still pending'"
    ),
    "c14-33-repro": "assert check.failed == (status < 400), 'the reproduction agrees with the suite'",
    "c14-warnings": (
        "assert len(mine.judgement.unexpected) == t['FAILURE'], 'unexpected = the FAILURE checks'\n"
        "assert len(mine.failures()) == t['FAILURE'] + t['WARNING'] and t['WARNING'] > 0"
    ),
    "c14-sort-ex": (
        "from mcp_lab.notebook import interactions\n"
        "sorted_out = interactions.get('read-your-failures').owner\n"
        "assert sorted_out.score == len(sorted_out.solution), 'every failure sorted right'"
    ),
    "c14-blind-reveal": "assert guess.held and not only_one, 'the suite cannot tell the two servers apart'",
    "c14-iserror": "assert failed['isError'] is True, 'a tool failure is a complete result with isError'",
    "9d5f4280": "assert json.loads(page['text'])['id'] == '42', 'the variable is substituted'",
    "c14-loud": "assert quiet == [] and [m['level'] for m in loud] == ['warning', 'error'], 'only what was asked'",
    "39edb129": ("assert changed and changed[0]['_meta']['io.modelcontextprotocol/subscriptionId'] == 'tour-listen'"),
}
