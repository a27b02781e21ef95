"""Replay a recording against another server, and say what changed.

    d = mcp_lab.replay("calendar.jsonl", "sdk_calendar")     # a short name, an argv, or a URL
    d.same           # True only if every answer matched (after normalising what varies)
    d                # per exchange: same / changed / missing / extra, with a structural diff

Theory of operation.  The client side of the recording is sent again, in order, exactly as it
was recorded (its `_meta` included: nothing is stamped twice), under new ids.  What the client
could not have known in advance is taken from the new server, never from the recording:

* a retry after `input_required` carries the recorded `inputResponses` (the person's answers)
  but the `requestState` the NEW server issued in its own `input_required` answer.  When the new
  server did not ask (it completed at once), the recorded retry is not sent: it is reported as
  missing, with the reason, because echoing a state the new server never issued would be a lie.
* a value the server minted and the client sent back later as an argument value (a calendar
  handle returned by one tool and passed to the next, a page cursor) is learned from the new
  server's answer at the same place and sent instead (`mcp_lab.session.minted`); the row says
  so.  Nothing else is ever remapped: the method and the tool, prompt or resource a request
  names go out as recorded, whatever the new server's catalog holds.  Every row shows the
  request as it was actually sent; only the comparison reads it in the recording's names.
* a recording made of several processes (an `isolated()` run: process A, B, C) is replayed the
  same way, one fresh connection per recorded process, so a statelessness result stays one.

`era="modern"` or `era="legacy"` first converts the conversation (see `convert`): a legacy
recording loses its handshake (initialize becomes server/discover, notifications/initialized is
dropped) and gains `_meta` on every request; a modern one loses `_meta` and gains the handshake.
The diff then shows exactly what the era change does to the same conversation.

Every wait has a deadline: `timeout` per request, `deadline` for the whole replay.  A server that
dies or stays silent ends the replay there; the diff is returned, partial, with `.error` saying
why and the exchanges that were never sent listed as missing.  Every connection is closed.
"""

from __future__ import annotations

import copy
import os
import time
from dataclasses import dataclass
from typing import Any, Iterable

from mcp_lab.servers.inprocess import NotInBrowser
from mcp_lab.session import cassette as cassettes
from mcp_lab.session.connect import connect
from mcp_lab.session.diff import ExchangeDiff, RpcExchange, TraceDiff, compare, exchanges, pair, rules_for, unmatched
from mcp_lab.session.minted import Minted, candidates
from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.errors import McpError
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.trace import Trace

__all__ = ["replay", "convert", "Step", "recorded_era"]

_META_KEYS = (revisions.PROTOCOL_VERSION_KEY, revisions.CLIENT_CAPABILITIES_KEY, revisions.CLIENT_INFO_KEY)


@dataclass
class Step:
    """One client message to send: from the recording, or made by an era conversion."""

    peer: str
    kind: str  # request | notification | raw
    method: str | None
    params: dict | None
    recorded: RpcExchange | None  # the exchange it stands for (None: added by the conversion)
    why: str | None = None  # what the conversion did to it
    line: str | None = None  # raw text (kind "raw")


def recorded_era(steps: Iterable[RpcExchange]) -> Era | None:
    """The era a conversation was recorded in, read off the client's own messages: a handshake
    anywhere means legacy (a probe's server/discover may come first), else discover or _meta
    means modern."""
    requests = [x for x in steps if x.kind == "request"]
    if any(x.method == "initialize" for x in requests):
        return Era.LEGACY
    for x in requests:
        meta = (x.params or {}).get("_meta")
        if x.method == "server/discover" or isinstance(meta, dict) and revisions.PROTOCOL_VERSION_KEY in meta:
            return Era.MODERN
    return None


def _plain(x: RpcExchange) -> Step:
    if x.kind == "raw":
        return Step(x.peer, "raw", None, None, x, line=x.request_line)
    return Step(x.peer, x.kind, x.method, copy.deepcopy((x.request or {}).get("params")), x)


