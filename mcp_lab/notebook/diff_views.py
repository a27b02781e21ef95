"""The HTML view of a TraceDiff: one row per exchange, its changes as JSON paths beneath.

`diff_html(d)` is what `TraceDiff._repr_html_` returns: the package facade names it to
`mcp_lab.wire.views` under "diff", so the session layer never imports upward into notebook/.

A changed exchange lists each difference as a path and the two values (red: only in the
recording, green: only in the new answer); a same exchange is one quiet line; a missing or
extra one says why.  Long values fold behind <details>, so a 13-tool catalog does not flood
the page.  The text view (`TraceDiff.text()`) carries the same information for a terminal.
"""

from __future__ import annotations

import html
import json
from typing import Any

__all__ = ["diff_html"]

_COLOUR = {"same": "#e6f4ea", "changed": "#fef7e0", "missing": "#fce8e6", "extra": "#e8f0fe"}
_FOLD = 90
# Fit a page: fixed column widths, long paths and values wrapped instead of pushing the
# right-hand columns off the edge.
_WRAP = "overflow-wrap:anywhere;word-break:break-word;vertical-align:top;text-align:left"
_FIT = "width:100%;table-layout:fixed;border-collapse:collapse"


def _value(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    esc = html.escape(text)
    if len(text) <= _FOLD:
        return f"<code style='white-space:pre-wrap;{_WRAP}'>{esc}</code>"
    return (
        f"<details><summary><code>{html.escape(text[:_FOLD])}…</code></summary>"
        f"<code style='white-space:pre-wrap;word-break:break-all'>{esc}</code></details>"
    )


def _changes(item) -> str:
    if not item.changes:
        return ""
    rows = []
    for c in item.changes:
        left = _value(c.left) if c.kind != "added" else "<i>absent</i>"
        right = _value(c.right) if c.kind != "removed" else "<i>absent</i>"
        rows.append(
            f"<tr><td style='{_WRAP}'><code>{html.escape(c.where)}</code></td>"
            f"<td style='{_WRAP};background:#fdecea'>{left}</td>"
            f"<td style='{_WRAP};background:#e6f4ea'>{right}</td></tr>"
        )
    return (
        f"<table style='font-size:11px;margin:2px 0 4px 0;{_FIT}'>"
        "<colgroup><col style='width:30%'><col style='width:35%'><col style='width:35%'></colgroup>"
        "<tr><th style='text-align:left'>path</th>"
        "<th style='text-align:left'>recorded</th><th style='text-align:left'>new</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def diff_html(d) -> str:
    """HTML for a `mcp_lab.session.diff.TraceDiff`."""
    c = d.counts
    badge_colour = "#1e8e3e" if d.same else "#c5221f"
    verdict = "same" if d.same else ("partial, different" if d.error else "different")
    head = (
        f"<b>{html.escape(d.left_name)}</b> vs <b>{html.escape(d.right_name)}</b> "
        f"<span style='background:{badge_colour};color:#fff;padding:1px 6px;border-radius:3px'>"
        f"{verdict}</span> " + ", ".join(f"{c[s]} {s}" for s in c)
    )
    notes = "".join(f"<div><i>{html.escape(n)}</i></div>" for n in d.notes)
    if d.error:
        notes += f"<div style='color:#c5221f'>stopped early: {html.escape(d.error)}</div>"
    if d.rules:
        notes += (
            "<div style='font-size:11px'>normalised before comparing: "
            + ", ".join(f"<code>{html.escape(r)}</code>" for r in d.rules)
            + "</div>"
        )
    rows = []
    for n, item in enumerate(d.items, 1):
        left = item.left.outcome if item.left else "—"
        right = item.right.outcome if item.right else "—"
        why = f"<br><i>{html.escape(item.why)}</i>" if item.why else ""
        rows.append(
            f"<tr style='background:{_COLOUR[item.status]}'><td style='{_WRAP}'>{n}</td>"
            f"<td style='{_WRAP}'>{item.status}</td>"
            f"<td style='{_WRAP}'>{html.escape(item.label)}{why}{_changes(item)}</td>"
            f"<td style='{_WRAP}'>{html.escape(left)}</td><td style='{_WRAP}'>{html.escape(right)}</td></tr>"
        )
    table = (
        f"<table style='font-size:12px;{_FIT}'><colgroup><col style='width:4%'><col style='width:9%'>"
        "<col style='width:61%'><col style='width:13%'><col style='width:13%'></colgroup>"
        "<tr><th>#</th><th>status</th><th style='text-align:left'>exchange</th>"
        "<th>recorded</th><th>new</th></tr>" + "".join(rows) + "</table>"
    )
    return f"<div>{head}{notes}{table}</div>"
