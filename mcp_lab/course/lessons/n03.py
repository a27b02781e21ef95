"""Notebook 03's self-check questions: `mcp_lab.self_check("03")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    quiz = Quiz(
        [
            Question(
                "What does the official Python SDK client (mcp 2.3.0) do with the first line?",
                [
                    "It raises and closes the connection",
                    "It logs an ERROR, and carries on",
                    "It treats the line as a notification",
                    "It restarts the server process",
                ],
                1,
                [
                    "No exception reaches your code; the requests are still answered.",
                    "Right: one 'Failed to parse JSONRPC message from server' record (handed to "
                    "`message_handler` if you gave one), and the session continues.",
                    "The line is not JSON at all, so it cannot be any kind of message.",
                    "Nothing restarts: the process keeps running and keeps being used.",
                ],
                situation="server stdout, line 1: Calendar server v1.2 starting...\n"
                'server stdout, line 2: {"jsonrpc": "2.0", "id": 1, "result": {...}}',
            ),
            Question(
                "What happens to the answer to request 3?",
                [
                    "Nothing: the client skips the text",
                    "It is lost; request 3 waits for its deadline",
                    "The server exits with an error",
                    "It arrives, a little late, once the next newline is written",
                ],
                1,
                [
                    "The client cannot skip part of a line: the whole line is one unreadable message.",
                    "Right: the shared line is neither noise nor a message, and the id inside it never "
                    "reaches the waiting request.",
                    "The server keeps running; it is the client that is left waiting.",
                    "It never arrives: it was glued to the fragment, and that line was dropped.",
                ],
                situation='server code:   print("saving...", end="")     # no newline\n'
                'server stdout: saving...{"jsonrpc": "2.0", "id": 3, "result": {...}}',
            ),
            Question(
                "Where should a stdio server write its progress and log lines?",
                ["stdout, prefixed with '#'", "stderr", "nowhere: be silent", "stdout, as JSON lines"],
                1,
                [
                    "There are no comments in the framing: every stdout line must be an MCP message.",
                    "Right: stderr is free-form logging, and clients SHOULD NOT assume it means an error.",
                    "Logging is allowed and useful; it just has its own stream.",
                    "A JSON line that is not a JSON-RPC message is still invalid on stdout.",
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
