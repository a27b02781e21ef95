"""What every lab check shares: one failure type and one way to word a failure.

`CheckFailed` is the one failure type of every lab, so that one `except CheckFailed` covers
them all; `CheckReport` the one success.  `failure()` builds its one-paragraph message in a fixed
order -- what was expected, what came back, which rule of the specification says so, and a hint
-- so a learner reads every lab's verdict the same way.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from mcp_lab.wire import views
from mcp_lab.wire.words import _, ngettext

if TYPE_CHECKING:
    from mcp_lab.session.isolate import Row

__all__ = ["CheckFailed", "CheckReport", "failure", "shown", "is_placeholder", "show_in_one_line"]


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
        lines = [self.headline(self.server) + ":"]
        ok = _("ok")
        lines += [f"  {ok}  {p}" for p in self.passed]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<CheckReport {self.server}: {len(self.passed)} expectations met>"

    def _repr_html_(self) -> str | None:
        """Jupyter's view, drawn by the notebook layer (`mcp_lab.notebook.check_views`)."""
        return views.html("check-report", self)

    def headline(self, server: str) -> str:
        """ "All n expectations met by `server`" (the caller escapes `server` for a page)."""
        n = len(self.passed)
        return ngettext("All {n} expectation met by {server}", "All {n} expectations met by {server}", n).format(
            n=n, server=server
        )


def shown(value: Any, limit: int = 300) -> str:
    """A value as compact JSON (or repr), cut to `limit` characters for a one-paragraph message."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


SPEC = "https://modelcontextprotocol.io/specification/2026-07-28/"
_PAGE = re.compile(r"^(?:basic|server|client)/[a-z/-]*(?:#[a-z0-9-]+)?(?=[:\s(]|$)")


def failure(what: str, *, expected: str, got: str, rule: str, hint: str) -> CheckFailed:
    """A CheckFailed whose message is one paragraph: expected, got, rule, hint.

    A rule that opens with a page of the specification ("basic/patterns/mrtr: ...") gets that
    page's public address, so the learner can click through to it.  Each part is looked up in the
    edition's catalog as it is given (a lab check that marks its constant wording with N_ gets it
    translated; a part with values formatted in shows as written)."""
    expected, rule, hint = _(expected), _(rule), _(hint)
    hint = hint if hint.endswith((".", "?", "!")) else hint + "."
    rule = _PAGE.sub(lambda m: SPEC + m.group(0), rule, count=1)
    return CheckFailed(
        _("{what}: expected {expected}; got {got}. Spec rule: {rule}. Hint: {hint}").format(
            what=what, expected=expected, got=got, rule=rule, hint=hint
        )
    )


def is_placeholder(value: Any) -> bool:
    """`...` (Ellipsis), None, or text still holding the template's marker."""
    if value is ... or value is None:
        return True
    return isinstance(value, str) and (not value.strip() or value.strip() == "..." or "YOUR CODE HERE" in value)


def _one_line(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None) -> list[str]:
    """IPython's custom traceback for CheckFailed: the sentence, not the checker's frames.

    IPython 9 only calls the handler (it shows nothing itself), so the handler shows the error
    through the shell's own `_showtraceback`: the kernel then sends the usual error message
    (ename CheckFailed, evalue the sentence), with a one-line traceback."""
    stb = [f"{etype.__name__}: {value}"]
    shell._showtraceback(etype, value, stb)
    return stb


def show_in_one_line(shell: Any = None) -> bool:
    """Make an IPython shell show a failing check as its one paragraph; True when registered.

    A check's failure is a verdict on the learner's work, not a bug in the checker, so the
    frames of the check's own code (about twenty lines of them) only hide the sentence that
    says what to change.  IPython lets a program render chosen exception types itself
    (`set_custom_exc`); the cell still fails (nbclient, nbgrader and Run All see an error named
    CheckFailed), it just reads as one line.  Another program's custom handler is left alone.
    Called on import, so any notebook that imports a check gets it; outside IPython it does
    nothing.
    """
    if shell is None:
        ipython = sys.modules.get("IPython")  # never import IPython just to look for it
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    if shell.custom_exceptions not in ((), (CheckFailed,)):
        return False
    shell.set_custom_exc((CheckFailed,), _one_line)
    return True


show_in_one_line()
