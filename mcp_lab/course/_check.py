"""What every lab check shares: one failure type and one way to word a failure.

`CheckFailed` is one class for every lab, so that one `except CheckFailed` covers them all; a
`CheckReport` lists what was checked and the rows (processes) that prove it.  `failure()` builds its one-paragraph message in a fixed
order -- what was expected, what came back, which rule of the specification says so, and a hint
-- so a learner reads every lab's verdict the same way.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from mcp_lab.session.isolate import Row

__all__ = ["CheckFailed", "CheckReport", "failure", "shown", "is_placeholder"]


class CheckFailed(AssertionError):
    """One unmet expectation, explained in one paragraph.  `.rows` holds what each process did."""

    def __init__(self, message: str, rows: Sequence[Row] = ()):
        super().__init__(message)
        self.rows = list(rows)


@dataclass
class CheckReport:
    """Every expectation met: what was checked, and the rows that prove it."""

    server: str
    passed: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"All {len(self.passed)} expectations met by {self.server}:"]
        lines += [f"  ok  {p}" for p in self.passed]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<CheckReport {self.server}: {len(self.passed)} expectations met>"

    def _repr_html_(self) -> str:
        items = "".join(f"<li>&#x2705; {html.escape(p)}</li>" for p in self.passed)
        return f"<b>All {len(self.passed)} expectations met by {html.escape(self.server)}</b><ul>{items}</ul>"


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
