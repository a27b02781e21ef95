"""Lab 08's check (ask the person): a tool that asks the person, driven through the multi round-trip loop.

    from mcp_lab.course import check_ask
    check_ask.check("08-ask-the-person/server.py")     # CheckFailed, or a report

Theory of operation.  The learner's server is started as a real process (`sys.executable
server.py`) and `book_room` is called through `mcp_lab.mrtr.call`, the same loop the course's
client uses, with the person's answers scripted: accept (with the first room the form offers),
decline, cancel.  The loop does what the spec asks of a client -- a new request with a new id,
the original params plus `inputResponses`, `requestState` echoed byte-exact -- and the check reads
the trace afterwards to show that it did.  Then the server's own obligations: it refuses (-32021,
with `data.requiredCapabilities`) when the request cannot show a form; it does not believe a
changed `requestState` or a room it never offered; a retry that lacks the answer is asked again
(a new `input_required`, as the spec says a server should, not an error); and a retry can be
finished by a second, fresh process, because the state travels in the message.  The plumbing is
probed (`mcp_lab.course.plumbing`: discovery, listing, -32022, an unreadable line), and every answer
of every scenario is judged by the official 2026-07-28 schema.  Each scenario gets its own
process, and the first unmet expectation raises `CheckFailed`.
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from mcp_lab.course import plumbing
from mcp_lab.course._check import CheckFailed, CheckReport, failure, shown
from mcp_lab.session.isolate import flip_one_character
from mcp_lab.wire import jsonrpc
from mcp_lab.wire.errors import McpError
from mcp_lab.wire.words import N_, _, ngettext

__all__ = ["START", "TOOL", "KEY", "check"]

START = "2026-09-10T08:30:00Z"
TOOL = "book_room"
KEY = "room"
CALL = {"name": TOOL, "arguments": {"startsAt": START}}
INTRUDER = "Broom closet"
_MRTR = "basic/patterns/mrtr"
_ENV = {"LAB08_SECRET": "the-check-shares-this-key-with-every-process"}


def check(server: str | Path | Sequence[str], *, timeout: float = 5.0) -> CheckReport:
    """Run every expectation against `server` (the path of server.py, or an argv)."""
    try:
        return _check(_argv(server), timeout)
    except CheckFailed as e:
        raise e.with_traceback(None) from None  # the paragraph, not the check's own frames


def _argv(server: str | Path | Sequence[str]) -> list[str]:
    if isinstance(server, (str, Path)):
        path = Path(server)
        if not path.is_file():
            raise CheckFailed(
                _(
                    "there is no server file at {path}: pass the path of the server.py you "
                    'edited, e.g. check("08-ask-the-person/server.py").'
                ).format(path=path.resolve())
            )
        return [sys.executable, str(path.resolve())]
    return list(server)


class _Server:
    """One process for one scenario; any transport trouble becomes a CheckFailed that says so."""

    def __init__(self, argv: list[str], timeout: float, scenario: str, capabilities: dict | None = None):
        from mcp_lab.session.connect import connect
        from mcp_lab.session.mrtr import answering

        self.scenario = scenario
        # The checker answers the server's questions itself, so by default it declares form
        # elicitation; a scenario about a client that cannot show a form passes {}.
        if capabilities is None:
            capabilities = answering({})
        self.client = connect(argv, timeout=timeout, env=_ENV, capabilities=capabilities, name=Path(argv[-1]).name)

    def __enter__(self) -> "_Server":
        return self

    def __exit__(self, *exc) -> None:
        self.client.close()
        if exc[0] is None:  # every answer this scenario received, judged by the schema
            plumbing.judge_trace(self.scenario, self.client.trace)

    def run(self, fn: Callable[[], Any]) -> Any:
        try:
            answer = fn()
            noise = [ev.line for ev in self.client.trace.of("noise")]
            if noise:
                raise failure(
                    self.scenario,
                    expected=N_("only JSON-RPC messages on stdout"),
                    got=repr(noise[0]),
                    rule=N_(
                        "basic/transports/stdio: the server MUST NOT write anything to stdout that is "
                        "not a valid MCP message"
                    ),
                    hint=N_("log with print(..., file=sys.stderr)"),
                )
            return answer
        except McpError as e:
            tail = " | ".join(self.client.stderr[-4:]) or "(nothing)"
            noise = [ev.line for ev in self.client.trace.of("noise")]
            said = (
                e.message
                if "stderr" in e.message
                else _("{message}; its stderr ended with: {tail}").format(message=e.message, tail=tail)
            )
            raise CheckFailed(
                _("{scenario}: the server gave no usable answer ({said}). ").format(scenario=self.scenario, said=said)
                + (
                    _("It printed {line} on stdout, which must carry only JSON-RPC lines (log to stderr). ").format(
                        line=repr(noise[0])
                    )
                    if noise
                    else ""
                )
                + _("Run `python server.py` in a terminal to see it start, or fail.")
            ) from None

    def request(self, method: str, params: dict, **kw) -> Any:
        return self.run(lambda: self.client.request(method, params, **kw))

    def call(self, answer: Callable[[str, dict], dict], **kw):
        from mcp_lab.session import mrtr

        return self.run(lambda: mrtr.call(self.client, "tools/call", CALL, answer, **kw))


def _summary(m: Any) -> str:
    if isinstance(m, jsonrpc.Error):
        return _("the JSON-RPC error {code} {message}").format(code=m.code, message=repr(m.message))
    if isinstance(m, jsonrpc.Result):
        r = {k: v for k, v in m.result.items() if k != "_meta"}
        return _("the result {result}").format(result=shown(r, 220))
    return repr(m)


def _text(result: dict) -> str:
    return " ".join(c.get("text", "") for c in result.get("content") or [] if isinstance(c, dict))


# Long on purpose: five checks in the order a learner meets them, each with its own failure text
def _offered(what: str, interim: jsonrpc.Result) -> list[str]:
    """Validate the interim result's question and return the rooms its form offers."""
    r = interim.result
    asks = r.get("inputRequests")
    if not isinstance(asks, dict) or KEY not in asks:
        raise failure(
            what,
            expected=_('inputRequests with the key "{key}"').format(key=KEY),
            got=shown(asks),
            rule=_(
                "{page}: inputRequests maps server-chosen keys to requests; the answer comes back under the same key"
            ).format(page=_MRTR),
            hint=_('put the question under "{key}", as the tool\'s contract says').format(key=KEY),
        )
    ask = asks[KEY]
    params = ask.get("params") if isinstance(ask, dict) else None
    if not isinstance(ask, dict) or ask.get("method") != "elicitation/create" or not isinstance(params, dict):
        raise failure(
            what,
            expected=N_('a bare {"method": "elicitation/create", "params": {...}}'),
            got=shown(ask),
            rule=_("{page}: an input request is an ElicitRequest with no jsonrpc and no id").format(page=_MRTR),
            hint=N_("no jsonrpc, no id: just method and params"),
        )
    schema = params.get("requestedSchema")
    prop = schema.get("properties", {}).get(KEY) if isinstance(schema, dict) else None
    if (
        params.get("mode", "form") != "form"
        or not isinstance(params.get("message"), str)
        or not params["message"]
        or not isinstance(prop, dict)
        or KEY not in (schema.get("required") or [])
    ):
        raise failure(
            what,
            expected=_(
                'a form elicitation: mode "form", a message, and a requestedSchema that requires the property "{key}"'
            ).format(key=KEY),
            got=shown(params),
            rule=N_(
                "client/elicitation: form mode needs message and requestedSchema, a flat object of primitive properties"
            ),
            hint=N_("use ROOM_FORM as requestedSchema"),
        )
    rooms = prop.get("enum") or [o.get("const") for o in prop.get("oneOf") or [] if isinstance(o, dict)]
    if not rooms or not all(isinstance(x, str) for x in rooms):
        raise failure(
            what,
            expected=_('the "{key}" property to list the free rooms in an enum').format(key=KEY),
            got=shown(prop),
            rule=N_("client/elicitation: a single-select question is a string with enum (or oneOf of const)"),
            hint=N_("ROOM_FORM already has the enum"),
        )
    if not isinstance(r.get("requestState"), str) or not r["requestState"]:
        raise failure(
            what,
            expected=N_("a requestState string"),
            got=shown(r.get("requestState")),
            rule=N_(
                "basic/index#statelessness: state that spans requests travels in the message; "
                "the retry may reach another process"
            ),
            hint=N_("return requestState=seal({...})"),
        )
    return rooms


