"""Notebook 14 (is it conformant?): its prediction, its typed task and its quiz.

They live here, not in the notebook, so that no answer sits on the learner's screen before
they answer (predict, then see):

- `ASKS["suite-and-lab10-bug"]`: whether the suite's runs of lab 10's server before and after
  the fix fail different checks; the reveal cell compares the two runs (`failing_ids`) and
  picks the option with `SAME_OR_NOT[bool(difference)]`.
- `TASKS["baseline-a-fixture"]`: the learner writes one baseline entry for a failure of their
  own run that a missing fixture explains.  `against(run, my_entry)` pairs the entry with the
  run it is about (`...` while the cell is as given); the judge checks that the check failed in
  that run, that its message names a fixture of the suite's, and that the reason names it.
"""

from __future__ import annotations

import re
from typing import Any

from mcp_lab.course.conformance_reading import FIXTURE, kind_of
from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

# Options are English values (what the reveal cell compares); the display translates them.
SAME_OR_NOT = (N_("No: both runs fail the same checks"), N_("Yes: some check fails in one run only"))

ASKS = {
    "suite-and-lab10-bug": Ask(
        N_(
            "Lab 10's shipped server loses its events when its process is replaced; the solved one "
            "keeps them. Run the suite against both: do the two runs fail different checks?"
        ),
        options=list(SAME_OR_NOT),
        why=N_(
            "the suite talks to one running process for the whole run, so a bug that shows only "
            "when the process is replaced is outside what its scenarios exercise; lab 10's own check "
            "exists for that requirement."
        ),
    ),
}

_FIXTURE_NAME = re.compile(r"'(test_\w+)'|(test://[\w/.{}-]+)")


def failing_ids(run: Any) -> set[str]:
    """`scenario:check` of every scored check that failed (or warned) in `run`."""
    return {f"{c.scenario}:{c.id}" for c in run.failures()}


def against(run: Any, my_entry: Any) -> Any:
    """The entry paired with the run it is about; `...` (the cell as given) stays `...`."""
    return ... if my_entry is ... else (run, my_entry)


def _judge_entry(value: Any) -> str | None:
    run, entry = value
    if not (isinstance(entry, tuple) and len(entry) == 2 and all(isinstance(x, str) for x in entry)):
        return _('my_entry is a pair of two strings: ("scenario:check-id", "the reason")')
    key, reason = entry
    failed = {f"{c.scenario}:{c.id}": c for c in run.failures()}
    if key not in failed:
        return _("{key} is not a failing check of your run: copy scenario:check-id from its table").format(
            key=repr(key)
        )
    check = failed[key]
    if kind_of(check) != FIXTURE:
        return _("{key} fails for another reason than a missing fixture: {detail}").format(
            key=key, detail=check.detail_text(100)
        )
    match = _FIXTURE_NAME.search(check.detail_text(2000))
    name = next(g for g in match.groups() if g) if match else None
    if name and name.lower() not in reason.lower():
        return _("the reason does not name what is missing; the check calls {name}").format(name=name)
    return None


TASKS = {
    "baseline-a-fixture": Task(
        judge=_judge_entry,
        hint=N_("A row whose message says Unknown tool: 'test_...' is explained by a fixture; name that tool."),
        prompt=N_("Write my_entry for one failure a missing fixture explains, then run both cells."),
        done=N_("a baseline entry a reviewer can check: the failure, and the fixture that explains it."),
    ),
}


QUESTIONS = [
    Question(
        N_(
            "A check fails against your server because the suite's tool `test_simple_text` "
            "does not exist. What does that say about your server?"
        ),
        [
            N_("It breaks the specification somewhere"),
            N_("Only that a suite fixture is missing"),
            N_("The conformance suite itself is at fault"),
            N_("Every server must offer that tool"),
        ],
        1,
        [
            N_("The specification does not ask for any particular tool."),
            N_("Right: baseline it with that reason; a server built for the suite has the fixtures."),
            N_("The suite is fine: it tests servers built to be tested by it."),
            N_("Conformance is about how the protocol is spoken, not which tools a server has."),
        ],
    ),
    Question(
        N_("A baselined check starts passing. What happens on the next run?"),
        [
            N_("Nothing: a baseline only excuses failures"),
            N_("It is reported fixed and the run passes"),
            N_("The run fails until the stale entry goes"),
            N_("The suite deletes the entry by itself"),
        ],
        2,
        [
            N_("A stale entry would hide the next regression of that check, so the run refuses it."),
            N_("It is reported, but the run fails until the baseline is updated."),
            N_("Right: remove the entry, and the check guards against regressions again."),
            N_("Baselines live in your repository; only you change them."),
        ],
    ),
    Question(
        N_(
            "A 2025-11-25 client sends this to a server that speaks only 2026-07-28. What does "
            "the specification's Compatibility Matrix say the answer is?"
        ),
        [N_("404 with -32601"), "400 Bad Request", N_("200 with an InitializeResult"), "405 Method Not Allowed"],
        1,
        [
            N_(
                "That is the rule for a request that passes validation and names an unknown method: "
                "what the suite's check sends, not this request."
            ),
            N_(
                "Right: the request lacks the required headers (Mcp-Method, MCP-Protocol-Version), "
                "so server validation rejects it with 400 before any method is looked up."
            ),
            N_("Only a server that also serves the legacy era answers initialize."),
            N_("405 is about the HTTP method (GET, DELETE), not the JSON-RPC method."),
        ],
        situation=N_(
            "POST /mcp   (no Mcp-Method, no MCP-Protocol-Version header)\n\n"
            '{"jsonrpc": "2.0", "id": 1, "method": "initialize",\n'
            ' "params": {"protocolVersion": "2025-11-25", ...}}'
        ),
    ),
    Question(
        N_("What makes a server conformant to 2026-07-28?"),
        [
            N_("Passing every scenario the installed suite has"),
            N_("Meeting the revision's normative requirements"),
            N_("Passing the scenarios in the server's baseline"),
            N_("Being built on an official SDK"),
        ],
        1,
        [
            N_("The suite is a selection of tests; it can miss a requirement (lab 10's bug) and it keeps growing."),
            N_(
                "Right: the MUSTs of the specification decide; the suite's scored scenarios are "
                "evidence about some of them."
            ),
            N_("A baseline records what a server knows it fails; a baselined failure is a failure."),
            N_("An SDK helps, but conformance is about what the server does on the wire."),
        ],
    ),
]
