"""Streamable HTTP for a sans-IO `handle(msg) -> dict | None` server, served by uvicorn.

Theory of operation.  A transport is a binding: it frames and delivers, it does not decide what
a message means, so a server's `handle()` is reused unchanged.  The HTTP itself (request lines,
chunked bodies, keep-alive, Nagle, the listen backlog, smuggling defences) is not the lesson, so
it is left to a maintained server: uvicorn, which the official SDK already installs.  What this
module adds is the small ASGI application that holds the rules of 2026-07-28 for one endpoint,
checked before a body reaches `handle()`, and a thin subclass of uvicorn's protocol for the two
limits uvicorn leaves open or answers in plain text:

    a request head not complete in time      -> 408 and the connection closed (an idle one just
                                                closes): HEAD_DEADLINE, in the protocol below
    over MAX_CONNECTIONS connections         -> 503 at once
    foreign or malformed Origin              -> 403 (DNS-rebinding protection; no Origin is fine)
    any method but POST                      -> 405, Allow: POST (no GET stream, no sessions)
    a body over MAX_BODY, or too slow        -> 413 / 408
    a body that is not one JSON object       -> 400 with -32700 (NaN, Infinity and lone
                                                surrogates are not JSON either) / -32600
    a notification                           -> validated, then 202 with no body
    headers that disagree with the body      -> 400 with -32020 HeaderMismatch (values are
                                                compared after trimming optional whitespace)

then maps the JSON-RPC answer onto a status: -32601 -> 404, -32603 -> 500, the other errors
-> 400, a result -> 200.  Every refusal carries a JSON body (a JSON-RPC error with no id), even
the ones uvicorn itself makes for a request line it cannot parse.

https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.headers import NAMED_METHODS, decode_header_value  # the client's codec: both ends agree
from mcp_lab.wire.revisions import PROTOCOL_VERSION_KEY

HOST = "127.0.0.1"
PATH = "/mcp"
MAX_BODY = 4 * 1024 * 1024  # bytes
BODY_DEADLINE = 10.0  # seconds for the whole body to arrive
HEAD_DEADLINE = 10.0  # seconds for a request line and its headers to arrive
HEAD_DEADLINE_ENV = "MCP_LAB_HTTP_HEAD_DEADLINE"
MAX_CONNECTIONS = 64  # beyond this a request is answered 503 at once
KEEP_ALIVE = 5  # seconds an idle keep-alive connection is kept
STATUS_OF = {-32601: 404, -32603: 500}
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
_OWS = " \t"

__all__ = ["serve", "make_app", "origin_allowed", "header_mismatch", "parse_body"]


def _error(code: int, message: str, rid: Any = None, data: Any = None) -> dict:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "error": err} if rid is None else {"jsonrpc": "2.0", "id": rid, "error": err}


def origin_allowed(origin: str | None) -> bool:
    """No Origin (a non-browser client) or a loopback origin; anything else may be DNS rebinding."""
    if origin is None:
        return True
    try:
        u = urlsplit(origin)
        host = u.hostname or ""
    except ValueError:  # "http://[::1" and the like: not an origin at all
        return False
    return u.scheme in ("http", "https") and host in LOCAL_HOSTS


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def parse_body(raw: bytes) -> tuple[Any, dict | None]:
    """The decoded body, or a -32700 / -32600 answer saying why it is not one message."""
    try:
        msg = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
        # A lone surrogate ("\\udc80") decodes, but can never be written back as UTF-8: an answer
        # echoing it would fail half-way, after `handle()` had already acted on it.
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError, UnicodeError) as e:
        return None, _error(-32700, f"Parse error: the body is not valid JSON ({str(e)[:80]})")
    rule = None if isinstance(msg, dict) else jsonrpc.first_broken(msg)  # a batch, or not an object
    if rule is not None:
        return None, _error(rule.code, f"{jsonrpc.ERROR_NAMES[rule.code]}: {rule.message(msg)}")
    return msg, None


def _envelope_problem(msg: dict) -> str | None:
    """Why this POSTed object cannot be served: the first row of the envelope table it breaks
    (`jsonrpc.ENVELOPE_RULES`, which the parser, the lint and the wire check read too), or, for a
    sound response, the one rule of roles the binding adds."""
    rule = jsonrpc.first_broken(msg)
    if rule is not None:
        return rule.message(msg)
    if "method" not in msg:
        return "a client POSTs requests and notifications, never responses"
    return None


def _header(headers: dict[str, list[str]], name: str) -> tuple[str | None, str | None]:
    """One header's value with optional whitespace trimmed, or why it cannot be used."""
    values = headers.get(name.lower())
    if not values:
        return None, None
    trimmed = {v.strip(_OWS) for v in values}
    if len(trimmed) > 1:
        return None, f"the {name} header appears more than once with different values"
    value = trimmed.pop()
    if any(not (0x20 <= ord(c) <= 0x7E or c == "\t") for c in value):
        return None, f"the {name} header value has characters a header may not carry (encode it as =?base64?...?=)"
    return value, None