def convert(
    recorded: list[RpcExchange], to: Era | str | None, *, source: Era | str | None = None
) -> tuple[list[Step], list[str]]:
    """The steps to send for `to` era (an `Era`, its string, or None = as recorded), and notes."""
    client_side = [x for x in recorded if x.kind != "server"]
    source = source or recorded_era(client_side)
    if to is None or to == source:
        return [_plain(x) for x in client_side], []
    if to not in tuple(Era):
        raise ValueError(f"era must be one of {', '.join(repr(e) for e in Era)}, not {to!r}")
    if to == Era.MODERN:
        return _to_modern(client_side)
    return _to_legacy(client_side)


def _to_modern(recorded: list[RpcExchange]) -> tuple[list[Step], list[str]]:
    caps: dict = {}
    info = dict(revisions.DEFAULT_CLIENT_INFO)
    for x in recorded:
        if x.method == "initialize":
            caps = x.params.get("capabilities") or {}
            info = x.params.get("clientInfo") or info
            break
    meta = revisions.meta(revisions.LATEST, caps, info)
    steps: list[Step] = []
    for x in recorded:
        if x.method == "initialize":
            steps.append(
                Step(
                    x.peer,
                    "request",
                    "server/discover",
                    {"_meta": meta},
                    x,
                    "era change: the legacy handshake becomes server/discover, the modern opening",
                )
            )
        elif x.method == "notifications/initialized":
            steps.append(
                Step(
                    x.peer,
                    "notification",
                    None,
                    None,
                    x,
                    "era change: dropped, a modern client sends no notifications/initialized",
                )
            )
        elif x.kind == "request" and revisions.PROTOCOL_VERSION_KEY in (x.params.get("_meta") or {}):
            steps.append(_plain(x))  # already modern (a probe's server/discover): sent as recorded
        elif x.kind == "request":
            p = copy.deepcopy(x.params)
            p["_meta"] = {**meta, **(p.get("_meta") or {})}
            steps.append(Step(x.peer, "request", x.method, p, x, "era change: _meta added"))
        else:
            steps.append(_plain(x))
    notes = [
        f"converted a legacy recording for a modern server: initialize -> server/discover, "
        f"notifications/initialized dropped, _meta of {revisions.LATEST} added to every request"
    ]
    return steps, notes


def _handshake(x: RpcExchange, meta: dict) -> list[Step]:
    """initialize + notifications/initialized for the connection `x` opens (from its _meta)."""
    init = {
        "protocolVersion": revisions.LEGACY_VERSION,
        "capabilities": meta.get(revisions.CLIENT_CAPABILITIES_KEY) or {},
        "clientInfo": meta.get(revisions.CLIENT_INFO_KEY) or dict(revisions.DEFAULT_CLIENT_INFO),
    }
    replaces = x.method == "server/discover"
    why = "era change: " + ("server/discover becomes" if replaces else "added") + " the legacy handshake, initialize"
    done = "era change: added, the legacy handshake ends with this notification"
    return [
        Step(x.peer, "request", "initialize", init, x if replaces else None, why),
        Step(x.peer, "notification", "notifications/initialized", None, None, done),
    ]


def _to_legacy(recorded: list[RpcExchange]) -> tuple[list[Step], list[str]]:
    steps: list[Step] = []
    opened: set[str] = set()
    for x in recorded:
        meta = (x.params or {}).get("_meta") if x.kind == "request" else None
        meta = meta if isinstance(meta, dict) else {}
        if x.peer not in opened and x.kind == "request":
            opened.add(x.peer)
            steps += _handshake(x, meta)
            if x.method == "server/discover":
                continue  # the handshake stands for it
        if x.method == "server/discover":
            why = "era change: dropped, a legacy session was opened by initialize"
            steps.append(Step(x.peer, "notification", None, None, x, why))
        elif x.kind == "request":
            p = copy.deepcopy(x.params)
            rest = {k: v for k, v in meta.items() if k not in _META_KEYS}
            p.pop("_meta", None)
            if rest:
                p["_meta"] = rest
            steps.append(Step(x.peer, "request", x.method, p, x, "era change: _meta removed"))
        else:
            steps.append(_plain(x))
    notes = [
        f"converted a modern recording for a legacy server: initialize ({revisions.LEGACY_VERSION}) and "
        "notifications/initialized on every connection, server/discover dropped, _meta removed"
    ]
    return steps, notes


