"""The Trace's three views: plain text for a terminal, an HTML table for a notebook, and a Mermaid
sequence diagram (JupyterLab 4 draws `text/vnd.mermaid` natively). Pure functions of the events;
`Trace.text()`, `Trace._repr_html_()` and `Trace.mermaid()` call them.
"""

from __future__ import annotations

import html

from mcp_lab.wire import jsonrpc

__all__ = ["as_text", "as_html", "as_mermaid", "Diagram", "ARROW", "LEGEND"]

FOLD = 160  # characters of a line shown before folding
LEGEND = {
    "send": "client wrote",
    "recv": "server wrote",
    "noise": "stdout line that is not JSON-RPC",
    "stderr": "server log",
    "note": "mcp_lab's reasoning (probe step)",
    "http": "raw HTTP exchange (status, headers, body, SSE events)",
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
        line = line if width is None or len(line) <= width else line[: width - 1] + "…"
        extra = f"   # {e.note}" if e.note and e.kind not in ("note", "http") else ""
        out.append(f"{e.t * 1000:9.1f} ms {ARROW.get(e.kind, '  ')} {who}{line}{rt}{extra}")
    return "\n".join(out)


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
    for e in trace:
        text = html.escape(e.line)
        if len(e.line) > FOLD or (e.kind == "http" and "\n" in e.line):
            text = (
                f"<details><summary><code>{html.escape(e.line[:FOLD])}…</code></summary>"
                f"<code style='white-space:pre-wrap;word-break:break-all'>{text}</code></details>"
            )
        else:
            text = f"<code style='white-space:pre-wrap;word-break:break-all'>{text}</code>"
        rt = f"{e.elapsed_ms:.1f}" if e.elapsed_ms is not None else ""
        note = f"<br><i>{html.escape(e.note)}</i>" if e.note and e.kind not in ("note", "http") else ""
        rows.append(
            f"<tr style='background:{style.get(e.kind, '#fff')}'>"
            f"<td style='text-align:right'>{e.t * 1000:.1f}</td>"
            f"<td>{ARROW.get(e.kind, '')} {html.escape(e.kind)}</td>"
            + (f"<td>{html.escape(e.peer)}</td>" if multi else "")
            + f"<td>{html.escape(e.summary)}</td><td style='text-align:left'>{text}{note}</td>"
            f"<td style='text-align:right'>{rt}</td></tr>"
        )
    head = (
        "<tr><th>ms</th><th>dir</th>"
        + ("<th>peer</th>" if multi else "")
        + "<th>what</th><th style='text-align:left'>exact line</th><th>round trip ms</th></tr>"
    )
    title = f"<b>{html.escape(trace.title)}</b>" if trace.title else ""
    present = [k for k in style if any(e.kind == k for e in trace)]
    legend = " ".join(
        f"<span style='background:{style[k]};padding:0 4px'>{ARROW[k]} {k}: {LEGEND[k]}</span>" for k in present
    )
    return f"{title}<table style='font-size:12px'>{head}{''.join(rows)}</table>" + (
        f"<div style='font-size:11px'>{legend}</div>" if legend else ""
    )


def as_mermaid(trace, *, client: str = "client") -> "Diagram":
    """A sequence diagram: one lifeline for the client, one per server peer."""

    def ident(name: str) -> str:
        return "P" + "".join(ch if ch.isalnum() else "_" for ch in name)

    def label(s: str) -> str:
        # Mermaid treats ';' and '#' specially inside messages; keep labels plain.
        s = s.replace(";", ",").replace("#", "no.").replace("\n", " ")
        return s if len(s) <= 70 else s[:69] + "…"

    lines = ["sequenceDiagram", f"    participant C as {label(client)}"]
    for p in trace.peers:
        lines.append(f"    participant {ident(p)} as {label(p)}")
    for e in trace:
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
            lines.append(f"    {p}--xC: {label('stdout noise: ' + e.line)}")
        elif e.kind == "stderr":
            lines.append(f"    Note right of {p}: {label('stderr: ' + e.line)}")
        elif e.kind == "note":
            lines.append(f"    Note over C: {label(e.line)}")
        elif e.kind == "http":
            lines.append(f"    Note over C,{p}: {label(e.note or 'HTTP exchange')}")
    return Diagram("\n".join(lines))


class Diagram(str):
    """Mermaid source that JupyterLab draws (text/vnd.mermaid) and a terminal prints."""

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/vnd.mermaid": str(self), "text/plain": str(self)}
