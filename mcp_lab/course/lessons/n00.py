"""Notebook 00's self-check questions: `mcp_lab.self_check("00")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz
from mcp_lab.wire.words import N_


def quiz() -> Quiz:  # Long on purpose: the questions are data, one Question each
    quiz = Quiz(
        [
            Question(
                N_("How many separate integrations does this take without a shared protocol?"),
                ["24", "10", "11", "6"],
                0,
                [
                    N_("Right: every application needs its own integration with every tool, 4 x 6."),
                    N_("10 is N + M: the count *with* a protocol (each side implements it once)."),
                    N_("11 is N + M plus one: a protocol does not need an extra integration on top."),
                    N_("6 would mean each tool is integrated once, which is what a protocol buys you."),
                ],
                situation=N_(
                    "A company runs 4 assistant applications and 6 internal tools,\n"
                    "and every tool must be usable from every application."
                ),
            ),
            Question(
                N_("Which earlier protocol does the specification say MCP takes some inspiration from?"),
                [
                    N_("HTTP, the protocol of the web"),
                    N_("The Language Server Protocol"),
                    N_("OpenAPI, REST's format"),
                    N_("SMTP, the mail protocol"),
                ],
                1,
                [
                    N_("MCP can run over HTTP, but HTTP is a transport, not the inspiration."),
                    N_(
                        "Right: one server per language, usable from every editor; MCP does the same for "
                        'context and tools across AI applications (the spec says "some inspiration").'
                    ),
                    N_(
                        "OpenAPI describes one API's endpoints; it has no shared method names or discovery across servers."
                    ),
                    N_("Mail is a fine protocol, but not the one the specification cites."),
                ],
            ),
            Question(
                N_("When is a protocol not worth it, by the arithmetic alone?"),
                [
                    N_("With one application (N = 1)"),
                    N_("With many tools (M large)"),
                    N_("With more apps than tools"),
                    N_("Never, N + M always wins"),
                ],
                0,
                [
                    N_("Right: with N = 1, N + M is one more than N x M."),
                    N_("Many tools make a protocol pay off more, not less."),
                    N_("With N = 5 and M = 2, N x M = 10 and N + M = 7: the protocol still wins."),
                    N_("With one application and M tools, the contract costs an extra client."),
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
