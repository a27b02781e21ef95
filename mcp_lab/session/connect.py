"""connect(): start (or reach) a server and return a Client bound to its transport.

The one place that turns "what the user named" (a known short name, an argv list, an http(s) URL)
into a transport: a stdio child process or a Streamable HTTP endpoint.
"""

from __future__ import annotations

import os

from mcp_lab.session.client import Client
from mcp_lab.wire.jsonrpc import TransportClosed

__all__ = ["connect"]


def connect(
    server,
    *,
    timeout: float = 5.0,
    capabilities: dict | None = None,
    client_info: dict | None = None,
    env: dict | None = None,
    cwd: str | None = None,
    name: str | None = None,
) -> Client:
    """Start a server and return a Client connected to it over stdio.

    `server` is a known short name (see `mcp_lab.servers.known.names()`: "calendar",
    "sdk_calendar", "everything", ...) or an argv list such as [sys.executable, "server.py"].
    `timeout` is the default deadline, in seconds, of every request on this connection.
    """
    from mcp_lab.servers import known
    from mcp_lab.transport.stdio import StdioTransport

    if isinstance(server, str):
        if server.startswith(("http://", "https://")):
            # Streamable HTTP: nothing to start, and no handshake in 2026-07-28; the first
            # request opens the first connection (a refused one is a one-line HttpError).
            from urllib.parse import urlsplit

            from mcp_lab.transport.http import HttpTransport

            transport = HttpTransport(server, timeout=timeout).start()
            return Client(
                transport,
                name=name or urlsplit(server).netloc,
                capabilities=capabilities,
                client_info=client_info,
                timeout=timeout,
            )
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
    return Client(transport, name=label, capabilities=capabilities, client_info=client_info, timeout=timeout)