# -- running ------------------------------------------------------------------------------------
def _open(server: Any, peer: str, many: bool, timeout: float, trace: Trace, headers: dict | None = None):
    if isinstance(server, str) and not server.startswith(("http://", "https://")):
        label = server
    elif isinstance(server, str):
        label = None
    else:
        label = os.path.basename(os.fspath(list(server)[-1])) if server else None
    kw: dict[str, Any] = {"headers": headers} if headers else {}
    return connect(server, timeout=timeout, name=peer if many else label, trace=trace, **kw)


def _source(cassette: Any) -> tuple[cassettes.Cassette, str]:
    if isinstance(cassette, cassettes.Cassette):
        return cassette, cassette.path.name if cassette.path else "recording"
    if isinstance(cassette, Trace):
        return cassettes.Cassette({}, cassette), cassette.title or "recording"
    if isinstance(cassette, (str, os.PathLike)):
        c = cassettes.read(cassette)
        return c, os.path.basename(os.fspath(cassette))
    raise TypeError(f"expected a cassette path, a Cassette or a Trace, not {type(cassette).__name__}")


def replay(
    cassette: Any,
    server: Any,
    *,
    era: Era | str | None = None,
    timeout: float = 5.0,
    deadline: float = 60.0,
    server_version: bool = False,
    ignore: Iterable[str] = (),
    headers: dict[str, str] | None = None,
) -> TraceDiff:
    """Send the recorded client messages to `server` and compare its answers with the recorded ones.

    `cassette` is a path, a `Cassette` or a `Trace`; `server` a short name, an argv list or a URL.
    `era` converts the conversation first ("modern" / "legacy").  `server_version=True` ignores
    serverInfo.version; `ignore` adds paths to ignore, as the diff prints them
    (`"answer.result.instructions"`, `"answer.result.tools[*].description"`, `"**.ttlMs"`).
    `headers` go with every HTTP request (credentials).
    """
    if timeout <= 0 or deadline <= 0:
        raise ValueError("timeout and deadline must be positive numbers of seconds")
    c, name = _source(cassette)
    recorded = exchanges(c.trace)
    steps, notes = convert(recorded, era, source=c.era)
    rules = rules_for(server_version=server_version, ignore=ignore)
    run = _ReplayRun(
        server,
        steps,
        timeout,
        time.monotonic() + deadline,
        legacy=(era or c.era or recorded_era(recorded)) == Era.LEGACY,
    )
    run.headers = headers
    try:
        run.all()
    finally:
        run.close()
    label = (
        server
        if isinstance(server, str)
        else " ".join(a for a in (os.path.basename(os.fspath(x)) for x in server) if a != "-m")
    )
    result = TraceDiff(run.items(rules), name, label, rules, run.error, notes, run.trace)
    result.unreached = run.error is not None and not any(new is not None for _, new, _ in run.sent)
    result.exception = run.exception
    result.warnings = unmatched(result.items, ignore)
    # Messages the servers sent unasked (notifications, legacy server requests), aligned apart.
    result.items += compare(
        [x for x in recorded if x.kind == "server"], [x for x in exchanges(run.trace) if x.kind == "server"], rules
    )
    return result


def _sent_line(trace: Trace, peer: str, rid: Any) -> str | None:
    """The exact line the client wrote for request `rid` (the Trace's own record of it)."""
    for e in reversed(list(trace)):
        if e.kind == "send" and e.peer == peer and isinstance(e.message, jsonrpc.Request) and e.message.id == rid:
            return e.line
    return None


