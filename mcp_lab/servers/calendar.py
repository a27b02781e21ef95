"""The chapter's calendar, by bare hands: a 2026-07-28 MCP server in the standard library.

One calendar exposed three times, once as each primitive, because the primitives differ in
who decides that they happen: the model calls a tool (`create_event`), the application
attaches a resource (`calendar://week`), the person runs a prompt (`prepare_week`).

    python -m mcp_lab.servers.calendar          # stdio: one JSON-RPC message per line

`handle(message)` is the whole server as a pure function of one decoded message (plus the
module-level EVENTS list, see below); the stdio loop at the bottom only moves lines.  Every
rule a modern server must apply to each request, with no handshake to lean on, is applied
in `check_meta`: version and capabilities travel in every request's `_meta`.
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from datetime import datetime
from typing import Any

SUPPORTED = ["2026-07-28"]
SERVER_INFO = {"name": "mcp_lab-calendar", "version": "0.1.0"}
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"  # optional, deprecated (SEP-2577), still checked
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
INSTRUCTIONS = (
    "A one-week team calendar. Read calendar://week before proposing a time; create_event writes to the calendar."
)

# THE BUG THIS COURSE EXPOSES ON PURPOSE: events live in a module-level list, so they live
# exactly as long as this process -- connection state in disguise.  Run each request in a
# fresh process (notebook 03) and a created event vanishes.  The fix is a handle plus state
# that outlives the process (mcp_lab/servers/durable.py), not a session.
EVENTS: list[dict] = [
    {"id": "e1", "title": "Standup", "startsAt": "2026-09-07T09:00:00Z"},
    {"id": "e2", "title": "Design review", "startsAt": "2026-09-09T15:00:00Z"},
]

TOOL = {
    "name": "create_event",
    "description": "Create a calendar event. Writes to the calendar.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "title": {"type": "string", "description": "Event title."},
            "startsAt": {"type": "string", "format": "date-time", "description": "Start, ISO 8601 UTC."},
        },
        "required": ["title"],
    },
}
RESOURCE = {
    "uri": "calendar://week",
    "name": "week",
    "title": "This week",
    "description": "The events of the week, as JSON.",
    "mimeType": "application/json",
}
PROMPT = {
    "name": "prepare_week",
    "description": "Read the week and draft a plan.",
    "arguments": [{"name": "focus", "description": "What the week should favour.", "required": False}],
}


class Refusal(Exception):
    """A JSON-RPC error answer: raised anywhere in a handler, turned into one error line."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def result(body: dict, server_info: dict | None = None) -> dict:
    """A complete result: resultType, the body, and who answered (serverInfo in _meta)."""
    return {
        "resultType": "complete",
        **body,
        "_meta": {"io.modelcontextprotocol/serverInfo": server_info or SERVER_INFO},
    }


