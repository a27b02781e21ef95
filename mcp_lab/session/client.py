"""The client: requests in, exact lines out, and a Trace of everything that crossed.

The client is deliberately thin.  It frames messages with `jsonrpc`, stamps the `_meta` of
the current revision on each request (the stateless revision's replacement for a
handshake), hands lines to a transport, and reads lines back until the answer with the
request's id arrives or the deadline passes.  Anything else that arrives meanwhile is kept,
not dropped: notifications, answers to other ids, and stdout lines that are not JSON-RPC at
all (recorded as `noise`, the visible form of a framing violation).

A learner can bypass every convenience: `meta=False` sends params without `_meta` (to see a
modern server refuse it with -32602) and `send_raw` writes text byte-exact.
"""

from __future__ import annotations

import itertools
import time
from typing import Any, Callable

from mcp_lab.session.http_headers import HttpSessionState
from mcp_lab.transport.base import Transport
from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.errors import ConnectionClosed, TransportClosed
from mcp_lab.wire.jsonrpc import DeadlineExceeded, ProtocolError, Request
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.trace import Trace
from mcp_lab.wire.words import N_, _

__all__ = ["Client", "DEFAULT_CAPABILITIES"]

# What a bare Client can honour: nothing.  Its `request()` returns an `input_required` answer to
# the caller and nobody is there to fill in a form, so declaring elicitation would invite the
# server to ask a question no one will see.  The contexts that CAN answer declare it on their own
# requests: `mrtr.call(...)` with an answer callback, the notebook's `mrtr.interactive` form.  A
# caller who knows better passes `capabilities=` to `connect()`, for every request.
# https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#capabilities
DEFAULT_CAPABILITIES: dict = {}
# How long `finish()` reads a stdio server's stdout after closing its stdin, waiting for EOF (a
# server SHOULD exit when its stdin closes; one that does not is then stopped by signals).
FINISH_TIMEOUT = 2.0
# How many of the server's last stderr lines a deadline's message quotes.
STDERR_TAIL = 5


