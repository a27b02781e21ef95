"""The Trace's three views: plain text for a terminal, an HTML table for a notebook, and a Mermaid
sequence diagram (JupyterLab 4 draws `text/vnd.mermaid` natively). Pure functions of the events;
`Trace.text()`, `Trace._repr_html_()` and `Trace.mermaid()` call them.
"""

from __future__ import annotations

import html

from mcp_lab.wire import jsonrpc

__all__ = ["as_text", "as_html", "as_mermaid", "Diagram", "ARROW", "LEGEND", "CODE_STYLE", "table_open", "wrap"]

FOLD = 160  # characters of a line shown before folding
# An exact line wraps inside its column: at spaces first (a log line wraps by words), and inside a
# long token only when nothing else fits, so a table never overflows to the right.
CODE_STYLE = "white-space:pre-wrap;overflow-wrap:anywhere"
CELL = "vertical-align:top;text-align:left"  # JupyterLab right-aligns table cells by default


def table_open(widths: list[str]) -> str:
    """A table that fits its output area: fixed layout over the full width, one width per column
    ('' lets a column take what is left), so long lines wrap instead of widening the page."""
    cols = "".join(f"<col style='width:{w}'>" if w else "<col>" for w in widths)
    return (
        "<table style='font-size:12px;table-layout:fixed;width:100%;border-collapse:collapse'>"
        f"<colgroup>{cols}</colgroup>"
    )


_BREAKS = (" ", ",", ":", "{", "[")


def wrap(line: str, width: int) -> list[str]:
    """Split `line` into pieces of at most `width` characters at token boundaries (after a space,
    a comma, a colon, an opening bracket ...); a token longer than `width` is cut as a last resort."""
    pieces = []
    while len(line) > width:
        cut = max(line.rfind(ch, 0, width) for ch in _BREAKS)
        cut = cut + 1 if cut >= width // 3 else width
        pieces.append(line[:cut])
        line = line[cut:]
    return pieces + [line]


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
    """One line per event; with `width`, a longer line wraps at token boundaries, its continuation
    indented under the line it continues (nothing is cut off)."""
    out = [trace.title] if trace.title else []
    multi = len(trace.peers) > 1
    for e in trace:
        rt = f" ({e.elapsed_ms:.1f} ms)" if e.elapsed_ms is not None else ""
        who = f"[{e.peer}] " if multi else ""
        line = e.line
        if e.kind == "http" and e.note:
            line = e.note  # the raw exchange spans many lines: see e.line, or the HTML view
        extra = f"   # {e.note}" if e.note and e.kind not in ("note", "http") else ""
        head = f"{e.t * 1000:9.1f} ms {ARROW.get(e.kind, '  ')} {who}"
        pieces = [line] if width is None else wrap(line, max(20, width))
        out.append(f"{head}{pieces[0]}" + (f"{rt}{extra}" if len(pieces) == 1 else ""))
        out += [" " * len(head) + piece for piece in pieces[1:-1]]
        if len(pieces) > 1:
            out.append(" " * len(head) + pieces[-1] + f"{rt}{extra}")
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
                f"<details><summary><code style='{CODE_STYLE}'>{html.escape(e.line[:FOLD])}…</code></summary>"
                f"<code style='{CODE_STYLE}'>{text}</code></details>"
            )
        else:
            text = f"<code style='{CODE_STYLE}'>{text}</code>"
        rt = f"{e.elapsed_ms:.1f}" if e.elapsed_ms is not None else ""
        note = f"<br><i>{html.escape(e.note)}</i>" if e.note and e.kind not in ("note", "http") else ""
        rows.append(
            f"<tr style='background:{style.get(e.kind, '#fff')}'>"
            f"<td style='vertical-align:top;text-align:right'>{e.t * 1000:.1f}</td>"
            f"<td style='{CELL}'>{ARROW.get(e.kind, '')} {html.escape(e.kind)}</td>"
            + (f"<td style='{CELL}'>{html.escape(e.peer)}</td>" if multi else "")
            + f"<td style='{CELL}'>{html.escape(e.summary)}</td><td style='{CELL}'>{text}{note}</td>"
            f"<td style='vertical-align:top;text-align:right'>{rt}</td></tr>"
        )
    head = (
        f"<tr><th style='{CELL}'>ms</th><th style='{CELL}'>dir</th>"
        + (f"<th style='{CELL}'>peer</th>" if multi else "")
        + f"<th style='{CELL}'>what</th><th style='{CELL}'>exact line</th><th style='{CELL}'>round trip ms</th></tr>"
    )
    widths = ["4.5em", "6em"] + (["8em"] if multi else []) + ["20%", "", "5.5em"]
    title = f"<b>{html.escape(trace.title)}</b>" if trace.title else ""
    present = [k for k in style if any(e.kind == k for e in trace)]
    legend = " ".join(
        f"<span style='background:{style[k]};padding:0 4px'>{ARROW[k]} {k}: {LEGEND[k]}</span>" for k in present
    )
    return f"{title}{table_open(widths)}{head}{''.join(rows)}</table>" + (
        f"<div style='font-size:11px'>{legend}</div>" if legend else ""
    )


def as_mermaid(trace, *, client: str = "client") -> "Diagram":
    """A sequence diagram: one lifeline for the client, one per server peer."""

    def ident(name: str) -> str:
        return "P" + "".join(ch if ch.isalnum() else "_" for ch in name)

    def label(s: str) -> str:
        # Mermaid treats ';' and '#' specially inside messages; keep labels plain. A long label
        # wraps onto lines (<br/>) instead of widening the diagram: JupyterLab scales a diagram
        # down to the page's width, so a wide one (four lifelines) would shrink every label.
        s = s.replace(";", ",").replace("#", "no.").replace("\n", " ")
        pieces = wrap(s, 36)
        if len(pieces) > 3:
            pieces = pieces[:3]
            pieces[-1] = pieces[-1][:34] + "…"
        return "<br/>".join(pieces)

    def note(s: str) -> str:
        # A note wraps onto lines (<br/>) rather than being cut: up to four lines of ~48 characters.
        s = s.replace(";", ",").replace("#", "no.").replace("\n", " ")
        pieces = wrap(s, 48)
        if len(pieces) > 4:
            pieces = pieces[:4]
            pieces[-1] = pieces[-1][:46] + "…"
        return "<br/>".join(pieces)

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
            lines.append(f"    Note right of {p}: {note('stderr: ' + e.line)}")
        elif e.kind == "note":
            lines.append(f"    Note over C: {note(e.line)}")
        elif e.kind == "http":
            lines.append(f"    Note over C,{p}: {note(e.note or 'HTTP exchange')}")
    return Diagram("\n".join(lines))


class Diagram(str):
    """Mermaid source that JupyterLab draws (text/vnd.mermaid) and a terminal prints."""

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/vnd.mermaid": str(self), "text/plain": str(self)}
