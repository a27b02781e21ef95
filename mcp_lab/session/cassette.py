"""Cassettes: a Trace on disk, one JSON Lines file per recording.

    trace.save("calendar.jsonl")            # any Trace: a Client's, a probe's, an isolated() run's
    t = Trace.load("calendar.jsonl")        # renders exactly as the original did
    c = cassette.read("calendar.jsonl")     # the same, with the header: c.header, c.trace

The format (version 1).  UTF-8, one JSON object per line, `\\n` after every line.

Line 1, the header::

    {"cassette": "mcp_lab", "format": 1,
     "title": "mcp_lab <-> calendar",                 # the Trace's title, or null
     "recorded_at": "2026-12-02T17:40:00Z",           # UTC, when the file was written
     "recorded_by": "mcp_lab 0.1.0", "how": "trace.save",   # or the record command line
     "revision": "2026-07-28",                        # the revision mcp_lab speaks
     "transport": "stdio",                            # stdio | http | none (no wire events)
     "server": {"label": "calendar", "era": "modern", "version": "2026-07-28",
                "info": {"name": "mcp_lab-calendar", "version": "0.1.0"},
                "command": ["python", "-m", "..."] or null, "url": null},
     "events": 7}                                     # how many event lines follow

`server.era`, `server.version` and `server.info` are what the recording itself shows (the
answer to `server/discover` or to `initialize`), unless the caller states them.

Then one line per Trace event, in order::

    {"kind": "send", "peer": "calendar", "t": 0.00123, "line": "{\\"jsonrpc\\":...}",
     "message": {...}, "elapsed_ms": null, "note": null}

`kind` is send | recv | noise | stderr | note | http.  `line` is the exact text that crossed,
without its newline delimiter (a stderr line for `stderr`; the raw request and reply for
`http`).  `message` is the parsed JSON-RPC message when the line is one (kept for a reader of
the file; the loader re-parses it); an `http` event carries `http` instead, the raw exchange
(method, url, headers, body, status, SSE events).  `t` is seconds since the trace began;
`elapsed_ms` the round trip of an answer.  A line that holds bytes that are not UTF-8 (a
server's framing violation) is written with `\\u` escapes, so the file stays valid UTF-8 and
the text comes back exactly.

Reading is strict: a file that is not a cassette, is cut short, holds a line that is not
JSON, or was written by a newer format version is refused with one line naming the line
number and what is wrong (`CassetteError`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from mcp_lab.session.exchanges import RpcExchange, exchanges
from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.trace import EVENT_KINDS, Event, Trace

__all__ = [
    "save_redacted",
    "FORMAT",
    "KINDS",
    "Cassette",
    "CassetteError",
    "save",
    "read",
    "load",
    "dumps",
    "loads",
    "header_for",
    "from_lines",
]

FORMAT = 1
MAGIC = "mcp_lab"
KINDS = tuple(sorted(EVENT_KINDS))
_VERSION = "0.1.0"


class CassetteError(ValueError):
    """A file that cannot be read as a cassette; the message is one line naming where and why."""


@dataclass
class Cassette:
    """A recording: its header (a dict, see the module docstring) and its Trace."""

    header: dict
    trace: Trace = field(repr=False)
    path: Path | None = None

    @property
    def server(self) -> dict:
        return self.header.get("server") or {}

    @property
    def era(self) -> Era | None:
        """The era the recording shows (read from the header: a plain string there)."""
        era = self.server.get("era")
        return Era(era) if era in tuple(Era) else None

    @property
    def exchanges(self) -> list[RpcExchange]:
        """The recorded conversation as exchanges: each client message with its answer."""
        return exchanges(self.trace)

    def __repr__(self) -> str:
        s = self.server
        return (
            f"<Cassette {self.path.name if self.path else '(in memory)'}: {s.get('label')!r}, "
            f"{s.get('era') or 'era unknown'}, {len(self.trace)} events>"
        )


# -- the header ---------------------------------------------------------------------------------
def _seen_identity(trace: Trace) -> dict:
    """Era, version and serverInfo as the recording shows them (discover or initialize)."""
    asked: dict = {}
    found: dict = {}
    for e in trace:
        m = e.message
        if e.kind == "send" and isinstance(m, jsonrpc.Request):
            asked[(e.peer, m.id)] = m.method
        elif e.kind == "recv" and isinstance(m, jsonrpc.Result):
            method = asked.get((e.peer, m.id))
            r = m.result
            if method == "server/discover" and isinstance(r.get("supportedVersions"), list):
                raw_meta = r.get("_meta")
                meta: dict = raw_meta if isinstance(raw_meta, dict) else {}
                versions = [v for v in r["supportedVersions"] if v in revisions.MODERN_VERSIONS]
                found = {
                    "era": Era.MODERN,
                    "version": versions[0] if versions else None,
                    "info": meta.get(revisions.SERVER_INFO_KEY),
                }
            elif method == "initialize" and isinstance(r.get("protocolVersion"), str):
                found = {"era": Era.LEGACY, "version": r["protocolVersion"], "info": r.get("serverInfo")}
    return found


def header_for(
    trace: Trace, *, how: str = "trace.save", server: dict | None = None, transport: str | None = None
) -> dict:
    """The header line of `trace`: what it shows, overridden by what the caller states."""
    kinds = {e.kind for e in trace}
    if transport is None:
        transport = "http" if "http" in kinds else ("stdio" if kinds & {"send", "recv", "noise"} else "none")
    peers = [p for p in trace.peers]
    seen = _seen_identity(trace)
    srv = {
        "label": peers[0] if len(peers) == 1 else (peers or None),
        "era": seen.get("era"),
        "version": seen.get("version"),
        "info": seen.get("info"),
        "command": None,
        "url": None,
    }
    srv.update({k: v for k, v in (server or {}).items() if v is not None})
    return {
        "cassette": MAGIC,
        "format": FORMAT,
        "title": trace.title,
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "recorded_by": f"mcp_lab {_VERSION}",
        "how": how,
        "revision": revisions.LATEST,
        "transport": transport,
        "server": srv,
        "events": len(trace),
    }


# -- writing ------------------------------------------------------------------------------------
def _line(obj: dict) -> str:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (undecodable bytes kept by the transport)
        text = json.dumps(obj, separators=(",", ":"))
    return text + "\n"


def _event_obj(e: Event) -> dict:
    obj: dict[str, Any] = {"kind": str(getattr(e.kind, "value", e.kind)), "peer": e.peer, "t": e.t, "line": e.line}
    m = e.message
    if isinstance(m, (jsonrpc.Request, jsonrpc.Notification, jsonrpc.Result, jsonrpc.Error)):
        obj["message"] = m.to_dict()
    elif dataclasses.is_dataclass(m) and not isinstance(m, type) and e.kind == "http":
        obj["http"] = dataclasses.asdict(m)
    elif m is not None:
        obj["message_repr"] = repr(m)  # something no loader can rebuild: said, not hidden
    obj["elapsed_ms"] = e.elapsed_ms
    obj["note"] = e.note
    return obj


def dumps(trace: Trace, *, redact: dict | None = None, **header_kw) -> str:
    """The whole cassette as text (header line, then one line per event).  Credentials are never
    written (`mcp_lab.session.redact`); `redact` adds {"headers", "paths", "extra"} to hide."""
    from mcp_lab.session import redact as redaction

    events = list(trace)
    head = header_for(trace, **header_kw)
    head["events"] = len(events)
    objs = redaction.events([_event_obj(e) for e in events], head, **(redact or {}))
    return _line(head) + "".join(_line(o) for o in objs)


def save(trace: Trace, path: str | os.PathLike, *, redact: dict | None = None, **header_kw) -> Path:
    """Write `trace` as a cassette at `path` (replaced whole, never half-written); returns the path."""
    path = Path(path)
    text = dumps(trace, redact=redact, **header_kw)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(tmp, path)
    return path


# -- reading ------------------------------------------------------------------------------------
def _fail(where: str, what: str) -> CassetteError:
    return CassetteError(f"{where}: {what}")


def _header(obj: Any, where: str) -> dict:
    if not isinstance(obj, dict) or obj.get("cassette") != MAGIC:
        raise _fail(
            where,
            "not an mcp_lab cassette (the first line must be a header with "
            '"cassette": "mcp_lab"); record one with trace.save(path) or `python -m mcp_lab record`',
        )
    fmt = obj.get("format")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise _fail(where, f"the header's format {fmt!r} is not a version number")
    if fmt > FORMAT:
        raise _fail(
            where,
            f"written by a newer mcp_lab (cassette format {fmt}; this one reads up to "
            f"{FORMAT}): upgrade mcp_lab to read it",
        )
    if not isinstance(obj.get("events"), int):
        raise _fail(where, "the header does not say how many events follow")
    return obj


def _message(obj: dict, where: str) -> Any:
    if "message" in obj and obj["message"] is not None:
        try:
            return jsonrpc.parse_obj(obj["message"])
        except jsonrpc.ProtocolError as e:
            raise _fail(where, f"the parsed message is not a JSON-RPC message ({e.message})") from None
    if isinstance(obj.get("http"), dict):
        from mcp_lab.transport.http import Exchange

        d = dict(obj["http"])
        for key in ("request_headers", "headers"):
            d[key] = [tuple(h) for h in d.get(key) or []]
        try:
            return Exchange(**d)
        except TypeError as e:
            raise _fail(where, f"the HTTP exchange has unknown fields ({e})") from None
    return None


def _event(obj: Any, where: str) -> Event:
    if not isinstance(obj, dict):
        raise _fail(where, "an event must be a JSON object")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise _fail(where, f"unknown event kind {kind!r} (expected one of {', '.join(KINDS)})")
    if not isinstance(obj.get("line"), str):
        raise _fail(where, 'the event has no "line" text')
    t = obj.get("t", 0.0)
    el = obj.get("elapsed_ms")
    if not isinstance(t, (int, float)) or not (el is None or isinstance(el, (int, float))):
        raise _fail(where, '"t" and "elapsed_ms" must be numbers')
    peer = obj.get("peer", "server")
    note = obj.get("note")
    if not isinstance(peer, str) or not (note is None or isinstance(note, str)):
        raise _fail(where, '"peer" must be a string and "note" a string or null')
    return Event(kind, obj["line"], _message(obj, where), float(t), el, note, peer)


def loads(data: str | bytes, *, name: str = "cassette") -> Cassette:
    """Parse cassette text; `name` is how the one-line errors call the file."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if not raw.strip():
        raise _fail(name, "the file is empty, not a cassette")
    lines = raw.split(b"\n")
    cut = lines[-1] != b""
    if not cut:
        lines.pop()
    head: dict | None = None
    events: list[Event] = []
    for n, bline in enumerate(lines, 1):
        where = f"{name} line {n}"
        try:
            text = bline.decode("utf-8")
        except UnicodeDecodeError as e:
            raise _fail(where, f"not UTF-8 (byte {e.start + 1}); a cassette is UTF-8 text") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            if n == 1:
                raise _fail(where, "not an mcp_lab cassette (the first line is not JSON)") from None
            why = (
                "cut short: the file ends in the middle of this line"
                if cut and n == len(lines)
                else f"not JSON ({e.msg} at column {e.colno})"
            )
            raise _fail(where, why) from None
        if n == 1:
            head = _header(obj, where)
        else:
            events.append(_event(obj, where))
    assert head is not None
    if len(events) != head["events"]:
        raise _fail(
            name, f"truncated or padded: the header promises {head['events']} events, the file holds {len(events)}"
        )
    return Cassette(head, Trace(events, title=head.get("title")))


