"""A 2026-07-28 server that serves a tool catalog from a JSON file, and nothing else.

    python -m mcp_lab.labs.catalog_server catalog.json

Lab 03 uses it to put a learner's trimmed catalog on a real wire: the check counts the catalog
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

from ..servers.calendar import Refusal, _check_meta, _dump, _error

SERVER_INFO = {"name": "mcp_lab-catalog", "version": "0.1.0"}


def _complete(body: dict) -> dict:
    return {"resultType": "complete", **body, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


def load(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise ValueError(f"{path}: expected a list of tools or {{\"tools\": [...]}}")
    return tools


def make_handler(tools: list[dict]):
    def answer(method: str, params: dict) -> dict:
        if method not in ("server/discover", "tools/list", "tools/call"):
            raise Refusal(-32601, f"Method not found: {method}")
        _check_meta(params)
        if method == "server/discover":
            return _complete({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                              "ttlMs": 3600000, "cacheScope": "public"})
        if method == "tools/list":
            return _complete({"tools": tools, "ttlMs": 300000, "cacheScope": "public"})
        return _complete({"content": [{"type": "text", "text": "This server only lists its catalog."}],
                          "isError": True})

    def handle(msg: Any) -> dict | None:
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
            return _error(None, -32600, "Invalid Request: not a JSON-RPC 2.0 request")
        if "id" not in msg:
            return None
        try:
            return {"jsonrpc": "2.0", "id": msg["id"], "result": answer(msg["method"], msg.get("params") or {})}
        except Refusal as r:
            return _error(msg["id"], r.code, r.message, r.data)

    return handle


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m mcp_lab.labs.catalog_server CATALOG.json", file=sys.stderr)
        return 2
    try:
        tools = load(args[0])
    except (OSError, ValueError) as e:
        print(f"catalog_server: cannot serve {args[0]}: {e}", file=sys.stderr)
        return 2
    handle = make_handler(tools)
    print(f"catalog_server: serving {len(tools)} tools from {args[0]}", file=sys.stderr)
    for line in sys.stdin.buffer:
        try:
            out = handle(json.loads(line))
        except ValueError:
            out = _error(None, -32700, "Parse error: the line is not valid JSON")
        if out is not None:
            sys.stdout.buffer.write(_dump(out))
            sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
