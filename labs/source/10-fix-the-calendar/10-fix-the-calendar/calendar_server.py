"""Lab 10: the calendar server you will fix.

    python calendar_server.py              # stdio: one JSON-RPC message per line
    python calendar_server.py --http 8765  # Streamable HTTP on 127.0.0.1:8765/mcp

As shipped this is the toy calendar of notebook 09, and it has the same bug: every request is
answered correctly on its own, but the events live in a module-level list, so a write lives
exactly as long as the process that made it.  The check in 10-fix-the-calendar.ipynb runs
every message in a brand-new process, and the event created in one process is gone in the next.

What the specification requires is not a session: state that spans several requests MUST be
referenced by an explicit identifier the client passes on each request (basic/index,
Statelessness).  The design used here is the one the tools page suggests in its Stateful Tools
section, which is non-normative guidance: a handle, passed as an ordinary tool argument and
checked on every call, over state that outlives any process.  Where that state lives is not
prescribed; this lab chooses a SQLite file.  The check expects, once you are done:

* calendars and events stored in the SQLite file named by DB_PATH (the check sets
  $CALENDAR_DB), one transaction per write (TODO 1);
* a tool `create_calendar` (no arguments) whose result carries the new handle in its text and
  in `structuredContent` as {"calendar": "<handle>"}; the handle is opaque and unguessable (at
  least 128 random bits), and the calendar remembers who created it: `caller()` (TODO 2);
* `create_event` and `list_events` taking that handle as the argument `calendar`; an unknown,
  made-up, or someone else's handle gives a tool execution error (a result with "isError":
  true), never a crash; `list_events` returns {"events": [...]} in `structuredContent` (TODO 3).

The helpers are complete: `caller()` (who this process serves), `seal()` / `unseal()` (a signed,
expiring requestState, with the key file every process shares), `ok()` / `tool_error()`.  So is
everything below the "protocol plumbing" line.  Work through the TODO markers in order.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
### BEGIN STUB
### END STUB
### BEGIN SOLUTION
import sqlite3
### END SOLUTION
import sys
import time
from pathlib import Path
from typing import Any

# The bundled calendar supplies the JSON-RPC envelope (ids, error answers, the per-request `_meta`
# check); this file supplies the methods and the tools.
from mcp_lab.servers.calendar import Refusal, check_meta, handle as handle_message, handle_line, is_datetime

SUPPORTED = ["2026-07-28"]
SERVER_INFO = {"name": "lab10-calendar", "version": "1.0.0"}
CALENDAR_TTL = 30 * 24 * 3600   # seconds a calendar is kept
STATE_TTL = 600                 # seconds a requestState is valid

# The database lives beside this file unless the check (or you) name another one.
DB_PATH = os.environ.get("CALENDAR_DB") or str(Path(__file__).resolve().parent / "calendar.sqlite3")


# --- helpers you use (complete) ------------------------------------------------------------

def caller() -> str:
    """Who this process serves.

    The identity must come from something the caller cannot claim inside a message (arguments
    and _meta are written by the client, per request).  Over stdio the host starts one process
    per person, so the host names that person in the MCP_LAB_CALLER environment variable;
    without it, the operating-system account that runs the process is the caller.
    """
    return os.environ.get("MCP_LAB_CALLER", "").strip() or f"uid:{os.getuid()}"


def load_key(path: str) -> bytes:
    """The signing key every process of this server shares: $CALENDAR_KEY, or a key file.

    The first process creates the file (O_EXCL: exactly one wins the race; mode 0600: only its
    owner can read it) and every later process reads it.
    """
    if os.environ.get("CALENDAR_KEY"):
        return os.environ["CALENDAR_KEY"].encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    except FileExistsError:
        pass
    with open(path, "rb") as f:
        return f.read().strip()


KEY = load_key(DB_PATH + ".key")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def seal(state: dict) -> str:
    """The requestState for `state`: base64url(JSON with an expiry) "." base64url(HMAC-SHA256)."""
    body = _b64(json.dumps({**state, "exp": time.time() + STATE_TTL}, separators=(",", ":")).encode())
    return body + "." + _b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest())


def unseal(token: Any) -> dict:
    """What seal() sealed, or Refusal(-32602) when this server did not issue `token` as it is."""
    if not isinstance(token, str) or token.count(".") != 1:
        raise Refusal(-32602, "Invalid requestState: not one this server issued")
    body, mac = token.split(".")
    if not hmac.compare_digest(_b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest()), mac):
        raise Refusal(-32602, "Invalid requestState: the signature does not match (it was changed, "
                      "or another server issued it); call the tool again without requestState")
    try:
        payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError):
        raise Refusal(-32602, "Invalid requestState: unreadable") from None
    if payload.pop("exp", 0) < time.time():
        raise Refusal(-32602, "Invalid requestState: it has expired; call the tool again without requestState")
    return payload


def ok(text: str, structured: Any = None) -> dict:
    """A tool's successful result: text for the model, structuredContent for programs."""
    body = {"content": [{"type": "text", "text": text}], "isError": False}
    if structured is not None:
        body["structuredContent"] = structured
    return complete(body)


