"""A toolbox bigger than one page, and a stream of its changes: pagination and subscriptions/listen.

    python -m mcp_lab.servers.paged                       # stdio; 7 text tools, 3 to a page
    python -m mcp_lab.servers.paged --plugins FILE        # + the tools an operator lists in FILE
    python -m mcp_lab.servers.paged --empty-cursor        # page 1 ends with the cursor ""

Pagination (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/pagination).
Every list (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`) is cut
into pages of PAGE_SIZE; the server, not the client, decides the size.  A page that is not the
last ends with `nextCursor`, an opaque token: the offset of the next page, the list it belongs to
and a fingerprint of that list, sealed with an HMAC, so a client can neither read nor forge one.
A cursor that is not one this server issued for this list as it is now (typed by hand, cut
short, or issued before the list changed) is refused with -32602 (Error Handling).  The last page
has no `nextCursor`.  Every page carries the same `ttlMs` and `cacheScope`: each page is cached on
its own, and the scope must be the same on all of them
(https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#interaction-with-pagination).
`--empty-cursor` makes page 1 end with the cursor "" (which this server then reads as page 2):
legal, since a cursor is any string, and the case a client must not mistake for the end.

Subscriptions (mcp_lab.servers.listen).  The tool list changes from outside the protocol: an
operator writes tool names into the plugins file (a JSON list of names), never a request on the
connection (the set of tools MUST NOT change as a side effect of other requests on the
connection, https://modelcontextprotocol.io/specification/2026-07-28/server/tools#capabilities).
The server declares `tools.listChanged` and `resources.subscribe` (the resource
`toolbox://summary` changes with the list) but no `listChanged` for prompts or resources, so a
listener asking for those gets them left out of its acknowledgement.  Over stdio a watcher
thread reads the file every POLL_S seconds and writes the notifications; in a browser tab (no
threads to spare, mcp_lab.servers.inprocess) the file is read before each message is handled.
When stdin closes, each open stream gets its closing result before the process exits.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import struct
import sys
import threading
from pathlib import Path
from typing import Any

from mcp_lab.servers import calendar as core
from mcp_lab.servers.calendar import SUPPORTED, Refusal
from mcp_lab.servers.listen import Streams

__all__ = ["PAGE_SIZE", "SUMMARY_URI", "TOOLS", "Toolbox", "handle_line", "main", "serve_in_process"]

SERVER_INFO = {"name": "mcp_lab-paged", "version": "0.1.0"}
PAGE_SIZE = 3
POLL_S = 0.1
TTL_MS = 300000
SCOPE = "public"  # the same on every page of every list (caching, Interaction with Pagination)
SUMMARY_URI = "toolbox://summary"
CAPABILITIES = {"tools": {"listChanged": True}, "resources": {"subscribe": True}, "prompts": {}}
# A real deployment sets its own secret; the cursor stays opaque to clients either way.
KEY = os.environ.get("MCP_LAB_PAGED_KEY", "mcp_lab paged toolbox: cursor seal").encode()

_TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
_ACTIONS = {
    "upper": ("Return the text in upper case.", str.upper),
    "lower": ("Return the text in lower case.", str.lower),
    "reverse": ("Return the text backwards.", lambda t: t[::-1]),
    "title": ("Capitalise each word.", str.title),
    "trim": ("Remove leading and trailing spaces.", str.strip),
    "word_count": ("Count the words.", lambda t: str(len(t.split()))),
    "slug": ("Make a URL slug: lower case, words joined by '-'.", lambda t: "-".join(t.lower().split())),
}
TOOLS = [{"name": n, "description": d, "inputSchema": _TEXT} for n, (d, _f) in _ACTIONS.items()]
PROMPT = {"name": "pick_a_tool", "description": "Ask which tool of the toolbox fits a task."}
SUMMARY = {"uri": SUMMARY_URI, "name": "summary", "description": "How many tools, and their names.",
           "mimeType": "application/json"}  # fmt: skip


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _mac(kind: str, body: bytes) -> bytes:
    return hmac.new(KEY, kind.encode() + body, hashlib.sha256).digest()[:12]


def _mask(mac: bytes, body: bytes) -> bytes:
    """XOR with a keystream derived from the MAC: applied twice, it gives the body back."""
    stream = hmac.new(KEY, b"mask" + mac, hashlib.sha256).digest()
    return bytes(a ^ b for a, b in zip(body, stream))


class Toolbox:
    """One server process: its catalog (built in plus plugins), its cursors and its streams."""

    def __init__(self, plugins: str | os.PathLike | None = None, *, empty_cursor: bool = False):
        self.plugins = Path(plugins) if plugins else None
        self.empty_cursor = empty_cursor
        self.streams = Streams(CAPABILITIES, [SUMMARY_URI], SERVER_INFO)
        self.lock = threading.Lock()
        self.last_plugins: list[str] = []
        self.seen = self.plugin_names()

    # -- the catalog ----------------------------------------------------------------------
    def plugin_names(self) -> list[str]:
        """The names the operator listed in the plugins file (the last readable version of it)."""
        if self.plugins is None:
            return []
        try:
            names = json.loads(self.plugins.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # absent, or caught half-written: keep the last good list
            return self.last_plugins
        if isinstance(names, list):
            fresh = [n for n in dict.fromkeys(names) if isinstance(n, str) and n and n not in _ACTIONS]
            self.last_plugins = fresh[:50]
        return self.last_plugins

    def tools(self) -> list[dict]:
        extra = [{"name": n, "description": "Published by the operator. Returns the text.", "inputSchema": _TEXT}
                 for n in self.plugin_names()]  # fmt: skip
        return TOOLS + extra

    def summary_text(self) -> str:
        names = [t["name"] for t in self.tools()]
        return json.dumps({"tools": len(names), "names": names}, separators=(",", ":"))

    # -- cursors --------------------------------------------------------------------------
    def _seal(self, kind: str, offset: int, items: list[dict]) -> str:
        if self.empty_cursor and kind == "tools" and offset == PAGE_SIZE:
            return ""
        body = struct.pack(">H", offset) + self._fingerprint(kind, items)
        mac = _mac(kind, body)
        return _b64(mac + _mask(mac, body))  # the offset is hidden too, not just protected

    @staticmethod
    def _fingerprint(kind: str, items: list[dict]) -> bytes:
        names = json.dumps([kind] + [i.get("name") or i.get("uri") for i in items])
        return hashlib.sha256(names.encode()).digest()[:6]

    def _offset(self, kind: str, cursor: Any, items: list[dict]) -> int:
        """Where the page after `cursor` starts; -32602 for a cursor this list did not issue."""
        if cursor is None:
            return 0
        if self.empty_cursor and kind == "tools" and cursor == "":
            return PAGE_SIZE
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)) if isinstance(cursor, str) else b""
        except ValueError:
            raw = b""
        mac, body = raw[:12], _mask(raw[:12], raw[12:])
        good = len(raw) == 20 and hmac.compare_digest(mac, _mac(kind, body))
        if not good:
            raise Refusal(-32602, f"Invalid cursor: {cursor!r} is not a cursor this server issued for {kind}",
                          {"cursor": cursor})  # fmt: skip
        if body[2:] != self._fingerprint(kind, items):
            raise Refusal(-32602, f"Invalid cursor: the {kind} list changed since it was issued; list again "
                          "from the start (no cursor)", {"cursor": cursor})  # fmt: skip
        return struct.unpack(">H", body[:2])[0]

    def page(self, kind: str, items: list[dict], params: dict) -> dict:
        """One page of `items`: the same ttlMs and cacheScope on each, nextCursor on all but the last."""
        start = self._offset(kind, params.get("cursor"), items)
        body: dict = {kind: items[start : start + PAGE_SIZE], "ttlMs": TTL_MS, "cacheScope": SCOPE}
        if start + PAGE_SIZE < len(items):
            body["nextCursor"] = self._seal(kind, start + PAGE_SIZE, items)
        return core.result(body, SERVER_INFO)

    # -- the methods ----------------------------------------------------------------------
    def handlers(self) -> dict:
        return {
            "server/discover": lambda p, c: core.result(
                {
                    "supportedVersions": SUPPORTED,
                    "capabilities": CAPABILITIES,
                    "ttlMs": 3600000,
                    "cacheScope": SCOPE,
                    "instructions": "A text toolbox, listed a few tools per page; follow nextCursor.",
                },
                SERVER_INFO,
            ),  # fmt: skip
            "tools/list": lambda p, c: self.page("tools", self.tools(), p),
            "tools/call": lambda p, c: self.call(p),
            "prompts/list": lambda p, c: self.page("prompts", [PROMPT], p),
            "resources/list": lambda p, c: self.page("resources", [SUMMARY], p),
            "resources/templates/list": lambda p, c: self.page("resourceTemplates", [], p),
            "resources/read": lambda p, c: self.read(p),
        }

    def call(self, params: dict) -> dict:
        name, args = params.get("name"), params.get("arguments") or {}
        if name not in [t["name"] for t in self.tools()]:
            raise Refusal(-32602, f"Unknown tool: {name!r}")
        text = args.get("text") if isinstance(args, dict) else None
        if not isinstance(text, str):
            return core.result({"content": [{"type": "text", "text": f"{name} needs a string 'text'."}],
                                "isError": True}, SERVER_INFO)  # fmt: skip
        out = _ACTIONS[name][1](text) if name in _ACTIONS else text
        return core.result({"content": [{"type": "text", "text": out}], "isError": False}, SERVER_INFO)

    def read(self, params: dict) -> dict:
        if params.get("uri") != SUMMARY_URI:
            raise Refusal(-32602, f"Resource not found: {params.get('uri')!r}", {"uri": params.get("uri")})
        content = {"uri": SUMMARY_URI, "mimeType": "application/json", "text": self.summary_text()}
        return core.result({"contents": [content], "ttlMs": 0, "cacheScope": SCOPE}, SERVER_INFO)

    # -- one line in, the lines out -------------------------------------------------------
    def handle(self, msg: Any) -> list[dict]:
        """The messages that answer one decoded message (a listen's acknowledgement included)."""
        if isinstance(msg, dict) and msg.get("jsonrpc") == "2.0":
            method, params = msg.get("method"), msg.get("params")
            if method == "notifications/cancelled" and "id" not in msg:
                self.streams.cancel(params)
                return []
            rid = msg.get("id")
            if method == "subscriptions/listen" and isinstance(rid, (str, int)) and not isinstance(rid, bool):
                try:
                    core.check_meta(params if isinstance(params, dict) else {})
                    return [self.streams.open(rid, params)]
                except Refusal as r:
                    return [core.error(rid, r.code, r.message, r.data)]
        handlers = self.handlers()
        answer = core.handle(msg, lambda m, p: core.dispatch(m, p, handlers), name="paged")
        return [] if answer is None else [answer]

    def poll(self) -> list[dict]:
        """The notifications owed since the last look at the plugins file (none if it did not change)."""
        names = self.plugin_names()
        if names == self.seen:
            return []
        self.seen = names
        return self.streams.changed({"toolsListChanged"}, {SUMMARY_URI})

    def handle_line(self, line: bytes | str, *, poll: bool = False) -> bytes | None:
        with self.lock:
            out = self.poll() if poll else []
            try:
                msg = core.load_message(line)
            except (ValueError, RecursionError, UnicodeError):
                out.append(core.error(None, -32700, "Parse error: the line is not valid JSON"))
            else:
                out += self.handle(msg)
        return b"".join(core.dump_line(m) for m in out) or None


_DEFAULT = Toolbox()


def handle_line(line: bytes | str) -> bytes | None:
    """The default toolbox (no plugins file), one line at a time."""
    return _DEFAULT.handle_line(line)


def _options(argv: list[str] | None):
    import argparse

    parser = argparse.ArgumentParser(prog="python -m mcp_lab.servers.paged", description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", metavar="FILE", help="a JSON list of extra tool names, watched for changes")
    parser.add_argument("--empty-cursor", action="store_true", help='end page 1 of tools/list with the cursor ""')
    return parser.parse_args(argv)


def serve_in_process(argv: list[str]):
    """The browser edition's way in (mcp_lab.servers.inprocess): the file is read before each line."""
    args = _options(argv)
    box = Toolbox(args.plugins, empty_cursor=args.empty_cursor)
    return lambda line: box.handle_line(line, poll=True)


def _watch(box: Toolbox, out, io_lock: threading.Lock, stop: threading.Event) -> None:
    while not stop.wait(POLL_S):
        with io_lock:  # computed and written as one step, so never ahead of an acknowledgement
            _write(out, box.poll())


def _write(out, messages: list[dict]) -> None:
    if messages:
        out.write(b"".join(core.dump_line(m) for m in messages))
        out.flush()


def main(argv: list[str] | None = None) -> None:
    args = _options(sys.argv[1:] if argv is None else argv)
    box = Toolbox(args.plugins, empty_cursor=args.empty_cursor)
    # One lock around "answer a line, write it" and "look at the file, write what is owed": a
    # stream's acknowledgement is always on the pipe before anything the stream is sent.
    out, io_lock, stop = sys.stdout.buffer, threading.Lock(), threading.Event()
    print(f"{SERVER_INFO['name']} {SERVER_INFO['version']}: serving 2026-07-28 on stdio", file=sys.stderr, flush=True)
    watcher = threading.Thread(target=_watch, args=(box, out, io_lock, stop), daemon=True)
    watcher.start()
    try:
        for line in sys.stdin.buffer:
            with io_lock:
                answer = box.handle_line(line)
                if answer is not None:
                    out.write(answer)
                    out.flush()
    finally:
        stop.set()
        watcher.join(timeout=2)
        try:
            with io_lock:
                _write(out, box.streams.close_all("the server is shutting down: its stdin closed"))
        except (BrokenPipeError, ValueError):
            pass  # nobody reads any more: the streams end with the process


if __name__ == "__main__":
    main()
