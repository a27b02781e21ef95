"""Probe-then-fallback over Streamable HTTP: the HTTP rule of 2026-07-28
(https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility).

Theory of operation.  Over HTTP a client MAY simply send a modern request, because the status
line and the body tell the eras apart without a timeout:

1. `server/discover` with modern `_meta` (and the headers that mirror it) is POSTed;
2. 200 with a DiscoverResult                        -> modern;
3. 400 whose body is a recognised modern error (-32022, -32021, -32020), or 404 whose body is
   a JSON-RPC -32601                                -> modern: fix and retry (-32022 names the
   versions to retry with; -32020 means our headers were wrong: re-derive them and retry);
4. an empty or an unrecognised body (a legacy server's "Server not initialized", an HTML
   404, a 405)                                      -> legacy: fall back to `initialize`.
   Should `initialize` fail too with 400, 404 or 405 and no modern body, the next fallback
   is the deprecated HTTP+SSE transport of 2024-11-05 (GET, then wait for an `endpoint`
   event); mcp_lab does not implement it and says so in the verdict.

The verdict is the stdio probe's `Verdict` (mcp_lab.session.verdict), holding the open Client: after a
legacy fallback the transport carries the `Mcp-Session-Id` the server minted.
"""

from __future__ import annotations

from mcp_lab.session.client import Client
from mcp_lab.session.connect import connect_http
from mcp_lab.session.verdict import Reasoning, Verdict
from mcp_lab.transport.http import HttpError, HttpTransport, Unauthorized
from mcp_lab.wire import era, jsonrpc, revisions
from mcp_lab.wire.era import Era

__all__ = ["probe_http", "initialize_http"]

DEFAULT_TIMEOUT = 5.0


def probe_http(
    server: str | Client,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    name: str | None = None,
    headers: dict[str, str | None] | None = None,
) -> Verdict:
    """Probe the Streamable HTTP endpoint `server` (a URL, or a Client over HTTP, probed in place).

    Returns a Verdict (era "modern" or "legacy", or None when even `initialize` failed and
    only the deprecated HTTP+SSE transport is left), holding the open Client; the caller closes it.
    `headers` are extra request headers (credentials: `{"Authorization": "Bearer ..."}`); a 401 or
    403 is raised as `Unauthorized`, never read as an era.
    """
    client = server if isinstance(server, Client) else connect_http(server, name=name, timeout=timeout, headers=headers)
    if not isinstance(client.transport, HttpTransport):
        raise TypeError("probe_http needs a Client over HTTP; for stdio use mcp_lab.probe")
    return _HttpRun(client, timeout).run()


def initialize_http(
    url: str, *, timeout: float = DEFAULT_TIMEOUT, headers: dict[str, str | None] | None = None
) -> Verdict:
    """Open a legacy session at `url` with `initialize` straight away (no `server/discover`): how
    a handshake-era client, or a suite run at a legacy revision, talks to the server."""
    client = connect_http(url, timeout=timeout, headers=headers)
    try:
        return _HttpRun(client, timeout).fallback()
    except BaseException:
        client.close()
        raise


