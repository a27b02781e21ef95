"""Notebook 09's self-check questions: `mcp_lab.self_check("09")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    quiz = Quiz(
        [
            Question(
                "What made that possible?",
                [
                    "The server kept a session for the client",
                    "The state rode in `requestState`",
                    "The processes shared their memory",
                    "The client rebuilt it from `requestState`",
                ],
                1,
                [
                    "There are no sessions in 2026-07-28.",
                    "Right: the state a multi round-trip call needs rides in the message itself, echoed by the client.",
                    "Each process was fresh; nothing was shared but what the messages carried.",
                    "The client only echoes `requestState`; it is opaque to the client, and only the server reads it.",
                ],
                situation="process A: <- tools/call create_event            -> input_required, "
                "requestState S\n"
                'process B: <- tools/call create_event + answers + S -> "Created e3"',
            ),
            Question(
                "Why did process C not see e3?",
                [
                    "The write in B failed",
                    "B's events died with process B",
                    "resources/read is cached",
                    "C needs the session id of B",
                ],
                1,
                [
                    "B's answer said 'Created e3': the write happened, in B's memory.",
                    "Right: a module-level list is connection state in disguise.",
                    "Nothing was cached between processes; each C is a fresh process.",
                    "There is no session id in 2026-07-28, and nothing would carry B's memory to C.",
                ],
                situation='process B: tools/call create_event -> "Created e3"\n'
                "process C: resources/read calendar://week -> e1, e2",
            ),
            Question(
                "What does the specification *require* of state that spans requests?",
                [
                    "Sessions, resumed with an id that the server hands out when the client connects",
                    "An explicit identifier the client passes on each request",
                    "A SQLite database",
                    "One server process per client",
                ],
                1,
                [
                    "Sessions were removed on purpose; they tie a client to one process.",
                    "Right: that is the MUST (basic, Statelessness). A handle argument is the tools "
                    "page's non-normative way to meet it.",
                    "Storage is not prescribed; SQLite is this course's choice.",
                    "A client may restart a stdio process at any time, and send unrelated requests down the same one.",
                ],
            ),
            Question(
                "What should the server do?",
                [
                    "Refuse it: the integrity check fails",
                    "Accept it: the client owns the state",
                    "Ask process A, which still holds it",
                    "Open a session to recover the state",
                ],
                0,
                [
                    "Right: `requestState` is attacker-controlled input; the HMAC no longer matches, "
                    "so the server MUST reject it.",
                    "The client only carries it; the server must not trust what comes back unchecked.",
                    "Process A may be gone; nothing in the design lets processes ask each other.",
                    "There are no sessions to open; and a session would not make tampered state valid.",
                ],
                situation='<- input_required, requestState "eyJ3aGVuIjpudWxsfQ.9b2e..."\n'
                '-> retry whose requestState was edited: "eyJ3aGVuIjoiMjAyNiJ9.9b2e..."',
            ),
            Question(
                "A server with no authentication hands out calendar handles. What protects a calendar?",
                [
                    "Nothing can",
                    "The handle itself: long, random, and with a bounded lifetime",
                    "The server's check of who the caller is, run on every call that names it",
                    "The signed `requestState`",
                ],
                1,
                [
                    "Something can: whoever holds the handle is treated as its owner, so the handle "
                    "must be hard to guess and must not live forever.",
                    "Right: without authentication the handle is necessarily a bearer token.",
                    "An unauthenticated server cannot tell callers apart, so there is nobody to check.",
                    "`requestState` lives for one multi round-trip call; it does not guard a calendar.",
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
