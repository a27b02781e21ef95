"""The Streamable HTTP transport: one POST per message, answered with JSON or a short SSE stream.

Theory of operation.  The client (`mcp_lab.session.client.Client`) was written against a line
transport: `send_line(line)` and `read_line(timeout) -> (t, line)`.  Streamable HTTP is a
different framing of the same messages, and it fits that shape exactly:

* `send_line` POSTs the message to the single endpoint, with the headers 2026-07-28 derives
  from the body (`MCP-Protocol-Version` mirrors `_meta`, `Mcp-Method` the method, `Mcp-Name`
  the tool, prompt or resource), and `Accept` listing both reply forms.
* A background thread reads the reply.  A JSON body is one message; an SSE body is a stream
  of events whose `data` fields are messages (the maintained `httpx-sse` parser splits them).
  Each message is queued as one line, so `read_line` waits on a queue with a deadline exactly
  as the stdio transport does, and the client's Trace, noise detection and id matching work
  unchanged.
* Every exchange is kept raw (request line, headers, body; status, headers, body, each SSE
  event) in an `Exchange`, reported to the session through the `on_http` hook (the Trace's
  "http" events) and kept as `last_exchange`, so a lesson can assert a status code.

A notification is POSTed synchronously (its answer is a bare 202, and a lesson wants to see
it as soon as `notify` returns).  When an exchange ends without answering the request it
carried (a 405 with no body, an SSE stream closed before the response, a non-JSON body) the
next `read_line` raises `HttpError` naming the status, instead of leaving the client to wait
out its deadline for an answer that cannot come.  A server that never answers still meets
the client's deadline (`DeadlineExceeded`).

`import mcp_lab` does not import httpx: this module is loaded on the first HTTP connect.
"""

from __future__ import annotations

import itertools
import json
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcp_lab.transport.base import StderrHook, TransportDescription
from mcp_lab.wire import jsonrpc, views
from mcp_lab.wire.errors import ConnectionClosed, DeadlineExceeded, HttpError, ProtocolError

if TYPE_CHECKING:  # httpx is imported where it is used: `import mcp_lab` stays cheap
    import httpx

__all__ = [
    "HttpTransport",
    "Exchange",
    "HttpError",
    "ResponseTooLarge",
    "Unauthorized",
    "MAX_BODY",
    "ACCEPT",
]

ACCEPT = "application/json, text/event-stream"
MAX_BODY = 8 * 1024 * 1024  # bytes of one reply the transport agrees to read

# Streamable HTTP's own hooks, given to the constructor (the session layer's, see
# mcp_lab.session.connect.connect_http); their return values are ignored where they are `object`.
HttpHook = Callable[["Exchange", "str | None"], object]  # each raw exchange, with a note
HeadersHook = Callable[[Any], "dict[str, str]"]  # the MCP headers a body needs
AnswerHook = Callable[[Any, Any], object]  # (the body sent, the answer that matched it)


class ResponseTooLarge(HttpError):
    """The reply is bigger than the transport's limit; it was not read."""


class Unauthorized(HttpError):
    """The server answered 401 Unauthorized or 403 Forbidden: it wants credentials (or others)."""


def unanswered_error(ex: "Exchange", why: str) -> HttpError:
    """The error for an exchange that did not answer its request: a 401/403 is said as such."""
    if ex.status in (401, 403):
        hint = (
            "credentials missing or not accepted"
            if ex.status == 401
            else "credentials not accepted, or an Origin it does not allow"
        )
        body = ex.json()
        said = (
            body.get("error", {}).get("message")
            if isinstance(body, dict) and isinstance(body.get("error"), dict)
            else None
        )
        auth = ex.header("www-authenticate")
        return Unauthorized(
            f"the server answered HTTP {ex.status} {ex.reason or ''}".rstrip()
            + f": it refused the request ({hint})"
            + (f"; WWW-Authenticate: {auth}" if auth else "")
            + (f"; it said: {said}" if said else ""),
            ex,
        )
    return HttpError(why, ex)


