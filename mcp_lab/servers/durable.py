"""The fix: the chapter's calendar with a handle, a SQLite file and a signed requestState.

    python -m mcp_lab.servers.durable --db PATH [--key-file PATH] [--state-ttl S] [--calendar-ttl S]
                                      [--http PORT]   (bearer tokens from MCP_LAB_DURABLE_TOKENS; open without)

Theory of operation.  The toy calendar (`mcp_lab.servers.calendar`) keeps its events in a
module-level list, so a write lives exactly as long as the process that made it.  The
2026-07-28 revision forbids leaning on the process: state that spans requests MUST be
referenced by an explicit identifier the client passes on each request (basic/index,
Statelessness).  The handle below follows the tools page's Stateful Tools section, which is
non-normative guidance; the storage (SQLite) is this server's choice, the spec prescribes none.
So here:

* `create_calendar` makes a calendar and returns its **handle**, an opaque string of 128
  random bits ("cal_" + 22 url-safe characters).  The handle is the calendar's only name:
  it is never listed anywhere (resources/list is empty on purpose) and it expires
  (`--calendar-ttl`, 30 days).
* a handle is a name, not a permission.  Each calendar is bound to the **caller** that created
  it, and every call that presents a handle (the three tools and resources/read) checks that
  the caller presenting it is that owner; an unknown, forged, expired or someone else's handle
  is a tool execution error (`isError`), which a model can read and act on.  Who the caller
  is (never something the message claims) is decided in `mcp_lab.servers.callers`: on stdio
  the identity the host gives the process, on HTTP the principal of a bearer token.  Over HTTP
  without tokens (open mode) every client is one caller: the unauthenticated case, where the
  handle is necessarily a bearer token, hence its 128 random bits and its bounded lifetime.
* events live in SQLite, in WAL mode, one short `BEGIN IMMEDIATE` transaction per write with
  a busy timeout, so any number of processes can share one file and a process killed at any
  moment leaves either the whole event or none of it.  `synchronous=FULL` makes "the server
  answered" mean "the event is on disk".
* the multi-round-trip continuation (`requestState`) is attacker-controlled input that decides
  what is created, so its integrity MUST be protected and tampered state MUST be refused
  (basic/patterns/mrtr, Server Requirements): it is signed,
  base64url(payload) "." base64url(HMAC-SHA256(key, payload)), with the payload binding the tool, a digest of the original arguments, a nonce and an
  expiry (`--state-ttl`, 600 s).  The key is shared by every process of this server (the
  MCP_LAB_DURABLE_KEY environment variable, `--key-file`, or a key file created once beside
  the database), which is what lets process B finish what process A began.  HMAC does not
  make a state single-use, so the nonce is recorded in the same transaction as the event:
  replaying a completed state is refused instead of creating a second event.

The per-request envelope rules (`_meta`, versions, capabilities) are the bundled calendar's,
imported from it.  Stdout carries only MCP messages; the banner and any diagnostic go to stderr.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import sys
import time
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from mcp_lab.servers import calendar as core
from mcp_lab.servers.calendar import SUPPORTED, Refusal, is_datetime
from mcp_lab.servers.callers import ANONYMOUS, TOKENS_ENV, bearer_caller, load_tokens, owner_digest, stdio_caller

SERVER_INFO = {"name": "mcp_lab-durable-calendar", "version": "0.1.0"}
KEY_ENV = "MCP_LAB_DURABLE_KEY"
HANDLE_PREFIX = "cal_"
DEFAULT_STATE_TTL = 600.0  # seconds a requestState stays valid
DEFAULT_CALENDAR_TTL = 30 * 24 * 3600.0  # seconds a calendar is kept after its creation
BUSY_TIMEOUT_MS = 10000
INSTRUCTIONS = (
    "Team calendars that outlive any connection. Call create_calendar once and keep "
    "the handle it returns; pass it as `calendar` to every other tool."
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS calendars (
    handle     TEXT PRIMARY KEY,
    owner      TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    calendar   TEXT NOT NULL REFERENCES calendars(handle),
    id         TEXT NOT NULL,
    title      TEXT NOT NULL,
    starts_at  TEXT NOT NULL,
    created_at REAL NOT NULL,
    UNIQUE (calendar, id)
);
CREATE TABLE IF NOT EXISTS used_states (
    nonce      TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
"""


