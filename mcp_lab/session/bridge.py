"""A local Streamable HTTP front for a server the conformance suite cannot reach as it is.

    with bridge.serve_stdio([sys.executable, "server.py"]) as b:      # a stdio server
        conformance.run(b.url)
    with bridge.forward("https://mcp.example/mcp", {"Authorization": "Bearer ..."}) as b:
        conformance.run(b.url)                                         # a server that wants headers

Theory of operation.  The suite speaks Streamable HTTP only and sends no credentials.  A bridge
is a small HTTP server on 127.0.0.1 (the standard library's ThreadingHTTPServer, one thread per
request) in front of the real server:

* `serve_stdio`: ONE PROCESS PER HTTP CONNECTION.  The 2026-07-28 revision is stateless: every
  request carries its `_meta` and no session exists, so any process of the server may answer
  any request, and the process that answered the connection's last request answers its next
  one (a connection carries one request at a time, so a process never sees two at once).
  Only a request that carries the 2026-07-28 envelope is self-contained that way: one without it
  (the suite's tests of a missing `_meta` or of another version) can set a server's era for good
  (the official SDK locks a stdio connection to the handshake era at the first such request),
  so it gets a fresh process that answers it alone and is retired.  A
  Python SDK server costs about 0.8 s to start, which a process per request paid on every
  request (10x the HTTP run); per connection it is paid once per socket the suite opens.  When
  the connection closes, its process waits idle for the next connection (the suite opens many);
  at the end every process is retired (stdin closed, stdout read to its end).  A
  process that exited or broke is replaced by a fresh one for the next request.  `reuse=False`
  gives the old rule, one fresh process per request, for a server whose state must not carry
  from one request to the next.  A few processes are started ahead (`spares`).  A legacy
  request is different: `initialize` opens a session, so it gets a process of its own that
  lives as long as the `Mcp-Session-Id` the bridge mints.  Messages the server writes before
  its answer (notifications, progress) are sent as an SSE stream ending with the answer.
  What this cannot test: the HTTP binding itself (status codes, headers, Origin and Host
  checks, SSE streams, subscriptions) is the bridge's, not the server's, so those checks are
  classified untestable (a `subscriptions/listen` stream is held open for LISTEN_WINDOW s, to
  pass on the server's acknowledgement, then ended); and a stdio server's cross-request state (a handle minted by one
  request and used by the next) survives only as long as the connection (as it does on HTTP
  only while the one server process lives).
  Every line a process writes to stdout is read, to its end: after the answer the process's
  stdin is closed and its stdout read until EOF (a Python server on a pipe flushes a stray
  start-up `print()` only then); a line that is not a JSON-RPC message is kept in `framing`,
  which the conformance run reports as a defect of the server (stdio: MUST NOT).  A Python
  server runs with PYTHONUNBUFFERED=1, so such a line also arrives where it was written.
  Every process of one bridge gets the same requestState sealing key, a random one made for
  this bridge, in $MCP_LAB_STATE_KEY (unless the caller's environment sets it, even to ""):
  the suite's retry of an input_required round often arrives on another connection, so another
  process, which could not open a requestState sealed with a key of the first process's own
  ("Invalid or expired requestState").  mcp_lab's SDK servers read that variable; a server
  that reads none must be given its own shared key (docs/engineers.md, "One key for every
  process").
* `forward`: every request is passed on to the real URL with extra headers (credentials), and
  the reply streamed back unchanged.  The suite's `Host` and `Origin` headers are kept: one that
  names the bridge itself becomes the real server's (what the suite would have sent talking to it
  directly), any other (the DNS-rebinding scenario's `evil.example.com`) reaches the server as
  the suite wrote it, so the server's own Host check is what the scenario tests.

Every wait has a deadline; `close()` stops the server and reaps every process it started.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import secrets
import threading
import time
import uuid
import weakref
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from mcp_lab.servers.known import STATE_KEY_ENV
from mcp_lab.transport.process import unbuffered_env

__all__ = ["Bridge", "StdioBackend", "ForwardBackend", "serve_stdio", "forward"]

HOST = "127.0.0.1"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
LISTEN_WINDOW = 1.5  # seconds a subscriptions/listen stream is held open through the stdio bridge
_VERSION_KEY, _MODERN = "io.modelcontextprotocol/protocolVersion", "2026-07-28"
_STATUS_OF_ERROR = {-32601: 404, -32602: 400, -32600: 400, -32700: 400, -32020: 400, -32021: 400, -32022: 400}


class _BridgeReply:
    def __init__(self, status: int, headers: dict[str, str] | None = None, body: bytes | Iterator[bytes] = b""):
        self.status, self.headers, self.body = status, dict(headers or {}), body


def _json_reply(obj: dict, status: int = 200, extra: dict | None = None) -> _BridgeReply:
    body = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    return _BridgeReply(status, {"Content-Type": "application/json", **(extra or {})}, body)


def _error(code: int, message: str, status: int, rid=None) -> _BridgeReply:
    return _json_reply({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}, status)


def _self_contained(msg: dict) -> bool:
    """True when `msg` carries the 2026-07-28 envelope (`_meta` with that protocol version): a
    request a process can answer without changing what it is.  A request without it (a test of
    a missing `_meta`, another version) may set a server's era for good (the official SDK locks
    a stdio connection to the handshake era at the first such request), so it gets a process of
    its own that answers it alone."""
    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and meta.get(_VERSION_KEY) == _MODERN


def _shared_state_key(env: dict | None) -> dict[str, str]:
    """{STATE_KEY_ENV: a fresh random key} for the processes of one bridge, unless the caller set
    the variable (in `env` or this process's environment; "" keeps each process's own key)."""
    if STATE_KEY_ENV in (env or {}) or STATE_KEY_ENV in os.environ:
        return {}
    return {STATE_KEY_ENV: secrets.token_hex(32)}


class StdioBackend:
    """Serve a stdio server: a fresh process per modern request, one per legacy session."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: dict | None = None,
        timeout: float = 30.0,
        spares: int = 2,
        reuse: bool = True,
    ):
        self.argv, self.timeout, self.spares, self.reuse = list(argv), timeout, spares, reuse
        self._by_connection: dict[int, Any] = {}  # id(connection) -> the process (a StdioTransport) serving it
        self._answered: weakref.WeakSet = weakref.WeakSet()  # bound processes that answered once
        self._idle: list = []  # processes whose connection closed, for the next connection
        self.env = {**unbuffered_env(self.argv), **_shared_state_key(env), **(env or {})}
        self.framing: list[str] = []  # stdout lines that were not JSON-RPC messages, from any process
        self._retiring: list[threading.Thread] = []
        self._spare: queue.Queue = queue.Queue()
        self._sessions: dict[str, tuple] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._all: list = []
        self.processes_started = 0
        for _ in range(spares):
            self._add_spare()

    def _spawn(self):
        from mcp_lab.transport.stdio import StdioTransport

        t = StdioTransport(self.argv, env=self.env).start()
        with self._lock:
            self._all.append(t)
            self.processes_started += 1
        return t

    def _add_spare(self) -> None:
        def start() -> None:
            t = self._spawn()
            if self._closed:  # closed while this one was starting: it is nobody's
                t.close()
            else:
                self._spare.put(t)

        if not self._closed:
            threading.Thread(target=start, daemon=True).start()

    def _take(self):
        self._add_spare()
        try:
            return self._spare.get(timeout=self.timeout)
        except queue.Empty:
            raise TimeoutError(f"no server process started within {self.timeout:g} s") from None

    def _retire(self, t) -> None:
        def go():
            self._read_to_end(t)
            t.close()
            with self._lock:
                if t in self._all:
                    self._all.remove(t)

        th = threading.Thread(target=go, daemon=True)
        with self._lock:
            self._retiring = [x for x in self._retiring if x.is_alive()] + [th]
        th.start()

    def _read_to_end(self, t, timeout: float = 2.0) -> None:
        """Close the process's stdin and read its stdout until EOF (at most `timeout` s), keeping
        every line that is not a JSON-RPC message."""
        try:
            if not t.end_input():
                return
            deadline = time.monotonic() + timeout
            while (remaining := deadline - time.monotonic()) > 0:
                _, line = t.read_line(remaining)
                self._judge(line)
        except Exception:  # EOF, the deadline, or the bridge closing under it: the end either way
            return

    def _judge(self, line: str) -> bool:
        """True when `line` is a JSON object; anything else is kept as a framing violation."""
        try:
            m = json.loads(line)
        except ValueError:
            m = None
        if not isinstance(m, dict):
            with self._lock:
                self.framing.append(line)
            return False
        return True

    def connection_closed(self, conn: object) -> None:
        """The HTTP connection `conn` closed: its process waits, idle, for the next connection
        (it answered only self-contained requests), or is retired when it is gone."""
        with self._lock:
            t = self._by_connection.pop(id(conn), None)
            if t is not None and t.alive and not self._closed:
                self._idle.append(t)
                return
        if t is not None:
            self._retire(t)

    def _for_connection(self, conn: object | None):
        """The process serving `conn` (a live one), or a fresh one bound to it."""
        if conn is None or not self.reuse:
            return self._take()
        with self._lock:
            t = self._by_connection.get(id(conn))
        if t is not None and t.alive:
            return t
        if t is not None:  # it exited since its last answer: read what it left, then a fresh one
            self._retire(t)
        with self._lock:
            t = self._idle.pop() if self._idle else None
        t = t if t is not None and t.alive else self._take()
        with self._lock:
            self._by_connection[id(conn)] = t
        return t

    def _drop(self, conn: object | None, t) -> None:
        """`t` broke while serving `conn`: unbind and retire it; the next request gets a fresh one."""
        with self._lock:
            if conn is not None and self._by_connection.get(id(conn)) is t:
                del self._by_connection[id(conn)]
        self._retire(t)

    def framing_lines(self, timeout: float = 5.0) -> list[str]:
        """The framing violations seen so far, after every connection's process was retired and
        the processes being retired were read to their end (at most `timeout` s).  Call it when
        the client is done (the suite has exited)."""
        with self._lock:
            bound, self._by_connection = list(self._by_connection.values()), {}
            bound += self._idle
            self._idle = []
        for t in bound:
            self._retire(t)
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = list(self._retiring)
        for th in threads:
            th.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            return list(self.framing)

    def handle(self, method: str, headers: dict[str, str], body: bytes, conn: object | None = None) -> _BridgeReply:
        if method != "POST":
            return _BridgeReply(405, {"Allow": "POST"})
        try:
            msg = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return _error(-32700, "Parse error: the body is not JSON", 400)
        if not isinstance(msg, dict) or "method" not in msg:
            return _error(-32600, "Invalid Request: the body must be one JSON-RPC request or notification", 400)
        sid = headers.get("mcp-session-id")
        if sid is not None:
            with self._lock:
                session = self._sessions.get(sid)
            if session is None:
                return _error(-32600, "Unknown or expired Mcp-Session-Id", 404, msg.get("id"))
            return self._exchange(session[0], msg, session_lock=session[1], keep=True)
        if msg.get("method") == "initialize":
            t = self._take()
            reply = self._exchange(t, msg, keep=True)
            if reply.status == 200:
                sid = uuid.uuid4().hex
                with self._lock:
                    self._sessions[sid] = (t, threading.Lock())
                reply.headers["Mcp-Session-Id"] = sid
            else:
                self._retire(t)
            return reply
        if "id" not in msg:
            return _BridgeReply(202)  # a notification without a session concerns no process
        if msg.get("method") == "subscriptions/listen":
            return self._listen(msg)
        if conn is None or not self.reuse or not _self_contained(msg):
            return self._exchange(self._take(), msg)  # a fresh process, retired after its answer
        t = self._for_connection(conn)
        reused = t in self._answered
        reply = self._exchange(t, msg, keep=True, conn=conn)
        if reply.status == 500 and reused and not t.alive:
            # it exited after its previous answer (a server that serves one request and ends), before
            # reading this one: the request is the next process's, as a process per request would do
            reply = self._exchange(self._for_connection(conn), msg, keep=True, conn=conn)
        return reply

    def _exchange(self, t, msg: dict, *, keep: bool = False, session_lock=None, conn=None) -> _BridgeReply:
        lock = session_lock or contextlib.nullcontext()
        with lock:
            try:
                t.send_line(json.dumps(msg, separators=(",", ":")), self.timeout)
                if "id" not in msg:
                    return _BridgeReply(202)
                before, answer = self._read_answer(t, msg["id"])
            except Exception as e:  # the process died (TransportClosed) or went silent: answer, never hang
                if conn is not None:
                    self._drop(conn, t)
                elif not keep:
                    self._retire(t)
                tail = " | ".join(t.stderr_tail())
                return _error(-32603, f"the stdio server did not answer: {e}" + (f" ({tail})" if tail else ""), 500)
        if not keep:
            self._retire(t)
        elif conn is not None:
            self._answered.add(t)
        status = 200
        if isinstance(answer.get("error"), dict):
            status = _STATUS_OF_ERROR.get(answer["error"].get("code"), 200)
        if not before:
            return _json_reply(answer, status)
        stream = b"".join(b"event: message\ndata: " + json.dumps(m).encode() + b"\n\n" for m in before + [answer])
        return _BridgeReply(200, {"Content-Type": "text/event-stream"}, stream)

    def _listen(self, msg: dict) -> _BridgeReply:
        """`subscriptions/listen` opens a stream that lasts until the client leaves, and the
        changes it carries are caused by other requests, which other processes answer: a bridge
        of processes cannot carry it.  So a fresh process gets the request, what it sends within
        LISTEN_WINDOW s (its acknowledgement) is passed on as an SSE stream that then ends, and
        the process is retired.  The suite's checks of the stream are classified untestable."""
        t = self._take()
        sent: list = []
        try:
            t.send_line(json.dumps(msg, separators=(",", ":")), self.timeout)
            deadline = time.monotonic() + LISTEN_WINDOW
            while (remaining := deadline - time.monotonic()) > 0:
                try:
                    _, line = t.read_line(remaining)
                except Exception:  # the window closed (or the process ended): that is the stream
                    break
                if self._judge(line):
                    m = json.loads(line)
                    sent.append(m)
                    if m.get("id") == msg.get("id") and ("result" in m or "error" in m):
                        break
        except Exception as e:
            self._retire(t)
            return _error(-32603, f"the stdio server did not take the request: {e}", 500, msg.get("id"))
        self._retire(t)
        stream = b"".join(b"event: message\ndata: " + json.dumps(m).encode() + b"\n\n" for m in sent)
        return _BridgeReply(200, {"Content-Type": "text/event-stream"}, iter([stream]))

    def _read_answer(self, t, rid) -> tuple[list, dict]:
        before: list = []
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no answer within {self.timeout:g} s")
            _, line = t.read_line(remaining)
            if not self._judge(line):
                continue  # a framing violation on stdout: not a message, kept in `framing`
            m = json.loads(line)
            if m.get("id") == rid and ("result" in m or "error" in m):
                return before, m
            before.append(m)

    def close(self) -> None:
        self._closed = True
        with self._lock:
            procs, self._all = list(self._all), []
            self._sessions.clear()
            self._idle = []
        while not self._spare.empty():
            with contextlib.suppress(queue.Empty):
                procs.append(self._spare.get_nowait())
        for t in set(procs):
            t.close()


