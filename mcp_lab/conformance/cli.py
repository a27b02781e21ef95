"""`mcp-lab conformance SERVER [--requirements REV] [--scenario S ...]`.

Exit status (as every mcp-lab command): 0 when no scored check outside the baseline failed as a
defect of the server (failures classified as a missing fixture, an undeclared capability or
untestable are shown, not counted) and no baseline entry is stale; 1 when one did, or a
scenario hung or wrote nothing; 2 when the run could not be made (one line on stderr: unknown
server, nothing listening, a 401/403, a server that would not start, suite not installed, a
usage error).  `--client` runs the suite's client scenarios against mcp_lab's Client.
`--install` puts the pinned suite and its Node 22 in a per-user cache (for a pip install;
`install.py`), `--uninstall` removes it: 0 done, 2 could not (one line: no npm, no network).
"""

from __future__ import annotations

import json
import sys

__all__ = ["add_parser", "main"]


def add_parser(sub) -> None:
    from mcp_lab.session import cli_support as cli

    c = sub.add_parser(
        "conformance",
        help="run the official conformance suite against a server (or mcp_lab's client)",
        description="Run the pinned official conformance suite against a bundled server "
        "(calendar, durable, showcase, sdk_calendar, everything), a running server's URL, or any "
        "server's command after `--` (started over HTTP: {port} replaced, or --http PORT appended; "
        "--stdio checks a stdio server through a bridge, one process per connection). Each failing "
        "check is classified: a defect, a fixture of the suite the server lacks, a capability it "
        "did not declare, or untestable; defects come first, and only they fail the run.",
        epilog=cli.EXIT_HELP,
    )
    c.add_argument("name", nargs="?", metavar="SERVER", help="a bundled server name or an http(s):// URL")
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
    c.add_argument("--failures-only", action="store_true", help="list only failing checks that are not baselined")
    c.add_argument("--json", action="store_true", help="print the result as JSON (defects first)")
    c.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="write a baseline skeleton (YAML) of every failing check, its classification as the reason",
    )
    c.add_argument("--junit", metavar="FILE", help="also write the result as JUnit XML (one test case per check)")
    c.add_argument(
        "--stdio",
        action="store_true",
        help="the server speaks stdio: check it through a bridge that serves it over Streamable HTTP",
    )
    cli.add_server_options(c, http=False)
    c.add_argument(
        "--client",
        action="store_true",
        help="run the suite's 2026-07-28 client scenarios against mcp_lab's own Client instead",
    )
    c.add_argument(
        "--install",
        action="store_true",
        help="install the pinned suite and its Node 22 (npm ci, about 240 MB) into a per-user cache, "
        "$XDG_CACHE_HOME/mcp_lab (default ~/.cache/mcp_lab), for a pip install; a checkout's `make setup` does it too",
    )
    c.add_argument("--uninstall", action="store_true", help="remove the per-user install of the suite")


def main(args, server_argv, parser, extra=()) -> int:
    from mcp_lab.conformance import SuiteNotInstalled, run, run_client
    from mcp_lab.session import cli_support as cli
    from mcp_lab.wire.errors import McpError

    if args.install or args.uninstall:
        return _install(args, server_argv, extra)
    if args.timeout <= 0:
        raise cli.UsageError("--timeout must be a positive number of seconds")
    if not args.client:
        server = cli.resolve_server("conformance", args.name, server_argv, extra)
    elif extra or server_argv is not None:
        raise cli.UsageError("--client runs mcp_lab's own client: it takes no server")
    headers = cli.headers_from(args)
    baseline = None if args.no_baseline else (args.expected_failures or "auto")
    try:
        if args.client:
            result = run_client(args.scenario, timeout=args.timeout)
        else:
            result = run(
                server,
                args.requirements,
                scenarios=args.scenario,
                expected_failures=baseline,
                timeout=args.timeout,
                headers=headers or None,
                stdio=args.stdio,
                path=args.path,
            )
    except (SuiteNotInstalled, McpError, ValueError, ConnectionError, OSError) as e:
        return cli.report("conformance", e, as_json=args.json)
    if args.write_baseline:
        with open(args.write_baseline, "w", encoding="utf-8") as f:
            f.write(result.baseline_skeleton())
        print(f"mcp-lab conformance: wrote a baseline skeleton to {args.write_baseline}", file=sys.stderr)
    if args.junit:
        from mcp_lab.session.junit import write_conformance

        write_conformance(result, args.junit)
    print(
        json.dumps(result.to_dict(), indent=2, ensure_ascii=False)
        if args.json
        else result.text(all_checks=not args.failures_only, include_baselined=not args.failures_only)
    )
    return cli.EXIT_OK if result.ok else cli.EXIT_FOUND


def _install(args, server_argv, extra) -> int:
    from mcp_lab.session import cli_support as cli

    from . import install

    if args.install and args.uninstall:
        raise cli.UsageError("--install and --uninstall: give one of them")
    if args.name or extra or server_argv is not None:
        raise cli.UsageError(f"{'--install' if args.install else '--uninstall'} takes no server")
    say = lambda line: print(f"mcp-lab conformance: {line}", file=sys.stderr, flush=True)
    if args.uninstall:
        install.uninstall(progress=say)
        return cli.EXIT_OK
    try:
        install.install(progress=say)
    except (install.InstallError, OSError) as e:
        return cli.report("conformance", e, as_json=args.json)
    return cli.EXIT_OK