# The caller of the request being answered; set by DurableCalendar.handle for its duration.
_CALLER: ContextVar[str] = ContextVar("durable_caller")


def _result(body: dict) -> dict:
    return core.result(body, SERVER_INFO)


def _tool_error(text: str) -> dict:
    return _result({"content": [{"type": "text", "text": text}], "isError": True})


def _ok(text: str, structured: Any) -> dict:
    return _result({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": False})


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _digest(obj: Any) -> str:
    canonical = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _duration(seconds: float) -> str:
    if seconds >= 86400 and seconds % 86400 == 0:
        return f"{int(seconds // 86400)} days"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} minutes"
    return f"{seconds:g} seconds"


def load_key(db_path: str | os.PathLike, key_file: str | None = None) -> bytes:
    """The HMAC key every process of this server shares.

    Order: $MCP_LAB_DURABLE_KEY, then --key-file, then `<db>.key`, created once with mode 0600.
    Creation is race-free across processes that start together: the key is written to a
    private temporary file and hard-linked into place, so a reader sees either no file or a
    complete one, and exactly one creator wins.
    """
    env = os.environ.get(KEY_ENV)
    if env:
        key = env.encode("utf-8")
        source = f"${KEY_ENV}"
    else:
        path = Path(key_file) if key_file else Path(str(db_path) + ".key")
        if not key_file and not path.exists():
            tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(fd, secrets.token_hex(32).encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)
            try:
                if hasattr(os, "link"):
                    os.link(tmp, path)
                else:  # Pyodide (the browser edition) has no link(); one process there, no race
                    os.replace(tmp, path)
            except FileExistsError:
                pass  # another process won the race; its key is the shared one
            finally:
                if os.path.lexists(tmp):
                    os.unlink(tmp)
        try:
            key = path.read_bytes().strip()
        except OSError as e:
            raise SystemExit(f"durable: cannot read the key file {path}: {e.strerror}") from None
        source = str(path)
    if len(key) < 32:
        raise SystemExit(
            f"durable: the requestState key from {source} must be at least 32 bytes "
            f'(got {len(key)}); make one with: python -c "import secrets; print(secrets.token_hex(32))"'
        )
    return key


class DurableCalendar:
    """The whole server as `handle(message) -> answer`, over one SQLite connection."""

    def __init__(
        self,
        db_path: str | os.PathLike,
        key: bytes,
        *,
        state_ttl: float = DEFAULT_STATE_TTL,
        calendar_ttl: float = DEFAULT_CALENDAR_TTL,
        clock: Callable[[], float] = time.time,
        caller: str | None = None,
    ):
        self.key = key
        self.default_caller = caller or stdio_caller()
        self.state_ttl = state_ttl
        self.calendar_ttl = calendar_ttl
        self.clock = clock
        # isolation_level=None: no implicit transactions; every write says BEGIN IMMEDIATE
        # itself, taking the write lock up front so two writers never deadlock on an upgrade.
        self.db = sqlite3.connect(
            str(db_path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
        )
        self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise SystemExit(f"durable: {db_path} could not be switched to WAL (journal_mode is {mode})")
        self.db.execute("PRAGMA synchronous = FULL")
        self.db.execute("PRAGMA foreign_keys = ON")
        with self._write() as db:
            # Not executescript: it would COMMIT the transaction that makes creation race-free.
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(calendars)")}
            if "owner" not in columns:  # a file made before handles carried an owner
                db.execute("ALTER TABLE calendars ADD COLUMN owner TEXT NOT NULL DEFAULT ''")
        self.handlers = {
            "server/discover": self._discover,
            "tools/list": lambda p, c: _result({"tools": self.tools(), "ttlMs": 300000, "cacheScope": "public"}),
            "tools/call": self._tools_call,
            # Handles are bearer secrets: listing them would hand every calendar to every caller.
            "resources/list": lambda p, c: _result({"resources": [], "ttlMs": 60000, "cacheScope": "public"}),
            "resources/templates/list": lambda p, c: _result(
                {"resourceTemplates": [TEMPLATE], "ttlMs": 300000, "cacheScope": "public"}
            ),
            "resources/read": self._resources_read,
        }

    # -- storage ---------------------------------------------------------------------------
    class _Tx:
        def __init__(self, db: sqlite3.Connection):
            self.db = db

        def __enter__(self):
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, exc_type, exc, tb):
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                    return False
                except sqlite3.Error:
                    self.db.execute("ROLLBACK")
                    raise
            self.db.execute("ROLLBACK")
            return False

    def _write(self) -> "_Tx":
        """One transaction: everything inside is on disk together, or not at all."""
        return self._Tx(self.db)

    def _calendar(self, handle: Any) -> tuple[str | None, str | None]:
        """(handle, None) when it names a live calendar, else (None, why) for an isError result."""
        if not isinstance(handle, str) or not handle:
            return None, (
                "A calendar handle is needed: the string create_calendar returned "
                "(it starts with 'cal_'). Call create_calendar if you have none."
            )
        row = self.db.execute("SELECT expires_at, owner FROM calendars WHERE handle = ?", (handle,)).fetchone()
        shown = handle if len(handle) <= 40 else handle[:39] + "…"
        if row is None:
            return None, (
                f"Unknown calendar handle {shown!r}: this server never issued it, or it was "
                "deleted. Handles cannot be guessed or made up; call create_calendar for a new one."
            )
        # The permission check, on every call: holding the name is not enough.
        if not hmac.compare_digest(row[1], owner_digest(_CALLER.get(self.default_caller))):
            return None, (
                f"Not your calendar: {shown!r} was created by another caller, and a handle is a "
                "name, not a permission. Use a calendar you created (call create_calendar), or ask "
                "its owner to add the event."
            )
        if row[0] <= self.clock():
            return None, (
                f"Calendar handle expired at {_iso(row[0])} (calendars are kept "
                f"{_duration(self.calendar_ttl)}). Call create_calendar for a new one."
            )
        return handle, None

    def _events(self, handle: str) -> list[dict]:
        return [
            {"id": i, "title": t, "startsAt": s}
            for i, t, s in self.db.execute(
                "SELECT id, title, starts_at FROM events WHERE calendar = ? ORDER BY seq", (handle,)
            )
        ]

    # -- requestState ------------------------------------------------------------------------
    def seal(self, tool: str, arguments: dict) -> str:
        # The retry repeats the original arguments (the spec's rule), so the state carries
        # only what binds it to them: the tool, their digest, a one-time nonce, an expiry.
        payload = {
            "tool": tool,
            "args": _digest(arguments),
            "nonce": secrets.token_urlsafe(12),
            "exp": round(self.clock() + self.state_ttl, 3),
        }
        body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
        mac = _b64(hmac.new(self.key, body.encode("ascii"), hashlib.sha256).digest())
        return f"{body}.{mac}"

    def unseal(self, state: Any, tool: str, arguments: dict) -> dict:
        """The payload of a state this server issued for this very call, or a -32602 Refusal."""
        if not isinstance(state, str) or state.count(".") != 1:
            raise Refusal(-32602, "Invalid requestState: not a state this server issued (expected payload.signature)")
        body, mac = state.split(".")
        expected = _b64(hmac.new(self.key, body.encode("utf-8", "surrogatepass"), hashlib.sha256).digest())
        # Bytes, not str: compare_digest refuses non-ASCII str, and a forged state may hold any text.
        if not hmac.compare_digest(expected.encode("ascii"), mac.encode("utf-8", "surrogatepass")):
            raise Refusal(
                -32602,
                "Invalid requestState: the signature does not match; it was modified, "
                "or it was not issued by this server. Call the tool again without requestState.",
            )
        try:
            payload = json.loads(_unb64(body))
        except ValueError:  # cannot happen for a state we signed, but never trust the decoder
            raise Refusal(-32602, "Invalid requestState: unreadable payload") from None
        if payload.get("exp", 0) <= self.clock():
            raise Refusal(
                -32602,
                f"Expired requestState: it expired at {_iso(payload.get('exp', 0))} "
                f"(states are valid {_duration(self.state_ttl)}). Call the tool again without requestState.",
            )
        if payload.get("tool") != tool or payload.get("args") != _digest(arguments):
            raise Refusal(
                -32602,
                "Invalid requestState: it was issued for a different call; a retry must "
                "repeat the original tool name and arguments.",
            )
        return payload

    # -- tools ---------------------------------------------------------------------------------
    def tools(self) -> list[dict]:
        handle_arg = {"type": "string", "description": "The handle create_calendar returned (cal_…)."}
        return [
            {
                "name": "create_calendar",
                "description": (
                    "Create an empty calendar and return its handle, an opaque string that names it in "
                    "every later call. Retention: a calendar and its events are kept for "
                    f"{_duration(self.calendar_ttl)} after creation, then the handle expires. Only the "
                    "caller who created a calendar can use its handle."
                ),
                "inputSchema": {"type": "object", "properties": {}},
            },
            {
                "name": "create_event",
                "description": "Create an event in a calendar. Writes to the calendar. Without startsAt, asks the person.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "calendar": handle_arg,
                        "title": {"type": "string", "description": "Event title."},
                        "startsAt": {"type": "string", "format": "date-time", "description": "Start, ISO 8601 UTC."},
                    },
                    "required": ["calendar", "title"],
                },
            },
            {
                "name": "list_events",
                "description": "List the events of a calendar, oldest first.",
                "inputSchema": {"type": "object", "properties": {"calendar": handle_arg}, "required": ["calendar"]},
            },
        ]

    def _create_calendar(self, args: dict, params: dict, caps: dict) -> dict:
        handle = HANDLE_PREFIX + secrets.token_urlsafe(16)  # 128 random bits
        now = self.clock()
        with self._write() as db:
            db.execute(
                "INSERT INTO calendars (handle, owner, created_at, expires_at) VALUES (?, ?, ?, ?)",
                (handle, owner_digest(_CALLER.get(self.default_caller)), now, now + self.calendar_ttl),
            )
            db.execute("DELETE FROM used_states WHERE expires_at < ?", (now,))
            # Retention as the tool description promises it: expired calendars go, events first.
            db.execute(
                "DELETE FROM events WHERE calendar IN (SELECT handle FROM calendars WHERE expires_at < ?)", (now,)
            )
            db.execute("DELETE FROM calendars WHERE expires_at < ?", (now,))
        return _ok(
            f"Created calendar {handle}. Pass it as `calendar` to create_event and list_events; "
            f"it is kept until {_iso(now + self.calendar_ttl)}.",
            {"calendar": handle, "expiresAt": _iso(now + self.calendar_ttl)},
        )

    def _list_events(self, args: dict, params: dict, caps: dict) -> dict:
        handle, why = self._calendar(args.get("calendar"))
        if why:
            return _tool_error(why)
        events = self._events(handle)
        return _ok(
            json.dumps(events, separators=(",", ":"), ensure_ascii=False), {"calendar": handle, "events": events}
        )

    def _create_event(self, args: dict, params: dict, caps: dict) -> dict:
        handle, why = self._calendar(args.get("calendar"))
        if why:
            return _tool_error(why)
        title = args.get("title")
        if not isinstance(title, str) or not title.strip():
            return _tool_error("create_event needs a non-empty string 'title'.")
        nonce = None
        starts = args.get("startsAt")
        if starts is None:
            state = params.get("requestState")
            responses = params.get("inputResponses") or {}
            if not isinstance(responses, dict):
                raise Refusal(-32602, "inputResponses must be an object")
            if state is not None:
                nonce = self.unseal(state, "create_event", args)["nonce"]
            answer = responses.get("when")
            if state is not None and isinstance(answer, dict):
                action = answer.get("action")
                if action in ("decline", "cancel"):
                    return _tool_error(f"Not created: the person chose {action} when asked for a start time.")
                content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
                starts = content.get("startsAt") if action == "accept" else None
            if starts is None:
                return self._ask(title, args, caps)
        if not is_datetime(starts):
            return _tool_error(f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {starts!r}.")
        with self._write() as db:
            if nonce is not None:
                try:
                    db.execute(
                        "INSERT INTO used_states (nonce, expires_at) VALUES (?, ?)",
                        (nonce, self.clock() + self.state_ttl),
                    )
                except sqlite3.IntegrityError:
                    raise Refusal(
                        -32602,
                        "Invalid requestState: it was already used to create an event; "
                        "a continuation completes once. Call the tool again without requestState.",
                    ) from None
            n = db.execute("SELECT count(*) FROM events WHERE calendar = ?", (handle,)).fetchone()[0] + 1
            db.execute(
                "INSERT INTO events (calendar, id, title, starts_at, created_at) VALUES (?, ?, ?, ?, ?)",
                (handle, f"e{n}", title, starts, self.clock()),
            )
        event = {"id": f"e{n}", "title": title, "startsAt": starts}
        return _ok(f"Created e{n}: {title} at {starts}", {"calendar": handle, **event})

    def _ask(self, title: str, args: dict, caps: dict) -> dict:
        core.require_form_elicitation(caps, "create_event without startsAt must ask the person")
        return core.ask_start_time(title, self.seal("create_event", dict(args)))

    # -- methods ---------------------------------------------------------------------------------
    def _discover(self, params: dict, caps: dict) -> dict:
        # serverInfo travels in _meta (core.result puts it there), not as a field: that was
        # the legacy InitializeResult's shape.
        return _result(
            {
                "supportedVersions": SUPPORTED,
                "capabilities": {"tools": {}, "resources": {}},
                "instructions": INSTRUCTIONS,
                "ttlMs": 3600000,
                "cacheScope": "public",
            }
        )

    def _tools_call(self, params: dict, caps: dict) -> dict:
        tools = {
            "create_calendar": self._create_calendar,
            "create_event": self._create_event,
            "list_events": self._list_events,
        }
        name = params.get("name")
        if name not in tools:
            raise Refusal(-32602, f"Unknown tool: {name!r}; this server has {', '.join(tools)}")
        args = params.get("arguments") or {}
        if not isinstance(args, dict):
            raise Refusal(-32602, "tools/call arguments must be an object")
        return tools[name](args, params, caps)

    def _resources_read(self, params: dict, caps: dict) -> dict:
        uri = params.get("uri")
        prefix, suffix = "calendar://", "/week"
        if not (isinstance(uri, str) and uri.startswith(prefix) and uri.endswith(suffix)):
            raise Refusal(-32602, f"Resource not found: {uri!r}; read calendar://<handle>/week", {"uri": uri})
        handle, why = self._calendar(uri[len(prefix) : -len(suffix)])
        if why:
            raise Refusal(-32602, f"Resource not found: {why}", {"uri": uri})
        text = json.dumps(self._events(handle), separators=(",", ":"), ensure_ascii=False)
        return _result(
            {
                "contents": [{"uri": uri, "mimeType": "application/json", "text": text}],
                "ttlMs": 60000,
                "cacheScope": "private",
            }
        )

    def dispatch(self, method: str, params: dict) -> dict:
        try:
            return core.dispatch(method, params, self.handlers)
        except sqlite3.OperationalError as e:  # e.g. the busy timeout ran out: retryable, say so
            print(f"durable: database error on {method}: {e}", file=sys.stderr)
            raise Refusal(-32603, f"Internal error: the database is unavailable ({e}); retry the request") from None

    def handle(self, msg: Any, caller: str | None = None) -> dict | None:
        """Answer one decoded message for `caller` (default: the process's stdio caller)."""
        token = _CALLER.set(caller or self.default_caller)
        try:
            return core.handle(msg, self.dispatch, name="durable")
        finally:
            _CALLER.reset(token)

    def handle_line(self, line: bytes | str) -> bytes | None:
        return core.handle_line(line, self.handle)


TEMPLATE = {
    "uriTemplate": "calendar://{calendar}/week",
    "name": "week",
    "title": "A calendar's week",
    "description": "The events of one calendar, as JSON; {calendar} is a handle from create_calendar.",
    "mimeType": "application/json",
}


def serve_in_process(argv: list[str]):
    """The browser edition's way in (mcp_lab.servers.inprocess): this copy of the module serves the
    same SQLite file (Pyodide's sqlite3, on the tab's in-memory file system), one line at a time,
    so every fresh copy still finds the calendars the earlier ones wrote.  No port: --http
    raises one line.  The caller is read from the environment the copy is made with, as a
    process reads its own (mcp_lab.servers.inprocess adds a connection's env= for the moment)."""
    args = _parser().parse_args(argv)
    if args.http is not None:
        from mcp_lab.servers.inprocess import unavailable

        raise unavailable("the durable server over HTTP", "serves a port")
    server = DurableCalendar(
        args.db, load_key(args.db, args.key_file), state_ttl=args.state_ttl, calendar_ttl=args.calendar_ttl
    )
    return server.handle_line


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mcp_lab.servers.durable",
        description="A 2026-07-28 calendar with handles, SQLite and a signed requestState.",
    )
    parser.add_argument("--db", required=True, metavar="PATH", help="the SQLite file every process shares")
    parser.add_argument(
        "--key-file", metavar="PATH", help=f"the requestState key (else ${KEY_ENV}, else PATH.key beside --db)"
    )
    parser.add_argument(
        "--state-ttl",
        type=float,
        default=DEFAULT_STATE_TTL,
        metavar="SECONDS",
        help="how long a requestState stays valid (default 600)",
    )
    parser.add_argument(
        "--calendar-ttl",
        type=float,
        default=DEFAULT_CALENDAR_TTL,
        metavar="SECONDS",
        help="how long a calendar is kept after creation (default 30 days)",
    )
    parser.add_argument(
        "--http",
        type=int,
        metavar="PORT",
        help=f"serve Streamable HTTP on 127.0.0.1:PORT/mcp; callers present a bearer token from ${TOKENS_ENV} "
        "(without it: open, every client one caller)",
    )
    return parser


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    server = DurableCalendar(
        args.db, load_key(args.db, args.key_file), state_ttl=args.state_ttl, calendar_ttl=args.calendar_ttl
    )
    if args.http is not None:
        from mcp_lab.servers.streamable_http import serve  # the calendar's binding, this server's handle()

        tokens = load_tokens()
        if tokens:
            authenticate = lambda headers: bearer_caller(tokens, headers.get("Authorization"))
            callers = f"{len(tokens)} bearer token(s)"
        else:  # open mode (what the conformance suite drives): one caller, and it is said so
            authenticate = lambda headers: ANONYMOUS
            callers = f"NO bearer tokens ({TOKENS_ENV} unset): every HTTP client is the one caller {ANONYMOUS!r}"
        serve(
            server.handle,
            args.http,
            name=SERVER_INFO["name"],
            authenticate=authenticate,
            banner=f"{SERVER_INFO['name']} {SERVER_INFO['version']}: {callers}, db {args.db}",
        )
        return
    core.serve_stdio(
        handle_msg=server.handle,
        banner=f"{SERVER_INFO['name']} {SERVER_INFO['version']}: serving 2026-07-28 on stdio, db {args.db}",
    )


if __name__ == "__main__":
    main()
