"""The servers mcp_lab knows by a short name, and the argv that starts each one.

A short name keeps notebook cells readable (`connect("calendar")`) while the argv stays an
explicit list: servers are always spawned from a list, never a shell string.  Python servers
run under `sys.executable`, the kernel's own interpreter, so they see the same packages and
skip the 150-200 ms a pyenv shim adds to every start.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

__all__ = ["KNOWN", "REFERENCE_BIN", "REFERENCE_DIR", "REFERENCE_PACKAGE", "STATE_KEY_ENV", "argv_for", "names"]

# The variable mcp_lab's SDK-based servers (showcase, sdk_calendar) read their requestState
# sealing key from (mcp_lab.servers.spec_mcpserver.request_state_key); without it each process
# seals with a key of its own.  The stdio bridge sets it for the processes it starts.
STATE_KEY_ENV = "MCP_LAB_STATE_KEY"

REFERENCE_DIR = Path(__file__).resolve().parent / "reference"
REFERENCE_PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31"
REFERENCE_BIN = REFERENCE_DIR / "node_modules" / ".bin" / "mcp-server-everything"


def _python(module: str) -> list[str]:
    return [sys.executable, "-m", module]


def _reference() -> list[str]:
    # The pinned reference server, installed from the committed lock by `make setup` (npm ci).
    # Never `npx`: a run-time download would make the course depend on the network.
    if sys.platform == "emscripten":
        # The browser edition has no Node: "everything" answers from its recording, in-process
        # (mcp_lab.servers.inprocess); this names the file, there is nothing to start.
        from mcp_lab.servers.inprocess import RECORDED, RECORDINGS

        return ["(recording)", str(RECORDINGS / RECORDED["everything"])]
    if shutil.which("node") is None:
        raise FileNotFoundError("the reference server needs Node.js >= 20: install nodejs, then run `make setup`")
    if not REFERENCE_BIN.exists():
        raise FileNotFoundError(
            f"the reference server {REFERENCE_PACKAGE} is not installed: "
            f"run `make setup` (or `npm ci` in {REFERENCE_DIR})"
        )
    return [str(REFERENCE_BIN), "stdio"]


def _durable_db() -> Path:
    # The short name needs a database that outlives the process: one per user, in the cache.
    # Pass an argv list with your own --db PATH to use another file.
    import os

    base = Path(os.environ.get("MCP_LAB_CACHE_DIR") or Path.home() / ".cache" / "mcp_lab")
    base.mkdir(parents=True, exist_ok=True)
    return base / "durable-calendar.sqlite3"


KNOWN = {
    "calendar": lambda: _python("mcp_lab.servers.calendar"),
    "sdk_calendar": lambda: _python("mcp_lab.servers.sdk_calendar"),
    "showcase": lambda: _python("mcp_lab.servers.showcase"),
    "durable": lambda: _python("mcp_lab.servers.durable") + ["--db", str(_durable_db())],
    "noisy": lambda: _python("mcp_lab.servers.noisy"),
    "notes": lambda: _python("mcp_lab.servers.notes"),
    "future": lambda: _python("mcp_lab.servers.future"),
    "paged": lambda: _python("mcp_lab.servers.paged"),
    "everything": _reference,
}


def names() -> list[str]:
    return sorted(KNOWN)


def argv_for(name: str) -> list[str]:
    """The argv for a known short name; a one-line error naming the known ones otherwise."""
    try:
        make = KNOWN[name]
    except KeyError:
        raise ValueError(
            f"unknown server {name!r}: use one of {', '.join(names())}, "
            "or pass an argv list such as [sys.executable, 'my_server.py']"
        ) from None
    return make()
