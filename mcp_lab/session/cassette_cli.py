"""The cassette commands of `python -m mcp_lab`: record, replay, diff.

    python -m mcp_lab record OUT.jsonl calendar < script.txt       # or --script FILE, or -- ARGV...
    python -m mcp_lab record OUT.jsonl calendar --http             # the same over Streamable HTTP
    python -m mcp_lab record OUT.jsonl --http -- python my_server.py   # any server, over HTTP (--http PORT
                                                                        # appended; or put {port} in the argv)
    python -m mcp_lab replay OUT.jsonl sdk_calendar                # or -- ARGV..., or a URL
    python -m mcp_lab replay legacy.jsonl everything --era modern  # the same conversation, other era
    python -m mcp_lab diff A.jsonl B.jsonl

A script holds one request per line: `method {json params}` (the client adds `_meta` when the
server is modern), or a raw JSON-RPC line sent byte for byte.  Blank lines and `#` comments are
skipped; a method under `notifications/` is sent as a notification.  A line whose params carry
`inputResponses` but no `requestState` gets the `requestState` of the previous answer, so a
script can answer an `input_required` round it cannot predict.

Exit status (every command of mcp_lab alike): 0 clean (record: the file is written; replay
and diff: the conversations are the same), 1 ran and found a difference (or the replay stopped
early, or the server died during a recording), 2 could not run (a usage error, an unreadable
file, a server that would not start or refused the connection, a 401/403); one line on stderr,
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mcp_lab.session import cli_support as cli
from mcp_lab.wire import jsonrpc
from mcp_lab.wire.errors import McpError
from mcp_lab.wire.revisions import Era

__all__ = ["COMMANDS", "register", "run", "parse_script"]

COMMANDS = ("record", "replay", "diff")
SERVER_COMMANDS = ("record", "replay")  # the two that talk to a server


def register(sub) -> None:
    """Add the three sub-commands to the CLI's argparse sub-parsers."""
    r = sub.add_parser(
        "record",
        help="run a script of requests against a server and save the cassette",
        description="Probe the server, run one request per script line, save the whole Trace "
        "as a cassette (JSON Lines). The values of Authorization, Cookie and every --header are "
        "never written; --redact hides JSON paths of the messages too.",
        epilog=cli.EXIT_HELP,
    )
    r.add_argument("out", help="the cassette file to write (.jsonl)")
    r.add_argument("name", nargs="?", metavar="SERVER", help=cli.SERVER_HELP)
    r.add_argument("--script", help="the script file (default: read stdin)")
    r.add_argument("--timeout", type=float, default=5.0, help="deadline of each wait, seconds (default 5)")
    r.add_argument(
        "--redact",
        action="append",
        default=[],
        metavar="PATH",
        help="replace the value at this JSON path of every message with <redacted> (e.g. "
        "'params.arguments.password', '**.apiKey'); repeatable",
    )
    cli.add_server_options(r)
    p = sub.add_parser(
        "replay",
        help="send a cassette's requests to a server and diff the answers",
        description="Replay the client side of a cassette against a server and print what changed. "
        "Exit 1 when the answers differ. Values the server minted (ids, handles, requestState) are "
        "learned from the new server and sent back in their place.",
        epilog=cli.EXIT_HELP,
    )
    p.add_argument("cassette")
    p.add_argument("name", nargs="?", metavar="SERVER", help=cli.SERVER_HELP)
    p.add_argument("--era", choices=tuple(Era), type=Era, help="convert the conversation to this era first")
    p.add_argument("--timeout", type=float, default=5.0, help="deadline of each request, seconds (default 5)")
    p.add_argument("--deadline", type=float, default=60.0, help="deadline of the whole replay (default 60)")
    p.add_argument("--save", metavar="OUT", help="also save the new conversation as a cassette")
    p.add_argument("--junit", metavar="FILE", help="also write the result as JUnit XML (one test case per exchange)")
    cli.add_server_options(p)
    _common(p)
    d = sub.add_parser(
        "diff",
        help="compare two cassettes exchange by exchange",
        description="Align two recordings by what was asked and show every difference in the "
        "answers, as JSON paths. Exit 1 when they differ.",
        epilog=cli.EXIT_HELP,
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
        help="ignore this path, written as the diff prints it (e.g. 'answer.result.tools[1].inputSchema', "
        "'answer.result.tools[*].description', '**.ttlMs'); repeatable; a rule that matches nothing is warned of",
    )
    p.add_argument("--json", action="store_true", help="print the diff as JSON")
    p.add_argument("--width", type=int, default=100, help="fold values longer than this (default 100)")


