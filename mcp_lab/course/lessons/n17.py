"""Notebook 17's self-check questions: `mcp_lab.self_check("17")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    return Quiz(
        [
            Question(
                "You rewrite your server with the SDK's `MCPServer`. Which job is still yours?",
                [
                    "Adding resultType to each tool result",
                    "Checking who may use a calendar handle",
                    "Refusing a request whose _meta is missing",
                    "Sealing requestState against tampering",
                ],
                1,
                [
                    "The SDK adds resultType to the results of your tools, resources and prompts (not "
                    "to everything: notebook 06 shows its bare {} answer to a legacy ping).",
                    "Right: the SDK cannot know which caller owns which state; that is your design.",
                    "The SDK validates _meta before your function runs (-32602).",
                    "The SDK seals requestState for you (the v1. tokens).",
                ],
            ),
            Question(
                'A host config entry reads `"command": "python", "args": ["server.py"]`. '
                "It works in your terminal, but the desktop host says the server exited at once. "
                "The likeliest cause?",
                [
                    "The host speaks a newer protocol revision",
                    "stdio servers must be given as one shell string",
                    "The host has another PATH and another folder",
                    "The server needs an Authorization header first",
                ],
                2,
                [
                    "A version mismatch gets an error answer, not a process that exits at once.",
                    "No: args is a list; hosts do not run a shell.",
                    "Right: a relative script and a bare `python` depend on your shell's folder and "
                    "environment; use absolute paths (section 3).",
                    "Authorization headers belong to HTTP; a stdio server takes credentials from its environment.",
                ],
            ),
            Question(
                'Why does the course set `"protocolEra": "auto"` when it opens the Inspector on the calendar?',
                [
                    "So it probes with server/discover first",
                    "So the Inspector keeps tools/list cached longer",
                    "So the calendar accepts the initialize handshake",
                    "So the Inspector skips the Origin check",
                ],
                0,
                [
                    "Right: auto means probe, then fall back, as notebook 06 does; the calendar answers "
                    "discover, so it is modern.",
                    "Caching follows the server's ttlMs, not the era setting.",
                    "The calendar never accepts initialize; it answers -32601.",
                    "Era has nothing to do with Origin checks, which protect HTTP servers.",
                ],
            ),
        ],
        key="quiz",
    )
