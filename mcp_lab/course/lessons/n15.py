"""Notebook 15's self-check questions: `mcp_lab.self_check("15")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    return Quiz(
        [
            Question(
                "A replay reaches a retry after input_required. Which requestState does it echo?",
                [
                    "The one in the recording",
                    "The one the new server just issued",
                    "None: the replay drops requestState",
                    "A fresh random value it makes up",
                ],
                1,
                [
                    "The recorded state was issued by another server (or another run); echoing it asks "
                    "the new server to trust state it never made.",
                    "Right: the client echoes what this server handed out; only the person's answers "
                    "come from the recording.",
                    "Without requestState the server could not continue the call it began.",
                    "requestState is opaque and issued by the server; a client never invents one.",
                ],
            ),
            Question(
                "Replaying the chapter's legacy probe with era='modern' against the reference server "
                "lists 12 tools, not 13. Why?",
                [
                    "The thirteenth tool needs a session",
                    "The reference server was upgraded since",
                    "The diff leaves out the last tool",
                    "The _meta makes the server hide one",
                ],
                0,
                [
                    "Right: without initialize there is no session, and the server lists what it lists before one.",
                    "The same pinned package answered both; only the conversation changed.",
                    "The diff reports the missing tool as a removed path, answer.result.tools[12].",
                    "A legacy server ignores _meta; the difference is the missing handshake.",
                ],
            ),
            Question(
                "Which differences does a replay set aside before comparing, by default?",
                [
                    "Nothing at all",
                    "Every field under _meta",
                    "The id and every requestState",
                    "Any field whose value is a string",
                ],
                2,
                [
                    "Ids are remapped on replay and requestState is opaque: comparing them would call "
                    "every replay different.",
                    "_meta holds the server's identity, which is worth seeing; ignore it explicitly.",
                    "Right: those vary between honest runs; anything else is reported.",
                    "That would hide almost every real difference.",
                ],
            ),
            Question(
                "The cassette server gets a tools/call whose arguments were never recorded. What does it do?",
                [
                    "Answers with the closest recorded answer",
                    "Crashes with a traceback on stderr",
                    "Forwards it to the server it recorded",
                    "Refuses it with -32602, says why",
                ],
                3,
                [
                    "A made-up answer would look real and mislead the client.",
                    "A server that crashes on unexpected input is of no use offline.",
                    "It is only a file; there is no real server behind it.",
                    "Right: the method is known, the params are not; -32601 is kept for a method never recorded.",
                ],
            ),
        ],
        key="quiz",
    )
