"""The cassette commands of `python -m mcp_lab`: record, replay, diff.

    python -m mcp_lab record OUT.jsonl calendar < script.txt       # or --script FILE, or -- ARGV...
    python -m mcp_lab record OUT.jsonl calendar --http             # the same over Streamable HTTP
    python -m mcp_lab replay OUT.jsonl sdk_calendar                # or -- ARGV..., or a URL
    python -m mcp_lab replay legacy.jsonl everything --era modern  # the same conversation, other era
    python -m mcp_lab diff A.jsonl B.jsonl

A script holds one request per line: `method {json params}` (the client adds `_meta` when the
server is modern), or a raw JSON-RPC line sent byte for byte.  Blank lines and `#` comments are
skipped; a method under `notifications/` is sent as a notification.  A line whose params carry
`inputResponses` but no `requestState` gets the `requestState` of the previous answer, so a
script can answer an `input_required` round it cannot predict.

Exit status: replay and diff 0 when the conversations are the same, 1 when they differ (or the
replay stopped early); record 0 once the file is written, 1 when the server could not be
reached; 2 for a usage error or an unreadable file (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.errors import McpError

__all__ = ["COMMANDS", "register", "run", "parse_script"]

COMMANDS = ("record", "replay", "diff")


def register(sub) -> None:
    """Add the three sub-commands to the CLI's argparse sub-parsers."""
    r = sub.add_parser(
        "record",
        help="run a script of requests against a server and save the cassette",
        description="Probe the server, run one request per script line, save the whole Trace "
        "as a cassette (JSON Lines). Give a known short name, or the argv after `--`.",
    )
    r.add_argument("out", help="the cassette file to write (.jsonl)")
    r.add_argument("name", nargs="?", help="a known server name, or a URL")
    r.add_argument("--script", help="the script file (default: read stdin)")
    r.add_argument("--http", action="store_true", help="start the server over Streamable HTTP on 127.0.0.1")
    r.add_argument("--timeout", type=float, default=5.0, help="deadline of each wait, seconds (default 5)")
    p = sub.add_parser(
        "replay",
        help="send a cassette's requests to a server and diff the answers",
        description="Replay the client side of a cassette against a server (short name, URL, or "
        "argv after `--`) and print what changed. Exit 1 when the answers differ.",
    )
    p.add_argument("cassette")
    p.add_argument("name", nargs="?", help="a known server name, or a URL")
    p.add_argument("--era", choices=("modern", "legacy"), help="convert the conversation to this era first")
    p.add_argument("--timeout", type=float, default=5.0, help="deadline of each request, seconds (default 5)")
    p.add_argument("--deadline", type=float, default=60.0, help="deadline of the whole replay (default 60)")
    p.add_argument("--save", metavar="OUT", help="also save the new conversation as a cassette")
    _common(p)
    d = sub.add_parser(
        "diff",
        help="compare two cassettes exchange by exchange",
        description="Align two recordings by what was asked and show every difference in the "
        "answers, as JSON paths. Exit 1 when they differ.",
    )
    d.add_argument("a")
    d.add_argument("b")
    _common(d)


def _common(p) -> None:
    p.add_argument("--ignore-server-version", action="store_true", help="ignore serverInfo.version")
    p.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="PATH",
        help="also ignore this path pattern (e.g. 'result.instructions', '**.ttlMs'); repeatable",
    )
    p.add_argument("--json", action="store_true", help="print the diff as JSON")
    p.add_argument("--width", type=int, default=100, help="fold values longer than this (default 100)")


def run(args, server_argv: list[str] | None, parser: argparse.ArgumentParser) -> int:
    from mcp_lab.session.cassette import CassetteError

    try:
        if args.command == "record":
            return _record(args, _server(args, server_argv, parser, "record"), server_argv)
        if args.command == "replay":
            return _replay(args, _server(args, server_argv, parser, "replay"))
        if server_argv is not None:
            parser.error("diff compares two files; it takes no server after `--`")
        from mcp_lab.session.diff import diff

        return _show(diff(args.a, args.b, server_version=args.ignore_server_version, ignore=args.ignore), args)
    except (CassetteError, ScriptError) as e:
        print(f"mcp_lab {args.command}: {e}", file=sys.stderr)
        return 2
    except (McpError, OSError, ValueError, TypeError) as e:
        msg = getattr(e, "message", None) or str(e)
        print(f"mcp_lab {args.command}: {' '.join(msg.split())}", file=sys.stderr)
        return 1


def _server(args, server_argv, parser, command: str) -> Any:
    if (args.name is None) == (server_argv is None):
        parser.error(f"{command} needs a known server name or URL, or `-- <server argv...>` (one of them)")
    if server_argv is not None and not server_argv:
        parser.error("nothing after `--`: give the server's command, e.g. -- node server.js")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    return args.name if server_argv is None else server_argv