def header_mismatch(msg: dict, headers: dict[str, list[str]]) -> str | None:
    """Why the MCP headers disagree with the body, or None when they agree."""
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    expected = {
        "MCP-Protocol-Version": meta.get(PROTOCOL_VERSION_KEY),
        "Mcp-Method": msg["method"],
    }
    key = NAMED_METHODS.get(msg["method"])
    if key is not None and isinstance(params.get(key), str):
        expected["Mcp-Name"] = params[key]
    for name, want in expected.items():
        got, bad = _header(headers, name)
        if bad:
            return bad
        if got is None:
            return f"the {name} header is missing"
        if name == "Mcp-Name":
            try:
                got = decode_header_value(got)
            except (ValueError, UnicodeDecodeError):
                return f"the Mcp-Name header {got!r} is not valid =?base64?...?= encoding"
        if got != want:
            return f"{name} header {got!r} does not match the body's {want!r}"
    return None


class _Reply:
    """What one request gets: a status, a JSON body (or none), extra headers."""

    def __init__(self, status: int, body: dict | None = None, headers: dict | None = None, sse: bool = False):
        self.status, self.body, self.headers, self.sse = status, body, headers or {}, sse


async def _read_body(receive) -> bytes | _Reply:
    chunks, size = [], 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            return _Reply(400, _error(-32600, "the client went away before the body arrived"))
        size += len(event.get("body", b""))
        if size > MAX_BODY:
            return _Reply(413, _error(-32600, f"Payload Too Large: over {MAX_BODY} bytes"), {"Connection": "close"})
        chunks.append(event.get("body", b""))
        if not event.get("more_body"):
            return b"".join(chunks)


def _answer(handle: Callable[..., dict | None], msg: dict, headers, query: dict, sse_default: bool, caller) -> _Reply:
    problem = _envelope_problem(msg)
    rid = msg.get("id") if isinstance(msg.get("id"), (str, int)) and not isinstance(msg.get("id"), bool) else None
    if problem:
        return _Reply(400, _error(-32600, f"Invalid Request: {problem}", rid))
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    modern = isinstance(params.get("_meta"), dict) and PROTOCOL_VERSION_KEY in params["_meta"]
    if modern and "id" in msg:
        why = header_mismatch(msg, headers)
        if why is not None:
            return _Reply(400, _error(-32020, f"Header mismatch: {why}", rid))
    try:
        answer = handle(msg) if caller is None else handle(msg, caller)
    except Exception as e:  # noqa: BLE001 - a server bug must still get a JSON-RPC answer
        print(f"internal error answering {msg.get('method')!r}: {e!r}", file=sys.stderr, flush=True)
        answer = _error(-32603, "Internal error", rid) if "id" in msg else None
    if answer is None:
        return _Reply(202)
    if "error" in answer:
        return _Reply(STATUS_OF.get(answer["error"].get("code"), 400), answer)
    accept = ",".join(headers.get("accept", []))
    wants_sse = (
        sse_default
        or query.get("sse", ["0"])[0] in ("1", "true")
        or ("text/event-stream" in accept and "application/json" not in accept)
    )
    return _Reply(200, answer, sse=wants_sse)


class _HeaderView:
    """Case-insensitive read access to one request's headers (the last value of each name)."""

    def __init__(self, headers: dict[str, list[str]]):
        self._headers = headers

    def get(self, name: str, default: str | None = None) -> str | None:
        values = self._headers.get(name.lower())
        return values[-1].strip(_OWS) if values else default