def run(args, server: Any, parser: argparse.ArgumentParser) -> int:
    """`server` is what the command names (resolved by the CLI); for diff, the argv after `--`."""
    from mcp_lab.session.cassette import CassetteError

    try:
        if args.command == "record":
            _check_timeout(args)
            return _record(args, server)
        if args.command == "replay":
            _check_timeout(args)
            return _replay(args, server)
        if server is not None:
            raise cli.UsageError("diff compares two files; it takes no server after `--`")
        from mcp_lab.session.diff import diff

        return _show(diff(args.a, args.b, server_version=args.ignore_server_version, ignore=args.ignore), args)
    except (CassetteError, ScriptError) as e:
        return cli.report(args.command, str(e), as_json=getattr(args, "json", False))
    except (McpError, OSError, ValueError, TypeError) as e:
        return cli.report(args.command, e, as_json=getattr(args, "json", False))


def _check_timeout(args) -> None:
    if args.timeout <= 0:
        raise cli.UsageError("--timeout must be a positive number of seconds")


def _show(d, args) -> int:
    from mcp_lab.session.diff import dumps

    for w in d.warnings:
        print(f"mcp-lab {args.command}: warning: {w}", file=sys.stderr)
    print(dumps(d) if args.json else d.text(width=args.width))
    return cli.EXIT_OK if d.same else cli.EXIT_FOUND


def _replay(args, server) -> int:
    from mcp_lab.session.replay import replay

    headers = cli.headers_from(args)
    with cli.serve_target(server, http=args.http, path=args.path) as target:
        d = replay(
            args.cassette,
            target,
            era=args.era,
            timeout=args.timeout,
            deadline=args.deadline,
            server_version=args.ignore_server_version,
            ignore=args.ignore,
            headers=headers or None,
        )
    if args.save and d.trace is not None:
        from mcp_lab.session import cassette

        cassette.save_redacted(d.trace, args.save, how="mcp-lab replay " + args.cassette, headers=headers)
    if args.junit:
        from mcp_lab.session.junit import write_replay

        write_replay(d, args.junit)
    if d.error and d.unreached:
        # Nothing was answered at all: the server could not be reached, not a difference.
        why = cli.one_line(d.exception) if d.exception is not None else d.error
        print(f"mcp-lab replay: {why}", file=sys.stderr)
        return cli.EXIT_CANNOT_RUN
    return _show(d, args)


# -- record -------------------------------------------------------------------------------------
class ScriptError(ValueError):
    """A script line that cannot be sent; the message names the line."""


def parse_script(text: str, name: str = "script") -> list[tuple[int, str, Any]]:
    """(line number, kind, payload) for each line: kind "raw" (payload the text) or "call"
    (payload (method, params))."""
    out: list[tuple[int, str, Any]] = []
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
            except json.JSONDecodeError as e:
                raise ScriptError(
                    f"{name} line {n}: the params of {method} are not JSON ({e.msg} at column "
                    f'{e.colno + len(method) + 1}); write `method {{"key": "value"}}`'
                ) from None
            if not isinstance(params, dict):
                raise ScriptError(f"{name} line {n}: params must be a JSON object, not {type(params).__name__}")
        out.append((n, "call", (method, params)))
    return out


def _record(args, server) -> int:
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
    headers = cli.headers_from(args)
    with ExitStack() as stack:
        verdict, where = _connect(server, args, stack, headers)
        stack.callback(verdict.close)
        try:
            _run_script(verdict.client, script, args.timeout)
        except McpError as e:  # a server that died or went silent: keep what was recorded
            stopped = e
        verdict.finish()  # the server's stdout read to its end: what it flushes at exit is recorded too
        how = f"mcp-lab record (script: {name}" + (", over HTTP)" if "url" in where else ")")
        if stopped is not None:
            how += f", stopped early: {' '.join(stopped.message.split())}"
        info = {"label": verdict.client.name, "era": verdict.era, "version": verdict.version}
        from mcp_lab.session import cassette

        path = cassette.save_redacted(
            verdict.trace,
            args.out,
            headers=headers,
            paths=args.redact,
            how=how,
            server={**where, **info, "info": verdict.server_info},
        )
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


def _connect(server, args, stack, headers):
    """Start and probe the server; returns (verdict, where it was: command or url)."""
    from mcp_lab.session.probe_http import probe_http

    if cli.is_url(server):
        return probe_http(server, timeout=args.timeout, headers=headers), {"url": server}
    if cli.wants_http(server, args.http):
        from mcp_lab.session.serve import serve_http

        srv = stack.enter_context(
            serve_http(server if isinstance(server, str) else cli.http_argv(server), path=args.path)
        )
        where = {"url": srv.url, "command": _argv(server)}
        return probe_http(srv.url, timeout=args.timeout, name=srv.name, headers=headers), where
    if headers:
        raise cli.UsageError("--header and --bearer-env are for an HTTP server (a URL, or an argv with {port})")
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
