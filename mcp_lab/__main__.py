"""The mcp_lab command line: `python -m mcp_lab <command> ...`.

    python -m mcp_lab probe everything              # a known short name
    python -m mcp_lab probe -- node server.js       # any stdio server, as an argv
    python -m mcp_lab probe calendar --json         # the verdict and its trace as JSON
    python -m mcp_lab cost everything               # what the server's catalog costs a prompt
    python -m mcp_lab cost --json -- node server.js # the same as JSON, for any stdio server
    python -m mcp_lab record OUT.jsonl calendar < script.txt   # see mcp_lab/session/cassette_cli.py
    python -m mcp_lab replay OUT.jsonl sdk_calendar # exit 1 when the answers differ
    python -m mcp_lab diff A.jsonl B.jsonl

Exit status: 0 when the probe reached a verdict, 1 when the server could not be started,
died, or answered nothing usable (one line on stderr, never a traceback), 2 for a usage error.
Each command is an argparse sub-command, so later chapters add theirs beside `probe`.
"""

from __future__ import annotations

import argparse
import json
import sys

from mcp_lab.session import cassette_cli
from mcp_lab.wire.errors import McpError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mcp_lab", description="Drive MCP servers and show the real wire.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = sub.add_parser(
        "probe",
        help="server/discover first, initialize if the server is legacy",
        description="Probe a stdio server the way MCP 2026-07-28 says a dual-era client "
        "should, and print the steps, the verdict and the trace. Give a known "
        "short name, or the server's argv after `--`.",
    )
    p.add_argument("name", nargs="?", help="a known server name (e.g. everything, calendar, sdk_calendar)")
    p.add_argument(
        "--timeout",
        type=float,
        default=3.0,
        help="seconds of silence after server/discover that mean legacy (default 3)",
    )
    p.add_argument("--json", action="store_true", help="print the verdict and trace as JSON")
    p.add_argument(
        "--width", type=int, default=160, help="fold trace lines longer than this many characters; 0 prints them whole"
    )
    c = sub.add_parser(
        "cost",
        help="tokens a server's tool catalog and instructions add to every prompt",
        description="Connect, probe the era, list every tool, and count the tokens of each "
        "definition (json.dumps of name, description, inputSchema) and of the "
        "server's instructions. Give a known short name, or the server's argv "
        "after `--`. The client declares no capabilities.",
    )
    c.add_argument("name", nargs="?", help="a known server name (e.g. everything, calendar, sdk_calendar)")
    c.add_argument("--encoding", default="o200k_base", help="tiktoken encoding: o200k_base (default) or cl100k_base")
    c.add_argument(
        "--timeout", type=float, default=5.0, help="deadline in seconds of each wait, the probe's included (default 5)"
    )
    c.add_argument("--json", action="store_true", help="print the counts as JSON")
    cassette_cli.register(sub)  # record, replay, diff
    from .conformance.cli import add_parser as _add_conformance

    _add_conformance(sub)
    return parser


def _cost(args, server_argv: list[str] | None, parser: argparse.ArgumentParser) -> int:
    from mcp_lab.tokens import EncodingDataError, available_encodings, cost

    if (args.name is None) == (server_argv is None):
        parser.error("cost needs either a known server name or `-- <argv...>`, not both")
    if server_argv is not None and not server_argv:
        parser.error("nothing after `--`: give the server's command, e.g. -- node server.js")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    if args.encoding not in available_encodings():
        parser.error(f"--encoding must be one of {', '.join(available_encodings())}")
    server = args.name if server_argv is None else server_argv
    try:
        result = cost(server, encoding=args.encoding, timeout=args.timeout)
    except (McpError, EncodingDataError, ValueError, TypeError, OSError, NotImplementedError) as e:
        msg = e.message if isinstance(e, McpError) else str(e)
        print(f"mcp_lab cost: {' '.join(msg.split())}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(result.text())
    return 0


def _probe(args, server_argv: list[str] | None, parser: argparse.ArgumentParser) -> int:
    from mcp_lab.session.probe import probe

    if args.name is None and server_argv is None:
        parser.error("probe needs a known server name (e.g. everything) or `-- <server argv...>`")
    if args.name is not None and server_argv is not None:
        parser.error("give a known server name or `-- <server argv...>`, not both")
    if server_argv is not None and not server_argv:
        parser.error("nothing after `--`: give the server's command, e.g. -- node server.js")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    server = args.name if server_argv is None else server_argv
    try:
        verdict = probe(server, timeout=args.timeout, refresh=True)
    except (McpError, ValueError, TypeError, OSError, NotImplementedError) as e:
        msg = e.message if isinstance(e, McpError) else str(e)
        print(f"mcp_lab probe: {' '.join(msg.split())}", file=sys.stderr)
        return 1
    try:
        if args.json:
            print(json.dumps(verdict.to_dict(), indent=2, ensure_ascii=False))
        else:
            print(verdict.text(width=args.width or None))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): not an error of the probe.  Point stdout at
        # /dev/null so the interpreter's own final flush does not complain again.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    finally:
        verdict.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` is the server's own argv, untouched by argparse
    # (its flags are not ours to parse).
    server_argv = None
    if "--" in argv:
        i = argv.index("--")
        argv, server_argv = argv[:i], argv[i + 1 :]
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "probe":
        return _probe(args, server_argv, parser)
    if args.command == "cost":
        return _cost(args, server_argv, parser)
    if args.command in cassette_cli.COMMANDS:
        return cassette_cli.run(args, server_argv, parser)
    if args.command == "conformance":
        from .conformance.cli import main as _conformance

        return _conformance(args, server_argv, parser)
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
