"""The check of lab 10 (fix the calendar): does a calendar server survive one process per message?

    from mcp_lab.course.check_calendar import check
    check("10-fix-the-calendar/calendar_server.py")     # raises CheckFailed, or returns a report

Theory of operation.  Every message goes to a fresh process of the learner's server (through
`mcp_lab.isolated`), with CALENDAR_DB pointing into a private temporary folder, so the only
way a write can reach a later process is through that file, and the only way a continuation
can reach a later process is inside the message.  The expectations, in order:

1. the server starts and answers tools/list, and prints nothing but MCP on stdout; its plumbing
   answers server/discover, tools/list, an unknown protocol version and a line that is not JSON
   in the shapes the 2026-07-28 schema gives them (`mcp_lab.course.plumbing`), and every answer
   the check receives afterwards is judged by that schema too;
2. A/B/C as in the chapter: A `create_event` without a start time -> input_required with a
   requestState; B, a new process, retries with the answer -> complete; C, a new process,
   lists the events -> the event B created is there, exactly once;
3. the handle: `create_calendar` returns an unguessable handle (two calls, two different
   strings of at least 20 characters), which every later call passes as `calendar`;
4. a requestState that was changed (forged content, or one character flipped) is refused
   with -32602 instead of creating an event;
5. a made-up handle gives a tool execution error (isError), not a protocol error or a crash;
6. a handle is a name, not a permission: every process runs for a caller named by the host in
   MCP_LAB_CALLER ("alice" here), and a process started for another caller ("mallory") that
   presents alice's valid handle is refused with a tool execution error, for reading and writing.

A server without `create_calendar` (the untouched template) is run through the chapter's
handle-less A/B/C first, so the first failure a learner sees is the lesson itself: the write
made in process B is gone.  The first unmet expectation raises `CheckFailed`, whose message
is one paragraph: which process, what it answered, why that is wrong, what to change.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from mcp_lab.course import plumbing
from mcp_lab.course._check import CheckFailed, CheckReport
from mcp_lab.session.isolate import Isolation, Row, flip_one_character, isolated
from mcp_lab.session.mrtr import answering
from mcp_lab.wire.words import N_, _, ngettext

__all__ = ["CheckFailed", "CheckReport", "check", "ANSWER", "START", "OWNER", "INTRUDER"]

START = "2026-09-10T08:30:00Z"
ANSWER = {"action": "accept", "content": {"startsAt": START}}
CALLER_ENV = "MCP_LAB_CALLER"  # the identity the host gives a stdio process (see the lab's caller())
OWNER, INTRUDER = "alice", "mallory"
LOST_WRITE_FIX = N_(
    "events live in the process (a module-level list), so every fresh process starts from "
    "the seed again; keep calendars and events in the SQLite file named by $CALENDAR_DB, "
    "under a handle returned by create_calendar (TODO 1-3)"
)


def _process(name: str) -> str:
    """A process's label as the learner reads it ("process B")."""
    return _("process {name}").format(name=name)


def _argv(server: str | Path | Sequence[str]) -> list[str]:
    if isinstance(server, (str, Path)):
        path = Path(server)
        if not path.is_file():
            raise FileNotFoundError(
                _("no server file at {path}; pass the path of your calendar_server.py").format(path=path.resolve())
            )
        return [sys.executable, str(path.resolve())]
    return list(server)


