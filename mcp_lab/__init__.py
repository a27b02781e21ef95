"""mcp_lab: drive real MCP servers from notebook cells and see the real wire.

    import mcp_lab
    cal = mcp_lab.connect("calendar")          # a known short name, or an argv list
    cal.request("tools/list")                  # _meta of 2026-07-28 added for you
    cal.trace                                  # every line, both ways, with stderr beside it

`import mcp_lab` is cheap: the heavy parts (tiktoken, ipywidgets, httpx, the official SDK) are
imported only by the modules that need them, and those modules are loaded on first use.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from . import jsonrpc, revisions
from .client import Client
from .jsonrpc import DeadlineExceeded, ProtocolError, TransportClosed
# Imported eagerly (it is light) so that the function, not the submodule of the same name,
# is what `mcp_lab.probe` means: a submodule imported for the first time later would
# otherwise rebind the package attribute to itself.
from .probe import Verdict, probe
from .revisions import LATEST, LEGACY, meta
from .trace import Event, Trace

__version__ = "0.1.0"

__all__ = [
    "connect", "probe", "isolated", "cost", "replay", "diff", "cassette", "Verdict", "Client", "Trace", "Event", "ProtocolError", "TransportClosed", "DeadlineExceeded",
    "LATEST", "LEGACY", "meta", "jsonrpc", "revisions",
]

# Public names that live in heavier modules, loaded on first attribute access (PEP 562).
_LAZY = {
    "isolated": ("mcp_lab.isolate", "isolated"),
    "cost": ("mcp_lab.tokens", "cost"),
    "mrtr": ("mcp_lab.mrtr", None),
    "tokens": ("mcp_lab.tokens", None),
    "widgets": ("mcp_lab.widgets", None),
    "serve_http": ("mcp_lab.http_servers", "serve_http"),
    "probe_http": ("mcp_lab.probe_http", "probe_http"),
    "replay": ("mcp_lab.session.replay", "replay"),
    "diff": ("mcp_lab.session.diff", "diff"),
    "cassette": ("mcp_lab.session.cassette", None),
}


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'mcp_lab' has no attribute {name!r}") from None
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def connect(server, *, timeout: float = 5.0, capabilities: dict | None = None,
            client_info: dict | None = None, env: dict | None = None, cwd: str | None = None,
            name: str | None = None) -> Client:
    """Start a server and return a Client connected to it over stdio.

    `server` is a known short name (see `mcp_lab.servers.known.names()`: "calendar",
    "sdk_calendar", "everything", ...) or an argv list such as [sys.executable, "server.py"].
    `timeout` is the default deadline, in seconds, of every request on this connection.
    """
    from .servers import known
    from .stdio import StdioTransport

    if isinstance(server, str):
        if server.startswith(("http://", "https://")):
            # Streamable HTTP: nothing to start, and no handshake in 2026-07-28; the first
            # request opens the first connection (a refused one is a one-line HttpError).
            from .http import HttpTransport
            from urllib.parse import urlsplit
            transport = HttpTransport(server, timeout=timeout).start()
            return Client(transport, name=name or urlsplit(server).netloc, capabilities=capabilities,
                          client_info=client_info, timeout=timeout)
        if server not in known.KNOWN:
            if " " in server:
                raise TypeError(f"pass the command as a list, e.g. {server.split()!r}, not a shell string")
            known.argv_for(server)  # raises the one-line "unknown server" error
        try:
            argv = known.argv_for(server)
        except FileNotFoundError as e:
            raise TransportClosed(str(e)) from None
        label = name or server
    else:
        if isinstance(server, os.PathLike):
            server = [server]
        argv = [os.fspath(a) if isinstance(a, os.PathLike) else a for a in server]
        label = name or (os.path.basename(argv[-1]) if argv and isinstance(argv[-1], str) else "server")
    transport = StdioTransport(argv, env=env, cwd=cwd).start()
    return Client(transport, name=label, capabilities=capabilities, client_info=client_info,
                  timeout=timeout)


def load_ipython_extension(ipython) -> None:
    """`%load_ext mcp_lab`: register the `%mcp` and `%%rpc` magics (see mcp_lab.magics)."""
    from .magics import load_ipython_extension as _load

    _load(ipython)
