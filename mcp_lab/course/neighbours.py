"""Notebook 18's exercise: which protocol fits each situation, MCP, A2A or a plain API?

    from mcp_lab.course import neighbours
    neighbours.exercise()      # a cell's last line: the learner picks, then presses Check

The answers stay inside the `Choice` until the learner presses Check.
"""

from __future__ import annotations

__all__ = ["SITUATIONS", "exercise"]

MCP, A2A, API = "MCP", "A2A", "a plain HTTP API"

SITUATIONS: dict[str, tuple[str, str]] = {
    "Your coding agent lists what a local database server offers and runs a read-only query": (
        MCP,
        "an agent using a bounded capability, found with one discovery call and tools/list",
    ),
    "Your assistant hands a trip to another company's travel agent, which plans it over several turns": (
        A2A,
        "another agent with its own plans, tools and state: agents working together on a task",
    ),
    "A mobile app fetches the signed-in person's profile from your own backend; no model involved": (
        API,
        "one known client and one known server, no model choosing tools: MCP's conventions buy nothing",
    ),
    "A desktop host offers the person a slash command from a server's list of prompts": (
        MCP,
        "a prompt, one of MCP's primitives; prompts are designed to be user-controlled",
    ),
}


def exercise(key: str = "which-protocol"):
    from mcp_lab.notebook.choice import Choice

    return Choice(
        key,
        SITUATIONS,
        {"the fit": [MCP, A2A, API]},
        title="MCP, A2A or a plain API?",
    )
