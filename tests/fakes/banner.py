"""A modern server that prints a banner on stdout before its first message (a framing
violation: stdout must carry only MCP messages), then answers server/discover properly."""

from _legacy import send, serve

print("Banner Server v1.0 ready on stdio", flush=True)


def on_discover(msg):
    send(
        {
            "jsonrpc": "2.0",
            "id": msg["id"],
            "result": {
                "resultType": "complete",
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "ttlMs": 0,
                "cacheScope": "private",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake-banner", "version": "0.0.1"}},
            },
        }
    )


serve(on_discover)
