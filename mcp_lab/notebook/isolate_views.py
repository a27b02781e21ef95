"""How `isolated()` looks in Jupyter: one row per message, each sent to a fresh server process.

The columns are the process (its label and pid), the request's exact line, the answer's exact
line on a green or red ground, the server's stderr, and the time from spawn to answer.  A line
longer than `FOLD` characters folds behind <details>, its preview ending between tokens.
`isolation_html(iso)` is what `Isolation._repr_html_` returns: the package facade names it to
`mcp_lab.wire.views` under "isolation"; the session layer imports nothing from here.
"""

from __future__ import annotations

import html

from mcp_lab.session.isolate import Isolation
from mcp_lab.wire import jsonrpc
from mcp_lab.wire.trace_views import CELL_STYLE, TABLE_STYLE, code_html
from mcp_lab.wire.words import _
from mcp_lab.wire.wrapping import soft_html, wrap

__all__ = ["isolation_html", "FOLD"]

FOLD = 120  # characters of a line shown before folding in the table


def isolation_html(iso: Isolation) -> str:
    """The Isolation as one table (see the module's docstring)."""

    def code(s: str | None) -> str:
        if not s:
            return ""
        if len(s) <= FOLD:
            return code_html(s)
        # The folded preview ends between tokens, like every other break.
        return f"<details><summary>{code_html(wrap(s, FOLD)[0] + '…')}</summary>{code_html(s)}</details>"

    td = f"style='{CELL_STYLE}'"
    rows = []
    for r in iso.rows:
        colour = "#fce8e6" if (r.error or isinstance(r.answer, jsonrpc.Error) or r.is_error) else "#e6f4ea"
        answer = f"<b>{soft_html(r.summary)}</b><br>{code(r.answer_line)}"
        if r.noise:
            noise = html.escape(_("stdout noise:"))
            answer += "".join(f"<br><i>{noise}</i> {code(n)}" for n in r.noise)
        # One block per stderr line: a line wraps between words, and the next starts afresh.
        stderr = "".join(f"<div style='margin-bottom:2px'>{code(s)}</div>" for s in r.stderr)
        rows.append(
            f"<tr><td style='{CELL_STYLE};white-space:nowrap'><b>{html.escape(r.label)}</b><br>pid {r.pid}</td>"
            f"<td {td}><b>{html.escape(r.method)}</b><br>{code(r.request)}</td>"
            f"<td style='{CELL_STYLE};background:{colour}'>{answer}</td>"
            f"<td style='{CELL_STYLE};font-size:11px;color:#555;min-width:24ch'>{stderr}</td>"
            f"<td style='text-align:right;vertical-align:top'>{r.elapsed_ms:.0f}</td></tr>"
        )
    heads = [_("process"), _("request (exact line)"), _("answer (exact line)"), "stderr", _("spawn to answer, ms")]
    head = "<tr>" + "".join(f"<th {td}>{html.escape(h)}</th>" for h in heads) + "</tr>"
    title = f"<b>isolated({html.escape(iso.server)})</b>: {html.escape(iso.count_line())}"
    return f"{title}<table style='{TABLE_STYLE}'>{head}{''.join(rows)}</table>"
