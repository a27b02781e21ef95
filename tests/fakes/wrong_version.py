"""A modern server that answers server/discover with -32022 Unsupported protocol version.

    wrong_version.py retry   refuses the first discover listing ["2026-07-28"], then accepts
                             2026-07-28 (the retry the rule prescribes must happen)
    wrong_version.py none    always lists only "2099-01-01", a version no client here speaks

It also answers initialize like a legacy server, so a client that wrongly fell back would be
seen to succeed: the tests assert that no initialize is ever sent.
"""

import sys

from _legacy import error, send_discover_result, serve

MODE = sys.argv[1]
seen = []


def on_discover(msg):
    asked = msg.get("params", {}).get("_meta", {}).get("io.modelcontextprotocol/protocolVersion")
    seen.append(asked)
    if MODE == "retry" and len(seen) > 1 and asked == "2026-07-28":
        send_discover_result(msg["id"], "fake-wrong-version")
        return
    supported = ["2026-07-28"] if MODE == "retry" else ["2099-01-01"]
    error(msg["id"], -32022, "Unsupported protocol version", {"supported": supported, "requested": asked})


serve(on_discover)
