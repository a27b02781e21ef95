"""`python -m mcp_lab conformance NAME-or-URL [--requirements REV] [--scenario S ...]`.

Exit status: 0 when every scored check that is not in the server's baseline passed (and no
baseline entry is stale), 1 when one did not or the run could not be made (one line on
stderr: unknown server, nothing listening at the URL, suite not installed, a hung scenario),
2 for a usage error.  `--client` runs the suite's client scenarios against mcp_lab's Client.
"""

from __future__ import annotations

import json
import sys

__all__ = ["add_parser", "main"]


def add_parser(sub) -> None:
    c = sub.add_parser(
        "conformance",
        help="run the official conformance suite against a server (or mcp_lab's client)",
        description="Run the pinned official conformance suite against a bundled server "
        "(calendar, durable, showcase, sdk_calendar, everything), a running server's "
        "URL, or any server that takes --http PORT (its argv after `--`), and print "
        "every failing check with the spec section it comes from.",
    )
    c.add_argument("name", nargs="?", help="a bundled server name or an http:// URL")
    c.add_argument(
        "--requirements",
        default="2026-07-28",
        metavar="REV",
        help="the revision whose frozen scenario set runs and is scored (default 2026-07-28)",
    )
    c.add_argument("--scenario", action="append", metavar="S", help="run only this scenario (repeatable)")
    c.add_argument(
        "--expected-failures",
        metavar="NAME_OR_PATH",
        help="a baseline (default: the bundled server's own, if it has one)",
    )
    c.add_argument("--no-baseline", action="store_true", help="judge every failure, even baselined ones")
    c.add_argument(
        "--timeout", type=float, default=30.0, help="the suite's per-scenario deadline in seconds (default 30)"
    )
    c.add_argument("--failures-only", action="store_true", help="list only the failing scored checks")
    c.add_argument("--json", action="store_true", help="print the result as JSON")
    c.add_argument(
        "--client",
        action="store_true",
        help="run the suite's 2026-07-28 client scenarios against mcp_lab's own Client instead",
    )


def main(args, server_argv, parser) -> int:
    from mcp_lab.conformance import SuiteNotInstalled, run, run_client

    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    if not args.client and (args.name is None) == (server_argv is None):
        parser.error("conformance needs a bundled server name or URL, or `-- <server argv...>`, not both")
    if server_argv is not None and not server_argv:
        parser.error("nothing after `--`: give the server's command, e.g. -- python server.py")
    baseline = None if args.no_baseline else (args.expected_failures or "auto")
    try:
        if args.client:
            result = run_client(args.scenario, timeout=args.timeout)
        else:
            result = run(
                args.name if server_argv is None else server_argv,
                args.requirements,
                scenarios=args.scenario,
                expected_failures=baseline,
                timeout=args.timeout,
            )
    except (SuiteNotInstalled, ValueError, ConnectionError, OSError) as e:
        print(f"mcp_lab conformance: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    except Exception as e:  # a server that would not start: ProtocolError / DeadlineExceeded
        from mcp_lab.wire.jsonrpc import ProtocolError

        if not isinstance(e, ProtocolError):
            raise
        print(f"mcp_lab conformance: {' '.join(e.message.split())}", file=sys.stderr)
        return 1
    print(
        json.dumps(result.to_dict(), indent=2, ensure_ascii=False)
        if args.json
        else result.text(all_checks=not args.failures_only)
    )
    return 0 if result.ok else 1