@dataclass
class Exchange:
    """One HTTP request and its reply, kept raw."""

    method: str
    url: str
    request_headers: list[tuple[str, str]]
    request_body: str
    seq: int = 0
    status: int | None = None
    reason: str = ""
    http_version: str = "HTTP/1.1"
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: str = ""  # the reply body as received (for SSE: the raw stream)
    events: list[dict] = field(default_factory=list)  # SSE events: {"event", "data", "id"}
    error: str | None = None  # a transport failure (connect refused, timeout, limit)
    done: bool = False

    def header(self, name: str, default: str | None = None) -> str | None:
        name = name.lower()
        for k, v in self.headers:
            if k.lower() == name:
                return v
        return default

    @property
    def content_type(self) -> str:
        return (self.header("content-type") or "").split(";")[0].strip().lower()

    @property
    def is_sse(self) -> bool:
        return self.content_type == "text/event-stream"

    def json(self) -> Any:
        """The JSON body (for SSE: the data of the last event), or None when there is none."""
        text = self.events[-1]["data"] if self.is_sse and self.events else self.body
        try:
            return json.loads(text) if text.strip() else None
        except ValueError:
            return None

    @property
    def request_text(self) -> str:
        u = urlsplit(self.url)
        target = (u.path or "/") + (f"?{u.query}" if u.query else "")
        lines = [f"{self.method} {target} HTTP/1.1"] + [f"{k}: {v}" for k, v in self.request_headers]
        return "\n".join(lines) + "\n\n" + self.request_body

    @property
    def response_text(self) -> str:
        if self.status is None:
            return f"(no response: {self.error})" if self.error else "(no response yet)"
        lines = [f"{self.http_version} {self.status} {self.reason}".rstrip()]
        lines += [f"{k}: {v}" for k, v in self.headers]
        text = "\n".join(lines) + "\n\n" + self.body
        if self.error:
            text += f"\n(stopped: {self.error})"
        return text

    @property
    def raw(self) -> str:
        return self.request_text + "\n\n" + self.response_text

    @property
    def summary(self) -> str:
        what = f"{self.status} {self.reason}".strip() if self.status is not None else f"no response ({self.error})"
        form = ""
        if self.status is not None:
            form = self.content_type or "no body"
            if self.is_sse:
                form += f", {len(self.events)} event{'s' if len(self.events) != 1 else ''}"
            elif self.body:
                form += f", {len(self.body.encode('utf-8'))} bytes"
        return f"HTTP {self.method} {urlsplit(self.url).path or '/'} -> {what}" + (f" ({form})" if form else "")

    def __repr__(self) -> str:
        return f"<Exchange {self.summary}>"

    def _repr_html_(self) -> str | None:
        """Jupyter's view, drawn by the notebook layer (`mcp_lab.notebook.http_views`)."""
        return views.html("http-exchange", self)


class _Limited:
    """What httpx-sse's EventSource reads (headers, iter_text), with a byte budget and a raw copy."""

    def __init__(self, response, limit: int, exchange: Exchange):
        self._r = response
        self._limit = limit
        self._ex = exchange
        self.headers = response.headers

    def iter_text(self):
        for text in self._r.iter_text():
            if self._r.num_bytes_downloaded > self._limit:
                raise _TooBig(f"the SSE stream passed the {_mib(self._limit)} limit")
            self._ex.body += text
            yield text


class _TooBig(Exception):
    pass


class _Report:
    """Calls `on_http` for one exchange (once, and again only for a stream that goes on after its
    answer); `done` says whether it was called. A broken observer never breaks the exchange."""

    def __init__(self, on_http, ex: "Exchange"):
        self.on_http, self.ex, self.done = on_http, ex, False

    def __call__(self, note: str | None = None) -> None:
        self.done = True
        if self.on_http is not None:
            try:
                self.on_http(self.ex, note or self.ex.summary)
            except Exception:  # a broken observer must not break the exchange
                pass


def _mib(n: int) -> str:
    return f"{n / 1048576:g} MiB" if n >= 1048576 else f"{n} bytes"


def _one_line(text: str) -> str:
    """A message as one line: JSON that spans lines (legal in a body or SSE data) is re-encoded."""
    if "\n" not in text and "\r" not in text:
        return text
    try:
        return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    except ValueError:
        return text


def override_headers(hdrs: dict[str, str | None], updates: Mapping[str, str | None]) -> None:
    """Apply `updates` to `hdrs` in place, matching header names case-insensitively.

    HTTP field names are case-insensitive (RFC 9110, section 5.1), so `{"mcp-name": "x"}` must
    replace a derived `Mcp-Name`, not travel beside it as a second field that the server reads
    as a duplicate.  The update's spelling wins; a value of None removes the field.
    """
    for name, value in updates.items():
        for existing in [k for k in hdrs if k.lower() == name.lower()]:
            del hdrs[existing]
        hdrs[name] = value


