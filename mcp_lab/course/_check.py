"""What every lab check shares: one failure type and one way to word a failure.

`CheckFailed` is lab 01's class (mcp_lab.course.check_calendar), reused so that one
`except CheckFailed` covers every lab.  `failure()` builds its one-paragraph message in a fixed
order -- what was expected, what came back, which rule of the specification says so, and a hint
-- so a learner reads every lab's verdict the same way.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_lab.course.check_calendar import CheckFailed, CheckReport

__all__ = ["CheckFailed", "CheckReport", "failure", "shown", "is_placeholder"]


def shown(value: Any, limit: int = 300) -> str:
    """A value as compact JSON (or repr), cut to `limit` characters for a one-paragraph message."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def failure(what: str, *, expected: str, got: str, rule: str, hint: str) -> CheckFailed:
    """A CheckFailed whose message is one paragraph: expected, got, rule, hint."""
    hint = hint if hint.endswith((".", "?", "!")) else hint + "."
    return CheckFailed(f"{what}: expected {expected}; got {got}. Spec rule: {rule}. Hint: {hint}")


def is_placeholder(value: Any) -> bool:
    """`...` (Ellipsis), None, or text still holding the template's marker."""
    if value is ... or value is None:
        return True
    return isinstance(value, str) and (not value.strip() or value.strip() == "..." or "YOUR CODE HERE" in value)
