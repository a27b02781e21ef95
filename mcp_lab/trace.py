"""The Trace: the one record every layer appends to and every renderer reads.

An Event is one thing that happened on the wire, in the order it happened:

    send    a line the client wrote          recv    a line the server wrote (a message)
    noise   a stdout line that is not a       stderr  a line of the server's log
            JSON-RPC message (a framing       note    a remark by mcp_lab itself (a probe step)
    http    one raw HTTP exchange (request and reply, each SSE event), for the HTTP transport;
            `line` holds the raw text, `note` a one-line summary, `message` the Exchange
            violation)

Each event keeps the exact text, the parsed message when there is one, the time since the
trace began, and for an answer the round trip from the request it answers.  `peer` names the
server side of the exchange, so one Trace can hold several processes (one lifeline each).

Three renderers read the same events: `text()` for terminals, `_repr_html_()` for notebooks
(long lines folded behind <details>), and `mermaid()`, a sequence diagram that JupyterLab 4
draws natively from the `text/vnd.mermaid` MIME type.
"""

from __future__ import annotations

import html
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from . import jsonrpc

__all__ = ["Event", "Trace", "Diagram"]

_FOLD = 160  # characters of a line shown before folding
_LEGEND = {"send": "client wrote", "recv": "server wrote", "noise": "stdout line that is not JSON-RPC",
           "stderr": "server log", "note": "mcp_lab's reasoning (probe step)",
           "http": "raw HTTP exchange (status, headers, body, SSE events)"}


@dataclass(frozen=True)
class Event:
    kind: str                 # send | recv | noise | stderr | note | http
    line: str                 # the exact text (no trailing newline)
    message: Any = None       # the parsed jsonrpc message, when the line is one
    t: float = 0.0            # seconds since the trace began
    elapsed_ms: float | None = None  # for a recv that answers a send: the round trip
    note: str | None = None   # a remark (why a line is noise, what a probe step concluded)
    peer: str = "server"      # which server side (one lifeline per process)

    @property
    def summary(self) -> str:
        """A short label: the method, the result type, or the error code."""
        m = self.message
        if isinstance(m, jsonrpc.Request):
            return f"{m.method} (id {m.id})"
        if isinstance(m, jsonrpc.Notification):
            return m.method
        if isinstance(m, jsonrpc.Result):
            r = m.result
            rt = r.get("resultType")
            return f"result (id {m.id})" + (f" {rt}" if rt else " [no resultType]")
        if isinstance(m, jsonrpc.Error):
            return f"error {m.code} (id {m.id})"
        if self.kind == "noise":
            return "not a JSON-RPC message"
        if self.kind == "send":
            return self.note or "raw text (not a valid message)"
        if self.kind == "stderr":
            return "stderr"
        if self.kind == "http" and self.note:
            return self.note
        return self.note or self.kind


