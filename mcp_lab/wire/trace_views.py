"""The Trace's three views: plain text for a terminal, an HTML table for a notebook, and a Mermaid
sequence diagram (JupyterLab 4 draws `text/vnd.mermaid` natively). Pure functions of the events;
`Trace.text()`, `Trace._repr_html_()` and `Trace.mermaid()` call them.
"""

from __future__ import annotations

import html

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.words import N_, _, ngettext
from mcp_lab.wire.wrapping import soft_html, wrap

__all__ = [
    "as_text", "as_html", "as_mermaid", "code_html", "tracebacks", "Diagram", "ARROW", "LEGEND", "TABLE_STYLE",
    "CELL_STYLE",
]  # fmt: skip

FOLD = 160  # characters of a line shown before folding
# JupyterLab's own table style right-aligns and centres every cell; a wire table reads left to
# right, top to bottom. `table-layout:auto` lets a column take the width its content needs;
# `max-width:100%` keeps the table inside the output area (no horizontal scroll bar).
TABLE_STYLE = "font-size:12px;table-layout:auto;width:auto;max-width:100%;border-collapse:collapse"
CELL_STYLE = "text-align:left;vertical-align:top"
# Break only where `<wbr>` says (between JSON tokens): never in the middle of a key or a date.
CODE_STYLE = "white-space:pre-wrap;word-break:normal;overflow-wrap:normal"
LABEL_WIDTH = 28  # characters of a Mermaid message or note per line (longer ones wrap, never cut)
LEGEND = {
    "send": N_("client wrote"),
    "recv": N_("server wrote"),
    "noise": N_("stdout line that is not JSON-RPC"),
    "stderr": N_("server log"),
    "note": N_("mcp_lab's reasoning (probe step)"),
    "http": N_("raw HTTP exchange (status, headers, body, SSE events)"),
}
ARROW = {"send": "->", "recv": "<-", "noise": "<!", "stderr": "..", "note": "##", "http": "~~"}


def as_text(trace, width: int | None = None) -> str:
    out = [trace.title] if trace.title else []
    multi = len(trace.peers) > 1
    for e in trace:
        rt = f" ({e.elapsed_ms:.1f} ms)" if e.elapsed_ms is not None else ""
        who = f"[{e.peer}] " if multi else ""
        line = e.line
        if e.kind == "http" and e.note:
            line = e.note  # the raw exchange spans many lines: see e.line, or the HTML view
        extra = f"   # {_(e.note)}" if e.note and e.kind not in ("note", "http") else ""
        head = f"{e.t * 1000:9.1f} ms {ARROW.get(e.kind, '  ')} "
        body = f"{who}{line}{rt}{extra}"
        if width is None:
            out.append(head + body)
            continue
        # Continuation lines start under the message, broken between JSON tokens, never inside one.
        lines = wrap(body, max(20, width - len(head)))
        out.append(head + lines[0])
        out.extend(" " * len(head) + rest for rest in lines[1:])
    return "\n".join(out)


def code_html(text: str) -> str:
    """One exact line as HTML code that wraps between JSON tokens only."""
    return f"<code style='{CODE_STYLE}'>{soft_html(text)}</code>"


_CHAINED = ("Traceback (most recent call last)", "During handling of the above exception", "The above exception")


def tracebacks(events: list) -> list[tuple[int, int]]:
    """(start, end) of each run of stderr events that is one Python traceback (end exclusive):
    "Traceback (most recent call last):", its indented frames, the exception line, and any
    chained traceback after it. A trace table shows each as one row."""
    runs, i = [], 0
    while i < len(events):
        e = events[i]
        if e.kind != "stderr" or not e.line.startswith("Traceback (most recent call last)"):
            i += 1
            continue
        j = i + 1
        while j < len(events) and events[j].kind == "stderr" and events[j].peer == e.peer:
            line = events[j].line
            j += 1
            if line.startswith((" ", "\t")) or not line.strip() or line.startswith(_CHAINED):
                continue
            # The exception line ends it, unless a chained traceback follows.
            nxt = events[j].line if j < len(events) and events[j].kind == "stderr" else None
            if nxt is None or not (not nxt.strip() or nxt.startswith(_CHAINED)):
                break
        runs.append((i, j))
        i = j
    return runs


