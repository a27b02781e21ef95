"""Notebook 04's prediction and self-check questions: `mcp_lab.self_check("04")` shows the quiz.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.course.lessons import Ask
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_

ASKS = {
    "lines-on-stdio": Ask(
        N_(
            "Challenge 7's message, below, is valid JSON written over several lines, and `--raw` sends "
            "it byte for byte. How many answers does the calendar send back?"
        ),
        kind=int,
        why=N_(
            "On stdio a message ends at the first newline, before any JSON parser sees it: each "
            "line is a message of its own, none of them valid JSON, and each earns its own -32700 "
            "(with no id: the server could not read one). JSON's freedom to break lines is "
            "inside a message; the framing decides where a message ends."
        ),
    ),
}


QUESTIONS = [
    Question(
        N_("The lint flags a hand-typed message before it is sent. What happens next?"),
        [
            N_("Nothing is sent until it is fixed"),
            N_("It is still sent, as typed"),
            N_("The lint fixes it, then sends it"),
            N_("It is sent with `_meta` added"),
        ],
        1,
        [
            N_("The lint warns; it does not block, because seeing the server refuse is part of the lesson."),
            N_("Right: findings first, then the exact line sent, then the answer."),
            N_("The lint never rewrites: what you typed is what the server gets."),
            N_("Only `--meta` adds `_meta`, and only when asked for."),
        ],
    ),
    Question(
        N_("What does the server see?"),
        [
            N_("One message: JSON allows newlines"),
            N_("Two broken lines, one error each"),
            N_("Nothing: the send fails"),
            N_("One message, then an empty line"),
        ],
        1,
        [
            N_("JSON does allow whitespace between tokens, but stdio framing ends a message at the newline first."),
            N_("Right: the framing breaks, and each fragment gets a parse error of its own."),
            N_("The bytes are sent; they just do not make up one message."),
            N_("The newline is inside the message, so the first line is half of it."),
        ],
        situation='%%rpc calendar --raw\n{"jsonrpc": "2.0", "id": 3,\n "method": "tools/list"}',
    ),
    Question(
        N_("What does the lint say, and what does the calendar answer?"),
        [
            N_("Fine; a pong `{}`"),
            N_("`ping` is legacy-only; -32601"),
            N_("Fine; -32602, `_meta` is missing"),
            N_("`ping` is legacy-only; -32022"),
        ],
        1,
        [
            N_("There is no `ping` in the current revision, and the calendar does not implement it."),
            N_(
                "Right: a legacy-only method sent to a modern-only server is an era mistake, and "
                "the calendar does not know the method."
            ),
            N_(
                "The calendar looks the method up first; for an unknown one the answer is -32601 "
                "(another server may check `_meta` first: notebook 04b shows one)."
            ),
            N_("-32022 is about the version asked for, not about a method."),
        ],
        situation=N_(
            "%%rpc calendar\n"
            '{"jsonrpc": "2.0", "id": 5, "method": "ping"}\n'
            "   (the bundled calendar serves 2026-07-28 only)"
        ),
    ),
]