def tool_error(text: str) -> dict:
    """A failure the model can read and correct: a result with isError, not a protocol error."""
    return complete({"content": [{"type": "text", "text": text}], "isError": True})


def complete(body: dict) -> dict:
    """A final result: resultType "complete", and who answered, in _meta."""
    return {"resultType": "complete", **body, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


# --- the store: TODO 1 ---------------------------------------------------------------------

# TODO 1: this list is the bug.  It is connection state in disguise: each process gets its own
# copy, seeded afresh, and a write dies with the process.  Replace it with tables in the SQLite
# file named by DB_PATH (a `calendars` table holding handles and their owner, an `events` table
# whose rows point at a calendar), and do each write inside one transaction (BEGIN IMMEDIATE).
### BEGIN STUB
EVENTS: list[dict] = [
    {"id": "e1", "title": "Standup", "startsAt": "2026-09-07T09:00:00Z"},
    {"id": "e2", "title": "Design review", "startsAt": "2026-09-09T15:00:00Z"},
]


def add_event(calendar: str, title: str, starts: str) -> dict:
    # TODO 1: insert into the events table of this calendar instead, in one transaction.
    event = {"id": f"e{len(EVENTS) + 1}", "title": title, "startsAt": starts}
    EVENTS.append(event)
    return event


def events_of(calendar: str) -> list[dict]:
    # TODO 1: read this calendar's events from SQLite, in the order they were created.
    return list(EVENTS)
### END STUB
### BEGIN SOLUTION
def open_db(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=10, isolation_level=None)   # we say BEGIN ourselves
    db.execute("PRAGMA busy_timeout = 10000")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("BEGIN IMMEDIATE")
    db.execute("CREATE TABLE IF NOT EXISTS calendars (handle TEXT PRIMARY KEY, owner TEXT NOT NULL, "
               "expires_at REAL NOT NULL)")
    db.execute("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
               "calendar TEXT NOT NULL REFERENCES calendars(handle), id TEXT NOT NULL, "
               "title TEXT NOT NULL, starts_at TEXT NOT NULL, UNIQUE (calendar, id))")
    db.execute("COMMIT")
    return db


DB = open_db(DB_PATH)


def add_event(calendar: str, title: str, starts: str) -> dict:
    DB.execute("BEGIN IMMEDIATE")   # the count and the insert happen together, or not at all
    try:
        n = DB.execute("SELECT count(*) FROM events WHERE calendar = ?", (calendar,)).fetchone()[0] + 1
        DB.execute("INSERT INTO events (calendar, id, title, starts_at) VALUES (?, ?, ?, ?)",
                   (calendar, f"e{n}", title, starts))
        DB.execute("COMMIT")
    except BaseException:
        DB.execute("ROLLBACK")
        raise
    return {"id": f"e{n}", "title": title, "startsAt": starts}


def events_of(calendar: str) -> list[dict]:
    return [{"id": i, "title": t, "startsAt": s} for i, t, s in DB.execute(
        "SELECT id, title, starts_at FROM events WHERE calendar = ? ORDER BY seq", (calendar,))]
### END SOLUTION


# --- the handle: TODO 2 and 3 ----------------------------------------------------------------

# TODO 2: add a `create_calendar` tool (no arguments) that makes a new, empty calendar owned by
# caller() and returns an opaque, unguessable handle, e.g. "cal_" + 22 url-safe random
# characters, in the text and as structuredContent {"calendar": handle}.  Say in its
# description how long a calendar is kept.  Then give `create_event` and `list_events` a
# required `calendar` argument.
### BEGIN STUB
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
### END STUB
### BEGIN SOLUTION
TOOLS = [
    {"name": "create_calendar",
     "description": ("Create an empty calendar and return its handle; pass the handle as `calendar` to the "
                     "other tools. Only you can use it. A calendar is kept for 30 days, then its handle expires."),
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


def create_calendar(args: dict, params: dict, caps: dict) -> dict:
    handle = "cal_" + secrets.token_urlsafe(16)
    DB.execute("INSERT INTO calendars (handle, owner, expires_at) VALUES (?, ?, ?)",
               (handle, caller(), time.time() + CALENDAR_TTL))
    return ok(f"Created calendar {handle}; pass it as `calendar` to create_event and list_events.",
              {"calendar": handle})
### END SOLUTION


def refuse_handle(handle: Any) -> str | None:
    """Why this caller may not use `handle`, or None when it may."""
    # TODO 3: check, on every call, that `handle` names a calendar this server issued, that has
    # not expired, and that caller() created: this server knows its caller, so a handle is a
    # name, not a permission (a server that cannot tell callers apart has only the handle: a
    # bearer token, which is why it is also long, random and expiring).  Return the
    # reason as one sentence ("Unknown calendar handle ...: call create_calendar for a new one",
    # "Not your calendar: ..."); the tools turn it into tool_error(reason).
    ### BEGIN STUB
    return None
    ### END STUB
    ### BEGIN SOLUTION
    if not isinstance(handle, str):
        return "This tool needs `calendar`, the handle create_calendar returned."
    row = DB.execute("SELECT owner, expires_at FROM calendars WHERE handle = ?", (handle,)).fetchone()
    if row is None:
        return f"Unknown calendar handle {handle[:40]!r}: call create_calendar for a new one."
    if not hmac.compare_digest(row[0].encode(), caller().encode()):
        return f"Not your calendar: {handle[:40]!r} was created by another caller; call create_calendar for your own."
    if row[1] < time.time():
        return f"Calendar {handle[:40]!r} has expired: call create_calendar for a new one."
    return None
    ### END SOLUTION


def create_event(args: dict, params: dict, caps: dict) -> dict:
    why = refuse_handle(args.get("calendar"))
    if why:
        return tool_error(why)
    title = args.get("title")
    if not isinstance(title, str) or not title.strip():
        return tool_error("create_event needs a non-empty string 'title'.")
    starts = args.get("startsAt")
    if starts is None:
        state = params.get("requestState")
        answer = (params.get("inputResponses") or {}).get("when")
        if state is not None:
            args = {**args, **unseal(state)}   # the sealed partial arguments win
        if isinstance(answer, dict):
            if answer.get("action") in ("decline", "cancel"):
                return tool_error(f"Not created: the person chose {answer['action']}.")
            content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
            if answer.get("action") == "accept" and content.get("startsAt") is not None:
                return create_event({**args, "startsAt": content["startsAt"]}, {}, caps)
        return ask_start_time(args, title, caps)
    if not is_datetime(starts):
        return tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
    event = add_event(args.get("calendar"), title, starts)
    return ok(f"Created {event['id']}: {title} at {starts}", event)


def list_events(args: dict, params: dict, caps: dict) -> dict:
    why = refuse_handle(args.get("calendar"))
    if why:
        return tool_error(why)
    events = events_of(args.get("calendar"))
    return ok(json.dumps(events), {"events": events})


def ask_start_time(args: dict, title: str, caps: dict) -> dict:
    """The multi round-trip: ask the person, with what the retry needs sealed in requestState."""
    elicitation = caps.get("elicitation")
    if not isinstance(elicitation, dict) or (elicitation and "form" not in elicitation):
        raise Refusal(-32021, "create_event without startsAt must ask the person, and this request "
                      "did not declare the form elicitation capability",
                      {"requiredCapabilities": {"elicitation": {"form": {}}}})
    return {"resultType": "input_required",
            "inputRequests": {"when": {"method": "elicitation/create", "params": {
                "mode": "form", "message": f'When should "{title}" start?',
                "requestedSchema": {"type": "object",
                                    "properties": {"startsAt": {"type": "string", "format": "date-time"}},
                                    "required": ["startsAt"]}}}},
            "requestState": seal({"calendar": args.get("calendar"), "title": title}),
            "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}


### BEGIN STUB
TOOL_HANDLERS = {"create_event": create_event, "list_events": list_events}
### END STUB
### BEGIN SOLUTION
TOOL_HANDLERS = {"create_calendar": create_calendar, "create_event": create_event, "list_events": list_events}
### END SOLUTION


# ---- protocol plumbing: the 2026-07-28 methods; nothing below needs to change ----------------

def dispatch(method: str, params: dict) -> dict:
    caps = check_meta(params)   # -32602 without the two _meta keys; -32022 (with data) for another version
    if method == "server/discover":
        return complete({"supportedVersions": SUPPORTED, "capabilities": {"tools": {}},
                         "ttlMs": 3600000, "cacheScope": "public"})
    if method == "tools/list":
        return complete({"tools": TOOLS, "ttlMs": 300000, "cacheScope": "public"})
    if method == "tools/call":
        tool = TOOL_HANDLERS.get(params.get("name"))
        if tool is None:
            raise Refusal(-32602, f"Unknown tool: {params.get('name')!r}")
        args = params.get("arguments") or {}
        if not isinstance(args, dict):
            raise Refusal(-32602, "tools/call arguments must be an object")
        return tool(args, params, caps)
    raise Refusal(-32601, f"Method not found: {method}")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python calendar_server.py")
    parser.add_argument("--http", type=int, metavar="PORT",
                        help="serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0: any free port)")
    args = parser.parse_args()
    if args.http is not None:
        # The bundled servers' binding: the same handle(), framed as HTTP.  One process serves
        # every HTTP client, so caller() is the one person of MCP_LAB_CALLER (or this account).
        from mcp_lab.servers.streamable_http import serve

        def answer(msg: Any) -> dict | None:
            return handle_message(msg, dispatch, name=SERVER_INFO["name"])

        serve(answer, args.http, name=SERVER_INFO["name"],
              banner=f"{SERVER_INFO['name']} {SERVER_INFO['version']}, db {DB_PATH}")
        return
    # stdout carries only MCP messages; anything else (logs, debugging prints) goes to stderr.
    print(f"{SERVER_INFO['name']}: serving 2026-07-28 on stdio", file=sys.stderr)
    for line in sys.stdin.buffer:
        answer = handle_line(line, lambda msg: handle_message(msg, dispatch, name=SERVER_INFO["name"]))
        if answer is not None:
            sys.stdout.buffer.write(answer)
            sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
