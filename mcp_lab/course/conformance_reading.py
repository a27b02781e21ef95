"""Reading a conformance run of your own server: which failures say something about it.

    lab = conformance.run([sys.executable, "calendar_server.py"], expected_failures=None)
    conformance_reading.exercise(lab)      # as a cell's last line: the learner sorts the failures

Notebook 14's exercise.  A failing check of the official suite is one of three things, and the
check's own message usually says which:

* the suite's own fixture is missing: the scenario calls a tool, resource or prompt that only a
  server built to be tested by the suite has (`test_simple_text`, `test://static-text`), or a
  diagnostic tool it needs to exercise a rule ("Not testable: ... diagnostic tool");
* a feature the server does not offer: the scenario calls a method of a capability the server
  never declared (`resources/read` on a tools-only server), and -32601 is the right answer;
* the message alone does not say: read the check's spec link and its scenario; real defects
  are found here (and so are fixtures whose message does not name them).

`kind_of(check)` sorts one check by its message; `exercise(result)` picks a few failing checks of
a run, one of each kind it finds, and returns a `Choice` the learner fills in.  The answers stay
inside the Choice until the learner presses Check (nothing is printed before).
"""

from __future__ import annotations

import re

from mcp_lab.notebook.choice import Choice

__all__ = ["FIXTURE", "NOT_OFFERED", "READ_IT", "KINDS", "kind_of", "exercise"]

FIXTURE = "a fixture of the suite's is missing"
NOT_OFFERED = "a feature the server does not offer"
READ_IT = "the message alone does not say"
KINDS = [FIXTURE, NOT_OFFERED, READ_IT]

_FIXTURE = re.compile(r"Unknown (tool|prompt): 'test_|diagnostic tool|test://", re.I)
_NOT_OFFERED = re.compile(r"Method not found|got -32601|-32601 \(Method not found\)", re.I)

WHY = {
    FIXTURE: "the check calls something only a server built for the suite has; the specification "
    "asks for no particular tool, resource or prompt, so this says nothing about the protocol.",
    NOT_OFFERED: "the server never declared this capability, so -32601 (method not found) is the "
    "right answer; the check cannot know the feature is absent on purpose.",
    READ_IT: "the message names neither a fixture of the suite's nor a feature the server lacks: "
    "open the check's spec link and the scenario's description before you call it a defect or "
    "not; this is where real defects are found.",
}


def kind_of(check) -> str:
    """FIXTURE, NOT_OFFERED or READ_IT for one failing check, from its message."""
    text = check.detail_text(2000)
    if _FIXTURE.search(text):
        return FIXTURE
    if _NOT_OFFERED.search(text):
        return NOT_OFFERED
    return READ_IT


def _picks(result, limit: int) -> list:
    """Up to `limit` failing scored checks: the first of each kind, then the next of each."""
    by_kind: dict[str, list] = {k: [] for k in KINDS}
    seen_messages = set()
    for c in result.failures():
        message = c.detail_text(60)
        if message in seen_messages:
            continue
        seen_messages.add(message)
        by_kind[kind_of(c)].append(c)
    picked = []
    for depth in range(limit):
        for kind in KINDS:
            if len(picked) < limit and depth < len(by_kind[kind]):
                picked.append(by_kind[kind][depth])
    return picked


def exercise(result, *, key: str = "read-your-failures", limit: int = 4) -> Choice | str:
    """A Choice over a few failing checks of `result` (or a one-line note if none failed)."""
    picked = _picks(result, limit)
    if not picked:
        return "No scored check failed on this server: nothing to sort (try a server of your own)."
    rows = {f"{c.scenario}: {c.detail_text(110)}": (kind_of(c), WHY[kind_of(c)]) for c in picked}
    return Choice(key, rows, {"this failure is": KINDS}, title="What does each failure say about the server?")
