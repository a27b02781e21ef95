"""Streamable HTTP for a sans-IO `handle(msg) -> dict | None` server, in the standard library.

Theory of operation.  A transport is a binding: it frames and delivers, it does not decide
what a message means.  So the calendar's `handle()` is reused unchanged, and everything this
module adds is an HTTP-only rule of 2026-07-28, checked before the body reaches `handle()`:

    foreign Origin                         -> 403 (DNS-rebinding protection; no Origin is fine)
    GET, DELETE, anything but POST         -> 405, Allow: POST (no GET stream, no sessions)
    body that is not one JSON object       -> 400 with -32700 / -32600
    headers that disagree with the body    -> 400 with -32020 HeaderMismatch
    a notification                         -> 202, no body

and then maps the JSON-RPC answer onto a status: -32601 -> 404 (the JSON-RPC body is what
tells a modern 404 from a legacy one), the other request errors (-32602, -32020, -32021,
-32022, -32600, -32700) -> 400, -32603 -> 500, a result -> 200.

Headers mirror the body and the body stays the source of truth, so a request whose body is
itself malformed (no `_meta`, or a legacy `initialize`) is answered from the body: -32602
for the missing key, -32022 with the supported versions for `initialize`.

The reply is JSON by default.  It is a request-scoped SSE stream (one comment, one
`message` event, then the end of the stream) when the server runs with `--sse`, when the
URL carries `?sse=1`, or when the client's Accept lists only text/event-stream.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from mcp_lab.wire.headers import NAMED_METHODS, decode_header_value  # the client's codec: both ends agree
from mcp_lab.wire.jsonrpc import Error
from mcp_lab.wire.revisions import PROTOCOL_VERSION_KEY

HOST = "127.0.0.1"
PATH = "/mcp"
MAX_REQUEST = 4 * 1024 * 1024
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
STATUS_OF = {-32601: 404, -32603: 500}


def error(id: Any, code: int, message: str, data: Any = None) -> dict:
    """An error answer as a dict (the id left out when the request's could not be read)."""
    return Error(id=id, code=code, message=message, data=data).to_dict()


def origin_allowed(origin: str | None) -> bool:
    """No Origin (a non-browser client) or a loopback origin; anything else may be a rebinding attack."""
    if origin is None:
        return True
    u = urlsplit(origin)
    return u.scheme in ("http", "https") and (u.hostname or "") in {h.strip("[]") for h in LOCAL_HOSTS}


def header_mismatch(msg: dict, headers) -> str | None:
    """Why the MCP headers disagree with the body, or None when they agree."""
    method = msg["method"]
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    body_version = params.get("_meta", {}).get(PROTOCOL_VERSION_KEY) if isinstance(params.get("_meta"), dict) else None
    got = headers.get("MCP-Protocol-Version")
    if got is None:
        return "the MCP-Protocol-Version header is missing"
    if got != body_version:
        return f"MCP-Protocol-Version header {got!r} does not match the body's _meta {body_version!r}"
    got = headers.get("Mcp-Method")
    if got is None:
        return "the Mcp-Method header is missing"
    if got != method:
        return f"Mcp-Method header {got!r} does not match the body's method {method!r}"
    key = NAMED_METHODS.get(method)
    if key is not None and isinstance(params.get(key), str):
        raw = headers.get("Mcp-Name")
        if raw is None:
            return f"the Mcp-Name header is missing ({method} needs params.{key} mirrored)"
        try:
            got = decode_header_value(raw)
        except (ValueError, UnicodeDecodeError):
            return f"the Mcp-Name header {raw!r} is not valid =?base64?...?= encoding"
        if got != params[key]:
            return f"Mcp-Name header {got!r} does not match the body's params.{key} {params[key]!r}"
    return None


def make_handler(handle: Callable[[Any], dict | None], *, sse_default: bool, name: str):  # noqa: C901 -- the HTTP checks in the spec's order, one closure
    lock = threading.Lock()  # handle() mutates module state (the calendar's EVENTS)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 30  # seconds a connection may sit idle mid-request before the thread gives up
        server_version = name
        sys_version = ""

        def log_message(self, fmt, *args):  # the access log goes to stderr, as every log does
            sys.stderr.write(f"{name}: {self.address_string()} {fmt % args}\n")

        # -- replies -----------------------------------------------------------------------
        def _send(self, status: int, body: dict | None = None, extra: dict | None = None) -> None:
            data = b"" if body is None else json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
            if not getattr(self, "_body_read", False) and self.headers.get("Content-Length", "0") != "0":
                # Refused before reading the body: the unread bytes would be taken for the next
                # request on this keep-alive connection, so the connection ends with this reply.
                self.close_connection = True
                extra = {**(extra or {}), "Connection": "close"}
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _send_sse(self, answer: dict) -> None:
            data = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Accel-Buffering", "no")  # proxies must not hold the stream back
            self.send_header("Connection", "close")  # no Content-Length: the end of the stream ends it
            self.end_headers()
            # A comment line (clients ignore it), then the response; the stream ends after it.
            self.wfile.write(f": {name}: reply to id {answer.get('id')!r}\n\n".encode())
            self.wfile.write(f"event: message\ndata: {data}\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

        def _not_allowed(self) -> None:
            self._body_read = False  # one handler object serves every request of a keep-alive connection
            if not self._origin_ok():
                return
            self._send(
                405,
                error(
                    None,
                    -32600,
                    f"Method Not Allowed: {self.command} is not part of "
                    "Streamable HTTP 2026-07-28; POST each message to " + PATH,
                ),
                {"Allow": "POST"},
            )

        do_GET = do_DELETE = do_PUT = do_PATCH = do_OPTIONS = _not_allowed

        def do_HEAD(self):
            self.send_response(405)
            self.send_header("Allow", "POST")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _origin_ok(self) -> bool:
            origin = self.headers.get("Origin")
            if origin_allowed(origin):
                return True
            self._send(
                403,
                error(
                    None,
                    -32600,
                    f"Forbidden: Origin {origin!r} is not allowed (this server accepts only loopback origins)",
                ),
            )
            return False

        # -- the one endpoint --------------------------------------------------------------
        # Long on purpose: the POST checks in the order the transport page gives them.
        def do_POST(self):
            self._body_read = False
            if not self._origin_ok():
                return
            url = urlsplit(self.path)
            if url.path != PATH:
                self._send(404, None)  # not the MCP endpoint: a plain 404, no JSON-RPC body
                return
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self._send(411, error(None, -32600, "Length Required: send a Content-Length"))
                return
            if length < 0:
                self._send(400, error(None, -32600, "Bad Request: a negative Content-Length"))
                return
            if length > MAX_REQUEST:
                self.close_connection = True
                self._send(413, error(None, -32600, f"Payload Too Large: over {MAX_REQUEST} bytes"))
                return
            raw = self.rfile.read(length)
            self._body_read = True
            try:
                msg = json.loads(raw)
            except (ValueError, RecursionError):
                self._send(400, error(None, -32700, "Parse error: the body is not valid JSON"))
                return
            if isinstance(msg, dict) and "method" in msg and "id" not in msg:
                self._send(202)  # a notification is never answered
                return
            if isinstance(msg, dict) and "method" not in msg and ("result" in msg or "error" in msg):
                self._send(
                    400,
                    error(None, -32600, "Invalid Request: a client POSTs requests and notifications, never responses"),
                )
                return
            params = msg.get("params") if isinstance(msg, dict) else None
            has_version = (
                isinstance(params, dict)
                and isinstance(params.get("_meta"), dict)
                and PROTOCOL_VERSION_KEY in params["_meta"]
            )
            if has_version and isinstance(msg.get("method"), str):
                why = header_mismatch(msg, self.headers)
                if why is not None:
                    rid = msg.get("id") if isinstance(msg.get("id"), (str, int)) else None
                    self._send(400, error(rid, -32020, f"Header mismatch: {why}"))
                    return
            with lock:
                answer = handle(msg)
            if answer is None:
                self._send(202)
                return
            if "error" in answer:
                code = answer["error"].get("code")
                self._send(STATUS_OF.get(code, 400), answer)
                return
            accept = self.headers.get("Accept", "")
            wants_sse = (
                sse_default
                or parse_qs(url.query).get("sse", ["0"])[0] in ("1", "true")
                or ("text/event-stream" in accept and "application/json" not in accept)
            )
            if wants_sse:
                self._send_sse(answer)
            else:
                self._send(200, answer)

    return Handler


def serve(
    handle: Callable[[Any], dict | None],
    port: int,
    *,
    sse: bool = False,
    name: str = "mcp-server",
    banner: str | None = None,
) -> None:
    """Serve `handle` over Streamable HTTP on 127.0.0.1:port (0 = any free port) until killed."""
    httpd = ThreadingHTTPServer((HOST, port), make_handler(handle, sse_default=sse, name=name))
    httpd.daemon_threads = True
    url = f"http://{HOST}:{httpd.server_address[1]}{PATH}"
    # The readiness line: the socket is already listening when it is printed.
    print(
        f"{banner or name}: serving Streamable HTTP on {url}" + (" (SSE replies)" if sse else ""),
        file=sys.stderr,
        flush=True,
    )
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
