"""Active-learning exercises of the course: "choose the primitive".

`PRIMITIVE_CASES` are capabilities a server might offer; for each, the learner names the
primitive (tool, resource or prompt) and who decides that it is used (the model, the
application, the person).  `check_primitives()` is the exercise as widgets (a pair of dropdowns
per case and a Check button, `mcp_lab.notebook.choice.Choice`): nothing is graded or shown before
the learner presses Check, then every answer is explained.  It registers as the interaction
"primitives" (kind "choice").  Predictions live in `mcp_lab.predict` (`mcp_lab.notebook.predict`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PRIMITIVE_CASES", "check_primitives", "NotYet"]

from mcp_lab.wire.words import N_

from .challenges import NotYet  # one "not yet" style for every course exercise


@dataclass(frozen=True)
class Case:
    capability: str
    primitive: str  # "tool" | "resource" | "prompt"
    decider: str  # "model" | "application" | "person"
    why: str


PRIMITIVE_CASES: list[Case] = [
    Case(
        N_("create an event in the calendar"),
        "tool",
        "model",
        N_("An action with an effect, chosen by the model mid-conversation (and approved by the person)."),
    ),
    Case(
        N_("this week's events, attached as context before the model answers"),
        "resource",
        "application",
        N_("Read-only data the host decides to put in front of the model; the model does not ask for it."),
    ),
    Case(
        N_("a '/plan-my-week' command the person picks from a menu"),
        "prompt",
        "person",
        N_("A ready-made message template started on purpose by the person, like a slash command."),
    ),
    Case(
        N_("search the web for a query the model writes"),
        "tool",
        "model",
        N_("The model decides when to search and with which words."),
    ),
    Case(
        N_("the contents of the file open in the editor"),
        "resource",
        "application",
        N_("The editor (the host) knows which file is open and attaches it; nothing needs the model's decision."),
    ),
    Case(
        N_("'summarise this thread in three bullets', offered as a button"),
        "prompt",
        "person",
        N_("A template the person chooses; the server only supplies its text and arguments."),
    ),
    Case(
        N_("send an e-mail on the person's behalf"),
        "tool",
        "model",
        N_("An action with an effect: the model proposes it, the host asks the person before it happens."),
    ),
    Case(
        N_("a database table's schema, shown so the model writes correct SQL"),
        "resource",
        "application",
        N_("Reference data the application attaches; reading it changes nothing."),
    ),
    Case(
        N_("'review this pull request for security issues', picked from a list"),
        "prompt",
        "person",
        N_("A workflow the person starts deliberately; it expands into messages for the model."),
    ),
]
# The options are English values (the check compares them); the widget shows each through the
# catalog. resource and prompt stay English in every edition (the primitives' own names).
PRIMITIVES = (N_("tool"), "resource", "prompt")
DECIDERS = (N_("model"), N_("application"), N_("person"))


def check_primitives(key: str = "primitives"):
    """The "choose the primitive" exercise as widgets; display it (a cell's last line)."""
    from mcp_lab.notebook.choice import Choice

    return Choice(
        key,
        rows={c.capability: ((c.primitive, c.decider), c.why) for c in PRIMITIVE_CASES},
        columns={N_("primitive"): list(PRIMITIVES), N_("decided by"): list(DECIDERS)},
        title=N_("For each capability: which primitive, and who decides that it is used?"),
    )
