"""A tiny stdio MCP server (stdlib only) that misbehaves in exactly the ways MRTR tests need.

    python tests/fakes/stubborn_server.py always        # every call: input_required, forever
    python tests/fakes/stubborn_server.py later N       # N requestState-only "try again" rounds, then complete
    python tests/fakes/stubborn_server.py two-keys      # one round asking two forms under odd keys

It answers `tools/call` only (anything else is -32601) and reports what it saw in the
complete result, so a test can check the client's retries from the server's side as well as
from the client's Trace. Each interim result carries a requestState full of characters a
careless client would mangle (quotes, backslashes, slashes, non-ASCII, spaces), numbered by
round so an echo of a stale state is visible.
"""

from __future__ import annotations

import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "always"
LATER = int(sys.argv[2]) if MODE == "later" and len(sys.argv) > 2 else 2


def state(n: int) -> str:
    return f'round {n}: "quoted" \\ back/slash é ünï ✓ +/=  '


WHEN = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "When?",
        "requestedSchema": {
            "type": "object",
            "properties": {"startsAt": {"type": "string", "format": "date-time"}},
            "required": ["startsAt"],
        },
    },
}
WHERE = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Where?",
        "requestedSchema": {
            "type": "object",
            "properties": {"room": {"type": "string", "enum": ["A", "B"]}},
            "required": ["room"],
        },
    },
}


def interim(params: dict, n: int, mode: str = MODE) -> dict:
    if mode == "always":
        return {"resultType": "input_required", "inputRequests": {f"ask-{n}": WHEN}, "requestState": state(n)}
    if mode == "later":
        return {"resultType": "input_required", "requestState": state(n)}
    return {
        "resultType": "input_required",
        "inputRequests": {"when/1": WHEN, "Where ✓": WHERE},
        "requestState": state(n),
    }


def answer(params: dict, mode: str = MODE, later: int = LATER) -> dict:
    # The round number travels in requestState itself: this server keeps no memory of calls.
    rs = params.get("requestState")
    n = int(rs.split(":")[0].split()[1]) + 1 if isinstance(rs, str) and rs.startswith("round ") else 1
    done = (mode == "later" and n > later) or (mode == "two-keys" and n > 1)
    if not done:
        return interim(params, n, mode)
    seen = {"requestState": rs, "inputResponses": params.get("inputResponses"), "rounds": n - 1}
    return {"resultType": "complete", "content": [{"type": "text", "text": "done"}], "structuredContent": seen}


def handle_line(line: str, mode: str = MODE, later: int = LATER) -> str | None:
    """One line in, at most one line out: what main() does per line, callable in-process."""
    msg = json.loads(line)
    if "id" not in msg:
        return None
    if msg.get("method") == "tools/call":
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": answer(msg.get("params") or {}, mode, later)}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n"


def main() -> None:
    for line in sys.stdin:
        out = handle_line(line)
        if out is not None:
            sys.stdout.write(out)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