def _forge(state: str, room: str, intruder: str) -> str | None:
    """The state with `intruder` slipped in beside `room`, where its content is readable base64 JSON.

    This is what an attacker does with an unsigned state: read it, change it, send it back.  A
    state this function cannot read (encrypted, or a format of the learner's own) is not forged.
    """
    parts = state.split(".")
    for i, part in enumerate(parts):
        for decode, encode in (
            (base64.urlsafe_b64decode, base64.urlsafe_b64encode),
            (base64.b64decode, base64.b64encode),
        ):
            try:
                text = decode(part + "=" * (-len(part) % 4)).decode()
                json.loads(text)
            except (binascii.Error, ValueError, UnicodeDecodeError):
                continue
            needle = json.dumps(room)
            if needle not in text:
                break
            changed = encode(text.replace(needle, f"{json.dumps(intruder)},{needle}", 1).encode()).decode()
            parts[i] = changed if "=" in part else changed.rstrip("=")
            return ".".join(parts)
    return None


def _first_round(what: str, first: Any) -> jsonrpc.Result:
    if not (isinstance(first, jsonrpc.Result) and first.result_type == "input_required"):
        raise failure(
            what,
            expected=N_('a result with resultType "input_required" asking the person for a room'),
            got=_summary(first),
            rule=_(
                "{page}: a server that needs the person's answer returns an "
                "InputRequiredResult instead of sending a request"
            ).format(page=_MRTR),
            hint=N_("that is TODO 2, in ask_for_room"),
        )
    return first