def _traceback_row(events: list, style: dict, multi: bool) -> str:
    first, last = events[0], events[-1]
    lines = "\n".join(e.line for e in events)
    body = (
        f"<details><summary>{code_html(last.line)}</summary>"
        f"<pre style='margin:0;white-space:pre-wrap;word-break:normal;overflow-wrap:break-word'>"
        f"{html.escape(lines)}</pre></details>"
    )
    return (
        f"<tr style='background:{style['stderr']};{CELL_STYLE}'>"
        f"<td style='text-align:right;vertical-align:top;white-space:nowrap'>{first.t * 1000:.1f}</td>"
        f"<td style='{CELL_STYLE};white-space:nowrap'>{ARROW['stderr']} stderr</td>"
        + (f"<td style='{CELL_STYLE}'>{html.escape(first.peer)}</td>" if multi else "")
        + f"<td style='{CELL_STYLE};min-width:12ch'>"
        + html.escape(ngettext("traceback ({n} line)", "traceback ({n} lines)", len(events)).format(n=len(events)))
        + "</td>"
        + f"<td style='{CELL_STYLE}'>{body}</td><td></td></tr>"
    )


def as_html(trace) -> str:
    rows = []
    multi = len(trace.peers) > 1
    style = {
        "send": "#e8f0fe",
        "recv": "#e6f4ea",
        "noise": "#fce8e6",
        "stderr": "#f1f3f4",
        "note": "#fef7e0",
        "http": "#f3e8fd",
    }
    events = list(trace)
    folded = {start: end for start, end in tracebacks(events)}
    skip_to = 0
    for n, e in enumerate(events):
        if n < skip_to:
            continue
        if n in folded:  # a traceback the server wrote, line by line: one row, the rest folded
            rows.append(_traceback_row(events[n : folded[n]], style, multi))
            skip_to = folded[n]
            continue
        text = code_html(e.line)
        if len(e.line) > FOLD or (e.kind == "http" and "\n" in e.line):
            text = f"<details><summary>{code_html(wrap(e.line, FOLD)[0] + '…')}</summary>{text}</details>"
        rt = f"{e.elapsed_ms:.1f}" if e.elapsed_ms is not None else ""
        # A note is recorded in English (code reads it); a marked one shows in the edition's language.
        note = f"<br><i>{html.escape(_(e.note))}</i>" if e.note and e.kind not in ("note", "http") else ""
        rows.append(
            f"<tr style='background:{style.get(e.kind, '#fff')};{CELL_STYLE}'>"
            f"<td style='text-align:right;vertical-align:top;white-space:nowrap'>{e.t * 1000:.1f}</td>"
            f"<td style='{CELL_STYLE};white-space:nowrap'>{ARROW.get(e.kind, '')} {html.escape(e.kind)}</td>"
            + (f"<td style='{CELL_STYLE}'>{html.escape(e.peer)}</td>" if multi else "")
            + f"<td style='{CELL_STYLE};min-width:12ch'>{soft_html(e.summary)}</td>"
            f"<td style='{CELL_STYLE}'>{text}{note}</td>"
            f"<td style='text-align:right;vertical-align:top'>{rt}</td></tr>"
        )
    th = f"style='{CELL_STYLE}'"
    words = {
        "dir": _("dir"),
        "peer": _("peer"),
        "what": _("what"),
        "line": _("exact line"),
        "rtt": _("round trip ms"),
    }
    head = (
        f"<tr><th {th}>ms</th><th {th}>{words['dir']}</th>"
        + (f"<th {th}>{words['peer']}</th>" if multi else "")
        + f"<th {th}>{words['what']}</th><th {th}>{words['line']}</th><th {th}>{words['rtt']}</th></tr>"
    )
    title = f"<b>{html.escape(trace.title)}</b>" if trace.title else ""
    present = [k for k in style if any(e.kind == k for e in trace)]
    legend = " ".join(
        f"<span style='background:{style[k]};padding:0 4px'>{ARROW[k]} {k}: {html.escape(_(LEGEND[k]))}</span>"
        for k in present
    )
    return f"{title}<table style='{TABLE_STYLE}'>{head}{''.join(rows)}</table>" + (
        f"<div style='font-size:11px'>{legend}</div>" if legend else ""
    )


