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

Three renderers read the same events (`mcp_lab.wire.trace_views`): `text()` for terminals,
`_repr_html_()` for notebooks (long lines folded behind <details>), and `mermaid()`, a sequence
diagram that JupyterLab 4 draws natively from the `text/vnd.mermaid` MIME type.

The listener.  `Trace(on_event=fn)` calls `fn(trace, event)` after each append, in the appending
thread (as httpcore's request tracing hands named events to one callback: here an Event's `kind`
is its name).  The Trace keeps no registry, reads no environment and writes no file: whoever
builds it owns its listener.  A Trace built without one reports to the listener the package
facade names with `use_default_listener` (the session layer's `trace_listeners.announce`, where
the test suite's wire check listens and the MCP_LAB_WIRE_LOG file is written).

Deliberate.  A message a lesson breaks on purpose is marked where it is made: `add(...,
deliberate="why")` keeps the reason on the Event, so a checker can count it apart instead of
calling it invalid (or silently skipping it).

The caller owns the Trace: `Client(trace=...)` appends to the one it is given (`isolated()` gives
every process the same one), and `note()` is the public way to add a remark of one's own (the
probe's reasoning). Event kinds are the `EventKind` literals, checked in `add()` and nowhere else.
"""

from __future__ import annotations

import itertools
import json
import os  # getpid only: a Trace id unique across the processes of one run
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Literal, Protocol, TypeGuard, get_args

from mcp_lab.wire import jsonrpc, trace_views
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.trace_views import Diagram

__all__ = ["Event", "EventKind", "EVENT_KINDS", "Trace", "Diagram", "Listener", "use_default_listener"]

EventKind = Literal["send", "recv", "noise", "stderr", "note", "http"]
EVENT_KINDS: frozenset[str] = frozenset(get_args(EventKind))


def _is_event_kind(kind: str) -> TypeGuard[EventKind]:
    return kind in EVENT_KINDS


_TYPED_ID = re.compile(r'"id"\s*:\s*(-?\d+|"[^"\\]*")')
_TRACE_IDS = itertools.count(1)
Listener = Callable[["Trace", "Event"], None]
_DEFAULT_LISTENER: Listener | None = None


def use_default_listener(listener: Listener | None) -> None:
    """Name the listener of every Trace built without `on_event` (from then on).  The package
    facade names the session layer's `trace_listeners.announce`, so this sans-IO layer imports no
    layer above it and holds no list of listeners of its own."""
    global _DEFAULT_LISTENER
    _DEFAULT_LISTENER = listener


class CassetteFiles(Protocol):
    """What `Trace.save` and `Trace.load` hand the Trace to: `mcp_lab.session.cassette`."""

    def save(self, trace: "Trace", path: Any, **header: Any) -> Any: ...

    def load(self, path: Any) -> "Trace": ...


_CASSETTE_FILES: Callable[[], CassetteFiles] | None = None


def use_cassette_files(provider: Callable[[], CassetteFiles]) -> None:
    """Name what reads and writes Traces on disk: `provider()` returns it when a Trace is first
    saved or loaded.  The package facade (`mcp_lab/__init__.py`) names the session layer's
    cassette module, so this sans-IO layer imports no layer above it and does no I/O itself."""
    global _CASSETTE_FILES
    _CASSETTE_FILES = provider


def _cassettes() -> CassetteFiles:
    if _CASSETTE_FILES is None:  # only when mcp_lab/__init__.py did not run: never through `import mcp_lab`
        raise RuntimeError("Trace.save/Trace.load need mcp_lab.session.cassette: import mcp_lab first")
    return _CASSETTE_FILES()


@dataclass(frozen=True)
class Event:
    kind: EventKind
    line: str  # the exact text (no trailing newline)
    message: Any = None  # the parsed jsonrpc message, when the line is one
    t: float = 0.0  # seconds since the trace began
    elapsed_ms: float | None = None  # for a recv that answers a send: the round trip
    note: str | None = None  # a remark (why a line is noise, what a probe step concluded)
    peer: str = "server"  # which server side (one lifeline per process)
    era: Era | None = None  # LEGACY when the trace shows a 2025-11-25 exchange (an initialize answer)
    deliberate: str | None = None  # why this message is broken on purpose (a lesson's point)

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
            if rt:
                return f"result (id {m.id}) {rt}"
            # A legacy-era result has no resultType by design; a modern one must carry it.
            return f"legacy result (id {m.id})" if self.era == Era.LEGACY else f"result (id {m.id}) [no resultType]"
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

    def __init__(self, events: Iterable[Event] = (), *, title: str | None = None, on_event: Listener | None = None):
        self._events: list[Event] = list(events)
        # Who hears each event added from now on: the caller's, else the one the facade named.
        self.on_event: Listener | None = on_event if on_event is not None else _DEFAULT_LISTENER
        self._lock = threading.Lock()
        self._t0 = time.monotonic()
        self._sent_at: dict[tuple[str, Any], float] = {}
        self._methods: dict[tuple[str, Any], str] = {}  # (peer, id) -> method of the request sent
        self._legacy_peers: set[str] = set()  # peers that answered an initialize
        self._ids: set = set()  # every request/answer id seen on the wire, both ways
        # Events given (a slice of another trace, a loaded cassette): learn their ids and eras the
        # way add() would, so a legacy answer read back is still labelled legacy.
        for i, e in enumerate(self._events):
            msg_id = getattr(e.message, "id", None)
            if e.kind == "send" and isinstance(e.message, jsonrpc.Request):
                self._methods[(e.peer, msg_id)] = e.message.method
            self._remember_ids(e.kind, e.line, msg_id, e.peer)
            if e.kind == "recv" and isinstance(e.message, jsonrpc.Result) and e.era is None:
                if e.peer in self._legacy_peers or self._methods.get((e.peer, msg_id)) == "initialize":
                    self._events[i] = e = replace(e, era=Era.LEGACY)
            if e.era == Era.LEGACY:
                self._legacy_peers.add(e.peer)
        self.title = title
        self.id = f"{os.getpid()}-{next(_TRACE_IDS)}"  # unique across the processes of one run

    # -- appending ------------------------------------------------------------------------
    def add(
        self,
        kind: str,
        line: str,
        message: Any = None,
        *,
        note: str | None = None,
        peer: str = "server",
        at: float | None = None,
        era: Era | None = None,
        deliberate: str | None = None,
    ) -> Event:
        if not _is_event_kind(kind):
            raise ValueError(f"unknown event kind {kind!r}; one of {sorted(EVENT_KINDS)}")
        now = time.monotonic() if at is None else at
        elapsed = None
        msg_id = getattr(message, "id", None)
        key = (peer, msg_id)  # (peer, None) for a message without an id: no request is ever filed under it
        with self._lock:
            if kind == "send" and isinstance(message, jsonrpc.Request):
                self._sent_at[key] = now
                self._methods[key] = message.method
            elif kind == "recv" and isinstance(message, (jsonrpc.Result, jsonrpc.Error)) and key in self._sent_at:
                elapsed = (now - self._sent_at.pop(key)) * 1000.0
            if kind == "recv" and isinstance(message, jsonrpc.Result) and self._methods.get(key) == "initialize":
                self._legacy_peers.add(peer)
            if era is None and kind == "recv" and peer in self._legacy_peers:
                era = Era.LEGACY
            self._remember_ids(kind, line, msg_id, peer)
            ev = Event(kind, line, message, now - self._t0, elapsed, note, peer, era, deliberate)
            self._events.append(ev)
        if self.on_event is not None:
            self.on_event(self, ev)
        return ev

    def _remember_ids(self, kind: str, line: str, msg_id: Any, peer: str) -> None:
        if kind not in ("send", "recv"):
            return
        if msg_id is not None:
            self._ids.add(msg_id)
            return
        # Raw text the learner typed (maybe several lines, maybe invalid): any id it names counts.
        for part in line.split("\n"):
            try:
                obj = json.loads(part)
            except ValueError:
                # Cut or garbled: an id the learner typed is still one they may look for.
                found = _TYPED_ID.search(part)
                if found:
                    self._ids.add(json.loads(found.group(1)))
                continue
            if isinstance(obj, dict) and isinstance(obj.get("id"), (int, str)):
                self._ids.add(obj["id"])
                if kind == "send" and isinstance(obj.get("method"), str):
                    self._methods[(peer, obj["id"])] = obj["method"]

    def ids_seen(self) -> set:
        """Every id that crossed the wire in this trace (requests sent, answers received)."""
        with self._lock:
            return set(self._ids)

    def is_legacy_answer(self, peer: str, msg_id: Any) -> bool:
        """True when an answer with this id from `peer` belongs to the legacy era: it answers an
        `initialize`, or the peer already answered one (a 2025-11-25 session)."""
        with self._lock:
            return peer in self._legacy_peers or self._methods.get((peer, msg_id)) == "initialize"

    def note(self, text: str, *, peer: str = "server") -> Event:
        """Add a remark of mcp_lab's own (a probe step, a conclusion): shown, never sent."""
        return self.add("note", text, peer=peer)

    # -- reading --------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Event]:
        with self._lock:
            return iter(list(self._events))

    def __len__(self) -> int:
        with self._lock:
            return len(self._events)

    def __getitem__(self, i):
        with self._lock:
            return self._events[i]

    def of(self, *kinds: str) -> list[Event]:
        return [e for e in self if e.kind in kinds]

    @property
    def sent(self) -> list[str]:
        """The exact lines the client wrote, in order."""
        return [e.line for e in self if e.kind == "send"]

    def sent_line(self, msg_id: Any) -> str:
        """The exact line the client wrote for the request with id `msg_id` (KeyError if none)."""
        for e in self:
            if e.kind == "send":
                try:
                    if json.loads(e.line).get("id") == msg_id:
                        return e.line
                except (ValueError, AttributeError):
                    continue
        raise KeyError(f"no request with id {msg_id!r} in this trace")

    @property
    def received(self) -> list[str]:
        return [e.line for e in self if e.kind == "recv"]

    def notifications(self, method: str, *, since: int = 0) -> list[dict]:
        """The params of each `method` notification the client received, from event `since` on."""
        return [
            e.message.params or {}
            for e in list(self)[since:]
            if e.kind == "recv" and isinstance(e.message, jsonrpc.Notification) and e.message.method == method
        ]

    @property
    def peers(self) -> list[str]:
        seen: list[str] = []
        for e in self:
            if e.peer not in seen:
                seen.append(e.peer)
        return seen

    # -- renderers (in mcp_lab.wire.trace_views) --------------------------------------------
    def text(self, width: int | None = None) -> str:
        return trace_views.as_text(self, width)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        events = list(self)
        more = "…" if len(events) > 6 else ""
        return f"<Trace {len(events)} events: {', '.join(e.summary for e in events[:6])}{more}>"

    def _repr_html_(self) -> str:
        return trace_views.as_html(self)

    def html(self) -> str:
        """The HTML table a notebook shows for this trace (the public name of `_repr_html_`)."""
        return trace_views.as_html(self)

    def mermaid(self, *, client: str | None = None, limit: int | None = None) -> "Diagram":
        """A sequence diagram: one lifeline for the client ("client" in the edition's language
        unless named), one per server peer; with `limit`, only the last `limit` events (and a
        note counting the rest)."""
        return trace_views.as_mermaid(self, client=client, limit=limit)

    # -- on disk (a cassette: the file format and its I/O live in the session layer) -------------
    def save(self, path, **header) -> Any:
        """Write this trace as a cassette (JSON Lines); returns the path. Keyword arguments go to
        the header: `server={"era": ..., "command": [...]}`, `how=...`."""
        return _cassettes().save(self, path, **header)

    @classmethod
    def load(cls, path) -> "Trace":
        """Read a cassette file back into a Trace that renders exactly as the saved one did."""
        return _cassettes().load(path)

    # -- export ---------------------------------------------------------------------------
    def to_json(self) -> list[dict]:
        return [
            {
                "kind": e.kind,
                "peer": e.peer,
                "t_ms": round(e.t * 1000, 3),
                "line": e.line,
                "elapsed_ms": None if e.elapsed_ms is None else round(e.elapsed_ms, 3),
                "note": e.note,
            }
            for e in self
        ]
