"""Active-learning helpers for the course notebooks: predict-then-run, and "choose the primitive".

Predict, then run.  A cell asks the learner to write a prediction (`my_prediction = ...`); the
next cell runs the real exchange and calls `compare(my_prediction, actual, why)`, which says
whether the prediction held and why the server answered as it did.  An unchanged `...` is not an
error: the cell shows the answer and the reason, so a learner who skips the prediction still
learns, and Run All never stops there.  The protocol fact itself is asserted by the notebook cell.

Choose the primitive.  `PRIMITIVE_CASES` are capabilities a server might offer; for each, the
learner names the primitive (tool, resource or prompt) and who decides that it is used (the
model, the application, the person).  `check_primitives(choices)` grades every answer and explains
each one; a wrong answer raises `NotYet` (shown as its sentence, not a traceback), and the test
harness (`MCP_LAB_ANSWER_FROM_CODE=1`) fills the answers from the key so the tests prove the key
passes.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["compare", "PRIMITIVE_CASES", "check_primitives", "NotYet"]

from .challenges import NotYet  # one "not yet" style for every course exercise


def compare(prediction, actual, why: str) -> bool | None:
    """Print how the prediction fared and why; True/False, or None when nothing was predicted."""
    if prediction is Ellipsis or prediction is None:
        print(f"No prediction written. The answer: {actual!r}. Why: {why}")
        return None
    held = prediction == actual
    print(
        ("Your prediction held: " if held else f"Not quite: you predicted {prediction!r}, the answer is ")
        + f"{actual!r}. Why: {why}"
    )
    return held


@dataclass(frozen=True)
class Case:
    capability: str
    primitive: str  # "tool" | "resource" | "prompt"
    decider: str  # "model" | "application" | "person"
    why: str


PRIMITIVE_CASES: list[Case] = [
    Case(
        "create an event in the calendar",
        "tool",
        "model",
        "an action with an effect, chosen by the model mid-conversation (and approved by the person)",
    ),
    Case(
        "this week's events, attached as context before the model answers",
        "resource",
        "application",
        "read-only data the host decides to put in front of the model; the model does not ask for it",
    ),
    Case(
        "a '/plan-my-week' command the person picks from a menu",
        "prompt",
        "person",
        "a ready-made message template started on purpose by the person, like a slash command",
    ),
    Case(
        "search the web for a query the model writes",
        "tool",
        "model",
        "the model decides when to search and with which words",
    ),
    Case(
        "the contents of the file open in the editor",
        "resource",
        "application",
        "the editor (the host) knows which file is open and attaches it; nothing needs the model's decision",
    ),
    Case(
        "'summarise this thread in three bullets', offered as a button",
        "prompt",
        "person",
        "a template the person chooses; the server only supplies its text and arguments",
    ),
    Case(
        "send an e-mail on the person's behalf",
        "tool",
        "model",
        "an action with an effect: the model proposes it, the host asks the person before it happens",
    ),
    Case(
        "a database table's schema, shown so the model writes correct SQL",
        "resource",
        "application",
        "reference data the application attaches; reading it changes nothing",
    ),
    Case(
        "'review this pull request for security issues', picked from a list",
        "prompt",
        "person",
        "a workflow the person starts deliberately; it expands into messages for the model",
    ),
]
PRIMITIVES = ("tool", "resource", "prompt")
DECIDERS = ("model", "application", "person")


def blank_choices() -> dict[str, tuple]:
    """What the learner fills in: capability -> (primitive, who decides)."""
    return {c.capability: (..., ...) for c in PRIMITIVE_CASES}


def check_primitives(choices: dict) -> int:
    """Grade and explain every answer; the number right. Raises NotYet when one is wrong."""
    from mcp_lab.notebook.quiz import answer_from_code

    if answer_from_code():
        choices = {c.capability: (c.primitive, c.decider) for c in PRIMITIVE_CASES}
    open_ = [k for k, v in choices.items() if Ellipsis in tuple(v)]
    if len(open_) == len(PRIMITIVE_CASES):
        print("Fill in your choices above (a primitive and who decides, for each line), then run this cell again.")
        return 0
    right, lines = 0, []
    for c in PRIMITIVE_CASES:
        got = tuple(choices.get(c.capability, (..., ...)))
        ok = got == (c.primitive, c.decider)
        right += ok
        mark = (
            "right"
            if ok
            else f"not quite (you said {got[0] if got[0] is not Ellipsis else '?'}, "
            f"{got[1] if got[1] is not Ellipsis else '?'})"
        )
        lines.append(f"- {c.capability}: {c.primitive}, decided by the {c.decider} [{mark}]. {c.why}.")
    print("\n".join(lines))
    print(f"{right} of {len(PRIMITIVE_CASES)} right.")
    if right < len(PRIMITIVE_CASES):
        raise NotYet(
            "choose the primitive",
            f"{len(PRIMITIVE_CASES) - right} of {len(PRIMITIVE_CASES)} choices are not right yet "
            "(each is explained above)",
            "ask who decides that it happens: the model (tool), the application (resource), the person (prompt)",
        )
    return right