class _HttpRun(Reasoning):
    """One HTTP probe: the spec's HTTP rule, asked through the shared steps-and-verdict."""

    @property
    def http(self) -> HttpTransport:
        """The client's transport, which `probe_http` made or checked to be Streamable HTTP."""
        transport = self.c.transport
        if not isinstance(transport, HttpTransport):
            raise TypeError("probe_http needs a Client over HTTP; for stdio use mcp_lab.probe")
        return transport

    def discover(self, version: str):
        """POST server/discover with the `_meta` of `version` (its headers derive from it)."""
        params = {"_meta": revisions.meta(version, self.c.capabilities, self.c.client_info)}
        return self.send("server/discover", params, meta=True)

    def send(self, method: str, params: dict | None, *, meta: bool):
        """(HTTP status, the JSON-RPC answer or None, the Exchange)."""
        answer: jsonrpc.Message | None
        try:
            answer = self.c.request(method, params, meta=meta, timeout=self.timeout)
        except HttpError as e:
            ex = e.exchange
            if isinstance(e, Unauthorized):
                raise  # credentials, not an era
            if ex is None or (ex.status is None and ex.error):
                # Nothing answered at all (refused, unreachable): that says nothing about the
                # era, and calling it "legacy" would hide a typo in the port or a stopped server.
                raise HttpError(
                    f"cannot reach {self.http.url}: {ex.error if ex else e.message}; "
                    "is the server running, and is the URL right?",
                    ex,
                ) from None
            body = ex.json() if ex is not None else None
            answer = None
            if isinstance(body, dict) and "method" not in body:
                try:
                    answer = jsonrpc.parse_obj(body)
                except jsonrpc.ProtocolError:
                    answer = None
            return (ex.status if ex is not None else None), answer, ex
        ex = self.http.last_exchange
        return (ex.status if ex is not None else None), answer, ex

    def run(self) -> Verdict:
        version = revisions.LATEST
        self.step(
            f"POST server/discover with protocolVersion {version} in _meta and MCP-Protocol-Version, Mcp-Method headers"
        )
        retried = False  # one retry after -32022, as over stdio; header retries are bounded by attempts
        for attempt in range(3):
            status, answer, ex = self.discover(version)
            reply = era.HttpReply(
                status, (ex.content_type or "") if ex is not None else "", ex is None or not ex.body.strip()
            )
            d = era.decide(answer, asked=version, may_retry=attempt < 2, http=reply)
            if d.next is era.Next.RETRY and retried:  # refused again after the one retry: stop there
                d = era.decide(answer, asked=version, may_retry=False, http=reply)
            for reason in d.reasons:
                self.step(reason)
            if d.next is era.Next.RETRY:
                version, retried = d.retry_at, True
                continue
            if d.next is era.Next.RETRY_HEADERS:
                # Our own headers were wrong (an override left in transport.headers): drop the
                # overrides so they are derived from the body again, and retry.
                for k in ("MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"):
                    self.http.headers.pop(k, None)
                continue
            if d.next in (era.Next.USE, era.Next.MODERN_NO_VERSION):
                return self.discovered(d, answer)
            if d.next is era.Next.MODERN_REFUSED:
                return self.verdict(Era.MODERN, version)
            break
        return self.fallback()

    def fallback(self) -> Verdict:
        c = self.c
        c.adopt_era(Era.LEGACY)  # a handshake-era request: no _meta
        # A legacy method asks a legacy version: the newest handshake-era revision, as the stdio
        # probe does. Asking 2026-07-28 here would let a dual-era server echo it, and the legacy
        # session would then carry a modern MCP-Protocol-Version header. Accept what it picks.
        params = {"protocolVersion": revisions.LEGACY_VERSION, "capabilities": {}, "clientInfo": c.client_info}
        self.step(f"fall back to initialize, asking for {revisions.LEGACY_VERSION}, the newest handshake-era revision")
        status, answer, ex = self.send("initialize", params, meta=False)
        d = era.decide_initialize_refused(answer, http=era.HttpReply(status))
        if d is not None:
            return self.reprobe(d)
        if not isinstance(answer, jsonrpc.Result) or not isinstance(answer.result.get("protocolVersion"), str):
            self.step(
                f"initialize failed too (HTTP {status}); the next fallback is the deprecated HTTP+SSE "
                "transport (GET, then wait for an endpoint event), which mcp_lab does not implement"
            )
            return self.verdict(None, None)
        r = answer.result
        version = r["protocolVersion"]
        sid = self.http.session_id
        self.step(
            f"HTTP {status}, the server answered protocolVersion {version}"
            + (f" and minted Mcp-Session-Id {sid}" if sid else "")
        )
        c.notify("notifications/initialized")
        sent = self.http.last_exchange
        self.step(f"send notifications/initialized: HTTP {sent.status if sent else None}; the legacy session is open")
        caps = r.get("capabilities") if isinstance(r.get("capabilities"), dict) else {}
        info = r.get("serverInfo") if isinstance(r.get("serverInfo"), dict) else None
        return self.verdict(Era.LEGACY, version, caps, info, r.get("instructions"))

    def reprobe(self, d: era.Decision) -> Verdict:
        """initialize was refused by a server naming modern versions: it is modern, probe again."""
        for reason in d.reasons:
            self.step(reason)
        if d.next is era.Next.RETRY:
            status, answer, _ex = self.discover(d.retry_at)
            again = era.decide(answer, asked=d.retry_at, may_retry=False, http=era.HttpReply(status))
            for reason in again.reasons:
                self.step(reason)
            if again.next is era.Next.USE:
                r = answer.result
                meta = r.get("_meta") if isinstance(r.get("_meta"), dict) else {}
                info = meta.get(revisions.SERVER_INFO_KEY)
                return self.verdict(
                    Era.MODERN,
                    again.version,
                    r.get("capabilities"),
                    info if isinstance(info, dict) else None,
                    r.get("instructions"),
                    again.supported,
                )
        return self.verdict(Era.MODERN, None, supported=d.supported)
