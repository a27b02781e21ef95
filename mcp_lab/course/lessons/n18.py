"""Notebook 18's self-check questions: `mcp_lab.self_check("18")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question

QUESTIONS = [
    Question(
        "Which sentence matches how the two specifications describe themselves?",
        [
            "A2A replaces MCP wherever agents cooperate",
            "A2A for partners, MCP for capabilities",
            "MCP is for remote servers, A2A for local",
            "They are two drafts of one protocol",
        ],
        1,
        [
            "They nest rather than compete: agents talk A2A to each other, MCP to their tools.",
            "Right: agents partnering on tasks versus agents using capabilities.",
            "Both protocols work locally and remotely; transport is not the difference.",
            "They come from different projects with different purposes.",
        ],
    ),
    Question(
        "In 2026, 'MCP or ACP?' is best answered:",
        [
            "ACP, for agent-to-agent messaging",
            "ACP is now part of A2A",
            "They are the same protocol",
            "MCP replaced ACP in 2025",
        ],
        1,
        [
            "ACP no longer stands alone.",
            "Right: ACP joined A2A under the Linux Foundation, so the real pair is MCP and A2A.",
            "ACP was a separate agent-to-agent standard, never an alias of MCP.",
            "MCP connects to tools; it never covered ACP's agent-to-agent ground.",
        ],
    ),
    Question(
        "What does MCP add over a hand-designed HTTP API?",
        [
            "Fixed method names",
            "A discovery call",
            "More computing power",
            "A stated intent for who uses each primitive",
            "An isolation model",
        ],
        {0, 1, 3, 4},
        [
            "Yes: tools/list means the same on every server.",
            "Yes: server/discover says what a server speaks and offers.",
            "No: MCP adds conventions, not power; anything it does an API could do.",
            "Yes, as an intent: model-controlled tools, application-driven resources, "
            "user-controlled prompts; the protocol mandates no interaction model.",
            "Yes, as a design principle the host enforces: a server gets what the host sends it, "
            "and the conversation stays with the host.",
        ],
    ),
]