class _Runner:
    """Runs one message per fresh process and fails with context when a process misbehaves."""

    def __init__(self, argv: list[str], env: dict, timeout: float, cwd: str):
        self.argv, self.env, self.timeout, self.cwd = argv, env, timeout, cwd
        self.rows: list[Row] = []

    def fail(self, message: str) -> CheckFailed:
        return CheckFailed(message, self.rows)

    def run(self, label: str, method: str, params: dict) -> Row:
        # The check answers the server's question itself (the retry carries the answer), so
        # its requests declare form elicitation, as a client with someone to ask would.
        iso: Isolation = isolated(
            self.argv,
            [(method, params)],
            timeout=self.timeout,
            labels=[label],
            env=self.env,
            cwd=self.cwd,
            capabilities=answering({}),
        )
        row = iso[0]
        self.rows.append(row)
        what = f"{label} ({method}{' ' + params['name'] if method == 'tools/call' else ''})"
        if row.noise:
            raise self.fail(
                _(
                    "{what} printed {line} on stdout, which is not an MCP message: stdout "
                    "must carry only JSON-RPC lines, one per message; send logs and debugging output "
                    "to stderr with print(..., file=sys.stderr)."
                ).format(what=what, line=repr(row.noise[0]))
            )
        if row.error is not None:
            tail = " | ".join(row.stderr[-3:])
            raise self.fail(
                _(
                    "{what} got no answer: {error}. The server must start and answer every "
                    "request on its own; run `python calendar_server.py` in a terminal to see it fail"
                ).format(what=what, error=row.error)
                + (_(" (its stderr ended with: {tail}).").format(tail=tail) if tail else ".")
            )
        if row.error_code == -32603:
            raise self.fail(
                _(
                    "{what} answered -32603 {text}: the server hit a bug on this request; its stderr says: {stderr}"
                ).format(what=what, text=repr(row.text), stderr=" | ".join(row.stderr[-3:]) or _("(nothing)"))
            )
        try:
            plumbing.judge(what, row.request, row.answer_line)
        except CheckFailed as e:
            raise self.fail(str(e)) from None
        return row

    def tool(self, label: str, name: str, arguments: dict, **extra) -> Row:
        return self.run(label, "tools/call", {"name": name, "arguments": arguments, **extra})

    def as_caller(self, caller: str) -> "_Runner":
        """The same server, its processes started for another caller; rows are shared."""
        other = _Runner(self.argv, {**self.env, CALLER_ENV: caller}, self.timeout, self.cwd)
        other.rows = self.rows
        return other


def _events(row: Row) -> list[dict] | None:
    """The events a list_events answer holds (structuredContent.events, else JSON text)."""
    s = row.structured
    if isinstance(s, dict) and isinstance(s.get("events"), list):
        return s["events"]
    if isinstance(s, list):
        return s
    try:
        parsed = json.loads(row.text)
    except ValueError:
        return None
    if isinstance(parsed, dict):
        parsed = parsed.get("events")
    return parsed if isinstance(parsed, list) else None


def _forgeries(state: str, title: str) -> list[tuple[str, str]]:
    """Tampered copies of a requestState: rewritten content where it is readable, and a flipped character."""
    out = []
    for i, part in enumerate(state.split(".")):
        for decode, encode in (
            (base64.b64decode, base64.b64encode),
            (base64.urlsafe_b64decode, base64.urlsafe_b64encode),
        ):
            try:
                obj = json.loads(decode(part + "=" * (-len(part) % 4)))
            except (binascii.Error, ValueError):
                continue
            text = json.dumps(obj, separators=(",", ":"))
            if title not in text:
                continue
            forged = encode(text.replace(title, "Mallory").encode()).decode()
            if "=" not in part:
                forged = forged.rstrip("=")
            parts = state.split(".")
            parts[i] = forged
            out.append((".".join(parts), _('its content rewritten so the title reads "Mallory"')))
            break
        if out:
            break
    out.append((flip_one_character(state), _("one character in the middle changed")))
    return out


def _expect_input_required(r: _Runner, row: Row, label: str) -> str:
    if row.result_type != "input_required" or not isinstance(row.request_state, str):
        raise r.fail(
            _(
                '{label}: create_event without startsAt should answer resultType "input_required" with '
                "a requestState (the start of a multi-round-trip call), but it answered {summary}."
            ).format(label=label, summary=repr(row.summary))
        )
    return row.request_state


def _expect_created(r: _Runner, row: Row, label: str, title: str) -> None:
    if row.result_type != "complete" or row.is_error or title not in row.text:
        raise r.fail(
            _(
                "{label} retried create_event with the answer and the requestState from the previous "
                'process, and should have created "{title}" (resultType "complete"), but it answered '
                "{summary}. A fresh process must be able to finish what another began: everything "
                "it needs is in the message (the arguments, inputResponses and requestState)."
            ).format(label=label, title=title, summary=repr(row.summary))
        )


