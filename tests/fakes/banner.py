"""A modern server that prints a banner on stdout before its first message (a framing
violation: stdout must carry only MCP messages), then answers server/discover properly."""

from _legacy import send_discover_result, serve

print("Banner Server v1.0 ready on stdio", flush=True)


def on_discover(msg):
    send_discover_result(msg["id"], "fake-banner")


serve(on_discover)
