"""What every `mcp-lab` command shares: exit codes, how a server is named, headers, one-line errors.

Exit status, the same for every command (and stated in each command's help):

    0  ran, and found nothing wrong (or no difference)
    1  ran, and found a defect or a difference (the command's own verdict)
    2  could not run: bad input, a server that would not start, a refused connection, a 401/403

How a command is given a server, the same for every command:

    NAME                       a bundled short name (calendar, everything, ...), run over stdio
    http://HOST:PORT/PATH      a server that is already running (Streamable HTTP)
    -- ARGV...                 any server's own command, run over stdio

and one convention for starting a server over Streamable HTTP (`--http`, the default of
`conformance`, or a `{port}` anywhere in the argv): `{port}` is replaced by a free port of
127.0.0.1, or, when the argv has none, `--http PORT` is appended (what the bundled servers and
the course's labs take); the endpoint is `--path` (default /mcp).

`--header NAME=VALUE` (repeatable) and `--bearer-env VAR` (sends `Authorization: Bearer $VAR`)
apply to HTTP servers; their values are never written into a recorded cassette.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from typing import Any

__all__ = [
    "EXIT_OK",
    "EXIT_FOUND",
    "EXIT_CANNOT_RUN",
    "EXIT_HELP",
    "SERVER_HELP",
    "UsageError",
    "add_server_options",
    "headers_from",
    "resolve_server",
    "is_url",
    "wants_http",
    "http_argv",
    "report",
    "one_line",
    "serve_target",
]

EXIT_OK, EXIT_FOUND, EXIT_CANNOT_RUN = 0, 1, 2
EXIT_HELP = (
    "exit status: 0 clean; 1 ran and found a defect or a difference; 2 could not run (bad input, the "
    "server would not start, connection refused, 401/403)"
)
SERVER_HELP = (
    "a bundled name (calendar, everything, ...), a running server's http(s):// URL, or the server's "
    "command after `--` (run over stdio; over HTTP with --http or a {port} in it)"
)


class UsageError(ValueError):
    """Bad input on the command line: one line, exit 2."""


def add_server_options(p: argparse.ArgumentParser, *, http: bool = True) -> None:
    """--header, --bearer-env, --path (and --http): the options of every command that talks to a server."""
    if http:
        p.add_argument(
            "--http",
            action="store_true",
            help="start the server over Streamable HTTP on 127.0.0.1: {port} in its argv is replaced, "
            "or --http PORT is appended",
        )
    p.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="send this HTTP header on every request (repeatable); never recorded",
    )
    p.add_argument(
        "--bearer-env",
        metavar="VAR",
        help="send `Authorization: Bearer <the value of $VAR>` (the token stays out of your shell history)",
    )
    p.add_argument("--path", default="/mcp", help="the endpoint path of a server this command starts (default /mcp)")


def headers_from(args) -> dict[str, str]:
    """The extra HTTP headers the command line asks for (UsageError on a malformed one)."""
    out: dict[str, str] = {}
    for item in getattr(args, "header", None) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--header {item!r}: write NAME=VALUE, e.g. --header 'X-Api-Key=abc'")
        out[name.strip()] = value
    var = getattr(args, "bearer_env", None)
    if var:
        token = os.environ.get(var)
        if not token:
            raise UsageError(f"--bearer-env {var}: ${var} is not set (or empty); export it first")
        out["Authorization"] = f"Bearer {token}"
    return out


def is_url(server: Any) -> bool:
    return isinstance(server, str) and server.startswith(("http://", "https://"))


def wants_http(server: Any, flag: bool = False) -> bool:
    """Is `server` to be started over Streamable HTTP: asked for (`--http`), or an argv with `{port}`."""
    if is_url(server):
        return False
    return bool(flag) or (isinstance(server, list) and any("{port}" in a for a in server))


def http_argv(argv: list[str]) -> list[str]:
    """The one convention: `{port}` is replaced where it stands, else `--http {port}` is appended."""
    return list(argv) if any("{port}" in a for a in argv) else [*argv, "--http", "{port}"]


def _shell(command: str, argv: list[str]) -> str:
    return f"mcp-lab {command} -- {shlex.join(argv)}"


def resolve_server(command: str, name: str | None, server_argv: list[str] | None, extra: Sequence[str] = ()) -> Any:
    """The server a command names: a known name, a URL, or an argv; UsageError with a hint in
    shell syntax for the usual slips (a command without `--`, a name that is not bundled)."""
    from mcp_lab.servers import known

    if name is None and len(extra) == 1 and (is_url(extra[0]) or extra[0] in known.KNOWN):
        # `record OUT --http calendar`: argparse gave the optional positional up at the option.
        name, extra = extra[0], []
    if extra:
        raise UsageError(
            f"the server's command goes after `--`: {_shell(command, [name or '', *extra] if name else list(extra))}"
        )
    if name is not None and server_argv is not None:
        raise UsageError(f"give a server name or URL, or `-- <server command>`, not both (got {name!r} and `--`)")
    if server_argv is not None:
        if not server_argv:
            raise UsageError(
                f"nothing after `--`: give the server's command, e.g. {_shell(command, ['node', 'server.js'])}"
            )
        return list(server_argv)
    if name is None:
        raise UsageError(f"{command} needs a server: {SERVER_HELP}")
    if is_url(name) or name in known.KNOWN:
        return name
    if " " in name:
        raise UsageError(
            f"the server's command goes after `--`, as separate words: {_shell(command, shlex.split(name))}"
        )
    if shutil.which(name) or os.path.exists(name):
        raise UsageError(f"{name!r} is not a bundled server; to run it, put it after `--`: {_shell(command, [name])}")
    raise UsageError(
        f"unknown server {name!r}: use one of {', '.join(known.names())}, a URL, or the command after `--`"
    )


def one_line(e: BaseException) -> str:
    """An error as one line; a 401/403 says which options send credentials."""
    from mcp_lab.transport.http import Unauthorized

    msg = " ".join((getattr(e, "message", None) or str(e) or type(e).__name__).split())
    if isinstance(e, Unauthorized):
        msg += "; pass --bearer-env VAR (the token in $VAR) or --header 'Authorization=Bearer ...'"
    return msg


@contextlib.contextmanager
def serve_target(server: Any, *, http: bool = False, path: str = "/mcp", timeout: float = 20.0):
    """Yield what `connect()` takes for `server`: a URL as is, a server to run over HTTP (see
    `wants_http`) started on a free port (and stopped after) as its URL, anything else unchanged
    (stdio).  A server that exits before it listens is a one-line TransportClosed saying so."""
    if not wants_http(server, http):
        yield server
        return
    from mcp_lab.session.serve import start

    srv = start(server if isinstance(server, str) else http_argv(server), timeout=timeout, path=path)
    try:
        yield srv.url
    finally:
        srv.close()


def report(command: str, e: BaseException | str, *, as_json: bool = False) -> int:
    """Print the one-line error of a command that could not run; return exit status 2.  With
    `as_json` (the command's --json) stdout gets the same as a JSON object too, so a script that
    reads stdout as JSON always gets JSON: {"ok": false, "error": ..., "exit": 2}."""
    message = e if isinstance(e, str) else one_line(e)
    print(f"mcp-lab {command}: {message}", file=sys.stderr)
    if as_json:
        import json

        error = {"ok": False, "command": command, "error": message, "exit": EXIT_CANNOT_RUN}
        print(json.dumps(error, ensure_ascii=False))
        sys.stdout.flush()
    return EXIT_CANNOT_RUN
