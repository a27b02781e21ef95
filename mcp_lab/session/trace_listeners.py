"""Who hears the Traces of this process: the listeners a run registers, and the wire log file.

Theory of operation.  A Trace (`mcp_lab.wire.trace`) does no I/O and keeps no registry: it hands
each event to the one `on_event` callback it was built with, as httpcore's request tracing hands
named events to one `trace` extension.  A Trace built without one (by `Client`, `isolated()`,
`replay()`, a notebook cell) reports to `announce` below, which the package facade names as the
listener for those (`mcp_lab/__init__.py`).  This module is the layer that owns the run:

* `listen(fn)` / `unlisten(fn)`: `fn(trace, event)` is called after every event of every Trace
  that reports here, in the appending thread; the pytest plugin's wire check listens this way;
* the wire log: when this process was started with MCP_LAB_WIRE_LOG naming a file (the pytest
  plugin sets it for the processes a run starts: notebook kernels under nbclient, a pytest in a
  subprocess), each `send` / `recv` event is appended to that file as one JSON line (pid, trace
  id, peer, kind, line, deliberate).  The variable is read once, when this module is imported;
  `log_messages_to(path)` changes the file (None: no log), as the plugin does for its own
  process, whose listener already sees every message.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_lab.wire.trace import Event, Trace

__all__ = ["WIRE_LOG_ENV", "announce", "listen", "unlisten", "listening", "log_messages_to", "wire_log"]

WIRE_LOG_ENV = "MCP_LAB_WIRE_LOG"
Listener = Callable[["Trace", "Event"], None]

_listeners: list[Listener] = []
_lock = threading.Lock()
_log_path: str | None = os.environ.get(WIRE_LOG_ENV) or None


def listen(fn: Listener) -> None:
    """Call `fn(trace, event)` after every event any reporting Trace records (until `unlisten`)."""
    with _lock:
        _listeners.append(fn)


def unlisten(fn: Listener) -> None:
    with _lock:
        if fn in _listeners:
            _listeners.remove(fn)


def listening() -> list[Listener]:
    """The listeners registered now (a copy)."""
    with _lock:
        return list(_listeners)


def log_messages_to(path: str | None) -> None:
    """Append every `send` / `recv` event to `path` from now on (None: to no file)."""
    global _log_path
    _log_path = path or None


def wire_log() -> str | None:
    """The file this process appends its messages to, or None."""
    return _log_path


def announce(trace: "Trace", ev: "Event") -> None:
    """The listener of every Trace built without its own: the registered listeners, then the log."""
    for fn in listening():
        fn(trace, ev)
    path = _log_path
    if path and ev.kind in ("send", "recv"):
        _append(path, trace, ev)


def _append(path: str, trace: "Trace", ev: "Event") -> None:
    """One JSON line per message, appended in one write (O_APPEND: writers do not interleave)."""
    record = {"pid": os.getpid(), "trace": trace.id, "peer": ev.peer, "kind": ev.kind, "line": ev.line}
    if ev.deliberate:
        record["deliberate"] = ev.deliberate
    data = (json.dumps(record, ensure_ascii=True) + "\n").encode("ascii")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
    except OSError as e:  # the log is a diagnostic aid: say so once per message, never break the call
        print(f"mcp_lab: cannot append to {WIRE_LOG_ENV}={path}: {e}", file=sys.stderr)