def _retry(args: dict, state: str, keys: Any) -> dict:
    keys = list(keys) if isinstance(keys, dict) and keys else ["when"]
    return {"inputResponses": {k: ANSWER for k in keys}, "requestState": state}


def check(server: str | Path | Sequence[str], *, timeout: float = 10.0, env: dict | None = None) -> CheckReport:
    """Run the lab's expectations against `server` (a file path or an argv); raise CheckFailed on the first miss."""
    argv = _argv(server)
    name = Path(argv[-1]).name
    workdir = tempfile.mkdtemp(prefix="mcp-lab-check-")
    try:
        run_env = {"CALENDAR_DB": str(Path(workdir) / "calendar.sqlite3"), CALLER_ENV: OWNER, **(env or {})}
        r = _Runner(argv, run_env, timeout, workdir)
        report = CheckReport(server=name)
        _check(r, report)
        report.rows = r.rows
        return report
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _check(r: _Runner, report: CheckReport) -> None:
    """Every expectation in order; each appends its line to the report or raises."""
    listed = r.run(_process("0"), "tools/list", {})
    if not listed.ok:
        raise r.fail(
            _("process 0 (tools/list) answered {summary}; the server must list its tools.").format(
                summary=repr(listed.summary)
            )
        )
    tools = {t.get("name") for t in (listed.result or {}).get("tools", []) if isinstance(t, dict)}
    report.passed.append(_("the server starts, answers tools/list and prints only MCP on stdout"))
    try:
        report.passed += plumbing.probe(r.argv, env=r.env, cwd=r.cwd, timeout=r.timeout)
    except CheckFailed as e:
        raise r.fail(str(e)) from None

    if "create_calendar" not in tools:
        _chapter_abc(r, tools)  # always raises: either the write is lost, or there is no handle
    for needed in ("create_event", "list_events"):
        if needed not in tools:
            raise r.fail(
                _(
                    "tools/list has no {needed} tool (it lists {tools}); the check needs "
                    "create_calendar, create_event and list_events."
                ).format(needed=repr(needed), tools=sorted(tools))
            )
    handle = _handle(r)
    report.passed.append(_("create_calendar returns an unguessable handle, in text and structuredContent"))
    _abc(r, handle, report)
    _tampering(r, handle)
    report.passed.append(_("a changed requestState is refused with -32602"))
    _made_up_handle(r)
    report.passed.append(_("a made-up handle is a tool execution error (isError), with a clear message"))
    _another_caller(r, handle)
    report.passed.append(
        _(
            "a handle is not a permission: {intruder}'s process holding {owner}'s handle is refused "
            "(isError), reading and writing"
        ).format(intruder=INTRUDER, owner=OWNER)
    )


def _handle(r: _Runner) -> str:
    """create_calendar returns a handle, in text and structuredContent, different every time."""
    made = r.tool(_process("H1"), "create_calendar", {})
    handle = made.structured.get("calendar") if isinstance(made.structured, dict) else None
    if made.is_error or not isinstance(handle, str) or not handle:
        raise r.fail(
            _(
                "process H1 (create_calendar) should return the new handle as structuredContent "
                '{{"calendar": "<handle>"}}, but it answered {summary} with structuredContent '
                "{structured}."
            ).format(summary=repr(made.summary), structured=repr(made.structured))
        )
    if handle not in made.text:
        raise r.fail(
            _(
                "process H1 (create_calendar) returned the handle {handle} in structuredContent but not in "
                "its text content; put it in both, so a model that reads only text can still pass it on."
            ).format(handle=repr(handle))
        )
    other = r.tool(_process("H2"), "create_calendar", {})
    handle2 = other.structured.get("calendar") if isinstance(other.structured, dict) else None
    if handle2 == handle or len(handle) < 20:
        raise r.fail(
            _(
                "two calls to create_calendar returned {first} and {second}: a handle must be "
                "unguessable, since anyone who knows it can use the calendar (at least 128 random bits, "
                'e.g. "cal_" + secrets.token_urlsafe(16)), and never a counter.'
            ).format(first=repr(handle), second=repr(handle2))
        )
    return handle