def _check(argv: list[str], timeout: float) -> CheckReport:
    """Every scenario in order, each with its own process(es); the first miss raises."""
    report = CheckReport(server=Path(argv[-1]).name)
    ok = report.passed.append
    _contract(argv, timeout, ok)
    report.passed += plumbing.probe(argv, env=_ENV, timeout=timeout)
    rooms = _accept(argv, timeout, ok)
    _decline_and_cancel(argv, timeout, ok)
    _without_form_capability(argv, timeout, ok)
    _tampering(argv, timeout, ok, rooms)
    _missing_answer(argv, timeout, ok)
    _another_process(argv, timeout, ok, rooms)
    return report


def _contract(argv: list[str], timeout: float, ok: Callable[[str], None]) -> None:
    """The tool is there, with its contract."""
    with _Server(argv, timeout, "tools/list") as s:
        listed = s.request("tools/list", {})
        tools = listed.result.get("tools", []) if isinstance(listed, jsonrpc.Result) else []
        tool = next((t for t in tools if isinstance(t, dict) and t.get("name") == TOOL), None)
        if tool is None or "startsAt" not in (tool.get("inputSchema", {}).get("required") or []):
            raise failure(
                "tools/list",
                expected=_("a tool {tool} with the required argument startsAt").format(tool=TOOL),
                got=_summary(listed),
                rule=N_("server/tools: tools/list MUST return the tools currently available to the client"),
                hint=N_("keep TOOL as the template defines it"),
            )
        ok(_("tools/list lists {tool}(startsAt)").format(tool=TOOL))


