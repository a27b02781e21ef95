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

The verdict is a property of the server, so it is cached per server (short name or argv) for
the life of the process, as the spec recommends; `refresh=True` probes again.  The Verdict
keeps the open Client: after a legacy fallback the connection *is* the session the
handshake opened, and the notebook continues on it (`v.client.request("tools/list")`).  The
caller closes it: `v.close()`, or `with probe(...) as v:`.
"""

from __future__ import annotations

import html
import json
import time
from dataclasses import dataclass, field
from typing import Any

from mcp_lab.session.client import Client
from mcp_lab.wire import era, jsonrpc, revisions
from mcp_lab.wire.era import Era
from mcp_lab.wire.errors import DeadlineExceeded, HttpError, McpError, ProtocolError, TransportClosed
from mcp_lab.wire.trace import Trace
from mcp_lab.wire.words import _, ngettext

__all__ = ["probe", "Verdict", "forget", "cached"]

DEFAULT_TIMEOUT = 3.0

_CACHE: dict[Any, "Verdict"] = {}


@dataclass(frozen=True, eq=False)
class Verdict:
    """What a probe concluded about one server, how it got there, and the open connection."""

    server: str  # the label of the server (short name or argv[-1])
    era: str | None  # "modern" | "legacy"
    version: str | None  # the negotiated version; None when none is mutual
    capabilities: dict  # the server's declared capabilities
    server_info: dict | None  # name / title / version, as the server states it
    instructions: str | None  # natural-language guidance for the model, if any
    supported_versions: tuple = ()  # modern: the DiscoverResult's list; -32022: data.supported
    steps: tuple = ()  # the reasoning, one short sentence per step
    elapsed_ms: float = 0.0  # wall time of the probe (spawn not included)
    cached: bool = False  # True when the era came from the cache, not a fresh probe
    trace: Trace | None = field(default=None, repr=False)
    client: Client | None = field(default=None, repr=False)

    # -- the connection ---------------------------------------------------------------
    def close(self) -> int | None:
        """Close the connection the probe left open (the caller's job)."""
        return self.client.close() if self.client is not None else None

    def finish(self) -> None:
        """End the conversation and read the server's stdout to its end (`Client.finish`), so a
        line a buffered server flushes only at exit is recorded and judged; no request follows."""
        if self.client is not None:
            self.client.finish()

    def __enter__(self) -> "Verdict":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def ok(self) -> bool:
        """True when the client can go on talking to this server (an era and a version)."""
        return self.era is not None and self.version is not None

    def findings(self, *, require: str | None = None) -> list[dict]:
        """What this probe found wrong, as plain data (`probe --json` and its exit status 1): each
        stdout line that was not an MCP message (a framing violation), no mutual version, no
        verdict at all, and `require` (a revision) not being the one negotiated."""
        out: list[dict] = []
        for e in self.trace or ():
            if e.kind == "noise":
                out.append(
                    {
                        "kind": "framing",
                        "message": e.note or "a stdout line that is not an MCP message",
                        "line": e.line,
                        "t": round(e.t, 6),
                        "spec": "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#receiving-messages",
                    }
                )
        if self.era is None:
            out.append({"kind": "no-verdict", "message": "the probe reached no era (see its steps)"})
        elif self.version is None:
            listed = ", ".join(self.supported_versions) or "none"
            out.append({"kind": "no-mutual-version", "message": f"no version is mutual (the server lists {listed})"})
        if require is not None and self.version != require:
            out.append(
                {
                    "kind": "require",
                    "message": f"--require {require}: the negotiated version is {self.version or 'none'}",
                }
            )
        return out

    # -- renderers --------------------------------------------------------------------
    def headline(self) -> str:
        version = self.version or "no mutual version"
        who = _identity(self.server_info)
        return (
            f"{self.server}: {self.era or 'unknown'} era, {version}"
            + (f" -- {who}" if who else "")
            + (" (cached verdict)" if self.cached else "")
        )

    def to_dict(self) -> dict:
        return {
            "server": self.server,
            "era": self.era,
            "version": self.version,
            "supported_versions": list(self.supported_versions),
            "capabilities": self.capabilities,
            "server_info": self.server_info,
            "instructions": self.instructions,
            "steps": list(self.steps),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "cached": self.cached,
            "findings": self.findings(),
            "trace": self.trace.to_json() if self.trace is not None else [],
        }

    def text(self, width: int | None = 160, *, trace: bool = True) -> str:
        out = [
            f"verdict  {self.headline()}",
            f"probe    {self.elapsed_ms:.0f} ms",
            f"caps     {', '.join(self.capabilities) or '(none)'}",
        ]
        if self.instructions:
            first = self.instructions.strip().splitlines()[0] if self.instructions.strip() else ""
            out.append(f"instr    {first[:100]}{'…' if len(first) > 100 else ''} ({len(self.instructions)} chars)")
        out.append("steps")
        out += [f"  {i}. {s}" for i, s in enumerate(self.steps, 1)]
        if trace and self.trace is not None:
            out += ["trace", self.trace.text(width=width)]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        colour = {"modern": "#1e8e3e", "legacy": "#b06000"}.get(self.era or "", "#c5221f")
        era = html.escape(self.era or _("unknown"))
        badge = f"<span style='background:{colour};color:#fff;padding:1px 6px;border-radius:3px'>{era}</span>"
        caps = html.escape(json.dumps(self.capabilities, ensure_ascii=False))
        cached = " " + _("(cached verdict)") if self.cached else ""
        rows = [
            (_("era"), badge),
            (_("version"), html.escape(self.version or _("none mutual"))),
            (_("server"), html.escape(_identity(self.server_info) or _("(not stated)"))),
            (_("capabilities"), f"<code>{caps}</code>"),
            (_("probe time"), f"{self.elapsed_ms:.0f} ms" + cached),
        ]
        if self.supported_versions:
            rows.insert(2, (_("supported"), html.escape(", ".join(self.supported_versions))))
        if self.instructions:
            size = ngettext("{n} character", "{n} characters", len(self.instructions)).format(n=len(self.instructions))
            rows.append(
                (
                    _("instructions"),
                    f"<details><summary>{size}</summary><pre style='white-space:pre-wrap'>"
                    f"{html.escape(self.instructions)}</pre></details>",
                )
            )
        table = "".join(
            f"<tr><th style='text-align:left'>{k}</th><td style='text-align:left'>{v}</td></tr>" for k, v in rows
        )
        steps = "".join(f"<li>{html.escape(s)}</li>" for s in self.steps)
        trace = (
            "<details><summary>{}</summary>".format(_("trace: every line")) + self.trace._repr_html_() + "</details>"
            if self.trace is not None
            else ""
        )
        return f"<div><b>probe {html.escape(self.server)}</b><table>{table}</table><ol>{steps}</ol>{trace}</div>"


def _identity(info: dict | None) -> str:
    if not isinstance(info, dict):
        return ""
    name = info.get("name", "?")
    title = f' "{info["title"]}"' if info.get("title") else ""
    version = f" {info['version']}" if info.get("version") else ""
    return f"{name}{title}{version}"


# -- the cache ------------------------------------------------------------------------------
def _key(server) -> Any:
    if isinstance(server, Client):
        # A process is known by its argv, an HTTP server by its URL; an in-memory server by
        # its handler object (one per transport, so nothing is shared by accident).
        t = server.transport
        argv = getattr(t, "argv", None)
        if argv is not None:
            return tuple(argv)
        return getattr(t, "url", None) or ("memory", id(t))
    if isinstance(server, str):
        return server
    return tuple(server)


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

    Raises `TransportClosed` (with the server's stderr) when the server cannot start or dies,
    and `DeadlineExceeded` when it answers neither `server/discover` nor `initialize`.
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
        if own:
            client.close()
        if isinstance(e, TransportClosed) and not isinstance(e, HttpError):
            raise _died(client, e) from None
        raise
    except BaseException:
        if own:
            client.close()
        raise
    _CACHE[key] = verdict
    return verdict


class _Reasoning:
    """What every probe keeps, whatever the transport: its steps (also notes in the Trace)
    and the verdict built from them.  The stdio and HTTP probes differ only in how they ask."""

    def __init__(self, client: Client, timeout: float):
        self.c = client
        self.timeout = timeout
        self.steps: list[str] = []
        self.t0 = time.monotonic()

    def step(self, text: str) -> None:
        self.steps.append(text)
        self.c.trace.note(text, peer=self.c.name)

    def discovered(self, d: era.Decision, answer) -> "Verdict":
        """A modern verdict from a discover's answer; what a DiscoverResult says is kept even when
        no version is mutual (`d.version` None), so the learner sees who refused to share one."""
        r = answer.result if isinstance(answer, jsonrpc.Result) and isinstance(answer.result, dict) else {}
        raw_meta = r.get("_meta")
        meta: dict = raw_meta if isinstance(raw_meta, dict) else {}
        info = meta.get(revisions.SERVER_INFO_KEY)
        caps = r.get("capabilities") if isinstance(r.get("capabilities"), dict) else None
        instructions = r.get("instructions") if isinstance(r.get("instructions"), str) else None
        return self.verdict(
            "modern", d.version, caps, info if isinstance(info, dict) else None, instructions, d.supported
        )

    def verdict(self, era, version, caps=None, info=None, instructions=None, supported=(), cached=False):
        era = None if era is None else Era(era)  # checked here, once: a typo is a ValueError
        self.c.era = era
        if version is not None:
            self.c.protocol_version = version
        return Verdict(
            server=self.c.name,
            era=era,
            version=version,
            capabilities=dict(caps or {}),
            server_info=info,
            instructions=instructions,
            supported_versions=tuple(supported),
            steps=tuple(self.steps),
            elapsed_ms=(time.monotonic() - self.t0) * 1000.0,
            cached=cached,
            trace=self.c.trace,
            client=self.c,
        )


class _Run(_Reasoning):
    """One stdio probe on one connection: the waits, each with its deadline."""

    def __init__(self, client: Client, timeout: float, legacy_caps: dict):
        super().__init__(client, timeout)
        self.legacy_caps = legacy_caps
        self.late: list = []  # answers to an earlier id that arrived while waiting for a later one

    # -- one request, one answer, a deadline ---------------------------------------------
    def exchange(self, method: str, params: dict | None, timeout: float | None = None):
        """Send a request; return its answer, or None when the deadline passes first."""
        c = self.c
        rid = c.new_id()
        msg = jsonrpc.Request(id=rid, method=method, params=params)
        c.pending.add(rid)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        try:
            c.send_message(jsonrpc.encode(msg), msg)
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                try:
                    ev = c.read_event(remaining)
                except DeadlineExceeded:
                    return None
                if ev.kind == "noise":
                    shown = ev.line if len(ev.line) <= 60 else ev.line[:59] + "…"
                    self.step(f"ignored a stdout line that is not JSON-RPC (a framing violation): {shown!r}")
                    continue
                m = ev.message
                if isinstance(m, (jsonrpc.Result, jsonrpc.Error)):
                    if m.id == rid:
                        return m
                    if isinstance(m, jsonrpc.Error) and m.id is None:
                        return m  # the server could not read our id; the error is about our line
                    self.late.append(m)
                # Server notifications and server requests are recorded in the trace and
                # otherwise ignored: no era is settled yet, so there is nothing to answer with.
        finally:
            c.pending.resolve(rid)

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
            return self.verdict("modern", asked)
        return self.handshake(revisions.LEGACY, probed=True)

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
        if known == "modern":
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
        return self.verdict("legacy", version, caps, info, r.get("instructions"), cached=cached)

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
        return self.verdict("modern", None, supported=d.supported)

    def apply_cached(self, hit: Verdict) -> Verdict:
        """A new connection to a server whose era is known: no discover, just what the era needs."""
        self.step(
            f"cached verdict for this server: {hit.era} era, {hit.version or 'no mutual version'}; "
            "no server/discover sent"
        )
        if hit.era == "legacy":
            return self.handshake(revisions.LEGACY, probed=False, cached=True)
        return self.verdict(
            hit.era,
            hit.version,
            hit.capabilities,
            hit.server_info,
            hit.instructions,
            hit.supported_versions,
            cached=True,
        )


def _died(client: Client, e: TransportClosed) -> TransportClosed:
    """One line saying the server is gone, with its exit code and the last words on stderr.

    The write of the discover can fail (broken pipe) before the dead process is reaped and its
    stderr drained, so wait for both here rather than trusting the first message."""
    t = client.transport
    t.settle()
    code = t.returncode
    tail = " | ".join(line for line in t.stderr_tail() if line.strip())
    msg = (
        f"{client.name}: the server "
        + (f"exited with exit code {code}" if code is not None else "closed its pipes")
        + " before the probe reached a verdict"
        + (f"; its stderr ended with: {tail}" if tail else "; it wrote nothing on stderr")
    )
    return TransportClosed(msg, data={"stderr": list(t.stderr_lines), "cause": e.message})
