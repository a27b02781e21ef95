"""Probe-then-fallback: learn a stdio server's era the way 2026-07-28 tells a client to.

Theory of operation.  A modern (2026-07-28) server has no handshake, a legacy (2025-11-25 and
earlier) server needs one, and nothing on a stdio pipe says which kind is on the other end.
So a client that must work with both asks first, with a request only a modern server
understands, and reads the era off the answer (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions):

1. send `server/discover`, with the preferred modern version in `_meta`;
2. a DiscoverResult comes back                      -> modern; pick a version from
   `supportedVersions`; when none is one we speak, the verdict is modern with no version and
   says so, and no `initialize` is sent. The spec leaves that case open (its DiscoverResult
   branch says only "select a mutually supported version and continue"; its "do not fall
   back" is written for the modern-error branch), so this is mcp_lab's reading, after the
   -32022 rule's "surface an error"; the Python SDK (mcp 2.3) sends `initialize` instead, as
   notebook 06 shows;
3. a recognised modern error -- the spec says "such as" -32022, and -32020 (HeaderMismatch:
   HTTP headers that disagree with the body, or missing or malformed) and -32021 (a missing
   required client capability) are modern codes too
   (`mcp_lab.wire.era` treats all three so) -> modern: with -32022's `data.supported`, retry
   the discover at a listed version we speak; never fall back to `initialize`;
4. any other error, any answer that is not a DiscoverResult, or silence until the deadline
                                                    -> legacy: `initialize` asking for
   2025-11-25, the newest handshake-era revision (a legacy method asks a legacy version), accept
   whatever version the server answers, then `notifications/initialized`; an `initialize`
   refused with an error whose `data.supported` lists a modern version means modern after all:
   discover again at a mutual version, never a legacy verdict.

Rule 4 is a deny-list on purpose: legacy servers answer an unknown pre-initialize request
with whatever their framework does (-32601, -32602, -32603, a bare result, nothing at all),
so the fallback must never hinge on one error code.  Stdout lines that are not JSON-RPC (a
banner, a stray print) are recorded as noise and the wait goes on; they are a framing
violation, not an answer.

The verdict is a property of the server, so it is cached per server (its short name, or what
its transport's `describe()` says: the argv, the URL) for the life of the process, as the spec
recommends; `refresh=True` probes again.  The Verdict
keeps the open Client: after a legacy fallback the connection *is* the session the
handshake opened, and the notebook continues on it (`v.client.request("tools/list")`).  The
caller closes it: `v.close()`, or `with probe(...) as v:`.

The Verdict itself and the steps that build it live in `mcp_lab.session.verdict`; its HTML in
`mcp_lab.notebook.probe_views`. Each wait here is the Client's own (`Client.wait_for_answer`).
"""

from __future__ import annotations

from typing import Any

from mcp_lab.session.client import Client
from mcp_lab.session.verdict import Reasoning, Verdict
from mcp_lab.wire import era, jsonrpc, revisions
from mcp_lab.wire.errors import DeadlineExceeded, HttpError, McpError, ProtocolError, TransportClosed

__all__ = ["probe", "Verdict", "forget", "cached"]

DEFAULT_TIMEOUT = 3.0

# The verdicts of this process, by server (see `_key`).
_CACHE: dict[Any, Verdict] = {}


# -- the cache ------------------------------------------------------------------------------
def _key(server) -> Any:
    """A short name is its own key; a connection is known by what its transport describes: a
    process by its argv, an HTTP server by its URL, an in-memory server by its transport object
    (one per connection, so nothing is shared by accident)."""
    if isinstance(server, Client):
        d = server.transport.describe()
        if d.argv is not None:
            return ("stdio", d.argv)
        if d.url is not None:
            return ("http", d.url)
        return ("memory", id(server.transport))
    if isinstance(server, str):
        return server
    return ("stdio", tuple(server))


def forget(server=None) -> None:
    """Drop the cached verdict of one server, or of all of them."""
    if server is None:
        _CACHE.clear()
    else:
        _CACHE.pop(_key(server), None)


def cached(server) -> "Verdict | None":
    """The cached verdict for a server, if it was probed in this process."""
    return _CACHE.get(_key(server))


def _alive(client: Client | None) -> bool:
    if client is None:
        return False
    return client.transport.alive


