"""Notebook 11's self-check questions: `mcp_lab.self_check("11")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    quiz = Quiz(
        [
            Question(
                "Which of these enter the model's prompt on every turn once a server is connected?",
                [
                    "Only the tools the model calls",
                    "Every tool definition and the instructions",
                    "Nothing until a tool is called",
                    "Only the tool names; the schemas are fetched when a tool is called",
                ],
                1,
                [
                    "The model cannot call what it has not been shown: every definition is shown up front.",
                    "Right: name, description and `inputSchema` of every tool, and the server's "
                    "`instructions`: that is why one reference server costs 1,619 tokens before it is "
                    "used at all.",
                    "The catalog is in the prompt from the first turn.",
                    "The model needs the schemas to fill in arguments; hosts send them whole.",
                ],
            ),
            Question(
                "Who wrote the server's `instructions` and tool descriptions that land in your prompt?",
                ["The model provider", "The server's author", "The MCP specification", "The host's vendor"],
                1,
                [
                    "The provider only renders what the server sends.",
                    "Right: untrusted text unless the server is trusted; the spec's security principles "
                    "say to treat tool descriptions and annotations that way.",
                    "The spec defines the fields, not their content.",
                    "The host passes them on; it does not write them.",
                ],
            ),
            Question(
                "What does just-in-time tool discovery save?",
                [
                    "The cost of calling tools",
                    "The unloaded tools' definitions",
                    "Nothing: definitions are free",
                    "The server's start-up time",
                ],
                1,
                [
                    "Calls cost the same either way.",
                    "Right: only a search tool and the tools actually loaded enter the prompt, on every turn.",
                    "This notebook measured them: they are not free.",
                    "Start-up is not prompt tokens; the saving is in the prompt.",
                ],
            ),
            Question(
                "Roughly how many prompt tokens do the catalogs add over the conversation, before any call?",
                ["8,000", "160,000", "1,600", "none after turn 1"],
                1,
                [
                    "That is one turn: 5 x 1,600.",
                    "Right: 5 x 1,600 on each of 20 turns (prompt caching can lower the price, not the count).",
                    "That is one server on one turn.",
                    "The definitions are part of the prompt on every turn, not sent once.",
                ],
                situation="A host connects 5 servers; each catalog costs about 1,600 tokens.\n"
                "The conversation lasts 20 turns.",
            ),
        ],
        key="quiz",
    )
    return quiz
