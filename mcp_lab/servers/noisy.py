"""The calendar with one framing bug: a start-up banner printed to stdout.

    python -m mcp_lab.servers.noisy            # the bug: one non-JSON line on stdout, first
    python -m mcp_lab.servers.noisy --fixed    # the fix: the same banner, on stderr
    python -m mcp_lab.servers.noisy --glued    # worse: the same print without its newline

The stdio transport gives stdout to MCP messages alone, one per line; a server's own words
belong on stderr, which a client must not treat as an error.  The commonest way a home-made
server breaks that rule is exactly this: a friendly `print()` at start-up (or a progress bar,
or a warning some dependency prints).  Everything else here *is* the bundled calendar: the
same `serve_stdio` loop and the same sans-IO `handle()`, imported, not copied, so any
difference a client sees comes from the one line below.
"""

from __future__ import annotations

import argparse
import sys

from mcp_lab.servers import calendar

BANNER = "Calendar server ready: 2 events loaded"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m mcp_lab.servers.noisy", description="The calendar, plus one stray print to stdout."
    )
    parser.add_argument(
        "--fixed", action="store_true", help="print the banner to stderr, where a server's own words belong"
    )
    parser.add_argument(
        "--glued", action="store_true", help="print the banner without a newline, so it glues onto the first answer"
    )
    args = parser.parse_args(argv)
    if args.fixed and args.glued:
        parser.error("--fixed and --glued are alternatives: pick one")

    # >>> THE FRAMING BUG (or, with --fixed, its fix) <<<
    # print() goes to stdout by default; on a stdio server stdout IS the protocol channel, so
    # this line reaches the client's line parser as if it were a message.  flush=True puts it
    # on the pipe before any answer (print's text buffer would otherwise hold it until exit).
    # --glued drops the newline, as a progress bar or a `print(..., end="")` does: the banner
    # then prefixes the first answer's line, and that answer is lost to every line parser.
    print(BANNER, file=sys.stderr if args.fixed else sys.stdout, end="" if args.glued else "\n", flush=True)

    calendar.serve_stdio()


if __name__ == "__main__":
    main()
