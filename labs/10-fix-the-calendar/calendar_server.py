"""Lab 01: the calendar server you will fix.  Standard library only.

    python calendar_server.py          # stdio: one JSON-RPC message per line

As shipped this is the toy calendar of notebook 03, and it has the same bug: every request is
answered correctly on its own, but the events live in a module-level list, so a write lives
exactly as long as the process that made it.  The check in 10-fix-the-calendar.ipynb runs
every message in a brand-new process, and the event created in one process is gone in the next.

The fix the specification prescribes is not a session.  It is an explicit handle, passed as an
ordinary tool argument and validated on every call, over state that outlives any process.
The check expects, once you are done:

* a tool `create_calendar` (no arguments) whose result carries the new handle in its text and
  in `structuredContent` as {"calendar": "<handle>"}; the handle is opaque and unguessable
  (at least 128 random bits);
* `create_event` and `list_events` taking that handle as the argument `calendar`; an unknown or
  made-up handle gives a tool execution error (a result with "isError": true), never a crash;
  `list_events` returns {"events": [...]} in `structuredContent`;
* calendars and events stored in the SQLite file named by the CALENDAR_DB environment variable
  (the check sets it), one transaction per write;
* a `requestState` that is signed with a key every process of the server shares, so that a
  changed one is refused with the JSON-RPC error -32602 instead of being believed.

Work through the TODO markers in order.  Everything below the "protocol plumbing" line is
correct already (the 2026-07-28 envelope rules) and does not need to change.
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from datetime import datetime
from typing import Any

SUPPORTED = ["2026-07-28"]
SERVER_INFO = {"name": "lab01-calendar", "version": "0.1.0"}
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"

# TODO 3: this list is the bug.  It is connection state in disguise: each process gets its own
# copy, seeded afresh, and a write dies with the process.  Replace it with tables in the SQLite
# file named by os.environ["CALENDAR_DB"] (a `calendars` table holding handles, an `events`
# table whose rows point at a calendar), and do each write inside one transaction.
EVENTS: list[dict] = [
    {"id": "e1", "title": "Standup", "startsAt": "2026-09-07T09:00:00Z"},
    {"id": "e2", "title": "Design review", "startsAt": "2026-09-09T15:00:00Z"},
]

# TODO 1: add a `create_calendar` tool (no arguments) that makes a new, empty calendar and
# returns an opaque, unguessable handle, e.g. "cal_" + 22 url-safe random characters, in the
# text and as structuredContent {"calendar": handle}.  Say in its description how long a
# calendar is kept.
# TODO 2: give `create_event` and `list_events` a required `calendar` argument.
TOOLS = [
    {"name": "create_event",
     "description": "Create a calendar event. Writes to the calendar.",
     "inputSchema": {"type": "object", "properties": {
         "title": {"type": "string", "description": "Event title."},
         "startsAt": {"type": "string", "format": "date-time", "description": "Start, ISO 8601 UTC."}},
         "required": ["title"]}},
    {"name": "list_events",
     "description": "List the events of the calendar.",
     "inputSchema": {"type": "object", "properties": {}}},
]


class Refusal(Exception):
    """A JSON-RPC error answer, raised anywhere in a handler."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def ok(text: str, structured: Any = None) -> dict:
    body = {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": False}
    if structured is not None:
        body["structuredContent"] = structured
    return body


def tool_error(text: str) -> dict:
    # A failure the model can read and correct is a result with isError, not a protocol error.
    return {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": True}


def is_datetime(value: Any) -> bool:
    if not isinstance(value, str) or "T" not in value:
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
        return True
    except ValueError:
        return False


# TODO 4: requestState is attacker-controlled: a client may send back anything.  This one is
# plain base64 JSON, so anyone can read it and write a different one that the server will
# believe.  Sign it instead: payload + "." + HMAC-SHA256(key, payload), with the key shared by
# every process of this server (an environment variable, or a key file created once beside the
# database), put an expiry in the payload, and raise Refusal(-32602, "Invalid requestState: ...")
# when the signature does not match (compare with hmac.compare_digest) or the state has expired.
def make_state(partial: dict) -> str:
    return base64.b64encode(json.dumps(partial, separators=(",", ":")).encode()).decode()


def read_state(state: str) -> dict:
    try:
        return json.loads(base64.b64decode(state, validate=True))
    except (binascii.Error, ValueError, TypeError):
        raise Refusal(-32602, "Invalid requestState: not the base64 JSON this server issued") from None


def create_event(args: dict, params: dict, caps: dict) -> dict:
    # TODO 2: read args["calendar"] and check, on every call, that it names a calendar this
    # server issued (and that has not expired); otherwise return tool_error("Unknown calendar
    # handle ...: call create_calendar for a new one").
    title = args.get("title")
    if not isinstance(title, str) or not title.strip():
        return tool_error("create_event needs a non-empty string 'title'.")
    starts = args.get("startsAt")
    if starts is None:
        # Multi round-trip: answer with what is missing.  requestState carries the partial
        # arguments, so whichever process receives the retry can finish the call.
        state = params.get("requestState")
        answer = (params.get("inputResponses") or {}).get("when")
        if isinstance(state, str):
            args = {**read_state(state), **args}
        if isinstance(answer, dict):
            if answer.get("action") in ("decline", "cancel"):
                return tool_error(f"Not created: the person chose {answer['action']}.")
            content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
            if answer.get("action") == "accept" and content.get("startsAt") is not None:
                return create_event({**args, "startsAt": content["startsAt"]}, {}, caps)
        if not isinstance(caps.get("elicitation"), dict):
            raise Refusal(-32021, "create_event without startsAt must ask the person, and this request "
                          "did not declare the form elicitation capability",
                          {"requiredCapabilities": {"elicitation": {"form": {}}}})
        return {"resultType": "input_required",
                "inputRequests": {"when": {"method": "elicitation/create", "params": {
                    "mode": "form", "message": f'When should "{title}" start?',
                    "requestedSchema": {"type": "object",
                                        "properties": {"startsAt": {"type": "string", "format": "date-time"}},
                                        "required": ["startsAt"]}}}},
                "requestState": make_state({"title": title})}
    if not is_datetime(starts):
        return tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    # TODO 3: insert into the events table instead, in one transaction.
    event = {"id": f"e{len(EVENTS) + 1}", "title": title, "startsAt": starts}
    EVENTS.append(event)
    return ok(f"Created {event['id']}: {title} at {starts}", event)


def list_events(args: dict, params: dict, caps: dict) -> dict:
    # TODO 2 and 3: validate args["calendar"], then read that calendar's events from SQLite.
    return ok(json.dumps(EVENTS), {"events": EVENTS})


TOOL_HANDLERS = {"create_event": create_event, "list_events": list_events}


# ---- protocol plumbing: the 2026-07-28 envelope rules; nothing below needs to change ----------

def check_meta(params: dict) -> dict:
    meta = params.get("_meta")
    missing = [k for k in (META_VERSION, META_CAPS) if not isinstance(meta, dict) or k not in meta]
    if missing:
        raise Refusal(-32602, "params._meta is missing the required key(s): " + ", ".join(missing))
    if meta[META_VERSION] not in SUPPORTED:
        raise Refusal(-32022, f"Unsupported protocol version: {meta[META_VERSION]!r}", {"supported": SUPPORTED})
    if not isinstance(meta[META_CAPS], dict):
        raise Refusal(-32602, f"{META_CAPS} must be an object")
    return meta[META_CAPS]


def dispatch(method: str, params: dict) -> dict:
    caps = check_meta(params)
    if method == "server/discover":
        return {"resultType": "complete", "supportedVersions": SUPPORTED, "capabilities": {"tools": {}},
                "serverInfo": SERVER_INFO}
    if method == "tools/list":
        return {"resultType": "complete", "tools": TOOLS}
    if method == "tools/call":
        handler = TOOL_HANDLERS.get(params.get("name"))
        if handler is None:
            raise Refusal(-32602, f"Unknown tool: {params.get('name')!r}")
        args = params.get("arguments") or {}
        if not isinstance(args, dict):
            raise Refusal(-32602, "tools/call arguments must be an object")
        return handler(args, params, caps)
    raise Refusal(-32601, f"Method not found: {method}")


def handle(msg: Any) -> dict | None:
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
        if isinstance(msg, dict) and "method" not in msg and ("result" in msg or "error" in msg):
            return None
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    if "id" not in msg:
        return None  # a notification is never answered
    rid = msg["id"]
    try:
        params = msg.get("params") or {}
        if not isinstance(params, dict):
            raise Refusal(-32600, "Invalid Request: params must be an object")
        return {"jsonrpc": "2.0", "id": rid, "result": dispatch(msg["method"], params)}
    except Refusal as r:
        err = {"code": r.code, "message": r.message, **({"data": r.data} if r.data is not None else {})}
        return {"jsonrpc": "2.0", "id": rid, "error": err}
    except Exception as e:  # a bug costs one answer, never the process; details go to stderr
        print(f"calendar_server: internal error: {e!r}", file=sys.stderr)
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": f"Internal error: {type(e).__name__}"}}


def main() -> None:
    # stdout carries only MCP messages; anything else (logs, debugging prints) goes to stderr.
    print(f"{SERVER_INFO['name']}: serving 2026-07-28 on stdio", file=sys.stderr)
    for line in sys.stdin.buffer:
        try:
            answer = handle(json.loads(line))
        except ValueError:
            answer = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        if answer is not None:
            sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
