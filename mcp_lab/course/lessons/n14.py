"""Notebook 14's self-check questions: `mcp_lab.self_check("14")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    return Quiz(
        [
            Question(
                "A check fails against your server because the suite's tool `test_simple_text` "
                "does not exist. What does that say about your server?",
                [
                    "It breaks the specification somewhere",
                    "Only that a suite fixture is missing",
                    "The conformance suite itself is at fault",
                    "Every server must offer that tool",
                ],
                1,
                [
                    "The specification does not ask for any particular tool.",
                    "Right: baseline it with that reason; a server built for the suite has the fixtures.",
                    "The suite is fine: it tests servers built to be tested by it.",
                    "Conformance is about how the protocol is spoken, not which tools a server has.",
                ],
            ),
            Question(
                "A baselined check starts passing. What happens on the next run?",
                [
                    "Nothing: a baseline only excuses failures",
                    "It is reported fixed and the run passes",
                    "The run fails until the stale entry goes",
                    "The suite deletes the entry by itself",
                ],
                2,
                [
                    "A stale entry would hide the next regression of that check, so the run refuses it.",
                    "It is reported, but the run fails until the baseline is updated.",
                    "Right: remove the entry, and the check guards against regressions again.",
                    "Baselines live in your repository; only you change them.",
                ],
            ),
            Question(
                "A 2025-11-25 client sends this to a server that speaks only 2026-07-28. What does "
                "the specification's Compatibility Matrix say the answer is?",
                ["404 with -32601", "400 Bad Request", "200 with an InitializeResult", "405 Method Not Allowed"],
                1,
                [
                    "That is the rule for a request that passes validation and names an unknown method: "
                    "what the suite's check sends, not this request.",
                    "Right: the request lacks the required headers (Mcp-Method, MCP-Protocol-Version), "
                    "so server validation rejects it with 400 before any method is looked up.",
                    "Only a server that also serves the legacy era answers initialize.",
                    "405 is about the HTTP method (GET, DELETE), not the JSON-RPC method.",
                ],
                situation="POST /mcp   (no Mcp-Method, no MCP-Protocol-Version header)\n\n"
                '{"jsonrpc": "2.0", "id": 1, "method": "initialize",\n'
                ' "params": {"protocolVersion": "2025-11-25", ...}}',
            ),
            Question(
                "What makes a server conformant to 2026-07-28?",
                [
                    "Passing every scenario the installed suite has",
                    "Meeting the revision's normative requirements",
                    "Passing the scenarios in the server's baseline",
                    "Being built on an official SDK",
                ],
                1,
                [
                    "The suite is a selection of tests; it can miss a requirement (lab 10's bug) and it keeps growing.",
                    "Right: the MUSTs of the specification decide; the suite's scored scenarios are "
                    "evidence about some of them.",
                    "A baseline records what a server knows it fails; a baselined failure is a failure.",
                    "An SDK helps, but conformance is about what the server does on the wire.",
                ],
            ),
        ],
        key="quiz",
    )
