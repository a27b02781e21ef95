"""One process per message: the chapter's statelessness experiment as a function.

    iso = mcp_lab.isolated("calendar", [
        ("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}}),
        lambda rows: ("tools/call", {..., "requestState": rows[0].request_state}),
        ("resources/read", {"uri": "calendar://week"}),
    ])
    iso              # an HTML table: process, pid, exact request, exact answer, stderr, ms
    iso.mermaid()    # a sequence diagram with one lifeline per process

Theory of operation.  The 2026-07-28 revision says a server must be able to answer every
request on its own, and that an open stdio process is not a session.  The only honest way to
test that claim is to make it impossible for the server to cheat: every message goes to a
brand-new process (spawn, one request, one answer, close), so nothing can be carried from
one message to the next except what travels in the message itself or what the server put
somewhere that outlives a process (a file, a database).  A message may be a callable that
receives the rows so far and returns the next (method, params): that is how process B gets the
`requestState` process A handed out, exactly as a real client would echo it.

Each process is driven through `mcp_lab.connect`, so the request line is stamped with the
revision's `_meta` like any other request (or not, with `meta=False` in a dict message), and
its trace is copied into one combined Trace whose `peer` is the process label, which is what
gives the diagram one lifeline per process.  A process that dies, or does not answer before
the deadline, becomes a row with `error` set instead of an exception: in this experiment a
crash is an outcome worth showing.
"""

from __future__ import annotations

import string
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from mcp_lab.wire import jsonrpc, views
from mcp_lab.wire.errors import McpError
from mcp_lab.wire.trace import Diagram, Trace
from mcp_lab.wire.words import _, ngettext

__all__ = ["isolated", "Isolation", "Row"]


@dataclass
class Row:
    """What one fresh process did with one message."""

    label: str  # "process A", ...
    method: str
    request: str | None  # the exact line written to the process's stdin
    answer: Any = None  # the parsed answer (jsonrpc.Result or jsonrpc.Error), or None
    answer_line: str | None = None  # the exact line the process wrote back
    stderr: list[str] = field(default_factory=list)
    noise: list[str] = field(default_factory=list)  # stdout lines that were not MCP messages
    elapsed_ms: float = 0.0  # spawn to answer: a fresh process pays its start-up every time
    pid: int | None = None
    exit_code: int | None = None
    error: str | None = None  # why there is no answer (the process died, the deadline passed)
    trace: Trace | None = field(default=None, repr=False)

    # -- what a notebook cell usually wants to assert on ----------------------------------
    @property
    def ok(self) -> bool:
        """True when the process answered with a JSON-RPC result (which may still be isError)."""
        return isinstance(self.answer, jsonrpc.Result)

    @property
    def result(self) -> dict | None:
        return self.answer.result if isinstance(self.answer, jsonrpc.Result) else None

    @property
    def result_type(self) -> str | None:
        """resultType as sent; None when absent (a legacy server) or when the answer is an error."""
        r = self.result
        return None if r is None else r.get("resultType")

    @property
    def request_state(self) -> str | None:
        r = self.result
        return None if r is None else r.get("requestState")

    @property
    def is_error(self) -> bool:
        """True for a tool execution error (a result with isError: true)."""
        r = self.result
        return bool(r and r.get("isError"))

    @property
    def text(self) -> str:
        """The text of the answer: tool content, resource contents, or the error message."""
        if isinstance(self.answer, jsonrpc.Error):
            return self.answer.message
        r = self.result or {}
        parts = [c.get("text", "") for c in r.get("content") or [] if isinstance(c, dict) and c.get("type") == "text"]
        parts += [c.get("text", "") for c in r.get("contents") or [] if isinstance(c, dict) and "text" in c]
        return "\n".join(parts)

    @property
    def structured(self) -> Any:
        r = self.result
        return None if r is None else r.get("structuredContent")

    @property
    def error_code(self) -> int | None:
        return self.answer.code if isinstance(self.answer, jsonrpc.Error) else None

    @property
    def summary(self) -> str:
        """One line: what came back."""
        if self.error is not None:
            return _("no answer: {error}").format(error=self.error)
        if isinstance(self.answer, jsonrpc.Error):
            return _("error {code}: {message}").format(code=self.answer.code, message=self.answer.message)
        r = self.result or {}
        rt = r.get("resultType")
        head = rt if rt else _("result [no resultType]")
        if r.get("isError"):
            head += " (isError)"
        text = self.text
        return head + (f": {text}" if text and len(text) <= 100 else (f": {text[:99]}…" if text else ""))


class Isolation:
    """The rows of one `isolated()` run: as text, as a mermaid diagram, and as an HTML table
    drawn by the notebook layer (`mcp_lab.notebook.isolate_views`)."""

    def __init__(self, server: str, rows: list[Row], trace: Trace):
        self.server = server
        self.rows = rows
        self.trace = trace

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: int | str) -> Row:
        if isinstance(key, str):
            for r in self.rows:
                if r.label == key:
                    return r
            raise KeyError(f"no row labelled {key!r}; the labels are {[r.label for r in self.rows]}")
        return self.rows[key]

    def mermaid(self) -> Diagram:
        """A sequence diagram: the client, and one lifeline per process."""
        return self.trace.mermaid()

    def text(self) -> str:
        out = [f"isolated({self.server}): {self.count_line()}"]
        for r in self.rows:
            out.append(f"{r.label} (pid {r.pid}, {r.elapsed_ms:.0f} ms)")
            out.append(f"  -> {r.request}")
            if r.answer_line is not None:
                out.append(f"  <- {r.answer_line}")
            if r.error is not None:
                out.append(f"  !! {r.error}")
            for n in r.noise:
                out.append(f"  <! {n}   # " + _("not an MCP message: stdout must carry only MCP"))
            for s in r.stderr:
                out.append(f"  .. {s}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return (
            f"<Isolation {self.server}: "
            + "; ".join(f"{r.label} {r.method} -> {r.summary[:40]}" for r in self.rows)
            + ">"
        )

    def count_line(self) -> str:
        """'3 messages, one fresh process each', in the edition's language."""
        n = len(self.rows)
        return ngettext("{n} message, one fresh process each", "{n} messages, one fresh process each", n).format(n=n)

    def _repr_html_(self) -> str | None:
        """Jupyter's view, drawn by the notebook layer (`mcp_lab.notebook.isolate_views`)."""
        return views.html("isolation", self)