def _abc(r: _Runner, handle: str, report: CheckReport) -> None:
    """The chapter's A/B/C with the handle: A asks, B (a new process) finishes, C (another) reads."""
    a = r.tool(_process("A"), "create_event", {"calendar": handle, "title": "Dentist"})
    state = _expect_input_required(r, a, _process("A"))
    b = r.tool(
        _process("B"),
        "create_event",
        {"calendar": handle, "title": "Dentist"},
        **_retry({}, state, a.result.get("inputRequests")),
    )
    _expect_created(r, b, _process("B"), "Dentist")
    report.passed.append(_("process B completes the create_event that process A began (requestState)"))
    c = r.tool(_process("C"), "list_events", {"calendar": handle})
    events = _events(c)
    if c.is_error or events is None:
        raise r.fail(
            _(
                "process C (list_events) should return the calendar's events as structuredContent "
                '{{"events": [...]}}, but it answered {summary}.'
            ).format(summary=repr(c.summary))
        )
    dentist = [e for e in events if isinstance(e, dict) and e.get("title") == "Dentist"]
    if not dentist:
        raise r.fail(
            ngettext(
                'process C read {n} event(s) and none is "Dentist": the write made in process B is gone; {fix}.',
                'process C read {n} event(s) and none is "Dentist": the write made in process B is gone; {fix}.',
                len(events),
            ).format(n=len(events), fix=_(LOST_WRITE_FIX))
        )
    if len(dentist) > 1:
        raise r.fail(_('process C found "Dentist" {n} times: one create made several events.').format(n=len(dentist)))
    if dentist[0].get("startsAt") != START:
        raise r.fail(
            _(
                'process C found "Dentist" starting at {given}, not at the {start} that the answer in process B gave.'
            ).format(given=repr(dentist[0].get("startsAt")), start=START)
        )
    report.passed.append(_("process C, a fresh process, sees the event process B created, exactly once"))


def _tampering(r: _Runner, handle: str) -> None:
    """A fresh continuation, changed, must be refused with -32602."""
    t0 = r.tool(_process("T0"), "create_event", {"calendar": handle, "title": "Lunch"})
    fresh = _expect_input_required(r, t0, _process("T0"))
    for n, (forged, how) in enumerate(_forgeries(fresh, "Lunch"), 1):
        t = r.tool(
            _process(f"T{n}"),
            "create_event",
            {"calendar": handle, "title": "Lunch"},
            **_retry({}, forged, t0.result.get("inputRequests")),
        )
        if t.ok and not t.is_error:
            raise r.fail(
                _(
                    "process T{n} sent back the requestState of process T0 with {how}, and the server "
                    "accepted it ({summary}): requestState is attacker-controlled input, and where it decides "
                    "what is created the server MUST protect its integrity and MUST reject state that fails "
                    "verification (basic/patterns/mrtr, Server Requirements); make it with seal() "
                    "and read it back with unseal() (the template's helpers: an HMAC-SHA256 under a key every "
                    'process shares, -32602 "Invalid requestState" when it does not match), never as '
                    "plain JSON."
                ).format(n=n, how=how, summary=repr(t.summary))
            )
        if t.error_code != -32602:
            raise r.fail(
                _(
                    "process T{n} sent a requestState with {how}; refusing it is right, but the answer should "
                    "be the JSON-RPC error -32602 (invalid params), not {summary}."
                ).format(n=n, how=how, summary=repr(t.summary))
            )


