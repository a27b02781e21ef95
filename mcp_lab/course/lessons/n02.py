"""Notebook 02's words and helpers: its predictions, its typed task, its quiz, and the two
pieces of machinery the lesson calls in one line (the SDK cache run, the error-code policy).

    guess = mcp_lab.predict("tools-list-asks-2025")     # ASKS below
    mcp_lab.your_turn("meta-for-the-form", my_meta)     # TASKS below: sent to a fresh calendar
    mcp_lab.self_check("02")                            # quiz() below

Theory of operation
-------------------
Predict, then see: the questions and their reasons live here, not in the notebook, so that no
answer sits on the learner's screen before they commit; the notebook's reveal cell computes the
verdict from what the calendar really answered.

The typed task is judged by the real server: `judge_meta_for_the_form` puts the learner's `_meta`
into a `tools/call create_event` without a start time, writes it as one line to a fresh calendar
process (the in-tab calendar in the browser edition), and reads the answer.  The task is done when
the calendar asks the person (`resultType: "input_required"`) instead of refusing; otherwise the
sentence names the code and message the calendar sent, which is what the learner needs to fix.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question, Quiz
from mcp_lab.wire.words import N_, _

ASKS = {
    "tools-list-asks-2025": Ask(
        N_("A tools/list whose _meta asks for revision 2025-11-25, sent to this calendar: what comes back?"),
        options=[N_("a complete result"), "-32602", "-32022", "-32601"],
        why=N_(
            "the calendar serves 2026-07-28 only. A server asked for a revision it does not serve "
            "**MUST** answer `-32022` (*Unsupported protocol version*) and list in `data.supported` the "
            "revisions it does serve, so the client can pick one and send a new request ([version "
            "negotiation](https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning"
            "#protocol-version-negotiation); [UnsupportedProtocolVersionError](https://modelcontextprotocol"
            ".io/specification/2026-07-28/schema#unsupportedprotocolversionerror))."
        ),
    ),
    "create-without-start": Ask(
        N_(
            "tools/call create_event with a title and no startsAt, from a client whose "
            "clientCapabilities are empty: what comes back?"
        ),
        options=["-32602", "input_required", "-32021", "-32601"],
        why=N_(
            "the call is well formed, but finishing it means asking the person, and this client "
            "never said it can. A client that did not declare a capability the call needs gets `-32021` "
            "(*missing required client capability*) instead of a question ([error codes](https://"
            "modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes); "
            "[MissingRequiredClientCapabilityError](https://modelcontextprotocol.io/specification/"
            "2026-07-28/schema#missingrequiredclientcapabilityerror))."
        ),
    ),
}

FORM_CALL = {"name": "create_event", "arguments": {"title": "Dentist"}}


def judge_meta_for_the_form(meta: Any) -> str | None:
    """None when the calendar, sent `create_event` without a start and this `_meta`, asks the
    person (input_required); else one sentence naming what the calendar answered."""
    if meta is ... or not isinstance(meta, dict):
        return _("type a dict: the _meta object, with the reserved keys a 2026-07-28 request carries.")
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {**FORM_CALL, "_meta": meta}}
    try:
        line = json.dumps(request, separators=(",", ":"))
    except (TypeError, ValueError) as e:
        return _("that _meta is not JSON ({error}): use dicts, strings and numbers only.").format(error=e)
    from mcp_lab.session.connect import connect

    with connect("calendar", timeout=10) as cal:
        answers = cal.send_raw(line, timeout=10)
    if not answers:
        return _("the calendar sent nothing back within 10 s.")
    answer = answers[0]
    if getattr(answer, "code", None) is not None:
        if answer.data:
            return _("the calendar answered {code} ({message}); its data: {data}.").format(
                code=answer.code, message=answer.message, data=json.dumps(answer.data)
            )
        return _("the calendar answered {code} ({message}).").format(code=answer.code, message=answer.message)
    kind = answer.result.get("resultType")
    if kind != "input_required":
        return _("the calendar answered resultType {kind}, not a question for the person.").format(kind=repr(kind))
    return None


TASKS = {
    "meta-for-the-form": Task(
        judge=judge_meta_for_the_form,
        hint=N_(
            "two reserved keys, both io.modelcontextprotocol/...: the revision you speak, and "
            "your capabilities, declaring the one that error.data.requiredCapabilities named above."
        ),
        prompt=N_("Write my_meta in the cell above (a dict), run it, then run this cell."),
        done=N_(
            "done: the calendar answered input_required, a form asking when the dentist starts "
            "(notebook 07 answers it)."
        ),
    ),
}


def code_policy(code: int) -> str:
    """Where an error code sits in the 2026-07-28 policy (basic/index, Error Codes)."""
    if code in (-32700, -32600, -32601, -32602, -32603):
        return _("standard JSON-RPC")
    if code in (-32002, -32042):
        return _("retired: MUST NOT be emitted by a 2026-07-28 implementation")
    if code in (-32020, -32021, -32022):
        return _("defined by MCP")
    if -32019 <= code <= -32000:
        return _("legacy sub-range: new implementations SHOULD NOT use it")
    if -32099 <= code <= -32020:
        return _("reserved for the MCP specification: MUST NOT be emitted")
    if -32768 <= code <= -32000:
        return _("reserved by JSON-RPC: not for a purpose of your own")
    return _("outside the reserved range: free for your own errors")


async def sdk_cache_run(log: Path, rounds: int = 50) -> tuple[Any, float, float]:
    """The official SDK's client against the logged calendar: one `list_tools()`, `rounds` more
    within ttlMs, then `rounds` tool calls.  Returns (first result, seconds per cached listing,
    seconds per uncached call); what reached the server is in `log`."""
    import sys

    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    logged = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_lab.servers.logged", "--log", str(log), "mcp_lab.servers.calendar"],
    )
    # The server's stderr goes to a file beside the log (a notebook's own stderr is no file).
    with open(Path(log).with_suffix(".stderr"), "w") as server_stderr:
        async with Client(stdio_client(logged, errlog=server_stderr)) as sdk:
            first = await sdk.list_tools()  # goes to the server
            start = time.perf_counter()
            for _ in range(rounds):
                await sdk.list_tools()  # within ttlMs: from the client's cache
            cached = (time.perf_counter() - start) / rounds
            start = time.perf_counter()
            for _ in range(rounds):  # a tool call is never cached
                await sdk.call_tool("create_event", {"title": "x", "startsAt": "not a date"})
            uncached = (time.perf_counter() - start) / rounds
    return first, cached, uncached


def _messages_questions() -> list[Question]:  # Long on purpose: three questions, as data
    """Q1-Q3: the envelope, the id, who decides a resource."""
    return [
        Question(
            N_("What must the server answer?"),
            [
                N_("-32601 Method not found"),
                N_("-32602 Invalid params"),
                N_("Reuse the last request's capabilities"),
                N_("-32022 Unsupported version"),
            ],
            1,
            [
                N_("The method exists; what is wrong is the request's params."),
                N_("Right: a request missing either required `_meta` key is malformed, and the answer is -32602."),
                N_(
                    "The revision is stateless: nothing may be inferred from earlier requests, even on "
                    "the same connection."
                ),
                N_("-32022 is for a version the server does not serve, with `data.supported` listing what it does."),
            ],
            situation=N_(
                '-> {"jsonrpc": "2.0", "id": 2, "method": "tools/list",\n'
                '    "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": '
                '"2026-07-28"}}}\n'
                "   (no io.modelcontextprotocol/clientCapabilities in _meta)"
            ),
        ),
        Question(
            N_("Which of these is a valid request id in MCP 2026-07-28?"),
            ["null", '"a7"', '{"n": 7}', "true"],
            1,
            [
                N_("MCP is stricter than JSON-RPC here: an id is never null."),
                N_("Right: a string or an integer that is not in use by another pending request."),
                N_("An object is not an id in JSON-RPC or in MCP."),
                N_("A boolean is not an id, even though Python treats True as 1."),
            ],
        ),
        Question(
            N_("Who decides that a resource such as `calendar://week` enters the context?"),
            [N_("The model"), N_("The application (host)"), N_("The person, by a command"), N_("The server")],
            1,
            [
                N_("The model decides to call tools."),
                N_("Right: resources are application-controlled; the host chooses what to attach."),
                N_("That is the prompt primitive: the person picks it, like a slash command."),
                N_("The server offers primitives; it decides none of these."),
            ],
        ),
    ]


def _errors_questions() -> list[Question]:  # Long on purpose: three questions, as data
    """Q4-Q6: -32021, a timeout, an error code of your own."""
    return [
        Question(
            N_("What went wrong, and what does the client do next?"),
            [
                N_("The method is unknown on this server: fall back to `initialize`"),
                N_("The call needs elicitation, which the client did not declare"),
                N_("The version is wrong: retry with another"),
                N_("The server lost the session: reconnect"),
            ],
            1,
            [
                N_("-32601 would say that; -32021 says the method exists but needs a client capability."),
                N_(
                    "Right: -32021 names what is missing in `data.requiredCapabilities`; a client that "
                    "can ask the person declares `elicitation` in `_meta` and sends a new request."
                ),
                N_("That is -32022, whose `data.supported` lists the versions the server serves."),
                N_("There is no session in 2026-07-28: each request carries its own capabilities."),
            ],
            situation=(  # wire only: nothing to translate
                '-> {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": '
                '"create_event",\n'
                '    "arguments": {"title": "Dentist"}, "_meta": {..., '
                '"io.modelcontextprotocol/clientCapabilities": {}}}}\n'
                '<- {"jsonrpc": "2.0", "id": 4, "error": {"code": -32021, "message": '
                '"...",\n'
                '    "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}}}'
            ),
        ),
        Question(
            N_("No answer comes within the deadline. What should the client do?"),
            [
                N_("Resend the same line: the server drops duplicates"),
                N_("Send notifications/cancelled for id 7 and stop waiting; a new attempt is a new id"),
                N_("Send an empty line to flush the pipe"),
                N_("Wait without a deadline: one always comes"),
            ],
            1,
            [
                N_(
                    "Nothing in the protocol de-duplicates by id: a resent create_event may create a "
                    "second event, and a reused pending id is invalid."
                ),
                N_(
                    "Right: on a timeout the sender SHOULD cancel (on stdio, notifications/cancelled "
                    "naming id 7) and stop waiting, ignoring a late answer; trying again means a new "
                    "request with its own id (and thought about whether a second create is safe)."
                ),
                N_("Framing is by line, and the line was complete; an empty line is just invalid input."),
                N_("A server can be stuck or dead: every wait needs a deadline."),
            ],
            situation=N_(
                '-> {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": '
                '"create_event", ...}}\n'
                "   ... 10 s pass, nothing on stdout ..."
            ),
        ),
        Question(
            N_("A server author needs a new error for 'the calendar is full'. Which code may it use?"),
            [
                N_("-32023, the next free MCP code"),
                N_("-32010, in the legacy sub-range"),
                N_("-32002, since the resource is in a sense not found"),
                N_("-1001, outside the reserved range"),
            ],
            3,
            [
                N_(
                    "-32020 to -32099 is reserved for the MCP specification: implementations MUST NOT "
                    "emit a code from it that the spec does not define."
                ),
                N_(
                    "New codes MUST NOT be allocated in -32000 to -32019, and new implementations "
                    "SHOULD NOT use that sub-range at all."
                ),
                N_(
                    "-32002 is retired: a 2026-07-28 implementation MUST NOT emit it (a missing resource is -32602 now)."
                ),
                N_(
                    "Right: codes for purposes of your own SHOULD be allocated outside the JSON-RPC "
                    "reserved range, -32768 to -32000."
                ),
            ],
        ),
    ]


def quiz() -> Quiz:
    return Quiz([*_messages_questions(), *_errors_questions()], key="quiz")