# Long on purpose: the ASGI app is a closure over its settings, its handlers nested in one place.
def make_app(
    handle: Callable[..., dict | None],
    *,
    sse_default: bool = False,
    name: str = "mcp-server",
    authenticate: Callable[[Any], str | None] | None = None,
):
    """The ASGI application serving `handle` at PATH.

    With `authenticate(headers) -> caller | None` (the durable calendar), every POST must carry
    credentials it accepts -- else 401 with `WWW-Authenticate: Bearer`, before the body is read --
    and `handle` is called as `handle(msg, caller)`.
    """

    async def app(scope, receive, send):
        if scope["type"] != "http":  # lifespan is off; websockets are not part of MCP
            return
        headers: dict[str, list[str]] = {}
        for k, v in scope["headers"]:
            headers.setdefault(k.decode("latin-1").lower(), []).append(v.decode("latin-1"))
        reply = await _route(scope, receive, headers)
        await _send(send, reply, name)

    async def _route(scope, receive, headers) -> _Reply:
        origin = headers.get("origin", [None])[-1]
        if not origin_allowed(origin):
            return _Reply(403, _error(-32600, f"Forbidden: Origin {origin!r} is not a loopback origin"))
        if scope["path"] != PATH:
            return _Reply(404, _error(-32600, f"Not Found: the MCP endpoint is {PATH}"))
        if scope["method"] != "POST":
            return _Reply(405, _error(-32600, f"Method Not Allowed: POST each message to {PATH}"), {"Allow": "POST"})
        caller = None
        if authenticate is not None:
            caller = authenticate(_HeaderView(headers))
            if caller is None:
                why = "Unauthorized: send Authorization: Bearer <token> with a token this server accepts"
                return _Reply(401, _error(-32600, why), {"WWW-Authenticate": 'Bearer realm="mcp"'})
        if "transfer-encoding" in headers and "content-length" in headers:
            # Two framings disagreeing is how requests are smuggled past a proxy: refuse, and end
            # the connection so no byte after this request is read as another (RFC 9112 6.1).
            return _Reply(
                400, _error(-32600, "Bad Request: both Transfer-Encoding and Content-Length"), {"Connection": "close"}
            )
        declared = headers.get("content-length", ["0"])[-1]
        if declared.isdigit() and int(declared) > MAX_BODY:  # refused before a byte of it is read
            return _Reply(413, _error(-32600, f"Payload Too Large: over {MAX_BODY} bytes"), {"Connection": "close"})
        try:
            raw = await asyncio.wait_for(_read_body(receive), BODY_DEADLINE)
        except asyncio.TimeoutError:
            return _Reply(
                408,
                _error(-32600, f"Request Timeout: the body took over {BODY_DEADLINE:.0f} s"),
                {"Connection": "close"},
            )
        if isinstance(raw, _Reply):
            return raw
        msg, refusal = parse_body(raw)
        if refusal is not None:
            return _Reply(400, refusal)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        return _answer(handle, msg, headers, query, sse_default, caller)

    return app


async def _send(send, reply: _Reply, name: str) -> None:
    def dump(obj):
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    if reply.sse:
        data = dump(reply.body).decode("utf-8")
        payload = f": {name}: reply to id {reply.body.get('id')!r}\n\nevent: message\ndata: {data}\n\n".encode()
        head = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]
    else:
        payload = b"" if reply.body is None else dump(reply.body)
        head = [(b"content-type", b"application/json")] if reply.body is not None else []
        head.append((b"content-length", str(len(payload)).encode()))
    head += [(k.lower().encode(), str(v).encode()) for k, v in reply.headers.items()]
    await send({"type": "http.response.start", "status": reply.status, "headers": head})
    await send({"type": "http.response.body", "body": payload})


def _raw_json_response(status: int, reason: str, body: dict) -> bytes:
    """A whole response with a JSON body that ends the connection, for moments h11 cannot frame one
    (no request head has been read yet, or the one read was broken)."""
    data = json.dumps(body, separators=(",", ":")).encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\nconnection: close\r\n\r\n"
    ).encode() + data


def _capped(app, connections: set, tasks: set, limit: int):
    """`app`, unless more than `limit` connections are open or requests running: then 503 at once,
    with a JSON body (uvicorn's own limit_concurrency answers in plain text)."""

    async def capped(scope, receive, send):
        if len(connections) <= limit and len(tasks) <= limit:
            return await app(scope, receive, send)
        reply = _Reply(
            503,
            _error(-32603, f"Service Unavailable: over {limit} open connections; retry shortly"),
            {"Connection": "close", "Retry-After": "1"},
        )
        await _send(send, reply, "mcp-server")

    return capped