class Client:
    """One connection to one server.  Use `mcp_lab.connect(...)` to make one."""

    def __init__(
        self,
        transport: Transport,
        *,
        name: str = "server",
        capabilities: dict | None = None,
        client_info: dict | None = None,
        protocol_version: str = revisions.LATEST,
        timeout: float = 5.0,
        trace: Trace | None = None,
        deliberate: str | None = None,
        start_timeout: float | None = None,
        http_state: HttpSessionState | None = None,
    ):
        self.transport = transport
        # Why this connection breaks the protocol on purpose (a misbehaving server a lesson or a
        # test exists to show): every message it records carries the reason, so a schema check
        # counts them apart.  None for an ordinary connection.
        self.deliberate = deliberate
        self.name = name
        self.capabilities = dict(DEFAULT_CAPABILITIES if capabilities is None else capabilities)
        self.client_info = dict(revisions.DEFAULT_CLIENT_INFO if client_info is None else client_info)
        self.protocol_version = protocol_version
        self.timeout = timeout
        # None until someone (the probe, or the learner) decides; LEGACY turns auto-_meta off.
        self._era: Era | None = None
        # The caller may own the record (one Trace for several connections, as isolated() does).
        self.trace = trace if trace is not None else Trace(title=f"mcp_lab <-> {name}")
        self.pending = jsonrpc.PendingIds()
        self.abandoned: set = set()  # ids given up on after a deadline, still pending
        self._ids = itertools.count(1)
        self.closed = False
        self._finished = False  # finish() ran: stdin is closed, stdout was read to its end
        # The start-up allowance (connect(start_timeout=)): until the server's first line arrives,
        # a request may wait until `start_until` (monotonic), and running out says "start-up".
        self.start_timeout = start_timeout
        self.start_until = None if start_timeout is None else time.monotonic() + max(start_timeout, timeout)
        self._heard = False
        transport.on_stderr = lambda line: self.trace.add("stderr", line, peer=self.name)
        # Session knowledge for Streamable HTTP (_meta -> headers, learnt x-mcp-header arguments,
        # the legacy version): connect_http gives the same object to the transport's hooks.
        self.http_state = http_state if http_state is not None else HttpSessionState()

    # -- the public verbs -----------------------------------------------------------------
    def request(
        self,
        method: str,
        params: dict | None = None,
        *,
        meta: bool = True,
        id: str | int | None = None,
        timeout: float | None = None,
    ) -> jsonrpc.Result | jsonrpc.Error:
        """Send one request and return its answer (a Result or an Error message)."""
        self._check_open()
        rid = self.new_id() if id is None else id
        if meta and self.era != Era.LEGACY:
            params = dict(params or {})
            given = params.get("_meta") or {}
            params["_meta"] = {**self.meta(), **given}
        msg = Request(id=rid, method=method, params=params)
        deadline = self.timeout if timeout is None else timeout
        why = None
        if not meta and self.era != Era.LEGACY:
            why = "request(meta=False): a modern request without _meta, on purpose"
        self.pending.add(rid)
        try:
            self.send_message(jsonrpc.encode(msg), msg, deadline, deliberate=why)
            # The start-up allowance is for the connection's default deadline; a deadline the
            # caller gives this request is the one it means.
            answer = self.wait_for_answer(rid, deadline, method=method, may_start=timeout is None)
        except DeadlineExceeded:
            # The request is still out there: its id stays pending (reusing it is refused),
            # and an answer that arrives later is recorded as late, never matched to another.
            self.abandoned.add(rid)
            raise
        except BaseException:
            self.pending.resolve(rid)
            raise
        self.pending.resolve(rid)
        return answer

    def notify(self, method: str, params: dict | None = None) -> None:
        """Send a notification: no id, and the server must never answer it."""
        self._check_open()
        msg = jsonrpc.Notification(method=method, params=params)
        self.send_message(jsonrpc.encode(msg), msg)

    def send_raw(
        self, text: str, *, timeout: float | None = None, quiet: float = 0.5, stop_after: int | None = None
    ) -> list:
        """Write the learner's exact text and collect what comes back.

        A newline is appended only when the text does not already end with one (the framing
        delimiter); nothing else is changed, so an embedded newline really splits the message.
        Each line that is a request with a readable id is waited for, up to `timeout`; when no
        answer can be expected (a notification, or text the server cannot parse) the client
        listens for `quiet` seconds and returns whatever arrived, possibly nothing.
        `stop_after=N` returns as soon as N messages have come back: for a request whose answer
        is a stream that stays open (`subscriptions/listen`), keep its first message without
        waiting out the deadline.
        """
        self._check_open()
        wire = text if text.endswith("\n") else text + "\n"
        expected: set = set()
        unknown = 0
        for part in wire.split("\n")[:-1]:
            try:
                m = jsonrpc.parse(part)
            except ProtocolError as e:
                if e.id is not None:
                    expected.add(e.id)
                else:
                    unknown += 1
                continue
            if isinstance(m, Request):
                expected.add(m.id)
        try:
            parsed = jsonrpc.parse(wire[:-1]) if wire.count("\n") == 1 else None
        except ProtocolError:
            parsed = None
        self.trace.add(
            "send",
            wire[:-1],
            parsed,
            peer=self.name,
            note=None if wire.count("\n") == 1 else f"raw text holding {wire.count(chr(10))} lines",
            deliberate=self.deliberate or "send_raw: the exact text given, sent as typed",
        )
        self.transport.send_line(wire[:-1], self.timeout if timeout is None else timeout, verbatim=True)
        got: list = []
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        if not expected:
            deadline = min(deadline, time.monotonic() + quiet)
        while time.monotonic() < deadline and (expected or not got or unknown):
            try:
                ev = self.read_event(deadline - time.monotonic())
            except DeadlineExceeded:
                break
            got.append(ev.message if ev.message is not None else ev.line)
            mid = getattr(ev.message, "id", "\0none")
            if mid in expected:
                expected.discard(mid)
            elif isinstance(ev.message, jsonrpc.Error) and mid is None and unknown:
                unknown -= 1
            if (not expected and not unknown) or (stop_after is not None and len(got) >= stop_after):
                break
        return got

    @property
    def era(self) -> Era | None:
        """The connection's era, None until someone (the probe, or the learner) decides."""
        return self._era

    @era.setter
    def era(self, value: Era | str | None) -> None:
        # A learner may type the string ("legacy"); a typo is refused here, not ignored later.
        self._era = None if value is None else Era(value)

    def adopt_era(self, era: str | Era | None, version: str | None = None) -> None:
        """Talk in `era` from now on ("modern", "legacy", or None: undecided), at `version` when
        one is given: what a probe concluded, or a replay knows.  A legacy era turns the
        automatic `_meta` off.  An era that is not one is a ValueError, here, not later."""
        self.era = None if era is None else Era(era)
        if version is not None:
            self.protocol_version = version

    def meta(self) -> dict:
        """The `_meta` this client stamps on a modern request."""
        return revisions.meta(self.protocol_version, self.capabilities, self.client_info)

    def new_id(self) -> int:
        """The next integer id not yet seen on the wire in this trace, either way (ids the
        learner typed by hand with `send_raw` included): one id, one exchange, in a trace."""
        seen = self.trace.ids_seen()
        rid = next(self._ids)
        while rid in seen:
            rid = next(self._ids)
        return rid

    @property
    def stderr(self) -> list[str]:
        return self.transport.stderr_lines

    def wait_for_stderr(self, text: str, timeout: float = 5.0) -> str | None:
        """The first stderr line containing `text`, waiting at most `timeout` s (None if none).

        stderr is a second pipe: a server's log line may land a moment after its answer."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            found = next((line for line in self.stderr if text in line), None)
            if found is not None or time.monotonic() >= deadline:
                return found
            time.sleep(0.05)

    def finish(self, timeout: float = FINISH_TIMEOUT) -> None:
        """End the conversation and read what the server still writes, to its end.

        For stdio: close stdin, then read stdout until EOF (at most `timeout` seconds) and
        record every line, as a message or as `noise`.  A server whose stdout is block-buffered
        on a pipe (Python without PYTHONUNBUFFERED) flushes a stray start-up `print()` only when
        it exits; read here, it is judged like any other line.  No request can follow.
        Idempotent; `close()` calls it."""
        if self.closed or self._finished:
            return
        self._finished = True
        try:
            if not self.transport.end_input():
                return
        except OSError:
            return
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                self.read_event(remaining)
            except (DeadlineExceeded, TransportClosed, ConnectionClosed, OSError):
                return

    def close(self) -> int | None:
        """Close the connection (for stdio: close stdin, read stdout to its end, then reap the
        process). Idempotent."""
        self.finish()
        self.closed = True
        return self.transport.close()

    def _check_open(self) -> None:
        if self.closed:
            raise ConnectionClosed()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<mcp_lab.Client {self.name!r} pid={self.transport.describe().pid} era={self.era}>"

    # -- the two halves of an exchange, for drivers that build their own requests (the probes) --
    def send_message(
        self, line: str, msg: Any = None, timeout: float | None = None, *, deliberate: str | None = None
    ) -> None:
        """Record and write one encoded message line (`msg` is its parsed form, for the Trace);
        `deliberate` says why the line breaks the protocol on purpose, when it does."""
        self._check_open()
        self.trace.add("send", line, msg, peer=self.name, deliberate=deliberate or self.deliberate)
        self.transport.send_line(line, self.timeout if timeout is None else timeout)

    def read_event(self, timeout: float):
        """Read one line from the server and record it: a message (`recv`) or `noise`.

        Returns the recorded `Event`; raises `DeadlineExceeded` after `timeout` seconds of
        silence and `TransportClosed` when the server is gone."""
        self._check_open()
        at, line = self.transport.read_line(timeout)
        self._heard = True
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            # The transport kept undecodable bytes as surrogates; show them replaced, and say so.
            shown = line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            return self.trace.add(
                "noise",
                shown,
                None,
                peer=self.name,
                at=at,
                note="framing violation: the line is not valid UTF-8 (MCP messages are UTF-8)",
                deliberate=self.deliberate,
            )
        try:
            msg = jsonrpc.parse(line)
        except ProtocolError as e:
            return self.trace.add(
                "noise",
                line,
                None,
                peer=self.name,
                at=at,
                note=f"framing violation: stdout must carry only MCP messages ({e.message})",
                deliberate=self.deliberate,
            )
        note = None
        mid = getattr(msg, "id", None)
        legacy = self.era == Era.LEGACY or self.trace.is_legacy_answer(self.name, mid)
        if isinstance(msg, (jsonrpc.Result, jsonrpc.Error)) and mid in self.abandoned:
            self.abandoned.discard(mid)
            self.pending.resolve(mid)
            note = N_("a late answer to a request this client gave up on after its deadline")
        elif isinstance(msg, jsonrpc.Result) and not legacy:
            rt = msg.result.get("resultType")
            if rt is None:
                note = (
                    "no resultType: a 2026-07-28 result must carry one "
                    "(only a legacy-era result may omit it, meaning complete)"
                )
            elif rt not in ("complete", "input_required"):
                note = f"unknown resultType {rt!r}: a client must treat it as invalid"
        return self.trace.add(
            "recv",
            line,
            msg,
            peer=self.name,
            at=at,
            note=note,
            era=Era.LEGACY if legacy else None,
            deliberate=self.deliberate,
        )

    def wait_for_answer(
        self,
        rid,
        timeout: float,
        *,
        method: str,
        may_start: bool = True,
        on_other: Callable[[Any], object] | None = None,
        unidentified_is_ours: bool = False,
    ) -> jsonrpc.Result | jsonrpc.Error:
        """Read and record lines until the answer with id `rid` arrives; the one wait loop of the
        session layer (`request` and the probes use it).

        Raises `DeadlineExceeded` after `timeout` seconds, or, while the server has said nothing
        yet and `may_start`, after the start-up allowance (connect(start_timeout=)) when that is
        longer.  `on_other(event)` sees every other line recorded meanwhile (noise, notifications,
        answers to other ids).  `unidentified_is_ours`: an error whose id is null answers the
        line just sent (the server could not read its id), as the probe reads it."""
        deadline = time.monotonic() + timeout
        start_until = self.start_until
        starting = False
        if may_start and not self._heard and start_until is not None and start_until > deadline:
            deadline, starting = start_until, True
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                tail = " | ".join(self.transport.stderr_lines[-STDERR_TAIL:])
                if starting and not self._heard:
                    raise DeadlineExceeded(
                        _(
                            "the server did not start: no answer to its first request ({method}) within the "
                            "start-up deadline of {seconds} s (connect(start_timeout=...))"
                        ).format(method=method, seconds=f"{self.start_timeout:g}")
                        + (
                            _("; its stderr ended with: {tail}").format(tail=tail)
                            if tail
                            else _("; it wrote nothing on stderr")
                        )
                    )
                raise DeadlineExceeded(
                    _("no answer to {method} (id {id}) within {seconds} s").format(
                        method=method, id=repr(rid), seconds=f"{timeout:g}"
                    )
                    + (_("; the server's stderr ended with: {tail}").format(tail=tail) if tail else "")
                )
            try:
                ev = self.read_event(remaining)
            except DeadlineExceeded:
                continue
            m = ev.message
            if isinstance(m, (jsonrpc.Result, jsonrpc.Error)):
                if m.id == rid or (unidentified_is_ours and isinstance(m, jsonrpc.Error) and m.id is None):
                    return m
            if on_other is not None:
                on_other(ev)