def _made_up_handle(r: _Runner) -> None:
    """A handle this server never issued is a tool execution error, with a clear text."""
    fake = "cal_" + secrets.token_urlsafe(16)
    for label, tool, args in (
        (_process("F1"), "create_event", {"calendar": fake, "title": "Intruder", "startsAt": START}),
        (_process("F2"), "list_events", {"calendar": fake}),
    ):
        f = r.tool(label, tool, args)
        if f.ok and not f.is_error:
            raise r.fail(
                _(
                    "{label} called {tool} with a made-up handle {handle} and it succeeded ({summary}): "
                    "check the handle on every call against the calendars this server issued (TODO 3)."
                ).format(label=label, tool=tool, handle=repr(fake), summary=repr(f.summary))
            )
        if not f.ok:
            raise r.fail(
                _(
                    "{label} called {tool} with a made-up handle and got the protocol error {summary}; "
                    'an unknown handle is a tool execution error, a result with "isError": true and a clear '
                    "text, so the model can read it and create a new calendar."
                ).format(label=label, tool=tool, summary=repr(f.summary))
            )
        if "Traceback" in f.text:
            raise r.fail(
                _(
                    "{label}: the error text for a made-up handle contains a Python traceback; give a clear "
                    "one-line message instead."
                ).format(label=label)
            )


def _another_caller(r: _Runner, handle: str) -> None:
    """A valid handle presented by a process that serves someone else must be refused."""
    m = r.as_caller(INTRUDER)
    for label, tool, args in (
        (_process("M1"), "list_events", {"calendar": handle}),
        (_process("M2"), "create_event", {"calendar": handle, "title": "Intruder", "startsAt": START}),
    ):
        row = m.tool(label, tool, args)
        who = _(
            "{label} was started for another caller ({env}={intruder}) and called {tool} with the "
            "handle that {owner}'s process created"
        ).format(label=label, env=CALLER_ENV, intruder=INTRUDER, tool=tool, owner=OWNER)
        if row.ok and not row.is_error:
            raise r.fail(
                _(
                    "{who}, and it succeeded ({summary}): a handle is a name, not a permission. Record "
                    "caller() with each calendar in create_calendar, and refuse, on every call, a handle "
                    "whose owner is not caller() (TODO 2-3)."
                ).format(who=who, summary=repr(row.summary))
            )
        if not row.ok:
            raise r.fail(
                _(
                    "{who}, and got the protocol error {summary}; refusing is right, but as a tool "
                    'execution error: a result with "isError": true and a clear text.'
                ).format(who=who, summary=repr(row.summary))
            )
    after = r.tool(_process("M3"), "list_events", {"calendar": handle})
    events = _events(after) or []
    if any(isinstance(e, dict) and e.get("title") == "Intruder" for e in events):
        raise r.fail(
            _(
                'process M3 ({owner}) lists an event "Intruder" that {intruder}\'s process added with '
                "{owner}'s handle: the write was refused in words but made anyway; check the owner before "
                "writing."
            ).format(owner=OWNER, intruder=INTRUDER)
        )


def _chapter_abc(r: _Runner, tools: set) -> None:
    """The chapter's handle-less A/B/C, for a server that has no create_calendar yet.  Always raises."""
    if "create_event" not in tools:
        raise r.fail(_("tools/list has no create_event tool (it lists {tools}).").format(tools=sorted(tools)))
    a = r.tool(_process("A"), "create_event", {"title": "Dentist"})
    state = _expect_input_required(r, a, _process("A"))
    b = r.tool(_process("B"), "create_event", {"title": "Dentist"}, **_retry({}, state, a.result.get("inputRequests")))
    _expect_created(r, b, _process("B"), "Dentist")
    if "list_events" not in tools:
        raise r.fail(
            _(
                "tools/list has no list_events tool (it lists {tools}), so the check cannot read the calendar back."
            ).format(tools=sorted(tools))
        )
    c = r.tool(_process("C"), "list_events", {})
    events = _events(c) or []
    if not any(isinstance(e, dict) and e.get("title") == "Dentist" for e in events):
        raise r.fail(
            ngettext(
                "process C read {n} event(s): the write made in process B is gone — {fix}.",
                "process C read {n} event(s): the write made in process B is gone — {fix}.",
                len(events),
            ).format(n=len(events), fix=_(LOST_WRITE_FIX))
        )
    raise r.fail(
        _(
            "the write made in process B survived, but the server has no create_calendar tool: state that "
            "spans requests MUST be referenced by an explicit identifier the client passes on each request "
            "(basic/index, Statelessness), not shared by everyone who connects; this lab's identifier is a "
            "handle: add create_calendar and a `calendar` argument (TODO 2-3)."
        )
    )