# Long on purpose: the accept path as the person meets it, two rounds checked one after the other.
def _accept(argv: list[str], timeout: float, ok: Callable[[str], None]) -> list[str]:
    """Accept: two rounds, a new id, the state echoed, the room booked."""
    what = _("accept (the person picks a room)")
    asked: list[dict] = []

    def accept_first(key: str, request: dict) -> dict:
        asked.append(request)
        rooms = request.get("params", {}).get("requestedSchema", {}).get("properties", {}).get(KEY, {}).get("enum") or [
            "Aurora"
        ]
        return {"action": "accept", "content": {KEY: rooms[0]}}

    with _Server(argv, timeout, what) as s:
        ex = s.call(accept_first)
        first = _first_round(what, ex.answers[0])
        rooms = _offered(what, first)
        ok(
            _('first call answers input_required: a form under "room" offering {rooms}, and a requestState').format(
                rooms=", ".join(rooms)
            )
        )
        sent = [json.loads(line) for line in s.client.trace.sent]
        calls = [m for m in sent if m.get("method") == "tools/call"]
        if len(calls) < 2:
            raise failure(
                what,
                expected=N_("a retry after the answer"),
                got=ngettext("{n} tools/call request(s)", "{n} tools/call request(s)", len(calls)).format(n=len(calls)),
                rule=_MRTR,
                hint=N_("the interim result must ask for input"),
            )
        retry = calls[1]["params"]
        if (
            calls[1]["id"] == calls[0]["id"]
            or retry.get("requestState") != first.result["requestState"]
            or retry.get("arguments") != CALL["arguments"]
        ):
            raise failure(
                what,
                expected=N_("the retry as a new request: new id, same arguments, requestState echoed"),
                got=shown(calls[1], 200),
                rule=_("{page}: the retry is a new request").format(page=_MRTR),
                hint=N_("report this; mcp_lab.mrtr.call builds the retry"),
            )
        ok(
            _(
                "the retry is a new request (id {first} then {second}) with the same arguments, "
                "inputResponses.room and the requestState echoed byte-exact"
            ).format(first=calls[0]["id"], second=calls[1]["id"])
        )
        final = ex.final
        want = f"Booked {rooms[0]} at {START}."
        if not (
            isinstance(final, jsonrpc.Result)
            and final.result_type == "complete"
            and not final.result.get("isError")
            and _text(final.result) == want
        ):
            raise failure(
                what,
                expected=_('a complete result with the text "{text}"').format(text=want),
                got=_summary(final),
                rule=_("{page}: the retry carries inputResponses; the server finishes the call").format(page=_MRTR),
                hint=N_('that is TODO 3: unseal the state, read responses["room"], book content["room"]'),
            )
        ok(_("accept: {text}").format(text=want))
    return rooms


def _decline_and_cancel(argv: list[str], timeout: float, ok: Callable[[str], None]) -> None:
    """Decline and cancel end the call with a tool error that says so."""
    for action, word in (("decline", "declin"), ("cancel", "cancel")):
        what = (
            _("{action} (the person says no)") if action == "decline" else _("{action} (the person dismisses the form)")
        ).format(action=action)
        with _Server(argv, timeout, what) as s:
            ex = s.call(lambda key, request, a=action: {"action": a})
            _first_round(what, ex.answers[0])
            final = ex.final
            if not (
                isinstance(final, jsonrpc.Result)
                and final.result_type == "complete"
                and final.result.get("isError") is True
                and word in _text(final.result).lower()
            ):
                raise failure(
                    what,
                    expected=_('a result with "isError": true whose text says the person chose {action}').format(
                        action=action
                    ),
                    got=_summary(final),
                    rule=N_(
                        "client/elicitation: the response action is accept, decline "
                        "or cancel; server/tools: a tool's own failure is a result with isError true"
                    ),
                    hint=_('return tool_error("Not booked: ...{action}...") when action is "{action}"').format(
                        action=action
                    ),
                )
            ok(_("{action}: isError true, {text}").format(action=action, text=repr(_text(final.result))))


