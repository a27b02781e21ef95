"""The mcp_lab command line: `python -m mcp_lab <command> ...`.

    python -m mcp_lab probe everything              # a known short name
    python -m mcp_lab probe -- node server.js       # any stdio server, as an argv
    python -m mcp_lab probe calendar --json         # the verdict and its trace as JSON
    python -m mcp_lab cost everything               # what the server's catalog costs a prompt
    python -m mcp_lab cost --json -- node server.js # the same as JSON, for any stdio server
    python -m mcp_lab record OUT.jsonl calendar < script.txt   # see mcp_lab/session/cassette_cli.py
    python -m mcp_lab replay OUT.jsonl sdk_calendar # exit 1 when the answers differ
    python -m mcp_lab diff A.jsonl B.jsonl
    python -m mcp_lab host-config calendar          # the mcpServers JSON a desktop host or editor reads

Exit status, the same for every command: 0 clean; 1 ran and found a defect or a difference;
2 could not run (bad input, a server that would not start, a refused connection, a 401/403),
always with one line on stderr, never a traceback.  A closed stdout (`| head`) ends quietly.
How a server is named, and the options that send credentials: `mcp_lab.session.cli_support`.
Each command is an argparse sub-command, so later chapters add theirs beside `probe`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from mcp_lab.session import cassette_cli
from mcp_lab.session import cli_support as cli
from mcp_lab.wire.errors import McpError


# Long on purpose: every sub-command's options in one place, read top to bottom as the help is.
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcp-lab", description="Drive MCP servers and show the real wire.", epilog=cli.EXIT_HELP
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = sub.add_parser(
        "probe",
        help="server/discover first, initialize if the server is legacy",
        description="Probe a server the way MCP 2026-07-28 says a dual-era client should, and print "
        "the steps, the verdict and the trace. Exit 1 when no version is mutual, when stdout carried "
        "lines that are not MCP (a framing violation), or when --require is not met.",
        epilog=cli.EXIT_HELP,
    )
    p.add_argument("name", nargs="?", metavar="SERVER", help=cli.SERVER_HELP)
    p.add_argument(
        "--timeout",
        type=float,
        default=3.0,
        help="seconds of silence after server/discover that mean legacy (default 3)",
    )
    p.add_argument("--json", action="store_true", help="print the verdict, its findings and the trace as JSON")
    p.add_argument(
        "--require",
        metavar="REVISION",
        help="exit 1 unless this revision (e.g. 2026-07-28) is the one negotiated",
    )
    p.add_argument(
        "--width", type=int, default=160, help="fold trace lines longer than this many characters; 0 prints them whole"
    )
    cli.add_server_options(p)
    c = sub.add_parser(
        "cost",
        help="tokens a server's tool catalog and instructions add to every prompt",
        description="Connect, probe the era, list every tool, and count the tokens of each "
        "definition (json.dumps of name, description, inputSchema) and of the "
        "server's instructions. The client declares no capabilities.",
        epilog=cli.EXIT_HELP,
    )
    c.add_argument("name", nargs="?", metavar="SERVER", help=cli.SERVER_HELP)
    c.add_argument("--encoding", default="o200k_base", help="tiktoken encoding: o200k_base (default) or cl100k_base")
    c.add_argument(
        "--timeout", type=float, default=5.0, help="deadline in seconds of each wait, the probe's included (default 5)"
    )
    c.add_argument("--json", action="store_true", help="print the counts as JSON")
    cli.add_server_options(c)
    cassette_cli.register(sub)  # record, replay, diff
    from .conformance.cli import add_parser as _add_conformance

    _add_conformance(sub)
    from .session.check_cli import add_parser as _add_check

    _add_check(sub)
    h = sub.add_parser(
        "host-config",
        help="the mcpServers JSON that launches bundled servers from a host",
        description="Print the configuration a desktop host or an editor reads to launch "
        "bundled stdio servers ({mcpServers: {NAME: {command, args, env}}}).",
        epilog=cli.EXIT_HELP,
    )
    h.add_argument("names", nargs="+", metavar="NAME", help="calendar, sdk_calendar, durable, notes or everything")
    h.add_argument(
        "--check",
        action="store_true",
        help="first launch each entry as a host would (minimal environment, fresh folder) and probe it",
    )
    return parser


def _cost(args, server) -> int:
    from mcp_lab.tokens import EncodingDataError, available_encodings, cost

    if args.timeout <= 0:
        raise cli.UsageError("--timeout must be a positive number of seconds")
    if args.encoding not in available_encodings():
        raise cli.UsageError(f"--encoding must be one of {', '.join(available_encodings())}")
    headers = cli.headers_from(args)
    try:
        with cli.serve_target(server, http=args.http, path=args.path) as target:
            kw = {"headers": headers} if headers else {}
            result = cost(target, encoding=args.encoding, timeout=args.timeout, **kw)
    except (McpError, EncodingDataError, ValueError, TypeError, OSError, NotImplementedError) as e:
        return cli.report("cost", e, as_json=args.json)
    print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) if args.json else result.text())
    return cli.EXIT_OK


def _probe(args, server) -> int:
    from mcp_lab.session.probe import probe

    if args.timeout <= 0:
        raise cli.UsageError("--timeout must be a positive number of seconds")
    headers = cli.headers_from(args)
    with contextlib.ExitStack() as stack:
        try:
            target = stack.enter_context(cli.serve_target(server, http=args.http, path=args.path))
            kw = {"headers": headers} if headers else {}
            verdict = probe(target, timeout=args.timeout, refresh=True, **kw)
        except (McpError, ValueError, TypeError, OSError, NotImplementedError) as e:
            return cli.report("probe", e, as_json=args.json)
        stack.callback(verdict.close)
        verdict.finish()  # stdout read to its end before judging: a buffered stray line counts
        findings = verdict.findings(require=args.require)
        if args.json:
            print(json.dumps({**verdict.to_dict(), "findings": findings}, indent=2, ensure_ascii=False))
        else:
            print(verdict.text(width=args.width or None))
            for f in findings:
                print(f"finding  {f['kind']}: {f['message']}")
        sys.stdout.flush()
    return cli.EXIT_FOUND if findings else cli.EXIT_OK


_SERVER_COMMANDS = ("probe", "cost", "record", "replay", "conformance", "check")


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status (0 clean, 1 found something, 2 could not run)."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`| head`): not an error of the command.  Point stdout at
        # /dev/null so the interpreter's own final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return cli.EXIT_OK
    except KeyboardInterrupt:
        print("mcp-lab: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` is the server's own argv, untouched by argparse
    # (its flags are not ours to parse).
    server_argv = None
    if "--" in argv:
        i = argv.index("--")
        argv, server_argv = argv[:i], argv[i + 1 :]
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command in _SERVER_COMMANDS and any(x.startswith("-") for x in extra):
        # `mcp-lab probe python -m my_server`: the server's own flags reached argparse.
        given = " ".join(x for x in [getattr(args, "name", None), *extra] if x)
        hint = f"a server's command goes after `--`: mcp-lab {args.command} -- {given}"
        return cli.report(args.command, f"unrecognized arguments: {' '.join(extra)}; {hint}")
    if extra and args.command not in _SERVER_COMMANDS:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        # conformance and check resolve their server themselves (conformance --client has none)
        server = None
        if args.command in ("probe", "cost") or args.command in cassette_cli.SERVER_COMMANDS:
            server = cli.resolve_server(args.command, args.name, server_argv, extra)
        if args.command == "probe":
            return _probe(args, server)
        if args.command == "cost":
            return _cost(args, server)
        if args.command in cassette_cli.COMMANDS:
            return cassette_cli.run(args, server if args.command != "diff" else server_argv, parser)
        if args.command == "conformance":
            from .conformance.cli import main as _conformance

            return _conformance(args, server_argv, parser, extra)
        if args.command == "check":
            from .session.check_cli import main as _check

            return _check(args, server_argv, extra)
    except cli.UsageError as e:
        return cli.report(args.command, str(e), as_json=getattr(args, "json", False))
    if args.command == "host-config":
        from .course.host_config import main as host_config

        return host_config(args.names, check_entries=args.check)
    parser.error(f"unknown command {args.command!r}")
    return cli.EXIT_CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main())