class ForwardBackend:
    """Pass each request on to `url` with `headers` added; stream the reply back."""

    def __init__(self, url: str, headers: dict[str, str], *, timeout: float = 30.0):
        import httpx

        self.url, self.headers = url, dict(headers)
        self.upstream = urlsplit(url)
        self.bridge_port: int | None = None  # set by the Bridge once it listens
        self._client = httpx.Client(timeout=httpx.Timeout(timeout, connect=5.0), trust_env=False)

    def _names_bridge(self, authority: str) -> bool:
        try:
            u = urlsplit(f"//{authority}")
            return u.port == self.bridge_port and u.hostname in _LOOPBACK
        except ValueError:
            return False

    def _addressed(self, headers: dict[str, str]) -> dict[str, str]:
        """The suite's Host and Origin, re-aimed at the real server only where they name the bridge."""
        out = {}
        host = headers.get("host")
        if host:
            out["Host"] = self.upstream.netloc if self._names_bridge(host) else host
        origin = headers.get("origin")
        if origin:
            o = urlsplit(origin)
            named = o.netloc and self._names_bridge(o.netloc)
            out["Origin"] = f"{self.upstream.scheme}://{self.upstream.netloc}" if named else origin
        return out

    def handle(self, method: str, headers: dict[str, str], body: bytes, conn: object | None = None) -> _BridgeReply:
        import httpx

        drop = {"host", "origin", "content-length", "connection", "accept-encoding"}
        out = {k: v for k, v in headers.items() if k.lower() not in drop}
        out.update(self._addressed(headers))
        out.update(self.headers)
        try:
            req = self._client.build_request(method, self.url, headers=out, content=body or None)
            r = self._client.send(req, stream=True)
        except httpx.HTTPError as e:
            return _error(-32603, f"the bridge could not reach {self.url}: {e}", 502)
        keep = {
            k: v
            for k, v in r.headers.items()
            if k.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding")
        }

        def stream():
            try:
                yield from r.iter_raw()
            except httpx.HTTPError:
                return
            finally:
                r.close()

        return _BridgeReply(r.status_code, keep, stream())

    def close(self) -> None:
        self._client.close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mcp_lab-bridge"

    def log_message(self, *args) -> None:  # quiet: the suite's output is the record
        pass

    def _serve(self) -> None:
        bridge: Bridge = self.server.bridge  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.split("?")[0] != bridge.path:
            reply = _BridgeReply(404, {"Content-Type": "text/plain"}, b"not the MCP endpoint")
        else:
            # this handler object lives as long as the connection: the stdio backend binds a process to it
            reply = bridge.backend.handle(
                self.command, {k.lower(): v for k, v in self.headers.items()}, body, conn=self
            )
        self.send_response(reply.status)
        for k, v in reply.headers.items():
            self.send_header(k, v)
        if isinstance(reply.body, bytes):
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
            return
        self.send_header("Connection", "close")  # a streamed body ends when the connection does
        self.close_connection = True
        self.end_headers()
        for chunk in reply.body:
            self.wfile.write(chunk)
            self.wfile.flush()

    def _guarded(self) -> None:
        try:
            self._serve()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the suite hung up (it aborts streams it is done with)

    do_POST = do_GET = do_DELETE = _guarded

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            closed = getattr(self.server.bridge.backend, "connection_closed", None)  # type: ignore[attr-defined]
            if closed is not None:
                closed(self)