def _labels(n: int, given: Sequence[str] | None) -> list[str]:
    if given is not None:
        given = list(given)
        if len(given) != n:
            raise ValueError(f"labels has {len(given)} item(s) but there are {n} message(s)")
        return given
    letters = string.ascii_uppercase
    # The learner reads these in every view (and the diagram's lifelines): the edition's words.
    return [_("process {name}").format(name=letters[i] if i < 26 else i + 1) for i in range(n)]


def _normalise(message: Any, index: int) -> tuple[str, dict | None, bool]:
    """(method, params, meta) from a (method, params) pair or a {method, params[, meta]} dict."""
    if isinstance(message, dict):
        if "method" not in message:
            raise ValueError(f"message {index} is a dict without 'method': {message!r}")
        unknown = set(message) - {"method", "params", "meta"}
        if unknown:
            raise ValueError(f"message {index} has unknown key(s) {sorted(unknown)}; use method, params, meta")
        return message["method"], message.get("params"), bool(message.get("meta", True))
    if isinstance(message, (tuple, list)) and len(message) in (1, 2) and isinstance(message[0], str):
        return message[0], (message[1] if len(message) == 2 else None), True
    raise TypeError(
        f"message {index} must be a (method, params) pair, a {{'method', 'params'}} dict, "
        f"or a callable taking the previous rows; got {message!r}"
    )


def _server_name(server: Any) -> str:
    if isinstance(server, str):
        return server
    argv = list(server)
    return argv[-1].rsplit("/", 1)[-1] if argv else "server"


# Long on purpose: one process per message, start to reap, in one loop a reader follows top to bottom.
def isolated(
    server: str | Sequence[str],
    messages: Iterable[Any],
    *,
    timeout: float = 5.0,
    labels: Sequence[str] | None = None,
    env: dict | None = None,
    cwd: str | None = None,
    capabilities: dict | None = None,
) -> Isolation:
    """Send each message to a fresh server process and return one row per process.

    `server` is a known short name ("calendar", "sdk_calendar", "everything", "durable" with
    its per-user database) or an argv list such as [sys.executable, "path/to/server.py"].
    `messages` holds (method, params) pairs, {"method", "params", "meta"} dicts (meta=False
    sends params without the revision's _meta), or callables that take the rows so far and
    return one of those.  `timeout` is the deadline of each process, spawn to answer, so for
    a server that takes seconds to start (the SDK's) give it room.  `env` is added to the
    environment of every process (a shared key, a database path); `cwd` is their folder.
    `capabilities` is what every request declares, as `connect(capabilities=...)`: nothing by
    default, so a server that must ask the person answers -32021.  A script that answers the
    question itself (the person's answer written into a later message, as the chapter's A, B, C)
    declares `{"elicitation": {"form": {}}}`.
    """
    from mcp_lab.session.connect import connect

    messages = list(messages)
    names = _labels(len(messages), labels)
    rows: list[Row] = []
    # One Trace for the whole run, owned here: every process records into it, on one clock.
    trace = Trace(title=f"isolated({_server_name(server)}): " + _("one process per message"))
    for i, (message, label) in enumerate(zip(messages, names)):
        if callable(message):
            message = message(list(rows))
        method, params, meta = _normalise(message, i)
        started = time.monotonic()
        row = Row(label=label, method=method, request=None)
        client = None
        try:
            first = len(trace)
            client = connect(
                server, timeout=timeout, env=env, cwd=cwd, name=label, trace=trace, capabilities=capabilities
            )
            row.pid = client.transport.describe().pid
            answer = client.request(method, params, meta=meta, timeout=timeout)
            row.elapsed_ms = (time.monotonic() - started) * 1000.0
            row.answer = answer
        except McpError as e:  # TransportClosed (the process died), DeadlineExceeded, an error answer
            row.elapsed_ms = (time.monotonic() - started) * 1000.0
            row.error = e.message
        finally:
            if client is not None:
                row.exit_code = client.close()
        if client is not None:
            mine = [ev for ev in trace[first:] if ev.peer == label]
            for ev in mine:
                if ev.kind == "send" and row.request is None:
                    row.request = ev.line
                elif ev.kind == "recv" and getattr(ev.message, "id", None) == getattr(row.answer, "id", object()):
                    row.answer_line = ev.line
                elif ev.kind == "noise":
                    row.noise.append(ev.line)
            row.stderr = list(client.stderr)
            row.trace = Trace(mine, title=_("{label}: one process").format(label=label))
        rows.append(row)
    return Isolation(_server_name(server), rows, trace)


def flip_one_character(state: str) -> str:
    """The same string with one character in the middle changed: a minimal tampering."""
    if not state:
        return "x"
    i = len(state) // 2
    alphabet = string.ascii_letters + string.digits
    replacement = next(c for c in alphabet if c != state[i])
    return state[:i] + replacement + state[i + 1 :]