def _show(d, args) -> int:
    from mcp_lab.session.diff import dumps

    print(dumps(d) if args.json else d.text(width=args.width))
    return 0 if d.same else 1


def _replay(args, server) -> int:
    from mcp_lab.session.replay import replay

    d = replay(
        args.cassette,
        server,
        era=args.era,
        timeout=args.timeout,
        deadline=args.deadline,
        server_version=args.ignore_server_version,
        ignore=args.ignore,
    )
    if args.save and d.trace is not None:
        d.trace.save(args.save, how="python -m mcp_lab replay " + args.cassette)
    return _show(d, args)


# -- record -------------------------------------------------------------------------------------
class ScriptError(ValueError):
    """A script line that cannot be sent; the message names the line."""


def parse_script(text: str, name: str = "script") -> list[tuple[int, str, Any]]:
    """(line number, kind, payload) for each line: kind "raw" (payload the text) or "call"
    (payload (method, params))."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("{"):
            out.append((n, "raw", line))
            continue
        method, _, rest = s.partition(" ")
        params = None
        if rest.strip():
            try:
                params = json.loads(rest)
            except ValueError as e:
                raise ScriptError(
                    f"{name} line {n}: the params of {method} are not JSON ({e.msg} at column "
                    f'{e.colno + len(method) + 1}); write `method {{"key": "value"}}`'
                ) from None
            if not isinstance(params, dict):
                raise ScriptError(f"{name} line {n}: params must be a JSON object, not {type(params).__name__}")
        out.append((n, "call", (method, params)))
    return out


def _record(args, server, server_argv) -> int:
    from contextlib import ExitStack

    if args.script:
        try:
            with open(args.script, encoding="utf-8") as f:
                text, name = f.read(), args.script
        except OSError as e:
            raise ScriptError(f"{args.script}: cannot be read ({e.strerror or e})") from None
    else:
        if sys.stdin.isatty():
            print(
                'type one request per line (`tools/list` or `tools/call {"name": ...}`), then Ctrl-D', file=sys.stderr
            )
        text, name = sys.stdin.read(), "stdin"
    script = parse_script(text, name)
    stopped: McpError | None = None
    with ExitStack() as stack:
        verdict, where = _connect(server, args, stack)
        stack.callback(verdict.close)
        try:
            _run_script(verdict.client, script, args.timeout)
        except McpError as e:  # a server that died or went silent: keep what was recorded
            stopped = e
        how = f"python -m mcp_lab record (script: {name}" + (", over HTTP)" if args.http else ")")
        if stopped is not None:
            how += f", stopped early: {' '.join(stopped.message.split())}"
        info = {"label": verdict.client.name, "era": verdict.era, "version": verdict.version}
        path = verdict.trace.save(args.out, how=how, server={**where, **info, "info": verdict.server_info})
    print(verdict.trace.text(width=160))
    if stopped is not None:
        print(
            f"mcp_lab record: {' '.join(stopped.message.split())}; saved the {len(verdict.trace)} events "
            f"recorded until then to {path}",
            file=sys.stderr,
        )
        return 1
    print(f"saved {len(verdict.trace)} events to {path}", file=sys.stderr)
    return 0


def _connect(server, args, stack):
    """Start and probe the server; returns (verdict, where it was: command or url)."""
    if isinstance(server, str) and server.startswith(("http://", "https://")):
        from mcp_lab.session.probe_http import probe_http

        return probe_http(server, timeout=args.timeout), {"url": server}
    if args.http:
        from mcp_lab.session.serve import serve_http

        srv = stack.enter_context(serve_http(server))
        from mcp_lab.session.probe_http import probe_http

        return probe_http(srv.url, timeout=args.timeout, name=srv.name), {"url": srv.url, "command": _argv(server)}
    from mcp_lab.session.probe import probe

    return probe(server, timeout=args.timeout, refresh=True), {"command": _argv(server)}


def _argv(server) -> list[str]:
    if isinstance(server, str):
        return [server]
    return list(server)


def _run_script(client, script, timeout: float) -> None:
    last: dict = {}
    for n, kind, payload in script:
        if kind == "raw":
            client.send_raw(payload, timeout=timeout)
            continue
        method, params = payload
        if method.startswith("notifications/"):
            client.notify(method, params)
            continue
        if (
            isinstance(params, dict)
            and "inputResponses" in params
            and "requestState" not in params
            and isinstance(last.get("requestState"), str)
        ):
            params = {**params, "requestState": last["requestState"]}
        answer = client.request(method, params, timeout=timeout)
        last = answer.result if isinstance(answer, jsonrpc.Result) else {}
