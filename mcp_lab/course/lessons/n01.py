"""Notebook 01's self-check questions: `mcp_lab.self_check("01")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    quiz = Quiz(
        [
            Question(
                "A weather server is connected to your assistant. What does it receive when the model uses it?",
                [
                    "The whole conversation so far, so that it can understand the question",
                    "A tools/call with the arguments the model chose, plus the envelope",
                    "The last user message and the names of the other servers",
                    "The conversation and the other servers' recent results",
                ],
                1,
                [
                    "The history stays with the host; servers get only what they need.",
                    "Right: method, arguments, and `_meta` (revision, capabilities, client info). Nothing else.",
                    "The person's words stay with the host too; a server sees only its own requests.",
                    "Servers do not see into each other; only the host holds every result.",
                ],
            ),
            Question(
                "The notes server above stored a note about 'e3'. How did it get that id?",
                [
                    "It asked the calendar server directly",
                    "The host put it in the add_note arguments",
                    "It read the calendar's resources itself",
                    "MCP shares ids between all servers of a host",
                ],
                1,
                [
                    "Servers never talk to each other in MCP; the host sits between them.",
                    "Right: a cross-server value travels as an ordinary argument the host chose to send.",
                    "A server can read only its own resources; the calendar's are behind the calendar's process.",
                    "There is no shared namespace; 'e3' means nothing to the notes server beyond a string.",
                ],
            ),
            Question(
                "Which party in this exchange saw both the event's title and the note?",
                ["The calendar server", "The notes server", "The host", "Both servers, via their session"],
                2,
                [
                    "The calendar saw the title but never the note: it was not sent to it.",
                    "The notes server saw 'Remember e3', never the title 'Dentist'.",
                    "Right: only the host holds every request and every result.",
                    "There is no shared session between servers (nor any session at all in 2026-07-28).",
                ],
                situation='host -> calendar: tools/call create_event {"title": "Dentist", '
                '"startsAt": "..."}\n'
                'calendar -> host: {"content": [{"type": "text", "text": "Created e3"}], '
                "...}\n"
                'host -> notes:    tools/call add_note {"text": "Remember e3"}',
            ),
            Question(
                "Which of these are the host's job?",
                [
                    "Holding the conversation history",
                    "Deciding which server gets which call",
                    "Storing the calendar's events",
                    "Asking the person before a write happens",
                ],
                {0, 1, 3},
                [
                    "Yes: the history stays with the host.",
                    "Yes: the host routes each tool call to the one server that owns the tool.",
                    "No: that is the calendar server's own data, behind its tools.",
                    "Yes: consent is the host's to ask for, since only it talks to the person.",
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