# Long: one protocol class, defined in here so that uvicorn and h11 are imported only when serving.
def _protocol(head_deadline: float, max_connections: int):
    """uvicorn's h11 protocol, with a connection cap and a deadline on each request head, and its own
    refusals (a request line it cannot parse, a smuggling attempt, oversized headers) answered
    with a JSON-RPC error body instead of plain text."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class JsonRefusals(H11Protocol):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.app = _capped(self.app, self.connections, self.tasks, max_connections)
            self.head_timer: asyncio.TimerHandle | None = None
            self.head_bytes = False  # part of a request head has arrived

        def connection_made(self, transport) -> None:
            # A reply goes out as two writes (head, then body): with Nagle's algorithm on, the
            # second waits for the client's delayed ACK, ~40 ms on every kept-alive request.
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            super().connection_made(transport)
            self._arm_head_deadline()

        # The head deadline.  uvicorn bounds the wait *between* requests (timeout_keep_alive) but
        # not the reading of a head: a client sending one header byte at a time would hold its
        # connection, and with enough of them every slot under the cap, for ever.  So a head must
        # be complete within `head_deadline` of the connection opening, or of its first byte on a
        # kept-alive connection; the body has its own deadline (BODY_DEADLINE, in the app).
        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:
                self.head_bytes = self.head_bytes or bool(data.strip())
                self._arm_head_deadline()
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # the head is in: a request is under way
                self._disarm_head_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_head_deadline()
            super().connection_lost(exc)

        def _arm_head_deadline(self) -> None:
            if self.head_timer is None:
                self.head_timer = self.loop.call_later(head_deadline, self._head_too_slow)

        def _disarm_head_deadline(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
            self.head_timer, self.head_bytes = None, False

        def _head_too_slow(self) -> None:
            self.head_timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if self.head_bytes:  # a request was started: say why it ends
                why = f"Request Timeout: the request head took over {head_deadline:g} s"
                self.transport.write(_raw_json_response(408, "Request Timeout", _error(-32600, why)))
            self.transport.close()  # an idle connection just closes, as at the keep-alive timeout

        def send_400_response(self, msg: str) -> None:
            body = _error(-32600, f"Bad Request: {msg}")
            data = json.dumps(body, separators=(",", ":")).encode()
            headers = [
                ("content-type", "application/json"),
                ("content-length", str(len(data))),
                ("connection", "close"),
            ]
            try:
                out = self.conn.send(h11.Response(status_code=400, headers=headers))
                out += self.conn.send(h11.Data(data=data)) + self.conn.send(h11.EndOfMessage())
            except h11.LocalProtocolError:
                out = _raw_json_response(400, "Bad Request", body)
            self.transport.write(out)
            self.transport.close()

    return JsonRefusals


def head_deadline_from_env(environ=None) -> float:
    """HEAD_DEADLINE, or the seconds in $MCP_LAB_HTTP_HEAD_DEADLINE (tests shorten it)."""
    raw = (os.environ if environ is None else environ).get(HEAD_DEADLINE_ENV, "").strip()
    if not raw:
        return HEAD_DEADLINE
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise SystemExit(f"{HEAD_DEADLINE_ENV} must be a positive number of seconds, got {raw!r}")
    return value


def serve(
    handle: Callable[..., dict | None],
    port: int,
    *,
    sse: bool = False,
    name: str = "mcp-server",
    banner: str | None = None,
    authenticate: Callable[[Any], str | None] | None = None,
) -> None:
    """Serve `handle` over Streamable HTTP on 127.0.0.1:port (0 = any free port) until killed."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(2048)
    config = uvicorn.Config(
        make_app(handle, sse_default=sse, name=name, authenticate=authenticate),
        http=_protocol(head_deadline_from_env(), MAX_CONNECTIONS),
        lifespan="off",
        log_level="warning",
        access_log=False,
        limit_concurrency=None,  # the protocol caps connections, answering 503 in JSON
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=16 * 1024,
        server_header=False,
        date_header=False,
    )
    url = f"http://{HOST}:{sock.getsockname()[1]}{PATH}"
    # The readiness line: the socket is already listening when it is printed.
    print(
        f"{banner or name}: serving Streamable HTTP on {url}" + (" (SSE replies)" if sse else ""),
        file=sys.stderr,
        flush=True,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
