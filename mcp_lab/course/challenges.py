"""The "by hand" challenge sheet (notebook 04): broken or blank messages a learner completes.

Each `Challenge` names the connection it is sent to, the text the learner starts from (broken or
blank on purpose), a hint, and `judge(answer)`: a function of the `%%rpc` cell's answer that
returns None when the message did its job, or one sentence saying what is still wrong.

`check(n)` in the notebook judges the last answer a `%%rpc` cell produced (the magics keep it),
prints one line when it is right and returns nothing, so running it again changes nothing.
While the learner has not changed the starting text (or ran no `%%rpc` cell yet) it prints
"waiting for your message" and does not raise, so Run All goes on.  A check that fails on an
attempt raises `NotYet`, which IPython shows as its sentence and the hint only (no traceback of
the checker: `_render_traceback_`).  Every `check(n)` registers the interaction `challenge-<n>`
(kind "challenge", done once the check passed) with `mcp_lab.notebook.interactions`; its
`answer(text)` sends `text` through the same `%%rpc` magic and judges it again.
tests/test_challenges.py proves that every check fails on a wrong text and passes on `solution`.

Answers are the plain dicts `%%rpc` returns (`answer["result"]`, `answer["error"]`, `.sent`,
`.all`), so the judges never import the magics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from mcp_lab.wire.words import N_, _

__all__ = ["Challenge", "CHALLENGES", "NotYet", "check", "judge", "send_as_given"]

META_2026 = (
    '"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", '
    '"io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}'
)
STATE = "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="  # the bundled calendar's requestState for title "Dentist"
SOLVED: set[int] = set()  # the challenges this kernel has seen solved


class NotYet(AssertionError):
    """A challenge's check failed: shown as one sentence and a hint, not as a traceback."""

    def __init__(self, what: int | str, reason: str, hint: str):
        name = _("challenge {number}").format(number=what) if isinstance(what, int) else what
        super().__init__(_("{name}: not yet. {reason}").format(name=name, reason=reason))
        self.hint = _(hint)  # a challenge's hint is marked N_ where it is written; a lesson's shows as given

    def _render_traceback_(self) -> list[str]:  # IPython prints these lines instead of a traceback
        return [str(self), _("hint: {hint}").format(hint=self.hint)]


@dataclass(frozen=True)
class Challenge:
    number: int
    connection: str  # the %mcp connection name the message goes to
    flags: str  # extra %%rpc flags ("" or "--raw")
    start: str  # what the learner's cell holds at first: broken or blank
    solution: str  # one right answer (the tests send it)
    hint: str
    judge: Callable[[Any], str | None]


def _error(answer) -> dict | None:
    return answer.get("error") if isinstance(answer, dict) else None


def _result(answer) -> dict | None:
    return answer.get("result") if isinstance(answer, dict) else None


def _sent(answer) -> dict | None:
    try:
        return json.loads(getattr(answer, "sent", ""))
    except ValueError:
        return None


def _said(answer) -> str:
    err = _error(answer)
    if err:
        return _("the server answered error {code} ({message})").format(
            code=err.get("code"), message=err.get("message")
        )
    res = _result(answer)
    return (
        _("the server answered a result: {result}").format(result=json.dumps(res)[:160])
        if res is not None
        else _("the server answered {answer}").format(answer=f"{answer!r:.160}")
    )


def _judge_tools_list(answer) -> str | None:
    res = _result(answer)
    if res is None:
        return _said(answer) + "; " + _("expected the tool list")
    names = [t.get("name") for t in res.get("tools", [])]
    return (
        None if "create_event" in names else _("expected create_event among the tools, got {names}").format(names=names)
    )


def _judge_discover(answer) -> str | None:
    res = _result(answer)
    if res is None or "supportedVersions" not in res:
        return _said(answer) + "; " + _("expected a DiscoverResult with supportedVersions")
    return None