class _ReplayRun:
    """One replay: its connections (one per recorded process), its shared Trace, its deadline."""

    def __init__(self, server: Any, steps: list[Step], timeout: float, end: float, legacy: bool):
        self.server, self.steps, self.timeout, self.end, self.legacy = server, steps, timeout, end, legacy
        self.many = len({s.peer for s in steps}) > 1
        self.clients: dict[str, Any] = {}
        self.trace = Trace(title=None)
        self.states: dict[str, str] = {}  # recorded requestState -> the new server's
        self.sent: list[tuple[Step, RpcExchange | None, str | None]] = []
        self.error: str | None = None
        self.headers: dict | None = None
        self.exception: BaseException | None = None
        self.minted = Minted(candidates(steps))  # handles the server made up, learned anew

    def client(self, peer: str):
        if peer not in self.clients:
            c = _open(self.server, peer, self.many, self.timeout, self.trace, self.headers)  # one lifeline per process
            if self.legacy:
                c.adopt_era(Era.LEGACY)
            self.clients[peer] = c
            if self.trace.title is None:
                self.trace.title = f"replay -> {c.name}"
        return self.clients[peer]

    def all(self) -> None:
        for n, step in enumerate(self.steps):
            if step.method is None and step.kind != "raw":
                self.sent.append((step, None, step.why))  # dropped by the era conversion
                continue
            remaining = self.end - time.monotonic()
            if remaining <= 0:
                self.error = "the replay's deadline passed"
                break
            try:
                self.sent.append(self.one(step, min(self.timeout, remaining)))
            except NotInBrowser:
                raise  # the browser edition: its one line where the learner meets it, not a half-empty diff
            except (McpError, OSError) as e:
                self.exception = e
                msg = getattr(e, "message", None) or str(e)
                self.error = f"{step.method or 'raw text'}: {' '.join(msg.split())}"
                self.sent.append((step, None, f"no answer: {self.error}"))
                n += 1
                break
        else:
            return
        for step in self.steps[n:]:
            self.sent.append((step, None, "not sent: the replay stopped before it"))

    def one(self, step: Step, timeout: float) -> tuple[Step, RpcExchange | None, str | None]:
        c = self.client(step.peer)
        if step.kind == "raw":
            got = c.send_raw(step.line, timeout=timeout)
            answer = next((m for m in got if isinstance(m, (jsonrpc.Result, jsonrpc.Error))), None)
            return step, RpcExchange("raw", c.name, None, answer.to_dict() if answer else None, step.line), step.why
        method = step.method
        if method is None:  # only a raw step goes without one (see convert)
            raise ValueError(f"a {step.kind} step names no method")
        if step.kind == "notification":
            c.notify(method, step.params)
            return (
                step,
                RpcExchange("notification", c.name, jsonrpc.Notification(method, step.params).to_dict()),
                step.why,
            )
        params = step.params
        if isinstance(params, dict) and "requestState" in params:
            new = self.states.get(params["requestState"])
            if new is None:
                return (
                    step,
                    None,
                    (
                        "not sent: the recording echoes a requestState here, and the new server "
                        "issued none to echo (it did not answer input_required before)"
                    ),
                )
            params = {**params, "requestState": new}
        notes = [step.why] if step.why else []
        stale = self.minted.unlearned(params)
        if stale:
            notes.append(f"sent the recorded {', '.join(stale)} as is: the new server minted no replacement")
        swapped = self.minted.substituted(params)
        if swapped:
            notes.append(
                "sent "
                + ", ".join(f"{new} for the recorded {old}" for old, new in swapped)
                + " (minted by the new server)"
            )
        params = self.minted.forward(params)
        rid = c.new_id()
        answer = c.request(method, params, meta=False, id=rid, timeout=timeout)
        self._learn_state(step, answer)
        old = (step.recorded.answer or {}).get("result") if step.recorded else None
        # The row keeps what was sent and what came back, byte for byte; the comparison alone
        # reads them in the recording's names, so a handle drawn anew is not a difference.
        req = jsonrpc.Request(rid, method, params).to_dict()
        sent = RpcExchange("request", c.name, req, answer.to_dict(), request_line=_sent_line(self.trace, c.name, rid))
        if isinstance(answer, jsonrpc.Result):
            self.minted.learn(old, answer.result)
        sent.compared_as = RpcExchange("request", c.name, self.minted.back(req), self.minted.back(answer.to_dict()))
        return step, sent, "; ".join(notes) or None

    def _learn_state(self, step: Step, answer: Any) -> None:
        old = (step.recorded.answer or {}).get("result") if step.recorded else None
        if isinstance(answer, jsonrpc.Result) and isinstance(old, dict):
            if isinstance(old.get("requestState"), str) and isinstance(answer.result.get("requestState"), str):
                self.states[old["requestState"]] = answer.result["requestState"]

    def items(self, rules: tuple) -> list[ExchangeDiff]:
        out = []
        for step, new, why in self.sent:
            if step.recorded is None and new is None:
                continue
            out.append(pair(step.recorded, new, rules, why))
        return out

    def close(self) -> None:
        for c in self.clients.values():
            try:
                c.close()
            except Exception:  # closing is best effort; the transport reaps its process group
                pass