def mermaid_label(s: str, width: int = LABEL_WIDTH, limit: int = 8) -> str:
    """A message or note for Mermaid: wrapped between tokens with `<br/>`, never cut mid-word.

    Mermaid treats ';' and '#' specially inside messages, so they are replaced. A text longer
    than `limit` lines ends with a line that says how much is left and where to read it."""
    s = s.replace(";", ",").replace("#", "no.").replace("\n", " ")
    lines = wrap(s, width)
    if len(lines) > limit:
        rest = sum(len(x) for x in lines[limit - 1 :])
        lines = lines[: limit - 1] + [_("(+{n} characters: see trace.text())").format(n=rest)]
    return "<br/>".join(lines)


# JupyterLab draws a diagram as an image scaled down to the output's width (about 970 px at
# 1400x1000 with the file browser open), so a diagram's natural width decides its font size:
# Mermaid's defaults made a four-lifeline exchange 1589 px wide, its 16 px labels shown at 9.7 px.
# Narrower actor boxes and margins, labels wrapped at LABEL_WIDTH, and stderr notes drawn over
# their lifeline (not to its right) keep five lifelines within 961 px: labels at 16 px
# (measured in tests/browser). The directive sits after the first line so the source still
# starts with "sequenceDiagram".
MERMAID_INIT = (
    '%%{init: {"sequence": {"useMaxWidth": false, "wrap": false, "width": 110, "actorMargin": 30, "noteMargin": 6}}}%%'
)


def as_mermaid(trace, *, client: str | None = None, limit: int | None = None) -> "Diagram":
    """A sequence diagram: one lifeline for the client, one per server peer.

    `limit` keeps the diagram to a page: only the last `limit` events are drawn, after a note
    saying how many earlier ones were left out (the Trace's table still holds them all).
    """

    def ident(name: str) -> str:
        return "P" + "".join(ch if ch.isalnum() else "_" for ch in name)

    label = mermaid_label
    client = _("client") if client is None else client
    lines = ["sequenceDiagram", f"    {MERMAID_INIT}", f"    participant C as {label(client)}"]
    for p in trace.peers:
        lines.append(f"    participant {ident(p)} as {label(p)}")
    events = list(trace)
    if limit is not None and len(events) > limit:
        left_out = len(events) - limit
        gone = ngettext("{n} earlier event left out", "{n} earlier events left out", left_out).format(n=left_out)
        lines.append(f"    Note over C: {label(gone)}")
        events = events[len(events) - limit :]
    for e in events:
        p = ident(e.peer)
        if e.kind == "send":
            lines.append(f"    C->>{p}: {label(e.summary)}")
        elif e.kind == "recv":
            arrow = "--x" if isinstance(e.message, jsonrpc.Error) else "-->>"
            extra = ""
            if isinstance(e.message, jsonrpc.Error):
                extra = f" {e.message.message}"
            lines.append(f"    {p}{arrow}C: {label(e.summary + extra)}")
        elif e.kind == "noise":
            noise = _("stdout noise: {line}").format(line=e.line)
            lines.append(f"    {p}--xC: {label(noise)}")
        elif e.kind == "stderr":
            lines.append(f"    Note over {p}: {label('stderr: ' + e.line)}")
        elif e.kind == "note":
            lines.append(f"    Note over C: {label(e.line)}")
        elif e.kind == "http":
            exchange = e.note or _("HTTP exchange")
            lines.append(f"    Note over C,{p}: {label(exchange)}")
    return Diagram("\n".join(lines))


class Diagram(str):
    """Mermaid source that JupyterLab draws (text/vnd.mermaid) and a terminal prints."""

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/vnd.mermaid": str(self), "text/plain": str(self)}