def _without_form_capability(argv: list[str], timeout: float, ok: Callable[[str], None]) -> None:
    """No form in this request's capabilities: -32021, naming what is required."""
    for caps, label in (
        ({}, N_("declares no capabilities")),
        ({"elicitation": {"url": {}}}, N_("declares URL elicitation only")),
    ):
        label = _(label)
        what = _("a request that {label}").format(label=label)
        with _Server(argv, timeout, what, capabilities=caps) as s:
            r = s.request("tools/call", CALL)
            required = (
                r.data.get("requiredCapabilities")
                if isinstance(r, jsonrpc.Error) and isinstance(r.data, dict)
                else None
            )
            if not (
                isinstance(r, jsonrpc.Error)
                and r.code == jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY
                and isinstance(required, dict)
                and isinstance(required.get("elicitation"), dict)
            ):
                raise failure(
                    what,
                    expected=N_('the error -32021 with data.requiredCapabilities {"elicitation": {"form": {}}}'),
                    got=_("{summary} with data {data}").format(summary=_summary(r), data=shown(r.data))
                    if isinstance(r, jsonrpc.Error)
                    else _summary(r),
                    rule=N_(
                        "basic/patterns/mrtr: a server MUST NOT send an input request the client did not "
                        "declare; schema MissingRequiredClientCapabilityError names the capability required"
                    ),
                    hint=N_("that is TODO 1 in book_room"),
                )
            ok(_("{label}: -32021, requiredCapabilities {required}").format(label=label, required=shown(required)))


# Long on purpose: four tamperings, each sent and judged in the order a reader follows them
def _tampering(argv: list[str], timeout: float, ok: Callable[[str], None], rooms: list[str]) -> None:
    """A changed requestState, and a room never offered, are not believed."""
    what = _("a retry with a changed requestState")
    with _Server(argv, timeout, what) as s:
        interim = s.request("tools/call", CALL)
        _first_round(what, interim)
        state = interim.result["requestState"]
        tamperings = [(flip_one_character(state), _("one character in the middle changed"), rooms[0])]
        forged = _forge(state, rooms[0], INTRUDER)
        if forged:
            how = _('its readable content rewritten to offer "{room}"').format(room=INTRUDER)
            tamperings.insert(0, (forged, how, INTRUDER))
        for bad_state, how, room in tamperings:
            accept = {KEY: {"action": "accept", "content": {KEY: room}}}
            r = s.request("tools/call", {**CALL, "inputResponses": accept, "requestState": bad_state})
            label = _("{what} ({how})").format(what=what, how=how)
            if isinstance(r, jsonrpc.Error) and r.code == jsonrpc.INTERNAL_ERROR:
                raise failure(
                    label,
                    expected=N_("a clean refusal (the error -32602)"),
                    got=_("{summary} -- the server hit an exception").format(summary=_summary(r)),
                    rule=_(
                        "{page}: requestState MUST be treated as attacker-controlled; state that fails "
                        "verification MUST be rejected"
                    ).format(page=_MRTR),
                    hint=N_("unseal(state) raises Refusal(-32602) for you"),
                )
            if not isinstance(r, jsonrpc.Error) and not (isinstance(r, jsonrpc.Result) and r.result.get("isError")):
                raise failure(
                    label,
                    expected=N_("a refusal (the error -32602, or at least no booking)"),
                    got=_summary(r),
                    rule=_(
                        "{page}: when requestState drives business logic the server MUST protect its "
                        "integrity (HMAC or AEAD) and MUST reject state that fails verification"
                    ).format(page=_MRTR),
                    hint=N_("call unseal(state) before believing anything in it"),
                )
            ok(_("a requestState with {how} is refused: {summary}").format(how=how, summary=_summary(r)))
        r = s.request(
            "tools/call",
            {**CALL, "inputResponses": {KEY: {"action": "accept", "content": {KEY: INTRUDER}}}, "requestState": state},
        )
        booked = isinstance(r, jsonrpc.Result) and r.result_type == "complete" and not r.result.get("isError")
        if booked or (isinstance(r, jsonrpc.Error) and r.code == jsonrpc.INTERNAL_ERROR):
            raise failure(
                _("an answer naming a room that was never offered"),
                expected=N_("no booking (isError true, an error, or the question asked again)"),
                got=_summary(r),
                rule=N_(
                    "client/elicitation: the "
                    "server validates what comes back; a client (or an attacker) may send anything"
                ),
                hint=N_("book only a room listed in the state you sealed"),
            )
        ok(_("a room that was never offered is not booked: {summary}").format(summary=_summary(r)))
        alive = s.request("tools/list", {})
        if not isinstance(alive, jsonrpc.Result):
            raise failure(
                what,
                expected=N_("the server still answering"),
                got=_summary(alive),
                rule=N_("a bad request costs one answer, never the process"),
                hint=N_("let Refusal carry the error"),
            )