class _QuietHttpServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:  # a peer that hung up is no news
        pass


class Bridge:
    """A running bridge: `url`, and `close()` (also on leaving a `with` block)."""

    _ids = itertools.count(1)

    def __init__(self, backend, *, path: str = "/mcp"):
        self.backend, self.path = backend, path
        self._httpd = _QuietHttpServer((HOST, 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.bridge = self  # type: ignore[attr-defined]
        self.port = self._httpd.server_address[1]
        if hasattr(backend, "bridge_port"):
            backend.bridge_port = self.port
        self.url = f"http://{HOST}:{self.port}{path}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name=f"mcp-bridge-{next(self._ids)}", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self.backend.close()
        self._thread.join(5.0)

    def __enter__(self) -> "Bridge":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def serve_stdio(
    argv: Sequence[str], *, env: dict | None = None, timeout: float = 30.0, spares: int = 2, reuse: bool = True
) -> Bridge:
    """A bridge serving the stdio server `argv` over Streamable HTTP (see the module's notes):
    one process per connection, or per request with `reuse=False`."""
    return Bridge(StdioBackend(argv, env=env, timeout=timeout, spares=spares, reuse=reuse))


def forward(url: str, headers: dict[str, str], *, timeout: float = 30.0) -> Bridge:
    """A bridge that forwards to `url`, adding `headers` (the suite cannot send them itself)."""
    return Bridge(ForwardBackend(url, headers, timeout=timeout))