def _judge_version(answer) -> str | None:
    sent = _sent(answer) or {}
    asked = ((sent.get("params") or {}).get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion")
    if _result(answer) is None:
        return _said(answer) + "; " + _("you asked for version {version}").format(version=repr(asked))
    return (
        None
        if asked == "2026-07-28"
        else _("expected the version the server listed, got {version}").format(version=repr(asked))
    )


def _judge_id(answer) -> str | None:
    sent = _sent(answer) or {}
    rid = sent.get("id")
    if _result(answer) is None:
        return _said(answer) + "; " + _("your id was {id}").format(id=json.dumps(rid))
    if answer.get("id") != rid:
        return _("expected the answer to carry your id {id}, got {got}").format(
            id=repr(rid), got=repr(answer.get("id"))
        )
    return None


def _judge_capability(answer) -> str | None:
    res = _result(answer)
    if res is None:
        return _said(answer) + "; " + _("expected the calendar to answer input_required (it may ask you now)")
    return (
        None
        if res.get("resultType") == "input_required"
        else _("expected resultType 'input_required', got {got}").format(got=repr(res.get("resultType")))
    )


def _judge_retry(answer) -> str | None:
    res = _result(answer)
    sent = _sent(answer) or {}
    params = sent.get("params") or {}
    if params.get("requestState") != STATE:
        return _("expected requestState echoed exactly ({state}), got {got}").format(
            state=STATE, got=repr(params.get("requestState"))
        )
    if res is None:
        return _said(answer)
    text = (res.get("content") or [{}])[0].get("text", "")
    if text.startswith("Created "):
        return None
    if res.get("resultType") == "input_required":
        return _("the calendar asked for `when` again: it could not use your answer.") + " " + _retry_problem(params)
    return _("expected the calendar to create the event; it answered: {text}").format(
        text=text or json.dumps(res)[:160]
    )


def _retry_problem(params: dict) -> str:
    """What is wrong with the retry's inputResponses, in one sentence."""
    responses = params.get("inputResponses")
    if not isinstance(responses, dict) or "when" not in responses:
        keys = sorted(responses) if isinstance(responses, dict) else responses
        return _("The answer goes under the server's key `when` in inputResponses (yours: {keys}).").format(
            keys=repr(keys)
        )
    given = responses["when"]
    if not isinstance(given, dict) or "action" not in given:
        return _(
            'Your answer under `when` has no `action`: an ElicitResult says what the person did ("accept", '
            '"decline" or "cancel"), and with "accept" carries the form in `content`.'
        )
    if given.get("action") != "accept":
        return _('The person\'s action was {action}: to book, it is "accept".').format(action=repr(given.get("action")))
    content = given.get("content")
    if not isinstance(content, dict) or "startsAt" not in content:
        return _("With action accept, `content` must hold the form's field `startsAt` (a date-time).")
    return _("`startsAt` must be a date-time such as 2026-09-10T08:30:00Z (yours: {given}).").format(
        given=repr(content["startsAt"])
    )


def _judge_one_line(answer) -> str | None:
    messages = getattr(answer, "all", [])
    if len(messages) != 1:
        return _("expected exactly one answer (one message, one line), got {n}: {messages}").format(
            n=len(messages), messages=f"{messages!r:.200}"
        )
    return _judge_tools_list(answer)


def _judge_ping(answer) -> str | None:
    res = _result(answer)
    if res is None:
        return _said(answer) + "; " + _("expected an empty result {{}} (ping's answer)").format()
    return None if res == {} else _("expected the empty result {{}}, got {got}").format(got=repr(res))


CHALLENGES: dict[int, Challenge] = {
    c.number: c
    for c in [
        Challenge(
            1,
            "calendar",
            "",
            '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
            '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {' + META_2026 + "}}",
            N_("the error message names two keys; both go in params._meta (notebook 02, 'A bare request')."),
            _judge_tools_list,
        ),
        Challenge(
            2,
            "calendar",
            "",
            '{"jsonrpc": "2.0", "id": 2, "method": "", "params": {' + META_2026 + "}}",
            '{"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {' + META_2026 + "}}",
            N_("the one method every modern server must implement, and which says what it speaks."),
            _judge_discover,
        ),
        Challenge(
            3,
            "calendar",
            "",
            '{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {'
            '"io.modelcontextprotocol/protocolVersion": "2025-11-25", '
            '"io.modelcontextprotocol/clientCapabilities": {}}}}',
            '{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {'
            '"io.modelcontextprotocol/protocolVersion": "2026-07-28", '
            '"io.modelcontextprotocol/clientCapabilities": {}}}}',
            N_("read error.data.supported in the answer: pick a version from that list."),
            _judge_version,
        ),
        Challenge(
            4,
            "calendar",
            "",
            '{"jsonrpc": "2.0", "id": null, "method": "tools/list", "params": {' + META_2026 + "}}",
            '{"jsonrpc": "2.0", "id": "four", "method": "tools/list", "params": {' + META_2026 + "}}",
            N_("an id is a string or an integer, never null; the answer carries it back."),
            _judge_id,
        ),
        Challenge(
            5,
            "calendar",
            "",
            '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {'
            '"name": "create_event", "arguments": {"title": "Dentist"}, "_meta": {'
            '"io.modelcontextprotocol/protocolVersion": "2026-07-28", '
            '"io.modelcontextprotocol/clientCapabilities": {}}}}',
            '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {'
            '"name": "create_event", "arguments": {"title": "Dentist"}, ' + META_2026 + "}}",
            N_("-32021 lists what to declare in error.data.requiredCapabilities; declare it in clientCapabilities."),
            _judge_capability,
        ),
        Challenge(
            6,
            "calendar",
            "--meta",
            '{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {'
            '"name": "create_event", "arguments": {"title": "Dentist"}, '
            '"inputResponses": {}, "requestState": ""}}',
            '{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {'
            '"name": "create_event", "arguments": {"title": "Dentist"}, '
            '"inputResponses": {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}}, '
            '"requestState": "' + STATE + '"}}',
            N_(
                "answer under the server's key (when) with action and content (startsAt); paste requestState "
                "exactly as the interim answer gave it."
            ),
            _judge_retry,
        ),
        Challenge(
            7,
            "calendar",
            "--raw",
            '{"jsonrpc": "2.0", "id": 7, "method": "tools/list",\n "params": {"_meta": {'
            '"io.modelcontextprotocol/protocolVersion": "2026-07-28",\n'
            ' "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}}}',
            '{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {' + META_2026 + "}}",
            N_("--raw sends your text byte for byte; on stdio a message ends at the first newline."),
            _judge_one_line,
        ),
        Challenge(
            8,
            "everything",
            "",
            '{"jsonrpc": "2.0", "id": 8, "method": ""}',
            '{"jsonrpc": "2.0", "id": 8, "method": "ping"}',
            N_("the legacy era's liveness check; its answer is an empty result."),
            _judge_ping,
        ),
    ]
}


def judge(number: int, answer) -> str | None:
    """None when `answer` completes challenge `number`, else the sentence saying what is wrong."""
    if answer is None:
        return _("no answer yet: run the %%rpc cell of this challenge first")
    return CHALLENGES[number].judge(answer)


def _last_answer():
    from mcp_lab.notebook import magics

    return magics.last


def _as_json(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return " ".join(text.split())


def attempted(number: int, answer) -> bool:
    """False while there is no answer, or the learner sent the challenge's starting text unchanged."""
    if answer is None:
        return False
    typed = getattr(answer, "typed", None)
    if typed is None:
        return True
    start = CHALLENGES[number].start
    if "--raw" in CHALLENGES[number].flags:  # byte for byte: where the newlines are is the point
        return _lines(typed) != _lines(start)
    return _as_json(typed) != _as_json(start)


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.strip().splitlines()]


def check(number: int, answer=None) -> None:
    """Judge challenge `number` on the last %%rpc answer (or `answer`); print, or raise NotYet."""
    from mcp_lab.notebook import interactions

    c = CHALLENGES[number]
    if answer is None:
        answer = _last_answer()
    reason = judge(number, answer) if attempted(number, answer) else None
    if attempted(number, answer) and reason is None:
        SOLVED.add(number)
    # Asked when the registry wants to know, so an answer sent through `act` (which checks again)
    # settles the very interaction the caller holds.
    interactions.register(
        f"challenge-{number}",
        "challenge",
        is_done=lambda: number in SOLVED,
        act=lambda text: _send_and_check(number, text),
    )
    if not attempted(number, answer):
        print(
            _("challenge {number}: waiting for your message (change the cell above, run it, then this one).").format(
                number=number
            )
        )
        return
    if reason is not None:
        raise NotYet(number, reason, c.hint)
    print(_("challenge {number}: done.").format(number=number))


def send_as_given(number: int):
    """Send challenge `number`'s starting text through `%%rpc`, as its cell holds it at first.

    What a prediction about the challenge reveals (notebook 04: how many answers a message with
    newlines in it earns).  The answer is shown under the calling cell and returned; the
    challenge's own check still waits for the learner's message.
    """
    from IPython import get_ipython

    c = CHALLENGES[number]
    return get_ipython().run_cell_magic("rpc", f"{c.connection} {c.flags}".strip(), c.start)


def _send_and_check(number: int, text: str) -> None:
    """Send `text` through the `%%rpc` magic, as the learner's edited cell would, then check it."""
    from IPython import get_ipython

    c = CHALLENGES[number]
    answer = get_ipython().run_cell_magic("rpc", f"{c.connection} {c.flags}".strip(), text)
    check(number, answer)