class Trace:
    """An append-only, thread-safe list of Events (the stderr pump appends from a thread)."""

    def __init__(self, events: Iterable[Event] = (), *, title: str | None = None):
        self._events: list[Event] = list(events)
        self._lock = threading.Lock()
        self._t0 = time.monotonic()
        self._sent_at: dict[tuple[str, Any], float] = {}
        self.title = title

    # -- appending ------------------------------------------------------------------------
    def add(self, kind: str, line: str, message: Any = None, *, note: str | None = None,
            peer: str = "server", at: float | None = None) -> Event:
        now = time.monotonic() if at is None else at
        elapsed = None
        msg_id = getattr(message, "id", None)
        key = (peer, msg_id) if msg_id is not None else None
        with self._lock:
            if kind == "send" and isinstance(message, jsonrpc.Request):
                self._sent_at[key] = now
            elif kind == "recv" and isinstance(message, (jsonrpc.Result, jsonrpc.Error)) and key in self._sent_at:
                elapsed = (now - self._sent_at.pop(key)) * 1000.0
            ev = Event(kind, line, message, now - self._t0, elapsed, note, peer)
            self._events.append(ev)
        return ev

    # -- reading --------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Event]:
        with self._lock:
            return iter(list(self._events))

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, i):
        return self._events[i]

    def of(self, *kinds: str) -> list[Event]:
        return [e for e in self if e.kind in kinds]

    @property
    def sent(self) -> list[str]:
        """The exact lines the client wrote, in order."""
        return [e.line for e in self if e.kind == "send"]

    @property
    def received(self) -> list[str]:
        return [e.line for e in self if e.kind == "recv"]

    @property
    def peers(self) -> list[str]:
        seen: list[str] = []
        for e in self:
            if e.peer not in seen:
                seen.append(e.peer)
        return seen

    # -- renderers ------------------------------------------------------------------------
    _ARROW = {"send": "->", "recv": "<-", "noise": "<!", "stderr": "..", "note": "##", "http": "~~"}

    def text(self, width: int | None = None) -> str:
        out = [self.title] if self.title else []
        multi = len(self.peers) > 1
        for e in self:
            rt = f" ({e.elapsed_ms:.1f} ms)" if e.elapsed_ms is not None else ""
            who = f"[{e.peer}] " if multi else ""
            line = e.line
            if e.kind == "http" and e.note:
                line = e.note  # the raw exchange spans many lines: see e.line, or the HTML view
            line = line if width is None or len(line) <= width else line[: width - 1] + "…"
            extra = f"   # {e.note}" if e.note and e.kind not in ("note", "http") else ""
            out.append(f"{e.t * 1000:9.1f} ms {self._ARROW.get(e.kind, '  ')} {who}{line}{rt}{extra}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<Trace {len(self)} events: {', '.join(e.summary for e in list(self)[:6])}{'…' if len(self) > 6 else ''}>"

    def _repr_html_(self) -> str:
        rows = []
        multi = len(self.peers) > 1
        style = {"send": "#e8f0fe", "recv": "#e6f4ea", "noise": "#fce8e6", "stderr": "#f1f3f4", "note": "#fef7e0",
                 "http": "#f3e8fd"}
        for e in self:
            text = html.escape(e.line)
            if len(e.line) > _FOLD or (e.kind == "http" and "\n" in e.line):
                text = (f"<details><summary><code>{html.escape(e.line[:_FOLD])}…</code></summary>"
                        f"<code style='white-space:pre-wrap;word-break:break-all'>{text}</code></details>")
            else:
                text = f"<code style='white-space:pre-wrap;word-break:break-all'>{text}</code>"
            rt = f"{e.elapsed_ms:.1f}" if e.elapsed_ms is not None else ""
            note = f"<br><i>{html.escape(e.note)}</i>" if e.note and e.kind not in ("note", "http") else ""
            rows.append(
                f"<tr style='background:{style.get(e.kind, '#fff')}'>"
                f"<td style='text-align:right'>{e.t * 1000:.1f}</td>"
                f"<td>{self._ARROW.get(e.kind, '')} {html.escape(e.kind)}</td>"
                + (f"<td>{html.escape(e.peer)}</td>" if multi else "")
                + f"<td>{html.escape(e.summary)}</td><td style='text-align:left'>{text}{note}</td>"
                f"<td style='text-align:right'>{rt}</td></tr>")
        head = ("<tr><th>ms</th><th>dir</th>" + ("<th>peer</th>" if multi else "")
                + "<th>what</th><th style='text-align:left'>exact line</th><th>round trip ms</th></tr>")
        title = f"<b>{html.escape(self.title)}</b>" if self.title else ""
        present = [k for k in style if any(e.kind == k for e in self)]
        legend = " ".join(
            f"<span style='background:{style[k]};padding:0 4px'>{self._ARROW[k]} {k}: {_LEGEND[k]}</span>"
            for k in present)
        return (f"{title}<table style='font-size:12px'>{head}{''.join(rows)}</table>"
                + (f"<div style='font-size:11px'>{legend}</div>" if legend else ""))

    def mermaid(self, *, client: str = "client") -> "Diagram":
        """A sequence diagram: one lifeline for the client, one per server peer."""
        def ident(name: str) -> str:
            return "P" + "".join(ch if ch.isalnum() else "_" for ch in name)

        def label(s: str) -> str:
            # Mermaid treats ';' and '#' specially inside messages; keep labels plain.
            s = s.replace(";", ",").replace("#", "no.").replace("\n", " ")
            return s if len(s) <= 70 else s[:69] + "…"

        lines = ["sequenceDiagram", f"    participant C as {label(client)}"]
        for p in self.peers:
            lines.append(f"    participant {ident(p)} as {label(p)}")
        for e in self:
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

    # -- export ---------------------------------------------------------------------------
    def save(self, path, **header) -> "Any":
        """Write this trace as a cassette (JSON Lines, see mcp_lab.session.cassette); returns the path.

        Keyword arguments go to the header: `server={"era": ..., "command": [...]}`, `how=...`."""
        from mcp_lab.session import cassette
        return cassette.save(self, path, **header)

    @classmethod
    def load(cls, path) -> "Trace":
        """Read a cassette file back into a Trace that renders exactly as the saved one did."""
        from mcp_lab.session import cassette
        return cassette.load(path)

    def to_json(self) -> list[dict]:
        return [{"kind": e.kind, "peer": e.peer, "t_ms": round(e.t * 1000, 3), "line": e.line,
                 "elapsed_ms": None if e.elapsed_ms is None else round(e.elapsed_ms, 3),
                 "note": e.note} for e in self]


class Diagram(str):
    """Mermaid source that JupyterLab draws (text/vnd.mermaid) and a terminal prints."""

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/vnd.mermaid": str(self), "text/plain": str(self)}

