"""connect(): start (or reach) a server and return a Client bound to its transport.

The one place that turns "what the user named" (a known short name, an argv list, an http(s) URL)
into a transport: a stdio child process or a Streamable HTTP endpoint.
"""

from __future__ import annotations

import os
from typing import Any

from mcp_lab.session.client import Client
from mcp_lab.wire.errors import TransportClosed
from mcp_lab.wire.trace import Trace

__all__ = ["connect", "connect_http", "connect_in_memory", "START_TIMEOUT"]

# Seconds a stdio server may take to answer its first message (it may be importing a framework,
# or `npx` fetching a package): apart from the deadline of each request.
START_TIMEOUT = 20.0


# Long for its docstring and keywords: every argument a learner may pass, explained where help() shows it.
def connect(
    server,
    *,
    timeout: float = 5.0,
    capabilities: dict | None = None,
    client_info: dict | None = None,
    env: dict | None = None,
    cwd: str | None = None,
    name: str | None = None,
    trace: Trace | None = None,
    deliberate: str | None = None,
    headers: dict[str, str | None] | None = None,
    start_timeout: float | None = START_TIMEOUT,
) -> Client:
    """Start a server and return a Client connected to it over stdio.

    `server` is a known short name (see `mcp_lab.servers.known.names()`: "calendar",
    "sdk_calendar", "everything", ...) or an argv list such as [sys.executable, "server.py"].
    `timeout` is the default deadline, in seconds, of every request on this connection.
    `capabilities` is declared in every modern request's `_meta`: nothing by default, because a
    bare request has nobody to answer a server's question (`mrtr.call` with an answer callback
    adds form elicitation to its own requests).
    `trace` is a Trace of the caller's to record into (default: a new one, `client.trace`).
    `deliberate` says why this server breaks the protocol on purpose (a lesson's or a test's
    misbehaving server): its messages are marked so, and a schema check counts them apart.
    `headers` are extra HTTP headers for a URL (`{"Authorization": "Bearer ..."}`); a stdio
    server has no headers, so giving some for one is a ValueError.  `start_timeout` is the
    start-up deadline, apart from `timeout`: a stdio server's first request may wait that long
    (it is loading), and running out of it is reported as a start-up failure.  None: no
    separate start-up allowance.
    """
    from mcp_lab.servers import inprocess, known

    if inprocess.IN_BROWSER:
        # The browser edition: no process, no port. A known name runs in this process.
        return _connect_in_browser(
            server,
            env=env,
            timeout=timeout,
            capabilities=capabilities,
            client_info=client_info,
            name=name,
            trace=trace,
            deliberate=deliberate,
        )
    from mcp_lab.transport.stdio import StdioTransport

    if isinstance(server, str):
        if server.startswith(("http://", "https://")):
            # Streamable HTTP: nothing to start, and no handshake in 2026-07-28; the first
            # request opens the first connection (a refused one is a one-line HttpError).
            return connect_http(
                server,
                name=name,
                capabilities=capabilities,
                client_info=client_info,
                timeout=timeout,
                trace=trace,
                deliberate=deliberate,
                headers=headers,
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
        words = [a for a in argv if isinstance(a, str) and not a.startswith("-")]
        files = [a for a in words if "." in os.path.basename(a) or os.sep in a]  # server.py, dist/index.js
        label = name or (os.path.basename((files or words)[-1]) if words else "server")
    if headers:
        raise ValueError("headers= is for an HTTP server (a URL); a stdio server has none: pass its secrets in env=")
    transport = StdioTransport(argv, env=env, cwd=cwd).start()
    return Client(
        transport,
        name=label,
        capabilities=capabilities,
        client_info=client_info,
        timeout=timeout,
        trace=trace,
        deliberate=deliberate,
        start_timeout=start_timeout,
    )


def connect_http(
    url: str,
    *,
    name: str | None = None,
    timeout: float = 5.0,
    headers: dict[str, str | None] | None = None,
    trace: Trace | None = None,
    process: Any = None,
    max_body: int | None = None,
    **client_kwargs: Any,
) -> Client:
    """A Client over Streamable HTTP to `url`, its transport built with the session's hooks.

    The transport asks the Client's `http_state` for each body's MCP headers and tells it what
    each answer taught; each raw exchange goes into the Trace as an "http" event.  `process` is
    a local server process whose stderr and pid the client shows (`serve_http`'s);
    `max_body` the largest reply read (default `transport.http.MAX_BODY`).  Other keywords go to
    `Client` (capabilities, client_info, deliberate)."""
    from urllib.parse import urlsplit

    from mcp_lab.session.http_headers import HttpSessionState
    from mcp_lab.transport.http import MAX_BODY, HttpTransport

    label = name or urlsplit(url).netloc
    record = trace if trace is not None else Trace(title=f"mcp_lab <-> {label}")
    state = HttpSessionState()
    transport = HttpTransport(
        url,
        timeout=timeout,
        headers=headers,
        process=process,
        max_body=MAX_BODY if max_body is None else max_body,
        derive_headers=state.derive,
        on_answer=state.learn,
        on_http=lambda ex, note: record.add("http", ex.raw, ex, peer=label, note=note),
    ).start()
    return Client(transport, name=label, timeout=timeout, trace=record, http_state=state, **client_kwargs)


def _connect_in_browser(server, *, name: str | None, env: dict | None, **client_kwargs) -> Client:
    """connect() in Pyodide: a fresh in-process copy of a bundled server (set up with `env`
    added to the environment, as a process would start), or a recording."""
    from mcp_lab.servers import inprocess

    if isinstance(server, str) and server.startswith(("http://", "https://")):
        raise inprocess.unavailable(
            f"connecting to {server}", "needs an HTTP connection the browser edition does not make"
        )
    if isinstance(server, str):
        serve_line, label = inprocess.serve_line_for(server)
    else:  # an argv: a Python server of the package (or a script) runs as a fresh copy here
        argv = [os.fspath(a) for a in ([server] if isinstance(server, os.PathLike) else server)]
        serve_line, label = inprocess.serve_argv(argv, env=env)
    if name and isinstance(server, str) and server in inprocess.RECORDED:
        name = f"{name} (from its recording)"  # every output of a recording says so
    # No OS process here: `pid` numbers the fresh server copies this kernel has made (1, 2, ...),
    # so "one process per message" still shows as distinct numbers in isolated()'s table.
    return connect_in_memory(serve_line, name=name or label, copy_number=inprocess.next_copy_number(), **client_kwargs)


def connect_in_memory(
    serve_line,
    *,
    name: str = "in-memory server",
    timeout: float = 5.0,
    capabilities: dict | None = None,
    client_info: dict | None = None,
    trace: Trace | None = None,
    deliberate: str | None = None,
    copy_number: int | None = None,
) -> Client:
    """A Client over a server's line handler called in this process (no child process).

    `serve_line(line) -> bytes | str | None` is what a stdio server runs per line, e.g.
    `mcp_lab.servers.calendar.handle_line`. Same Client, same Trace, same errors; only the
    transport differs (see `mcp_lab.transport.memory`). `copy_number` is the transport's `pid`
    when the caller numbers its in-process server copies (the browser edition does).
    """
    from mcp_lab.transport.memory import MemoryTransport

    transport = MemoryTransport(serve_line, name=name, copy_number=copy_number).start()
    return Client(
        transport,
        name=name,
        capabilities=capabilities,
        client_info=client_info,
        timeout=timeout,
        trace=trace,
        deliberate=deliberate,
    )
