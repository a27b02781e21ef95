"""The shared body of the misbehaving fakes: a tiny legacy-style (2025-06-18) stdio server.

Each fake decides what to do with `server/discover` (and anything before the handshake);
everything else gets the answers a plain handshake-era server gives.  Stdlib only.
"""

import json
import sys

VERSION = "2025-06-18"
INFO = {"name": "fake-legacy", "version": "0.0.1"}


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def error(rid, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    send({"jsonrpc": "2.0", "id": rid, "error": err})


def send_discover_result(rid, name):
    """A valid 2026-07-28 DiscoverResult from the fake called `name` (the fakes that are modern)."""
    send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "result": {
                "resultType": "complete",
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "ttlMs": 0,
                "cacheScope": "private",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": name, "version": "0.0.1"}},
            },
        }
    )


def answer_legacy(msg):
    """What a handshake-era server answers: initialize, tools/list; nothing to notifications."""
    if "id" not in msg:
        return
    if msg.get("method") == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": msg["id"],
                "result": {"protocolVersion": VERSION, "capabilities": {"tools": {}}, "serverInfo": INFO},
            }
        )
    elif msg.get("method") == "tools/list":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": []}})
    else:
        error(msg["id"], -32601, "Method not found")


def serve(on_discover):
    """Read one message per line; `on_discover(msg)` handles server/discover."""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("method") == "server/discover":
            on_discover(msg)
        else:
            answer_legacy(msg)
