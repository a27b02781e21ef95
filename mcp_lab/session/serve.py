"""Start and stop local Streamable HTTP servers for notebooks and tests.

    with mcp_lab.serve_http("calendar") as srv:        # or "sdk_calendar", "everything", an argv
        cal = srv.connect()                             # a Client over HTTP, the server's stderr beside it
        cal.request("tools/list")

Theory of operation.  A free port is found by binding 127.0.0.1:0 and reading the port the
kernel chose; the server is started on it (argv placeholders `{port}`, or the PORT variable,
which the Node reference server reads).  Readiness is the port accepting a TCP connection,
polled with a deadline while watching that the process has not died; a dead process fails
at once with the last lines of its stderr.  The process runs in its own process group and is
stopped with SIGTERM, then SIGKILL, when the block ends (or, failing that, when it is
garbage-collected): no orphan outlives the notebook.

Every server is bound to 127.0.0.1 only.  The Node reference server calls
`app.listen(PORT)`, which would listen on every interface, so it is started with a tiny
`--import` preload (`servers/_loopback.mjs`) that pins `listen()` to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import sys
import time
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path

from mcp_lab.transport.process import ServerProcess
from mcp_lab.wire.jsonrpc import DeadlineExceeded, TransportClosed

__all__ = ["serve_http", "HttpServer", "ServerProcess", "free_port", "port_open", "live", "argv_for"]

HOST = "127.0.0.1"
_LOOPBACK = Path(__file__).resolve().parent.parent / "servers" / "_loopback.mjs"
_LIVE: "weakref.WeakSet[HttpServer]" = weakref.WeakSet()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = HOST, timeout: float = 0.2) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError("the reference server needs Node.js >= 20: install nodejs, then run `make setup`")
    return node


def _reference_bin() -> Path:
    from mcp_lab.servers import known

    path = known.REFERENCE_BIN
    if shutil.which("node") is None:
        raise FileNotFoundError("the reference server needs Node.js >= 20: install nodejs, then run `make setup`")
    if not path.exists():
        raise FileNotFoundError(
            f"the reference server {known.REFERENCE_PACKAGE} is not installed: "
            f"run `make setup` (or `npm ci` in {known.REFERENCE_DIR})"
        )
    return path


def argv_for(name: str, port: int, *, sse: bool = False) -> tuple[list[str], dict[str, str]]:
    """The argv and extra environment that serve a known server over HTTP on `port`."""
    if name == "calendar":
        return [sys.executable, "-m", "mcp_lab.servers.calendar", "--http", str(port)] + (["--sse"] if sse else []), {}
    if name in ("sdk_calendar", "showcase"):
        return [sys.executable, "-m", f"mcp_lab.servers.{name}", "--http", str(port)], {}
    if name == "everything":
        script = _reference_bin().resolve()  # .bin/ holds a symlink to dist/index.js
        return (
            [_node(), "--import", _LOOPBACK.as_uri(), str(script), "streamableHttp"],
            {"PORT": str(port)},
        )
    if name == "everything-sse":  # the deprecated HTTP+SSE transport (GET /sse, POST /message)
        script = _reference_bin().resolve()
        return [_node(), "--import", _LOOPBACK.as_uri(), str(script), "sse"], {"PORT": str(port)}
    raise ValueError(
        f"no HTTP form known for {name!r}: use calendar, sdk_calendar, showcase, everything or everything-sse, "
        "or pass an argv list with a '{port}' placeholder"
    )


def _label(argv: list[str]) -> str:
    """A server's name from its argv: the last word that is neither an option nor the port."""
    words = [a for a in argv if "{port}" not in a and not a.startswith("-")]
    files = [a for a in words if "." in Path(a).name or "/" in a]  # server.py, dist/index.js
    return Path((files or words)[-1]).name if words else "server"


class HttpServer:
    """A running local HTTP server: `url`, `port`, `process`, and `connect()` for a Client."""

    def __init__(self, name: str, url: str, port: int, process: ServerProcess):
        self.name, self.url, self.port, self.process = name, url, port, process

    @property
    def stderr(self) -> list[str]:
        return self.process.stderr_lines

    def connect(self, *, timeout: float = 5.0, query: str = "", headers: dict | None = None, **kw):
        """A Client over HTTP to this server; `query="sse=1"` asks the calendar for SSE replies."""
        from mcp_lab.session.connect import connect_http

        url = self.url + (f"?{query}" if query else "")
        name = kw.pop("name", f"{self.name} (http)")
        return connect_http(url, name=name, timeout=timeout, headers=headers, process=self.process, **kw)

    def close(self) -> None:
        self.process.close()
        _LIVE.discard(self)

    def __repr__(self) -> str:
        state = "running" if self.process.returncode is None else f"exited {self.process.returncode}"
        return f"<HttpServer {self.name} {self.url} pid={self.process.pid} {state}>"


def live() -> list[HttpServer]:
    """The servers started by serve_http that are still running (tests assert this is empty)."""
    return [s for s in list(_LIVE) if s.process.returncode is None]


def start(
    server: str | Sequence[str],
    *,
    port: int | None = None,
    sse: bool = False,
    timeout: float = 20.0,
    env: dict | None = None,
    path: str = "/mcp",
) -> HttpServer:
    """Start a server and wait until its port accepts connections (see serve_http)."""
    port = free_port() if port is None else port
    if isinstance(server, str):
        argv, extra_env = argv_for(server, port, sse=sse)
        name = server
    else:
        argv = [a.replace("{port}", str(port)) for a in server]
        extra_env = {"PORT": str(port)}
        name = _label(list(server))
    proc = ServerProcess(argv, env={**extra_env, **(env or {})})
    srv = HttpServer(name, f"http://{HOST}:{port}{path}", port, proc)
    _LIVE.add(srv)
    deadline = time.monotonic() + timeout
    try:
        while not port_open(port):
            if proc.returncode is not None:
                tail = " | ".join(proc.stderr_tail())
                raise TransportClosed(
                    f"the {name} server exited with code {proc.returncode} before listening on {HOST}:{port}"
                    + (f"; its stderr ended with: {tail}" if tail else "; it wrote nothing on stderr")
                    + (
                        ""
                        if isinstance(server, str)
                        else "; does it serve Streamable HTTP on the port it was given? (a stdio-only server: "
                        "run it without --http, or `conformance --stdio`)"
                    )
                )
            if time.monotonic() >= deadline:
                raise DeadlineExceeded(f"the {name} server did not listen on {HOST}:{port} within {timeout:g} s")
            time.sleep(0.02)  # a poll interval, under a deadline
    except BaseException:
        srv.close()
        raise
    return srv


@contextlib.contextmanager
def serve_http(
    server: str | Sequence[str],
    *,
    port: int | None = None,
    sse: bool = False,
    timeout: float = 20.0,
    env: dict | None = None,
    path: str = "/mcp",
) -> Iterator[HttpServer]:
    """Run a server over Streamable HTTP on 127.0.0.1 for the length of a `with` block.

    `server` is "calendar" (`--http PORT`, `sse=True` adds `--sse`), "sdk_calendar" or "showcase"
    (`--http PORT`), "everything" (the pinned reference server, `streamableHttp`, PORT in the
    environment), or an argv list in which "{port}" is replaced (PORT is set too).
    """
    srv = start(server, port=port, sse=sse, timeout=timeout, env=env, path=path)
    try:
        yield srv
    finally:
        srv.close()
