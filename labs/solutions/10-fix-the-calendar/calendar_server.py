"""Lab 01, a solution: the calendar with a handle, a SQLite file and a signed requestState.

    python calendar_server.py          # stdio; the database is $CALENDAR_DB

What changed from the template, TODO by TODO:

1. `create_calendar` returns "cal_" + secrets.token_urlsafe(16): 128 random bits, no structure
   to parse or guess, in the text and in structuredContent {"calendar": handle}.
2. `create_event` and `list_events` take `calendar` as an ordinary argument and look it up on
   every call; unknown, made-up or expired handles are tool execution errors (isError).
3. The module-level EVENTS list is gone.  Calendars and events are rows in the SQLite file named
   by $CALENDAR_DB (WAL mode, a busy timeout so processes can share it, one BEGIN IMMEDIATE
   transaction per write), so any process sees what any other process wrote.
4. requestState is base64url(payload) "." base64url(HMAC-SHA256(key, payload)); the payload
   binds the tool, the partial arguments and an expiry.  The key is $CALENDAR_KEY, or a key file
   beside the database that the first process creates (mode 0600) and every later one reads.
   A state whose signature does not match, or that has expired, is refused with -32602.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import sys
import time
from datetime import datetime
from typing import Any

SUPPORTED = ["2026-07-28"]
SERVER_INFO = {"name": "lab01-calendar", "version": "0.2.0"}
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
CALENDAR_TTL = 30 * 24 * 3600   # seconds a calendar is kept
STATE_TTL = 600                 # seconds a requestState is valid

DB_PATH = os.environ.get("CALENDAR_DB", "calendar.sqlite3")


def open_db(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=10, isolation_level=None)   # we say BEGIN ourselves
    db.execute("PRAGMA busy_timeout = 10000")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("BEGIN IMMEDIATE")
    db.execute("CREATE TABLE IF NOT EXISTS calendars (handle TEXT PRIMARY KEY, expires_at REAL NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
               "calendar TEXT NOT NULL REFERENCES calendars(handle), id TEXT NOT NULL, "
               "title TEXT NOT NULL, starts_at TEXT NOT NULL, UNIQUE (calendar, id))")
    db.execute("COMMIT")
    return db


def load_key(db_path: str) -> bytes:
    if os.environ.get("CALENDAR_KEY"):
        return os.environ["CALENDAR_KEY"].encode()
    path = db_path + ".key"
    try:
        # O_EXCL: exactly one process creates the key; 0600: only its owner can read it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    except FileExistsError:
        pass
    with open(path, "rb") as f:
        return f.read().strip()


DB = open_db(DB_PATH)
KEY = load_key(DB_PATH)

TOOLS = [
    {"name": "create_calendar",
     "description": ("Create an empty calendar and return its handle; pass the handle as `calendar` to the "
                     "other tools. A calendar is kept for 30 days after its creation, then its handle expires."),
     "inputSchema": {"type": "object", "properties": {}}},
    {"name": "create_event",
     "description": "Create a calendar event. Writes to the calendar.",
     "inputSchema": {"type": "object", "properties": {
         "calendar": {"type": "string", "description": "The handle from create_calendar."},
         "title": {"type": "string", "description": "Event title."},
         "startsAt": {"type": "string", "format": "date-time", "description": "Start, ISO 8601 UTC."}},
         "required": ["calendar", "title"]}},
    {"name": "list_events",
     "description": "List the events of a calendar.",
     "inputSchema": {"type": "object", "properties": {
         "calendar": {"type": "string", "description": "The handle from create_calendar."}},
         "required": ["calendar"]}},
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


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_state(partial: dict) -> str:
    body = b64(json.dumps({**partial, "exp": time.time() + STATE_TTL}, separators=(",", ":")).encode())
    return body + "." + b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest())


def read_state(state: str) -> dict:
    body, _, mac = state.partition(".")
    good = b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(good, mac):
        raise Refusal(-32602, "Invalid requestState: the signature does not match (it was changed, "
                      "or another server issued it); call the tool again without requestState")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    if payload.pop("exp") < time.time():
        raise Refusal(-32602, "Invalid requestState: it has expired; call the tool again without requestState")
    return payload


def find_calendar(handle: Any) -> str | None:
    """Why the handle is not usable, or None when it names a live calendar."""
    if not isinstance(handle, str):
        return "This tool needs `calendar`, the handle create_calendar returned."
    row = DB.execute("SELECT expires_at FROM calendars WHERE handle = ?", (handle,)).fetchone()
    if row is None:
        return f"Unknown calendar handle {handle[:40]!r}: call create_calendar for a new one."
    if row[0] < time.time():
        return f"Calendar {handle[:40]!r} has expired: call create_calendar for a new one."
    return None


def create_calendar(args: dict, params: dict, caps: dict) -> dict:
    handle = "cal_" + secrets.token_urlsafe(16)
    DB.execute("INSERT INTO calendars (handle, expires_at) VALUES (?, ?)", (handle, time.time() + CALENDAR_TTL))
    return ok(f"Created calendar {handle}; pass it as `calendar` to create_event and list_events.",
              {"calendar": handle})


def create_event(args: dict, params: dict, caps: dict) -> dict:
    why = find_calendar(args.get("calendar"))
    if why:
        return tool_error(why)
    title = args.get("title")
    if not isinstance(title, str) or not title.strip():
        return tool_error("create_event needs a non-empty string 'title'.")
    starts = args.get("startsAt")
    if starts is None:
        state = params.get("requestState")
        answer = (params.get("inputResponses") or {}).get("when")
        if isinstance(state, str):
            args = {**args, **read_state(state)}   # the signed partial arguments win
        elif state is not None:
            raise Refusal(-32602, "Invalid requestState: it must be a string")
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
                "requestState": make_state({"calendar": args["calendar"], "title": title})}
    if not is_datetime(starts):
        return tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    DB.execute("BEGIN IMMEDIATE")   # the count and the insert happen together, or not at all
    try:
        n = DB.execute("SELECT count(*) FROM events WHERE calendar = ?", (args["calendar"],)).fetchone()[0] + 1
        DB.execute("INSERT INTO events (calendar, id, title, starts_at) VALUES (?, ?, ?, ?)",
                   (args["calendar"], f"e{n}", title, starts))
        DB.execute("COMMIT")
    except BaseException:
        DB.execute("ROLLBACK")
        raise
    event = {"id": f"e{n}", "title": title, "startsAt": starts}
    return ok(f"Created e{n}: {title} at {starts}", event)


def list_events(args: dict, params: dict, caps: dict) -> dict:
    why = find_calendar(args.get("calendar"))
    if why:
        return tool_error(why)
    events = [{"id": i, "title": t, "startsAt": s} for i, t, s in DB.execute(
        "SELECT id, title, starts_at FROM events WHERE calendar = ? ORDER BY seq", (args["calendar"],))]
    return ok(json.dumps(events), {"events": events})


TOOL_HANDLERS = {"create_calendar": create_calendar, "create_event": create_event, "list_events": list_events}


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