def _missing_answer(argv: list[str], timeout: float, ok: Callable[[str], None]) -> None:
    """A retry that lacks the answer is asked again, not refused."""
    what = _('a retry without the answer under "room"')
    with _Server(argv, timeout, what) as s:
        interim = s.request("tools/call", CALL)
        _first_round(what, interim)
        for responses, how in (
            ({}, "inputResponses {}"),
            ({"other": {"action": "accept", "content": {}}}, _("an answer under another key only")),
        ):
            r = s.request(
                "tools/call", {**CALL, "inputResponses": responses, "requestState": interim.result["requestState"]}
            )
            if not (isinstance(r, jsonrpc.Result) and r.result_type == "input_required"):
                raise failure(
                    _("{what} ({how})").format(what=what, how=how),
                    expected=N_('a new result with resultType "input_required" asking for "room" again'),
                    got=_summary(r),
                    rule=_(
                        "{page}#error-handling: when a retry "
                        "lacks information the server needs, the server SHOULD answer with a new "
                        "InputRequiredResult asking for it again, rather than an error"
                    ).format(page=_MRTR),
                    hint=N_(
                        'when responses has no "room", return the question again (a fresh '
                        "input_required), as on the first round"
                    ),
                )
            _offered(_("{what} ({how})").format(what=what, how=how), r)
        ok(_("a retry without the answer gets a new input_required asking for the room again"))


def _another_process(argv: list[str], timeout: float, ok: Callable[[str], None], rooms: list[str]) -> None:
    """Another process finishes what one began."""
    what = _("a retry that reaches a second, fresh process")
    with _Server(argv, timeout, _("process A: {what}").format(what=what)) as a:
        interim = a.request("tools/call", CALL)
    _first_round(what, interim)
    with _Server(argv, timeout, _("process B: {what}").format(what=what)) as b:
        r = b.request(
            "tools/call",
            {
                **CALL,
                "inputResponses": {KEY: {"action": "accept", "content": {KEY: rooms[0]}}},
                "requestState": interim.result["requestState"],
            },
        )
        want = f"Booked {rooms[0]} at {START}."
        if not (isinstance(r, jsonrpc.Result) and not r.result.get("isError") and _text(r.result) == want):
            raise failure(
                what,
                expected=f'"{want}"',
                got=_summary(r),
                rule=N_(
                    "basic/index#statelessness: each request "
                    "must be processable on its own; an open process is not a session"
                ),
                hint=N_(
                    "keep what the retry needs in requestState (sealed with the shared SECRET), not in the process"
                ),
            )
        ok(_("process B finished the call process A began: {text}").format(text=want))