# -- the probe ------------------------------------------------------------------------------
def probe(server, *, timeout: float = DEFAULT_TIMEOUT, refresh: bool = False, **connect_kwargs) -> Verdict:
    """Probe a stdio server with `server/discover`, fall back to `initialize` if it is legacy.

    `server` is a known short name ("everything", "calendar", "sdk_calendar"), an argv list,
    or an already connected `Client` (probed in place, left open).  `timeout` is the deadline,
    in seconds, of each wait: silence that long after `server/discover` means legacy.
    Extra keyword arguments go to `mcp_lab.connect` (env, cwd, capabilities, client_info).

    Returns a `Verdict` holding the open client, with `client.era` set; the caller closes it
    (`v.close()` or `with probe(...) as v:`).  The verdict is cached per server for the life
    of the process; a cached verdict whose connection is still open is returned as is, and one
    whose connection was closed opens a new connection and applies the known era (a legacy
    server still needs its handshake on every connection, but no second discover).
    `refresh=True` ignores the cache.

    Raises `TransportClosed` (with the server's stderr) when the server cannot start or dies
    (the connection is then closed, a given Client's too), and `DeadlineExceeded` when it answers neither `server/discover` nor `initialize`.
    """
    from mcp_lab.session.connect import connect

    key = _key(server)
    hit = None if refresh else _CACHE.get(key)
    if hit is not None and (_alive(hit.client) and (not isinstance(server, Client) or server is hit.client)):
        return hit
    own = not isinstance(server, Client)
    client = connect(server, **connect_kwargs) if own else server
    # The legacy handshake declares what this client can answer.  mcp_lab does not answer
    # server-initiated requests (legacy elicitation, sampling, roots), so by default it
    # declares none, exactly as the chapter's bare-hands initialize does.
    legacy_caps = connect_kwargs.get("capabilities") or {}
    run = _Run(client, timeout, legacy_caps)
    try:
        if hit is not None:
            verdict = run.apply_cached(hit)
        else:
            verdict = run.probe()
    except McpError as e:
        if isinstance(e, TransportClosed) and not isinstance(e, HttpError):
            # The server is gone, so the connection is over whoever opened it: closing it reaps
            # the process and drains its stderr, and the message quotes both.
            raise _died(client, client.close(), e) from None
        if own:
            client.close()
        raise
    except BaseException:
        if own:
            client.close()
        raise
    _CACHE[key] = verdict
    return verdict


