"""Notebook 18's self-check questions: `mcp_lab.self_check("18")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_

QUESTIONS = [
    Question(
        N_("Which sentence matches how the two specifications describe themselves?"),
        [
            N_("A2A replaces MCP wherever agents cooperate"),
            N_("A2A for partners, MCP for capabilities"),
            N_("MCP is for remote servers, A2A for local"),
            N_("They are two drafts of one protocol"),
        ],
        1,
        [
            N_("They nest rather than compete: agents talk A2A to each other, MCP to their tools."),
            N_("Right: agents partnering on tasks versus agents using capabilities."),
            N_("Both protocols work locally and remotely; transport is not the difference."),
            N_("They come from different projects with different purposes."),
        ],
    ),
    Question(
        N_("In 2026, 'MCP or ACP?' is best answered:"),
        [
            N_("ACP, for agent-to-agent messaging"),
            N_("ACP is now part of A2A"),
            N_("They are the same protocol"),
            N_("MCP replaced ACP in 2025"),
        ],
        1,
        [
            N_("ACP no longer stands alone."),
            N_("Right: ACP joined A2A under the Linux Foundation, so the real pair is MCP and A2A."),
            N_("ACP was a separate agent-to-agent standard, never an alias of MCP."),
            N_("MCP connects to tools; it never covered ACP's agent-to-agent ground."),
        ],
    ),
    Question(
        N_("What does MCP add over a hand-designed HTTP API?"),
        [
            N_("Fixed method names"),
            N_("A discovery call"),
            N_("More computing power"),
            N_("A stated intent for who uses each primitive"),
            N_("An isolation model"),
        ],
        {0, 1, 3, 4},
        [
            N_("Yes: tools/list means the same on every server."),
            N_("Yes: server/discover says what a server speaks and offers."),
            N_("No: MCP adds conventions, not power; anything it does an API could do."),
            N_(
                "Yes, as an intent: model-controlled tools, application-driven resources, "
                "user-controlled prompts; the protocol mandates no interaction model."
            ),
            N_(
                "Yes, as a design principle the host enforces: a server gets what the host sends it, "
                "and the conversation stays with the host."
            ),
        ],
    ),
]