def _course_copy(path: Path) -> bytes | None:
    """The browser edition's packed copy of a course cassette the site's files cannot give
    (mcp_lab.servers.inprocess.course_cassette says why); None elsewhere."""
    from mcp_lab.servers.inprocess import course_cassette

    packed = course_cassette(path)
    return None if packed is None else packed.read_bytes()


def read(path: str | os.PathLike) -> Cassette:
    """Read a cassette file; `CassetteError` (one line) when it is not a readable cassette."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        copied = _course_copy(path)
        if copied is None:
            raise CassetteError(f"{path}: no such file") from None
        data = copied
    except IsADirectoryError:
        raise CassetteError(f"{path}: a folder, not a cassette file") from None
    except OSError as e:
        raise CassetteError(f"{path}: cannot be read ({e.strerror or e})") from None
    c = loads(data, name=path.name)
    c.path = path
    return c


def load(path: str | os.PathLike) -> Trace:
    """The Trace of a cassette file (see `read` for the header too)."""
    return read(path).trace


def from_lines(text: str, *, peer: str = "yours", title: str = "pasted exchange") -> Trace:
    """A Trace from `-> line` / `<- line` pairs (client wrote / server wrote), one JSON-RPC
    message per line: what a bug report or a server log usually holds.  A long message may go
    on over indented lines, which are joined to the line above.  A line that starts with
    neither arrow, or whose message is not JSON-RPC, is a `CassetteError` naming it."""
    messages: list[tuple[int, str, str]] = []
    for n, line in enumerate(text.strip("\n").splitlines(), 1):
        if not line.strip():
            continue
        if line[:1].isspace() and messages:
            first, arrow, body = messages[-1]
            messages[-1] = (first, arrow, body + line.strip())
            continue
        arrow, _, body = line.strip().partition(" ")
        if arrow not in ("->", "<-"):
            raise CassetteError(f"line {n}: start it with -> (the client wrote it) or <- (the server did)")
        messages.append((n, arrow, body.strip()))
    trace = Trace(title=title)
    for n, arrow, body in messages:
        try:
            message = jsonrpc.parse(body)
        except Exception as e:  # the parser's own error names what is wrong with the message
            raise CassetteError(f"line {n}: not a JSON-RPC message ({e})") from None
        trace.add("send" if arrow == "->" else "recv", body, message, peer=peer)
    return trace


def save_redacted(
    trace,
    path: str | os.PathLike,
    *,
    headers: dict[str, str] | Iterable[str] = (),
    paths: Iterable[str] = (),
    **header_kw,
) -> Path:
    """Save `trace` as a cassette with the standard credentials, the named `headers` (a dict's
    keys; its values are hidden too, wherever they appear) and the `paths` redacted."""
    values = list(headers.values()) if isinstance(headers, dict) else []
    tokens = [v.partition(" ")[2] for v in values if v.lower().startswith(("bearer ", "basic "))]
    return save(
        trace, path, redact={"headers": list(headers), "paths": list(paths), "extra": values + tokens}, **header_kw
    )