class HttpTransport:
    """POST each message to `url`; queue each answer for `read_line`.

    `headers` are extra request headers, applied after the derived ones: a value overrides,
    `None` removes (how a lesson sends a foreign Origin or a header that disagrees with the
    body).  `process` is an optional local server process (see `mcp_lab.session.serve`) whose
    stderr and pid the client shows; closing the transport does not stop it.

    The hooks are the session layer's (`mcp_lab.session.connect.connect_http` gives them):
    `derive_headers(body)` returns the MCP headers a body needs, `on_answer(body, answer)` hears
    each answer that matched its request, `on_http(exchange, note)` each raw exchange.  A
    transport made without them sends only the headers in `headers`.
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 5.0,
        connect_timeout: float | None = None,
        headers: dict[str, str | None] | None = None,
        max_body: int = MAX_BODY,
        process: Any = None,
        derive_headers: HeadersHook | None = None,
        on_answer: AnswerHook | None = None,
        on_http: HttpHook | None = None,
    ):
        u = urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"not an HTTP URL: {url!r}; use e.g. http://127.0.0.1:8765/mcp")
        self.url = url
        self.timeout = timeout
        self.connect_timeout = min(timeout, 5.0) if connect_timeout is None else connect_timeout
        self.headers: dict[str, str | None] = dict(headers or {})
        self.max_body = max_body
        self.process = process
        self.exchanges: list[Exchange] = []
        self.last_exchange: Exchange | None = None
        self.session_id: str | None = None  # only a legacy server mints one
        # The session layer's hooks (mcp_lab.session.http_headers): the MCP headers a body
        # needs, what an answer teaches, each raw exchange. The transport interprets no MCP.
        self._derive_headers = derive_headers
        self._on_answer = on_answer
        self._on_http = on_http
        self._stderr_lines: list[str] = []
        self._on_stderr: StderrHook | None = None
        self._queue: queue.Queue = queue.Queue()
        self._seq = itertools.count(1)
        self._latest = 0
        self._threads: list[threading.Thread] = []
        self._client: httpx.Client | None = None
        self._closed = False

    # -- life cycle -------------------------------------------------------------------
    def start(self) -> "HttpTransport":
        self._http()
        return self

    def _http(self) -> httpx.Client:
        """The HTTP client, made on first use (httpx is imported only when a transport starts)."""
        if self._client is None:
            import httpx

            # Read deadline: the client's own deadline plus a margin, so a stuck reply thread
            # ends soon after the client has given up on it.
            t = httpx.Timeout(self.timeout + 1.0, connect=self.connect_timeout)
            self._client = httpx.Client(timeout=t, follow_redirects=False, trust_env=False)
        return self._client

    def end_input(self) -> bool:
        """Nothing to read to an end: every answer comes back with its own request."""
        return False

    def close(self) -> int | None:
        self._closed = True
        if self._client is not None:
            self._client.close()
        for t in self._threads:
            t.join(0.5)
        return self.returncode

    def __enter__(self) -> "HttpTransport":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # The process-shaped surface the Client reads (stderr, pid, exit code) comes from the
    # local server process when there is one; a remote server has none of these.
    @property
    def stderr_lines(self) -> list[str]:
        return self.process.stderr_lines if self.process is not None else self._stderr_lines

    @property
    def on_stderr(self):
        return self.process.on_stderr if self.process is not None else self._on_stderr

    @on_stderr.setter
    def on_stderr(self, callback) -> None:
        if self.process is not None:
            self.process.on_stderr = callback
        self._on_stderr = callback

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def returncode(self) -> int | None:
        return self.process.returncode if self.process is not None else None

    def describe(self) -> TransportDescription:
        return TransportDescription("http", url=self.url, pid=self.pid, exit_code=self.returncode)

    # -- the line interface -------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return not self._closed

    def send_line(self, line: str, timeout: float | None = None, *, verbatim: bool = False) -> None:
        """POST one message (the client's encoded line) as the body; `timeout` is that request's
        deadline.  `verbatim`: the learner's exact text, whatever it holds; every reply is queued
        and the end of the exchange is no error (the learner collects what came back)."""
        self._post(line, raw=verbatim, timeout=timeout)

    def read_line(self, timeout: float) -> tuple[float, str]:
        if self._closed and self._queue.empty():
            raise ConnectionClosed()
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise DeadlineExceeded(f"no answer over HTTP within {timeout:g} s") from None
            kind, seq = item[0], item[1]
            if kind == "line":
                return item[2], item[3]
            # kind == "end": the exchange `seq` is over.  Only the latest exchange can still
            # be awaited; the end of an older one (answered, or given up on) is no news.
            if seq != self._latest:
                continue
            _, _, ex, answered, raw, err = item
            if raw:
                raise DeadlineExceeded("the HTTP exchange is complete")
            if err is not None:
                raise err
            if not answered:
                raise unanswered_error(ex, self._why_unanswered(ex))

    # -- raw HTTP for lessons ------------------------------------------------------------
    def request(
        self, method: str = "POST", body: str | dict | None = None, *, headers: dict[str, str | None] | None = None
    ) -> Exchange:
        """One synchronous HTTP exchange, recorded like the others (e.g. a GET to see the 405)."""
        text = body if isinstance(body, str) or body is None else jsonrpc.encode(body)
        return self._exchange(method, text, headers or {}, derive=False)

    # -- internals ----------------------------------------------------------------------
    def _post(self, text: str, *, raw: bool, timeout: float | None = None) -> None:
        if self._closed:
            raise ConnectionClosed()
        self.start()
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        is_request = isinstance(obj, dict) and "method" in obj and "id" in obj
        seq = next(self._seq)
        self._latest = seq
        if not is_request and not raw:
            # A notification: its answer is a bare 202; wait for it so `notify` returning
            # means the status is known.
            self._run(seq, text, obj, queue_answers=False, raw=False, timeout=timeout)
            return
        t = threading.Thread(
            target=self._run,
            args=(seq, text, obj),
            kwargs={"raw": raw, "timeout": timeout},
            name=f"mcp-http-{seq}",
            daemon=True,
        )
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        t.start()

    def _request_headers(self, obj: Any, derive: bool, extra: dict) -> dict[str, str]:
        hdrs: dict[str, str | None] = {"Accept": ACCEPT, "Content-Type": "application/json"}
        if derive:
            if self._derive_headers is not None:
                override_headers(hdrs, self._derive_headers(obj))
            if self.session_id:
                override_headers(hdrs, {"Mcp-Session-Id": self.session_id})
        override_headers(hdrs, self.headers)
        override_headers(hdrs, extra)
        return {k: v for k, v in hdrs.items() if v is not None}

    def _run(
        self,
        seq: int,
        text: str,
        obj: Any,
        *,
        queue_answers: bool = True,
        raw: bool = False,
        timeout: float | None = None,
    ) -> None:
        rid = obj.get("id") if isinstance(obj, dict) and "method" in obj else None
        answered = False

        def deliver(ex: Exchange, data: str) -> None:
            nonlocal answered
            line = _one_line(data)
            if not queue_answers:
                return
            try:
                m = jsonrpc.parse(line)
            except ProtocolError:
                m = None
            if isinstance(m, (jsonrpc.Result, jsonrpc.Error)) and rid is not None and m.id == rid:
                answered = True
                if self._on_answer is not None:
                    self._on_answer(obj, m)
            self._queue.put(("line", seq, time.monotonic(), line))

        err = None
        try:
            ex = self._exchange("POST", text, {}, derive=True, obj=obj, seq=seq, deliver=deliver, timeout=timeout)
        except HttpError as e:
            ex, err = e.exchange, e
        if queue_answers:
            self._queue.put(("end", seq, ex, answered, raw, err))
        elif err is not None:
            raise err

    # Long on purpose: one HTTP exchange from request to last SSE event, sharing one Exchange record and one error translation.
    def _exchange(
        self,
        method: str,
        text: str | None,
        extra: dict,
        *,
        derive: bool,
        obj: Any = None,
        seq: int = 0,
        deliver=None,
        timeout: float | None = None,
    ) -> Exchange:
        import httpx
        from httpx_sse import SSEError

        client = self._http()
        hdrs = self._request_headers(obj, derive, extra)
        if text is None:
            hdrs.pop("Content-Type", None)
        ex = Exchange(method=method, url=self.url, request_headers=list(hdrs.items()), request_body=text or "", seq=seq)
        self.exchanges.append(ex)
        self.last_exchange = ex
        report = _Report(self._on_http, ex)
        try:
            # This request's own deadline (plus a margin) bounds the read; the client's
            # default applies when the caller gave none.
            limit = httpx.Timeout((self.timeout if timeout is None else timeout) + 1.0, connect=self.connect_timeout)
            with client.stream(
                method, self.url, content=None if text is None else text.encode("utf-8"), headers=hdrs, timeout=limit
            ) as r:
                ex.status, ex.reason = r.status_code, r.reason_phrase
                ex.http_version = r.http_version
                ex.headers = list(r.headers.items())
                if (
                    r.headers.get("mcp-session-id")
                    and r.is_success
                    and isinstance(obj, dict)
                    and obj.get("method") == "initialize"
                ):
                    # Only a legacy handshake opens a session; a modern exchange never adopts one.
                    self.session_id = r.headers["mcp-session-id"]
                self._read_reply(r, ex, obj, deliver, report)
        except _TooBig as e:
            ex.error = str(e)
            report(f"{ex.summary}: refused, {e}")
            raise ResponseTooLarge(f"HTTP reply refused: {e} (raise HttpTransport.max_body to accept it)", ex) from None
        except httpx.ConnectError as e:
            ex.error = f"cannot connect: {e}"
            report()
            raise HttpError(
                f"cannot connect to {self.url}: {e or 'connection refused'}; is the server running?", ex
            ) from None
        except httpx.TimeoutException as e:
            ex.error = f"{type(e).__name__}"
            report()
            raise HttpError(f"HTTP {type(e).__name__} from {self.url}", ex) from None
        except (httpx.RemoteProtocolError, httpx.ReadError, SSEError) as e:
            # The server dropped the connection mid-reply: what arrived so far is kept.
            ex.error = f"{type(e).__name__}: {e}"
        except httpx.HTTPError as e:
            ex.error = f"{type(e).__name__}: {e}"
            report()
            raise HttpError(f"HTTP failure talking to {self.url}: {ex.error}", ex) from None
        finally:
            ex.done = True
        if not report.done:
            report()
        elif ex.is_sse and len(ex.events) > 1 and not self._answers(ex.events[-1]["data"], obj):
            report(f"{ex.summary}: the stream went on after the response")
        return ex

    def _read_reply(self, r, ex: Exchange, obj: Any, deliver, report: "_Report") -> None:
        """The reply's body into `ex`, within max_body: each SSE event as it comes (delivered,
        the HTTP reported before the answer it carries), or a plain body read whole."""
        from httpx_sse import EventSource

        length = r.headers.get("content-length")
        if length and length.isdigit() and int(length) > self.max_body:
            raise _TooBig(f"Content-Length {length} is over the {_mib(self.max_body)} limit")
        if ex.is_sse:
            # EventSource reads only .headers and .iter_text() of a response; _Limited has both.
            for sse in EventSource(_Limited(r, self.max_body, ex)).iter_sse():  # type: ignore[arg-type]
                ex.events.append({"event": sse.event, "data": sse.data, "id": sse.id})
                if deliver is not None and sse.data.strip():
                    # (an event with empty data, e.g. a legacy resumption primer, is no message)
                    if not report.done and self._answers(sse.data, obj):
                        report()  # the trace shows the HTTP before the answer it carried
                    deliver(ex, sse.data)
                # Anything after the response is unusual; it is shown in a second note.
        else:
            chunks, size = [], 0
            for chunk in r.iter_bytes():
                size += len(chunk)
                if size > self.max_body:
                    raise _TooBig(f"the body passed the {_mib(self.max_body)} limit")
                chunks.append(chunk)
            ex.body = b"".join(chunks).decode(r.encoding or "utf-8", errors="replace")
            report()
            if deliver is not None and ex.body.strip():
                deliver(ex, ex.body)

    @staticmethod
    def _answers(data: str, obj: Any) -> bool:
        if not isinstance(obj, dict) or "id" not in obj:
            return False
        try:
            m = json.loads(data)
        except ValueError:
            return False
        return isinstance(m, dict) and m.get("id") == obj["id"] and ("result" in m or "error" in m)

    @staticmethod
    def _why_unanswered(ex: Exchange) -> str:
        if ex.error:
            what = f"the reply broke off ({ex.error})"
        elif ex.is_sse:
            what = (
                f"the SSE stream ended after {len(ex.events)} event(s) without the response "
                "(a broken stream loses the request: re-issue it with a new id)"
            )
        elif isinstance(ex.json(), dict) and isinstance(ex.json().get("error"), dict):
            err = ex.json()["error"]
            what = (
                f"the body is a JSON-RPC error for id {ex.json().get('id')!r}, not for the request sent "
                f"({err.get('code')}: {err.get('message')})"
            )
        elif ex.body.strip():
            what = f"the {ex.content_type or 'untyped'} body is not the JSON-RPC answer"
        else:
            what = "the reply has no body"
        return f"HTTP {ex.status} {ex.reason}: {what}; see transport.last_exchange"
