"""A modern-only server that lets the first server/discover go unanswered (as if still loading),
then refuses initialize with -32601 naming its versions in `data.supported`, as the bundled
calendar does, and answers the next server/discover.  A probe that read the refusal as "legacy"
would fail here; the right reading is "modern after all": discover again at a listed version.
"""

import json
import sys

from _legacy import error, send_discover_result

seen = []

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "initialize":
        error(
            msg["id"],
            -32601,
            "Method not found: initialize; this server speaks 2026-07-28",
            {"supported": ["2026-07-28"]},
        )
    elif msg.get("method") == "server/discover":
        seen.append(msg["id"])
        if len(seen) == 1:
            continue  # silence: the probe's short deadline passes
        send_discover_result(msg["id"], "fake-modern-only")
    else:
        error(msg["id"], -32601, "Method not found")
