"""Notebook 11's words: its prediction, its typed task, its self-check questions.

They live here, not in the notebook, so that no answer sits on the learner's screen before they
answer (predict, then see).

The typed task, `grow-the-catalog`: the learner types a `clientCapabilities` dict, and the
judge counts the reference server's catalog with that declaration (a real process, probed then
`initialize`d, as `mcp_lab.cost` does) against the catalog with none.  It passes when the
declaration made the server list a tool it did not list before, and prints which.  The browser
edition has no process: it plays a recording, which answers a declaration it does not hold with
the plain catalog, so there the judge says so instead of "the same tools".
"""

from __future__ import annotations

from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

ASKS = {
    "priciest-tool": Ask(
        N_(
            "The reference server lists 13 tools. Which of these costs the most tokens in the prompt "
            "(its name, description and inputSchema, rendered as JSON)?"
        ),
        options=[
            "simulate-research-query",
            "trigger-long-running-operation",
            "gzip-file-as-resource",
            "get-annotated-message",
            "get-tiny-image",
        ],
        why=N_(
            "a definition's price is mostly its prose: gzip-file-as-resource describes three "
            "parameters at length and carries a default URL; what a tool does, or how long its name is, "
            "hardly counts."
        ),
    ),
}

_BASELINE: dict[str, frozenset[str]] = {}


def _tool_names(capabilities: dict) -> frozenset[str]:
    from mcp_lab.tokens.live import cost

    return frozenset(t.name for t in cost("everything", capabilities=capabilities).tools)


def judge_capabilities(value: Any) -> str | None:
    """None when declaring `value` makes the reference server list a tool it did not list before."""
    from mcp_lab.servers.inprocess import in_browser

    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        return _('my_capabilities must be a dict of capabilities, each an object, like {"name": {}}.')
    try:
        if "none" not in _BASELINE:
            _BASELINE["none"] = _tool_names({})
        names = _tool_names(value)
    except Exception as e:  # a declaration the server refuses: say so in one line
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        return _("the server did not take that declaration: {why}.").format(why=why)
    added = sorted(names - _BASELINE["none"])
    if not added and in_browser():
        return _(
            "the browser edition plays a recording of this server, which holds no session declaring {value}; "
            "here it knows the form elicitation declaration only (the full edition runs the real server)."
        ).format(value=value)
    if not added:
        return _("declaring {value} the server lists the same {count} tools as with no declaration.").format(
            value=value, count=len(names)
        )
    print(_("declaring {value}: {count} tools; added {added}").format(value=value, count=len(names), added=added))
    return None


TASKS = {
    "grow-the-catalog": Task(
        judge=judge_capabilities,
        hint=N_(
            "the reference server offers a tool for each client feature it can exercise: "
            "think of what notebook 07 declared, or of roots and sampling."
        ),
        prompt=N_("Type a declaration in `my_capabilities`, run that cell, then this one."),
        done=N_("your declaration grew the catalog: the price of a server depends on the client too."),
    ),
}


QUESTIONS = [
    Question(
        N_(
            "A host offers every connected server's tools to its model up front (the common "
            "design; MCP leaves it to the host). Which of these enter the prompt on every turn?"
        ),
        [
            N_("Only the tools the model calls"),
            N_("Every tool definition and the instructions"),
            N_("Nothing until a tool is called"),
            N_("Only the tool names; the schemas are fetched when a tool is called"),
        ],
        1,
        [
            N_("The model cannot call what it has not been shown: every definition is shown up front."),
            N_(
                "Right: name, description and `inputSchema` of every tool, and the server's "
                "`instructions`: that is why one reference server costs 1,619 tokens before it is "
                "used at all."
            ),
            N_("The catalog is in the prompt from the first turn."),
            N_("The model needs the schemas to fill in arguments; hosts send them whole."),
        ],
    ),
    Question(
        N_("Who wrote the server's `instructions` and tool descriptions that land in your prompt?"),
        [N_("The model provider"), N_("The server's author"), N_("The MCP specification"), N_("The host's vendor")],
        1,
        [
            N_("The provider only renders what the server sends."),
            N_(
                "Right: untrusted text unless the server is trusted; the spec's security principles "
                "say to treat tool descriptions and annotations that way."
            ),
            N_("The spec defines the fields, not their content."),
            N_("The host passes them on; it does not write them."),
        ],
    ),
    Question(
        N_("What does just-in-time tool discovery save?"),
        [
            N_("The cost of calling tools"),
            N_("The unloaded tools' definitions"),
            N_("Nothing: definitions are free"),
            N_("The server's start-up time"),
        ],
        1,
        [
            N_("Calls cost the same either way."),
            N_("Right: only a search tool and the tools actually loaded enter the prompt, on every turn."),
            N_("This notebook measured them: they are not free."),
            N_("Start-up is not prompt tokens; the saving is in the prompt."),
        ],
    ),
    Question(
        N_("Roughly how many prompt tokens do the catalogs add over the conversation, before any call?"),
        ["8,000", "160,000", "1,600", N_("none after turn 1")],
        1,
        [
            N_("That is one turn: 5 x 1,600."),
            N_("Right: 5 x 1,600 on each of 20 turns (prompt caching can lower the price, not the count)."),
            N_("That is one server on one turn."),
            N_("The definitions are part of the prompt on every turn, not sent once."),
        ],
        situation=N_(
            "A host connects 5 servers; each catalog costs about 1,600 tokens.\nThe conversation lasts 20 turns."
        ),
    ),
]