def check_meta(params: Any, supported: list[str] = SUPPORTED) -> dict:
    """The per-request envelope of the stateless revision; returns the client's capabilities."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    missing = [k for k in (META_VERSION, META_CAPS) if not isinstance(meta, dict) or k not in meta]
    if missing:
        raise Refusal(-32602, "params._meta is missing the required key(s): " + ", ".join(missing))
    version = meta[META_VERSION]
    if not isinstance(version, str):
        raise Refusal(-32602, f"{META_VERSION} must be a version string such as {supported[-1]!r}, not {version!r}")
    if version not in supported:
        raise Refusal(
            -32022, f"Unsupported protocol version: {version!r}", {"supported": supported, "requested": version}
        )
    caps = meta[META_CAPS]
    if not isinstance(caps, dict):
        raise Refusal(-32602, f"{META_CAPS} must be an object ({{}} declares no optional capability)")
    if META_LOG_LEVEL in meta and meta[META_LOG_LEVEL] not in LOG_LEVELS:
        raise Refusal(-32602, f"Invalid {META_LOG_LEVEL} {meta[META_LOG_LEVEL]!r}: use one of {', '.join(LOG_LEVELS)}")
    return caps


def is_datetime(value: Any) -> bool:
    if not isinstance(value, str) or "T" not in value:
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
        return True
    except ValueError:
        return False


def require_form_elicitation(caps: dict, why: str) -> None:
    """Refuse with -32021 unless THIS request declared form elicitation (`{}` means form).

    A server may only ask for what the client declared, and only in the request at hand:
    nothing a previous request declared counts.
    """
    elicitation = caps.get("elicitation")
    if not isinstance(elicitation, dict) or (elicitation and "form" not in elicitation):
        raise Refusal(
            -32021,
            f"{why}, and this request did not declare the form elicitation capability",
            {"requiredCapabilities": {"elicitation": {"form": {}}}},
        )


def ask_start_time(title: str, request_state: str) -> dict:
    """The interim answer that asks the person when an event starts (key "when", form mode)."""
    return {
        "resultType": "input_required",
        "inputRequests": {
            "when": {
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": f'When should "{title}" start?',
                    "requestedSchema": {
                        "type": "object",
                        "properties": {"startsAt": {"type": "string", "format": "date-time"}},
                        "required": ["startsAt"],
                    },
                },
            }
        },
        "requestState": request_state,
    }


def _tool_error(text: str) -> dict:
    # A business or validation failure is a result the model can read and correct, not a
    # protocol error (tools spec: "isError: true" inside a normal result).
    return result({"content": [{"type": "text", "text": text}], "isError": True})


def _create_event(args: dict, params: dict, caps: dict) -> dict:
    title = args.get("title")
    if not isinstance(title, str) or not title.strip():
        return _tool_error("create_event needs a non-empty string 'title'.")
    starts = args.get("startsAt")
    if starts is None:
        # Multi round-trip: no request to the client, an answer that says what is missing.
        # requestState carries the partial arguments, so ANY process can finish the call.
        # A BROKEN MUST, KEPT ON PURPOSE AS A LESSON (notebook 09, section 2): the state is plain
        # base64 JSON and its fields win over the retry's arguments, so it decides what is
        # created, yet nothing protects its integrity.  The spec: when requestState influences
        # business logic the server MUST protect its integrity (HMAC or AEAD) and MUST reject
        # state that fails verification (basic/patterns/mrtr, Server Requirements).  A client
        # that rewrites it creates whatever it likes; the durable server signs it and refuses.
        state = params.get("requestState")
        responses = params.get("inputResponses") or {}
        if not isinstance(responses, dict) or not (state is None or isinstance(state, str)):
            raise Refusal(-32602, "inputResponses must be an object and requestState a string")
        answer = responses.get("when")
        if state is not None:
            try:
                args = {**args, **json.loads(base64.b64decode(state, validate=True))}  # trusted, unchecked
            except (binascii.Error, ValueError, TypeError):
                raise Refusal(-32602, "Invalid requestState: not the base64 JSON this server issued") from None
        if isinstance(answer, dict):
            action = answer.get("action")
            if action in ("decline", "cancel"):
                return _tool_error(f"Not created: the person chose {action} when asked for a start time.")
            content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
            if action == "accept" and content.get("startsAt") is not None:
                return _create_event({**args, "startsAt": content["startsAt"]}, {}, caps)
        require_form_elicitation(caps, "create_event without startsAt must ask the person")
        partial = json.dumps({"title": title}, separators=(",", ":"))
        return ask_start_time(title, base64.b64encode(partial.encode()).decode())
    if not is_datetime(starts):
        return _tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    event = {"id": f"e{len(EVENTS) + 1}", "title": title, "startsAt": starts}
    EVENTS.append(event)
    return result(
        {
            "content": [{"type": "text", "text": f"Created {event['id']}: {title} at {starts}"}],
            "structuredContent": event,
            "isError": False,
        }
    )


def dispatch(method: str, params: dict, handlers: dict | None = None) -> dict:
    """Route one request to its handler, after the checks every modern request must pass."""
    handlers = HANDLERS if handlers is None else handlers
    if method == "initialize":
        # A legacy client's handshake: a method this server does not implement, so -32601 (over
        # Streamable HTTP that becomes 404). A modern-only server SHOULD still name its versions
        # in the error, since that may be the only diagnostic a legacy client shows
        # (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions).
        raise Refusal(
            -32601,
            f"Method not found: initialize. This server speaks only {', '.join(SUPPORTED)}, which has "
            "no initialize handshake: send server/discover, with _meta on every request",
            {"supported": SUPPORTED},
        )
    if method not in handlers:
        raise Refusal(-32601, f"Method not found: {method}")
    caps = check_meta(params)
    return handlers[method](params, caps)


def _discover(params, caps):
    return result(
        {
            "supportedVersions": SUPPORTED,
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
            "instructions": INSTRUCTIONS,
            "ttlMs": 3600000,
            "cacheScope": "public",
        }
    )


def _tools_call(params, caps):
    name = params.get("name")
    if name != TOOL["name"]:
        raise Refusal(-32602, f"Unknown tool: {name!r}")
    args = params.get("arguments") or {}
    if not isinstance(args, dict):
        raise Refusal(-32602, "tools/call arguments must be an object")
    return _create_event(args, params, caps)


def _resources_read(params, caps):
    uri = params.get("uri")
    if uri != RESOURCE["uri"]:
        raise Refusal(-32602, f"Resource not found: {uri!r}", {"uri": uri})
    text = json.dumps(EVENTS, separators=(",", ":"))
    return result(
        {
            "contents": [{"uri": uri, "mimeType": "application/json", "text": text}],
            "ttlMs": 60000,
            "cacheScope": "private",
        }
    )


def _prompts_get(params, caps):
    if params.get("name") != PROMPT["name"]:
        raise Refusal(-32602, f"Unknown prompt: {params.get('name')!r}")
    args = params.get("arguments") or {}
    focus = args.get("focus", "balance") if isinstance(args, dict) else "balance"
    return result(
        {
            "description": PROMPT["description"],
            "messages": [
                {
                    "role": "user",
                    "content": {"type": "text", "text": f"Read calendar://week and draft a plan. Focus: {focus}."},
                }
            ],
        }
    )


HANDLERS = {
    "server/discover": _discover,
    "tools/list": lambda p, c: result({"tools": [TOOL], "ttlMs": 300000, "cacheScope": "public"}),
    "tools/call": _tools_call,
    "resources/list": lambda p, c: result({"resources": [RESOURCE], "ttlMs": 60000, "cacheScope": "private"}),
    "resources/templates/list": lambda p, c: result({"resourceTemplates": [], "ttlMs": 300000, "cacheScope": "public"}),
    "resources/read": _resources_read,
    "prompts/list": lambda p, c: result({"prompts": [PROMPT], "ttlMs": 300000, "cacheScope": "public"}),
    "prompts/get": _prompts_get,
}


def error(id: Any, code: int, message: str, data: Any = None) -> dict:
    """An error answer.  When the request's id could not be read, the id is left out: the
    schema allows omitting it, and forbids null (an id is a string or an integer)."""
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "error": err} if id is None else {"jsonrpc": "2.0", "id": id, "error": err}


def handle(msg: Any, dispatch_to=None, *, name: str = "calendar") -> dict | None:
    """Answer one decoded message: a response dict, or None for a notification.

    The JSON-RPC envelope rules live here once; `dispatch_to(method, params) -> result`
    (default: this calendar's `dispatch`) is all another bundled server supplies.
    """
    dispatch_to = dispatch if dispatch_to is None else dispatch_to
    if not isinstance(msg, dict):
        return error(
            None,
            -32600,
            "Invalid Request: batches are not part of MCP; send one object per line"
            if isinstance(msg, list)
            else "Invalid Request: a message must be a JSON object",
        )
    rid = msg.get("id")
    id_ok = isinstance(rid, (str, int)) and not isinstance(rid, bool)
    method = msg.get("method")
    # The same envelope rules as the package's one table (mcp_lab.wire._envelope), written out by
    # hand so this server stays standard-library Python; tests/test_envelope_rules.py holds the two
    # to one verdict on every row.
    if (
        msg.get("jsonrpc") != "2.0"
        or not isinstance(method, str)
        or not method
        or "result" in msg
        or "error" in msg
        or ("params" in msg and not isinstance(msg["params"], dict))
    ):
        if "method" not in msg and ("result" in msg or "error" in msg):
            return None  # a response: clients never send one; nothing to answer
        return error(
            rid if id_ok else None,
            -32600,
            'Invalid Request: not a JSON-RPC 2.0 request (need jsonrpc "2.0", a non-empty string '
            "method with no result or error beside it, and params as an object)",
        )
    if "id" not in msg:
        return None  # a notification is never answered
    if not id_ok:
        return error(
            None,
            -32600,
            "Invalid Request: id must be a string or an integer (never null, a fraction such as 1.5, or a boolean)",
        )
    try:
        return {"jsonrpc": "2.0", "id": rid, "result": dispatch_to(method, msg.get("params") or {})}
    except Refusal as r:
        return error(rid, r.code, r.message, r.data)
    except Exception as e:  # a bug here must cost one answer, never the process
        print(f"{name}: internal error on {method}: {e!r}", file=sys.stderr)
        return error(rid, -32603, f"Internal error: {type(e).__name__}")


def dump_line(obj: dict) -> bytes:
    """One compact JSON line, newline included, always valid UTF-8."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _not_json(name: str):
    raise ValueError(f"{name} is not JSON")


def load_message(line: bytes | str) -> Any:
    """Decode one message; NaN, Infinity and lone surrogates are refused like any other non-JSON.

    A lone surrogate ("\\udc80") decodes, but no answer echoing it can be written as UTF-8, so
    it is refused here, before any handler has acted on it.
    """
    msg = json.loads(line, parse_constant=_not_json)
    json.dumps(msg, ensure_ascii=False).encode("utf-8")  # raises UnicodeEncodeError on a surrogate
    return msg


def handle_line(line: bytes | str, handle_msg=None) -> bytes | None:
    """Answer one framed line: the bytes to write (one line), or None."""
    try:
        msg = load_message(line)
    except (ValueError, RecursionError, UnicodeError):
        return dump_line(error(None, -32700, "Parse error: the line is not valid JSON"))
    answer = (handle if handle_msg is None else handle_msg)(msg)
    return None if answer is None else dump_line(answer)


def serve_stdio(stdin=None, stdout=None, *, handle_msg=None, banner: str | None = None) -> None:
    """The stdio binding: one line in, at most one line out, until stdin closes."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    print(banner or f"{SERVER_INFO['name']} {SERVER_INFO['version']}: serving 2026-07-28 on stdio", file=sys.stderr)
    for line in stdin:
        out = handle_line(line, handle_msg)
        if out is not None:
            stdout.write(out)
            stdout.flush()


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # the common case: keep the cold start free of argparse
        serve_stdio()
        return
    import argparse

    parser = argparse.ArgumentParser(prog="python -m mcp_lab.servers.calendar")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    parser.add_argument("--sse", action="store_true", help="with --http: answer with SSE streams, not JSON")
    args = parser.parse_args(argv)
    if args.http is None:
        serve_stdio()
        return
    from mcp_lab.servers.streamable_http import serve  # same handle(), another binding

    serve(
        handle,
        args.http,
        sse=args.sse,
        name=SERVER_INFO["name"],
        banner=f"{SERVER_INFO['name']} {SERVER_INFO['version']}",
    )


if __name__ == "__main__":
    main()
