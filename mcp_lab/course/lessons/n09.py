"""Notebook 09's words: its prediction, its typed task, its self-check questions.

They live here, not in the notebook, so that no answer sits on the learner's screen before they
answer (predict, then see).

The typed task, `forge-your-own`: the learner writes a `requestState` of their own (base64 of a
JSON object with a title) and the judge sends it to the toy calendar as process B would, in a
fresh process, with the arguments still saying "Dentist".  It passes when the toy created the
title the learner's state carried, whatever that title is: the lesson is that the toy believes
any state it is sent, not one particular forgery.
"""

from __future__ import annotations

import base64
import binascii
import json

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

ASKS = {
    "what-c-reads": Ask(
        N_(
            'Process B answers "Created e3: Dentist ..." (its calendar already held e1 and e2). '
            "How many events will process C, a fresh process that reads calendar://week, list?"
        ),
        kind=int,
        why=N_(
            "B wrote the event into its own memory (a module-level list) and exited with it; C is "
            "a fresh process, which starts from the two seed events, e1 and e2."
        ),
    ),
    "sealed-in-b": Ask(
        N_(
            "The SDK seals A's requestState. Process B, a fresh SDK process, gets it back with the "
            "person's answer. What does B answer? Type the JSON-RPC error code, or none if B finishes "
            "the call."
        ),
        kind=str,
        why=N_(
            "by default the SDK generates its sealing key when the process starts: B's key is not "
            "A's, so B cannot open the state and refuses it as an invalid parameter: `-32602 Invalid or "
            "expired requestState`. It fails safe."
        ),
    ),
}

# What the notebook's retry says in its arguments; a forged state has to carry something else.
ARGUMENT_TITLE = "Dentist"
_ANSWER = {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}}
_FORM = {"elicitation": {"form": {}}}


def forged_title(state: object) -> tuple[str | None, str | None]:
    """(the title a toy `requestState` carries, None) or (None, why it is not one)."""
    if not isinstance(state, str):
        return None, _("`my_state` is {kind}; it must be a string, the base64 text of a JSON object.").format(
            kind=type(state).__name__
        )
    try:
        decoded = json.loads(base64.b64decode(state, validate=True))
    except (binascii.Error, ValueError):
        return None, _("the toy cannot read that: a requestState here is the base64 text of a JSON object.")
    title = decoded.get("title") if isinstance(decoded, dict) else None
    if not isinstance(title, str) or not title.strip():
        return None, _('your state decodes to {decoded}: give it a "title" (a non-empty string).').format(
            decoded=repr(decoded)
        )
    if title.strip() == ARGUMENT_TITLE:
        return None, _('your state says "{title}", as the arguments do: write a title nobody asked for.').format(
            title=ARGUMENT_TITLE
        )
    return title, None


def judge_forged_state(state: object) -> str | None:
    """Send the learner's state to a fresh toy process as B's retry; None when the toy believed it."""
    from mcp_lab.session.isolate import isolated

    title, problem = forged_title(state)
    if problem:
        return problem
    retry = {"name": "create_event", "arguments": {"title": ARGUMENT_TITLE}, "inputResponses": _ANSWER}
    row = isolated("calendar", [("tools/call", {**retry, "requestState": state})], capabilities=_FORM)[0]
    print(_("arguments said Dentist; the toy answered:"), row.text or row.summary)
    if f": {title} at " not in (row.text or ""):
        return _("the toy did not create {title} (it answered {answer}).").format(
            title=repr(title), answer=repr(row.text or row.summary)
        )
    return None


TASKS = {
    "forge-your-own": Task(
        judge=judge_forged_state,
        hint=N_(
            "encode a JSON object with a title of your own, as `forged` does: "
            'base64.b64encode(json.dumps({"title": "..."}).encode()).decode()'
        ),
        prompt=N_("Put a requestState of your own in `my_state`, run that cell, then this one."),
        done=N_("the toy created what your state said, not what the arguments asked for."),
    ),
}


QUESTIONS = [
    Question(
        N_("What made that possible?"),
        [
            N_("The server kept a session for the client"),
            N_("The state rode in `requestState`"),
            N_("The processes shared their memory"),
            N_("The client rebuilt it from `requestState`"),
        ],
        1,
        [
            N_("There are no sessions in 2026-07-28."),
            N_("Right: the state a multi round-trip call needs rides in the message itself, echoed by the client."),
            N_("Each process was fresh; nothing was shared but what the messages carried."),
            N_("The client only echoes `requestState`; it is opaque to the client, and only the server reads it."),
        ],
        situation=N_(
            "process A: <- tools/call create_event            -> input_required, "
            "requestState S\n"
            'process B: <- tools/call create_event + answers + S -> "Created e3"'
        ),
    ),
    Question(
        N_("Why did process C not see e3?"),
        [
            N_("The write in B failed"),
            N_("B's events died with process B"),
            N_("resources/read is cached"),
            N_("C needs the session id of B"),
        ],
        1,
        [
            N_("B's answer said 'Created e3': the write happened, in B's memory."),
            N_("Right: a module-level list is connection state in disguise."),
            N_("Nothing was cached between processes; each C is a fresh process."),
            N_("There is no session id in 2026-07-28, and nothing would carry B's memory to C."),
        ],
        situation=N_(
            'process B: tools/call create_event -> "Created e3"\nprocess C: resources/read calendar://week -> e1, e2'
        ),
    ),
    Question(
        N_("What does the specification *require* of state that spans requests?"),
        [
            N_("Sessions, resumed with an id that the server hands out when the client connects"),
            N_("An explicit identifier the client passes on each request"),
            N_("A SQLite database"),
            N_("One server process per client"),
        ],
        1,
        [
            N_("Sessions were removed on purpose; they tie a client to one process."),
            N_(
                "Right: that is the MUST (basic, Statelessness). A handle argument is the tools "
                "page's non-normative way to meet it."
            ),
            N_("Storage is not prescribed; SQLite is this course's choice."),
            N_("A client may restart a stdio process at any time, and send unrelated requests down the same one."),
        ],
    ),
    Question(
        N_("What should the server do?"),
        [
            N_("Refuse it: the integrity check fails"),
            N_("Accept it: the client owns the state"),
            N_("Ask process A, which still holds it"),
            N_("Open a session to recover the state"),
        ],
        0,
        [
            N_(
                "Right: `requestState` is attacker-controlled input; the HMAC no longer matches, "
                "so the server MUST reject it."
            ),
            N_("The client only carries it; the server must not trust what comes back unchecked."),
            N_("Process A may be gone; nothing in the design lets processes ask each other."),
            N_("There are no sessions to open; and a session would not make tampered state valid."),
        ],
        situation=N_(
            '<- input_required, requestState "eyJ3aGVuIjpudWxsfQ.9b2e..."\n'
            '-> retry whose requestState was edited: "eyJ3aGVuIjoiMjAyNiJ9.9b2e..."'
        ),
    ),
    Question(
        N_("A server with no authentication hands out calendar handles. What protects a calendar?"),
        [
            N_("Nothing can"),
            N_("The handle itself: long, random, and with a bounded lifetime"),
            N_("The server's check of who the caller is, run on every call that names it"),
            N_("The signed `requestState`"),
        ],
        1,
        [
            N_(
                "Something can: whoever holds the handle is treated as its owner, so the handle "
                "must be hard to guess and must not live forever."
            ),
            N_("Right: without authentication the handle is necessarily a bearer token."),
            N_("An unauthenticated server cannot tell callers apart, so there is nobody to check."),
            N_("`requestState` lives for one multi round-trip call; it does not guard a calendar."),
        ],
    ),
]
