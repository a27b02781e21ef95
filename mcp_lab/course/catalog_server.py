"""A 2026-07-28 server that serves a tool catalog from a JSON file, and nothing else.

    python -m mcp_lab.course.catalog_server catalog.json

Lab 12 (token budget) uses it to put a learner's trimmed catalog on a real wire: the check counts the catalog
that came back in a `tools/list` answer, not the Python object that was written, so what is
measured is what a client would really receive.  The file holds a list of tool objects or
`{"tools": [...]}`; it is read once, at start.  The envelope rules (`_meta` on every request,
the version check) are the bundled calendar's own.  The tools are only listed: a `tools/call`
answers a tool error, since nothing stands behind the definitions.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcp_lab.servers import calendar as core

SERVER_INFO = {"name": "mcp_lab-catalog", "version": "0.1.0"}


def load(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise ValueError(f'{path}: expected a list of tools or {{"tools": [...]}}')
    return tools


def make_handler(tools: list[dict]):
    """`handle(msg)` for a server whose only content is `tools`."""
    handlers = {
        "server/discover": lambda p, caps: core.result(
            {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "ttlMs": 3600000,
                "cacheScope": "public",
            },
            SERVER_INFO,
        ),
        "tools/list": lambda p, caps: core.result(
            {"tools": tools, "ttlMs": 300000, "cacheScope": "public"}, SERVER_INFO
        ),
        "tools/call": lambda p, caps: core.result(
            {"content": [{"type": "text", "text": "This server only lists its catalog."}], "isError": True}, SERVER_INFO
        ),
    }

    def handle(msg: Any) -> dict | None:
        return core.handle(msg, lambda method, params: core.dispatch(method, params, handlers), name="catalog_server")

    return handle


def serve_in_process(argv: list[str]):
    """The browser edition's way in (mcp_lab.servers.inprocess): the catalog's line handler."""
    if len(argv) != 1:
        raise ValueError("usage: python -m mcp_lab.course.catalog_server CATALOG.json")
    handle = make_handler(load(argv[0]))
    return lambda line: core.handle_line(line, handle)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m mcp_lab.course.catalog_server CATALOG.json", file=sys.stderr)
        return 2
    try:
        tools = load(args[0])
    except (OSError, ValueError) as e:
        print(f"catalog_server: cannot serve {args[0]}: {e}", file=sys.stderr)
        return 2
    handle = make_handler(tools)
    core.serve_stdio(handle_msg=handle, banner=f"catalog_server: serving {len(tools)} tools from {args[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
