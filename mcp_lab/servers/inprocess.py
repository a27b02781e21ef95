"""The bundled servers in this process, for the browser edition (Pyodide: no child processes).

In a browser tab (`sys.platform == "emscripten"`) nothing can be spawned, so `connect()` asks
here for a server's line handler and drives it over the in-memory transport: same Client, same
Trace, same wire lines.  What stands in for "a fresh process" is a fresh copy of the server's
module, loaded again from its file and never registered in `sys.modules`: its module-level state
(the calendar's EVENTS list) starts over, exactly as a new process's would, and the copy is
dropped with its connection.

"everything", the pinned Node reference server, cannot run here; it answers from its recordings
(cassettes of the real server, made with the installed edition: the chapter's probe, and each
conversation the lessons have with it, tools/record_reference_sessions.py), through the cassette
server's SessionPlayer: a connection follows the recorded conversation its messages repeat.  What needs
a real process, Node or an HTTP port (the SDK's servers included) raises one line saying so.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import sys
from pathlib import Path
from typing import Callable

from mcp_lab.wire.errors import TransportClosed
from mcp_lab.wire.words import N_, _

__all__ = [
    "IN_BROWSER",
    "INSTALLED_EDITION",
    "RECORDED",
    "NotInBrowser",
    "course_cassette",
    "course_root",
    "in_browser",
    "next_copy_number",
    "serve_argv",
    "serve_line_for",
    "unavailable",
]

IN_BROWSER = sys.platform == "emscripten"
# Where a learner finds the edition that runs real processes (the course's README, "Two commands").
INSTALLED_EDITION = N_("the installed edition (the course's README.md, section 'Two commands')")
# Servers whose sans-IO handle_line runs unchanged in this process.
MODULES = {
    "calendar": "mcp_lab.servers.calendar",
    "notes": "mcp_lab.servers.notes",
    "future": "mcp_lab.servers.future",
    "paged": "mcp_lab.servers.paged",
}
# Servers that answer from recordings made with the installed edition: a folder of cassettes
# each (packed in the wheel by tools/lite_build.py).
RECORDED = {"everything": "everything"}
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


def course_cassette(path: str | os.PathLike) -> Path | None:
    """In the browser edition, the packed copy of the course's cassette named like `path`; else None.

    JupyterLite 0.8 parses every file of the site whose extension contains "json" as JSON, so the
    kernel cannot open the course's .jsonl cassettes among the site's files (a listing shows them,
    opening one fails).  tools/lite_build.py packs notebooks/cassettes/*.jsonl into the package."""
    path = Path(path)
    if not IN_BROWSER or path.suffix != ".jsonl":
        return None
    packed = RECORDINGS / "course" / path.name
    return packed if packed.is_file() else None


def unavailable(what: str, why: str = N_("needs a real process")) -> NotInBrowser:
    """The one-line error for something the browser edition cannot do."""
    return NotInBrowser(
        _("{what} cannot run in a browser tab: it {why}. Run this cell in {edition}.").format(
            what=what, why=_(why), edition=_(INSTALLED_EDITION)
        )
    )


def _fresh_module(name: str):
    """A new copy of module `name`, run from its file: its module-level state starts over."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise unavailable(f"the server module {name}", "is not installed here")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fresh_script(path: str):
    """A new copy of a server script (`python server.py`), run from its file as a module."""
    spec = importlib.util.spec_from_file_location(f"mcp_lab_script_{next_copy_number()}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _handler(module, args: list[str]) -> Callable[[str], bytes | str | None]:
    """The module's line handler: `serve_in_process(args)` when it takes arguments (a log file, a
    catalog), else its sans-IO `handle_line`, or `handle(msg)` framed as the calendar frames it."""
    if module.__name__ == "mcp_lab.servers.cassette":
        return _cassette_handler(module, args)
    if hasattr(module, "serve_in_process"):
        return module.serve_in_process(args)
    if args:
        raise unavailable(f"{module.__name__} {' '.join(args)}", "reads its arguments in a process of its own")
    if hasattr(module, "handle_line"):
        return module.handle_line
    if hasattr(module, "handle"):
        from mcp_lab.servers import calendar

        return lambda line: calendar.handle_line(line, module.handle)
    raise unavailable(module.__name__, "has no sans-IO handler to call in this process")


def _cassette_handler(cassette, args: list[str]) -> Callable[[str], bytes | str | None]:
    """`python -m mcp_lab.servers.cassette FILE` here: a Player of FILE (from the module copy
    `cassette`), or of the course's packed copy when the site's file cannot be read; --http
    needs a port.  (Here, not in the cassette module, so that neither imports the other.)"""
    from mcp_lab.servers.calendar import handle_line

    if len(args) != 1 or args[0].startswith("-"):
        raise unavailable(f"the cassette server with {' '.join(args) or 'no file'}", "serves a file over a port")
    try:
        _header, pairs = cassette.read_pairs(args[0])
    except cassette.BadCassette as e:
        packed = course_cassette(args[0])  # a course cassette the site's files cannot give
        if packed is None:
            raise unavailable(f"the cassette {args[0]}", f"cannot be played ({e})") from None
        _header, pairs = cassette.read_pairs(str(packed))
    player = cassette.Player(pairs, name="cassette")
    return lambda line: handle_line(line, player.handle)


@contextlib.contextmanager
def _started_with(env: dict | None):
    """os.environ as a process started with `env` added would see it, while a fresh copy is made
    and sets itself up (a server reads its environment when it starts: the durable server its
    caller); then the kernel's own again."""
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def serve_argv(argv: list[str], env: dict | None = None) -> tuple[Callable[[str], bytes | str | None], str]:
    """(line handler, label) for an argv that starts a Python server: `[sys.executable, "-m",
    "mcp_lab.<module>", *args]` or `[sys.executable, "server.py", *args]`, run as a fresh copy in
    this process, set up with `env` added to the environment.  Anything else (Node, another
    program) raises one line."""
    argv = [os.fspath(a) for a in argv]
    with _started_with(env):
        if len(argv) >= 3 and argv[0] == sys.executable and argv[1] == "-m" and argv[2].startswith("mcp_lab."):
            return _handler(_fresh_module(argv[2]), argv[3:]), argv[2].rsplit(".", 1)[-1]
        if len(argv) >= 2 and argv[0] == sys.executable and argv[1].endswith(".py") and os.path.isfile(argv[1]):
            return _handler(_fresh_script(argv[1]), argv[2:]), os.path.basename(argv[1])
    raise unavailable(f"starting {argv!r}")


def serve_line_for(name: str) -> tuple[Callable[[str], bytes | str | None], str]:
    """(a fresh server's line handler, the label to show) for a known short name."""
    if name in MODULES:
        return _fresh_module(MODULES[name]).handle_line, name
    if name in RECORDED:
        from mcp_lab.servers import calendar, cassette

        folder = RECORDINGS / RECORDED[name]
        try:
            sessions = [s for path in sorted(folder.glob("*.jsonl")) for s in cassette.read_sessions(str(path))[1]]
        except cassette.BadCassette as e:
            raise unavailable(f"the recording of {name!r}", f"cannot be read ({e})") from None
        if not sessions:
            raise unavailable(f"the recording of {name!r}", f"is missing (no cassette in {folder})")
        player = cassette.SessionPlayer(sessions, name=f"{name} (recording)")

        def handle_line(line: bytes | str) -> bytes | None:
            return calendar.handle_line(line, player.handle)

        return handle_line, f"{name} (from its recording)"
    if name in WHY:
        raise unavailable(f"the {name!r} server", WHY[name])
    raise unavailable(f"the {name!r} server")