class _Run(Reasoning):
    """One stdio probe on one connection: the waits, each with its deadline."""

    def __init__(self, client: Client, timeout: float, legacy_caps: dict):
        super().__init__(client, timeout)
        self.legacy_caps = legacy_caps
        self.late: list = []  # answers to an earlier id that arrived while waiting for a later one

    # -- one request, one answer, a deadline ---------------------------------------------
    def exchange(self, method: str, params: dict | None, timeout: float | None = None):
        """Send a request; return its answer, or None when the deadline passes first.  The wait is
        the Client's own; the probe only listens to what else arrives meanwhile (`aside`)."""
        c = self.c
        rid = c.new_id()
        msg = jsonrpc.Request(id=rid, method=method, params=params)
        c.pending.add(rid)
        try:
            c.send_message(jsonrpc.encode(msg), msg)
            # No start-up allowance: silence within the probe's own deadline is the legacy sign.
            return c.wait_for_answer(
                rid,
                self.timeout if timeout is None else timeout,
                method=method,
                may_start=False,
                on_other=self.aside,
                unidentified_is_ours=True,  # the server could not read our id; the error is about our line
            )
        except DeadlineExceeded:
            return None
        finally:
            c.pending.resolve(rid)

    def aside(self, ev) -> None:
        """A line that is not the awaited answer: noise becomes a step, an answer to an earlier
        id is kept (`late`).  Server notifications and requests are recorded in the trace and
        otherwise ignored: no era is settled yet, so there is nothing to answer with."""
        if ev.kind == "noise":
            shown = ev.line if len(ev.line) <= 60 else ev.line[:59] + "…"
            self.step(f"ignored a stdout line that is not JSON-RPC (a framing violation): {shown!r}")
        elif isinstance(ev.message, (jsonrpc.Result, jsonrpc.Error)):
            self.late.append(ev.message)

    def discover(self, version: str):
        params = {"_meta": revisions.meta(version, self.c.capabilities, self.c.client_info)}
        return self.exchange("server/discover", params)

    # -- the decision (mcp_lab.wire.era decides; this drives) ---------------------------------
    def probe(self) -> Verdict:
        version = revisions.LATEST
        self.step(f"send server/discover with protocolVersion {version} in _meta (deadline {self.timeout:g} s)")
        answer = self.discover(version)
        retried = False
        while True:
            d = era.decide(answer, asked=version, may_retry=not retried, wait=self.timeout)
            if d.next is era.Next.RETRY:
                self.steps_of(d)
                version, retried = d.retry_at, True
                answer = self.discover(version)
                continue
            return self.act(d, answer, version)

    def act(self, d: era.Decision, answer, asked: str) -> Verdict:
        """Write the decision's reasons as steps, then do what it says (every branch but RETRY)."""
        self.steps_of(d)
        if d.next in (era.Next.USE, era.Next.MODERN_NO_VERSION):
            return self.discovered(d, answer)
        if d.next is era.Next.MODERN_REFUSED:
            return self.verdict(era.Era.MODERN, asked)
        return self.handshake(revisions.LEGACY_VERSION, probed=True)

    def steps_of(self, d: era.Decision) -> None:
        for reason in d.reasons:
            self.step(reason)

    def from_discover_result(self, answer: jsonrpc.Result) -> Verdict:
        return self.act(era.decide(answer, asked=revisions.LATEST), answer, revisions.LATEST)

    def handshake(self, asked: str, *, probed: bool, cached: bool = False) -> Verdict:
        c = self.c
        params = {"protocolVersion": asked, "capabilities": self.legacy_caps, "clientInfo": c.client_info}
        self.step(f"fall back to initialize, asking for {asked}")
        # The probe's deadline is the short "is anyone modern there?" wait; the handshake is an
        # ordinary request, so it gets the connection's own deadline when that is longer (a
        # slow-starting server may still be loading when a short probe gives up).
        wait = max(self.timeout, c.timeout)
        answer = self.exchange("initialize", params, wait)
        if answer is None:
            raise DeadlineExceeded(
                f"no answer to initialize within {wait:g} s"
                + (" (nor to server/discover): this does not behave as an MCP server" if probed else "")
            )
        if isinstance(answer, jsonrpc.Error):
            d = era.decide_initialize_refused(answer) if probed else None
            if d is not None:
                return self.reprobe(d)
            raise ProtocolError(answer.code, f"{c.name} refused initialize: {answer.message}", answer.data)
        r = answer.result
        version = r.get("protocolVersion")
        if not isinstance(version, str):
            raise ProtocolError(
                jsonrpc.INVALID_REQUEST, f"{c.name} answered initialize without a protocolVersion string"
            )
        known = revisions.era_of(version)
        if known == era.Era.MODERN:
            self.step(
                f"the server answered {version}, a modern version, to a handshake; "
                "treating the connection as the legacy session it opened"
            )
        elif known is None:
            self.step(f"the server answered {version}, a version mcp_lab does not know; accepted as asked")
        else:
            self.step(
                f"the server answered protocolVersion {version}"
                + ("" if version == asked else f" (asked {asked}): accept it, the server picks")
            )
        c.notify("notifications/initialized")
        self.step("send notifications/initialized: the legacy session is open; later requests carry no _meta")
        caps = r.get("capabilities") if isinstance(r.get("capabilities"), dict) else {}
        info = r.get("serverInfo") if isinstance(r.get("serverInfo"), dict) else None
        return self.verdict(era.Era.LEGACY, version, caps, info, r.get("instructions"), cached=cached)

    def reprobe(self, d: era.Decision) -> Verdict:
        """initialize was refused by a server naming modern versions: it is modern, probe again."""
        # A modern server slow to start may also have answered the first discover meanwhile.
        for late in self.late:
            if isinstance(late, jsonrpc.Result):
                self.step(
                    "initialize refused, and the late answer to server/discover arrived meanwhile: "
                    "the server is modern after all"
                )
                return self.from_discover_result(late)
        self.steps_of(d)
        if d.next is era.Next.RETRY:
            retry = self.discover(d.retry_at)
            if isinstance(retry, jsonrpc.Result):
                return self.from_discover_result(retry)
            self.step("the second server/discover was not answered with a result either")
        return self.verdict(era.Era.MODERN, None, supported=d.supported)

    def apply_cached(self, hit: Verdict) -> Verdict:
        """A new connection to a server whose era is known: no discover, just what the era needs."""
        self.step(
            f"cached verdict for this server: {hit.era} era, {hit.version or 'no mutual version'}; "
            "no server/discover sent"
        )
        if hit.era == era.Era.LEGACY:
            return self.handshake(revisions.LEGACY_VERSION, probed=False, cached=True)
        return self.verdict(
            hit.era,
            hit.version,
            hit.capabilities,
            hit.server_info,
            hit.instructions,
            hit.supported_versions,
            cached=True,
        )


def _died(client: Client, code: int | None, e: TransportClosed) -> TransportClosed:
    """One line saying the server is gone, with its exit code and the last words on stderr.

    The write of the discover can fail (broken pipe) before the dead process is reaped and its
    stderr drained, so the caller closes the connection first (which waits for both) and passes
    the exit code `close()` returned, rather than trusting the first message."""
    lines = client.transport.stderr_lines
    tail = " | ".join(line for line in lines[-5:] if line.strip())
    msg = (
        f"{client.name}: the server "
        + (f"exited with exit code {code}" if code is not None else "closed its pipes")
        + " before the probe reached a verdict"
        + (f"; its stderr ended with: {tail}" if tail else "; it wrote nothing on stderr")
    )
    return TransportClosed(msg, data={"stderr": list(lines), "cause": e.message})
