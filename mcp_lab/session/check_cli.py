"""`mcp-lab check SERVER`: exercise a server's declared surface and judge its answers
(`mcp_lab.session.check`).  Exit status: 0 no defect, 1 a defect found, 2 could not run."""

from __future__ import annotations

import json
import sys

from mcp_lab.session import cli_support as cli
from mcp_lab.wire.errors import McpError

__all__ = ["add_parser", "main"]


def add_parser(sub) -> None:
    c = sub.add_parser(
        "check",
        help="exercise a server's declared surface and judge every answer against the spec",
        description="Probe the server, list its tools, prompts and resources (declared or not), get "
        "each prompt that needs no argument, read each resource, ask for an unknown tool, prompt "
        "and resource, and judge every answer against the official schema. Reports schema-invalid "
        "answers, wrong error codes, primitives declared but not served or served but not "
        "declared, each with its spec link. No tool is called.",
        epilog=cli.EXIT_HELP,
    )
    c.add_argument("name", nargs="?", metavar="SERVER", help=cli.SERVER_HELP)
    c.add_argument("--timeout", type=float, default=10.0, help="deadline of each request, seconds (default 10)")
    c.add_argument("--json", action="store_true", help="print the report as JSON (defects first)")
    cli.add_server_options(c)


def main(args, server_argv, extra=()) -> int:
    from mcp_lab.session.check import check

    server = cli.resolve_server("check", args.name, server_argv, extra)
    if args.timeout <= 0:
        raise cli.UsageError("--timeout must be a positive number of seconds")
    headers = cli.headers_from(args)
    try:
        with cli.serve_target(server, http=args.http, path=args.path) as target:
            report = check(target, timeout=args.timeout, headers=headers or None)
    except (McpError, ValueError, TypeError, OSError) as e:
        return cli.report("check", e, as_json=args.json)
    print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) if args.json else report.text())
    sys.stdout.flush()
    return cli.EXIT_OK if report.ok else cli.EXIT_FOUND
