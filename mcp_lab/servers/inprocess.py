"""The bundled servers in this process, for the browser edition (Pyodide: no child processes).

In a browser tab (`sys.platform == "emscripten"`) nothing can be spawned, so `connect()` asks
here for a server's line handler and drives it over the in-memory transport: same Client, same
Trace, same wire lines.  What stands in for "a fresh process" is a fresh copy of the server's
module, loaded again from its file and never registered in `sys.modules`: its module-level state
(the calendar's EVENTS list) starts over, exactly as a new process's would, and the copy is
dropped with its connection.

"everything", the pinned Node reference server, cannot run here; it answers from its recording
(a cassette made with the installed edition), through the cassette server's Player.  What needs
a real process, Node or an HTTP port (the SDK's servers included) raises one line saying so.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from typing import Callable

from mcp_lab.wire.errors import TransportClosed

__all__ = [
    "IN_BROWSER",
    "INSTALLED_EDITION",
    "RECORDED",
    "NotInBrowser",
    "course_root",
    "in_browser",
    "next_copy_number",
    "serve_line_for",
    "unavailable",
]

IN_BROWSER = sys.platform == "emscripten"
# Where a learner finds the edition that runs real processes (the course's README, "Two commands").
INSTALLED_EDITION = "the installed edition (the course's README.md, section 'Two commands')"
# Servers whose sans-IO handle_line runs unchanged in this process.
MODULES = {
    "calendar": "mcp_lab.servers.calendar",
    "notes": "mcp_lab.servers.notes",
    "future": "mcp_lab.servers.future",
}
# Servers that answer from a recording made with the installed edition (packed in the wheel).
RECORDED = {"everything": "everything.jsonl"}
RECORDINGS = Path(__file__).resolve().parent / "recordings"
WHY = {
    "sdk_calendar": "runs the official SDK as a server process of its own",
    "showcase": "runs the official SDK as a server process of its own",
    "durable": "keeps its calendars in a database file that server processes share",
    "noisy": "is about what a child process writes on its stdout",
}


_copies = itertools.count(1)


def next_copy_number() -> int:
    """1, 2, 3, ...: the number of the next fresh server copy (a browser edition's "pid")."""
    return next(_copies)


class NotInBrowser(TransportClosed):
    """What was asked needs a real process, Node, a port or a compiled wheel: one line says which."""


def in_browser() -> bool:
    """True in the browser edition (Pyodide), where no process can be started."""
    return IN_BROWSER


def course_root(installed: Path) -> Path:
    """Where notebooks/ and labs/ are: `installed` (the checkout), or in the browser the folder
    the Pyodide kernel mounts the site's files at (/drive)."""
    return Path("/drive") if IN_BROWSER else installed


def unavailable(what: str, why: str = "needs a real process") -> NotInBrowser:
    """The one-line error for something the browser edition cannot do."""
    return NotInBrowser(f"{what} cannot run in a browser tab: it {why}. Run this cell in {INSTALLED_EDITION}.")


def _fresh_module(name: str):
    """A new copy of module `name`, run from its file: its module-level state starts over."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:  # pragma: no cover - the package is installed
        raise unavailable(f"the server module {name}", "is not installed here")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serve_line_for(name: str) -> tuple[Callable[[str], bytes | str | None], str]:
    """(a fresh server's line handler, the label to show) for a known short name."""
    if name in MODULES:
        return _fresh_module(MODULES[name]).handle_line, name
    if name in RECORDED:
        from mcp_lab.servers import calendar, cassette

        path = RECORDINGS / RECORDED[name]
        try:
            _header, pairs = cassette.read_pairs(str(path))
        except cassette.BadCassette as e:
            raise unavailable(f"the recording of {name!r}", f"cannot be read ({e})") from None
        player = cassette.Player(pairs, name=f"{name} (recording)")

        def handle_line(line: bytes | str) -> bytes | None:
            return calendar.handle_line(line, player.handle)

        return handle_line, f"{name} (from its recording)"
    if name in WHY:
        raise unavailable(f"the {name!r} server", WHY[name])
    raise unavailable(f"the {name!r} server")
