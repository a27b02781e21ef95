"""Notebook 04's prediction and self-check questions: `mcp_lab.self_check("04")` shows the quiz.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.course.lessons import Ask
from mcp_lab.notebook.quiz import Question

ASKS = {
    "lines-on-stdio": Ask(
        "Challenge 7's message, below, is valid JSON written over several lines, and `--raw` sends "
        "it byte for byte. How many answers does the calendar send back?",
        kind=int,
        why="On stdio a message ends at the first newline, before any JSON parser sees it: each "
        "line is a message of its own, none of them valid JSON, and each earns its own -32700 "
        "(with no id: the server could not read one). JSON's freedom to break lines is "
        "inside a message; the framing decides where a message ends.",
    ),
}


QUESTIONS = [
    Question(
        "The lint flags a hand-typed message before it is sent. What happens next?",
        [
            "Nothing is sent until it is fixed",
            "It is still sent, as typed",
            "The lint fixes it, then sends it",
            "It is sent with `_meta` added",
        ],
        1,
        [
            "The lint warns; it does not block, because seeing the server refuse is part of the lesson.",
            "Right: findings first, then the exact line sent, then the answer.",
            "The lint never rewrites: what you typed is what the server gets.",
            "Only `--meta` adds `_meta`, and only when asked for.",
        ],
    ),
    Question(
        "What does the server see?",
        [
            "One message: JSON allows newlines",
            "Two broken lines, one error each",
            "Nothing: the send fails",
            "One message, then an empty line",
        ],
        1,
        [
            "JSON does allow whitespace between tokens, but stdio framing ends a message at the newline first.",
            "Right: the framing breaks, and each fragment gets a parse error of its own.",
            "The bytes are sent; they just do not form one message.",
            "The newline is inside the message, so the first line is half of it.",
        ],
        situation='%%rpc calendar --raw\n{"jsonrpc": "2.0", "id": 3,\n "method": "tools/list"}',
    ),
    Question(
        "What does the lint say, and what does the calendar answer?",
        [
            "Fine; a pong `{}`",
            "`ping` is legacy-only; -32601",
            "Fine; -32602, `_meta` is missing",
            "`ping` is legacy-only; -32022",
        ],
        1,
        [
            "There is no `ping` in the current revision, and the calendar does not implement it.",
            "Right: a legacy-only method sent to a modern-only server is an era mistake, and "
            "the calendar does not know the method.",
            "The calendar looks the method up first; for an unknown one the answer is -32601 "
            "(another server may check `_meta` first: notebook 04b shows one).",
            "-32022 is about the version asked for, not about a method.",
        ],
        situation="%%rpc calendar\n"
        '{"jsonrpc": "2.0", "id": 5, "method": "ping"}\n'
        "   (the bundled calendar serves 2026-07-28 only)",
    ),
]
