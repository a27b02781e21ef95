"""Notebook 15 (reproduce a trace): its predictions, its quiz, and three small helpers.

They live here, not in the notebook, so that no answer sits on the learner's screen before
they answer (predict, then see):

- `ASKS["replayed-tool-name"]`: which tool name a replayed `tools/call` carries on a server whose
  `tools/list` puts another tool first; `which_name(recording, diff)` compares the names the
  recording called with the ones the replay actually wrote on the wire, and picks the option.
- `ASKS["my-replay"]`: how many exchanges of the learner's own session the diff marks changed.
- `tool_calls(source)`: the tool names of the `tools/call` requests a client wrote, read from a
  cassette file or from a replay's own trace (what was sent, not what a row is labelled).
- `person_accepts(when)`: the person's scripted answer to the calendar's question.
- `TASKS["player-refuses"]`: the learner writes a request whose method the recording holds but
  whose params it never saw; `ask_player(argv, my_request)` sends it to the cassette server and
  the judge wants the -32602 that says "known method, other params".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

# Options are English values (what `which_name` returns and the reveal compares); the display translates them.
NAMES = (
    N_("The name in the recording"),
    N_("The name the other server lists at the same place"),
    N_("None: the call is not sent"),
)

ASKS = {
    "replayed-tool-name": Ask(
        N_(
            "The recording calls tools/call with the calendar's tool name. The solved lab 10 server "
            "lists another tool first in its tools/list. Which tool name does the replayed tools/call carry?"
        ),
        options=list(NAMES),
        why=N_(
            "a replay sends exactly the recorded requests: method names and tool, prompt and "
            "resource names are never remapped. Only a value the server minted in a result and the "
            "client sent back (a handle, a cursor, a requestState) is taken from the new server."
        ),
    ),
    "my-replay": Ask(
        N_("Replayed against OTHER, how many of your session's exchanges will the diff mark changed? Type a number."),
        kind=int,
        why=N_(
            "each changed row lists its JSON paths: descriptions, serverInfo, cache hints and the "
            "server's own wording all count; only ids and requestState are set aside."
        ),
    ),
}


def _lines(source: Any) -> list[str]:
    if isinstance(source, (str, Path)):
        from mcp_lab.session import cassette

        return cassette.read(source).trace.sent
    return source.trace.sent


def tool_calls(source: Any) -> list[str]:
    """The `name` of every `tools/call` the client wrote: in a cassette file, or in a replay."""
    names = []
    for line in _lines(source):
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("method") == "tools/call":
            names.append((msg.get("params") or {}).get("name"))
    return names


def which_name(recording: Any, replayed: Any) -> str:
    """The option of `replayed-tool-name` that the wire shows: recorded names, others, or none."""
    recorded, sent = tool_calls(recording), tool_calls(replayed)
    if not sent:
        return NAMES[2]
    return NAMES[0] if sent == recorded[: len(sent)] else NAMES[1]


def ask_player(player: Any, my_request: Any) -> Any:
    """Send `my_request` ("method", {params}) to the cassette server `player`; print and return
    its answer.  `...` (the cell as given) sends nothing; a malformed request is returned as is."""
    if my_request is ...:
        return ...
    if not (isinstance(my_request, tuple) and len(my_request) == 2 and isinstance(my_request[0], str)):
        return my_request
    from mcp_lab.session.connect import connect

    method, params = my_request
    with connect(player) as client:
        answer = client.request(method, params if isinstance(params, dict) else {})
    print(method, "->", "result" if answer.ok else f"{answer.code} {answer.message}")
    return answer


def _judge_refusal(answer: Any) -> str | None:
    if not hasattr(answer, "ok"):
        return _('my_request is a pair: ("method", {params}), for example {example}').format(
            params="{params}", example='("tools/list", {})'
        )
    if answer.ok:
        return _("the player had exactly that request recorded and answered it: change a param")
    if answer.code == -32601:
        return _("the recording holds no request with that method: pick one it holds, with other params")
    if answer.code == -32602:
        return None
    return _("the player answered {code}: read its message above").format(code=answer.code)


TASKS = {
    "player-refuses": Task(
        judge=_judge_refusal,
        hint=N_("The recording holds tools/list and tools/call: ask for tools/call with other arguments."),
        prompt=N_("Write my_request above: a method the recording holds, params it never saw; run both cells."),
        done=N_("refused with -32602: the player knows the method, not those params."),
    ),
}


def person_accepts(when: str):
    """The person's answer to the calendar's question, scripted: accept, starting at `when`."""

    def accept(key: str, request: dict) -> dict:
        return {"action": "accept", "content": {"startsAt": when}}

    return accept


QUESTIONS = [
    Question(
        N_("A replay reaches a retry after input_required. Which requestState does it echo?"),
        [
            N_("The one in the recording"),
            N_("The one the new server just issued"),
            N_("None: the replay drops requestState"),
            N_("A fresh random value it makes up"),
        ],
        1,
        [
            N_(
                "The recorded state was issued by another server (or another run); echoing it asks "
                "the new server to trust state it never made."
            ),
            N_(
                "Right: the client echoes what this server handed out; only the person's answers come from the recording."
            ),
            N_("Without requestState the server could not continue the call it began."),
            N_("requestState is opaque and issued by the server; a client never invents one."),
        ],
    ),
    Question(
        N_(
            "Your recording calls tools/call create_event. The server you replay it against "
            "lists create_calendar first in its tools/list. What does the replay send?"
        ),
        [
            N_("tools/call create_event, as recorded"),
            N_("tools/call create_calendar, at the same place"),
            N_("Nothing: it skips a tool it has not seen"),
            N_("tools/list again, to learn the names"),
        ],
        0,
        [
            N_(
                "Right: a replay sends the recorded requests; names are never remapped. Only values "
                "the server minted and the client sent back (handles, cursors, requestState) are."
            ),
            N_(
                "A tool name is chosen by the client, not minted by the server: swapping it would "
                "call another tool, a write to the wrong place on a real server."
            ),
            N_("It sends the call; if the server has no such tool, its answer says so and the diff shows it."),
            N_("It sends the recorded requests in order, no more and no fewer."),
        ],
    ),
    Question(
        N_(
            "Replaying the chapter's legacy probe with era='modern' against the reference server "
            "lists 12 tools, not 13. Why?"
        ),
        [
            N_("The thirteenth tool needs a session"),
            N_("The reference server was upgraded since"),
            N_("The diff leaves out the last tool"),
            N_("The _meta makes the server hide one"),
        ],
        0,
        [
            N_("Right: without initialize there is no session, and the server lists what it lists before one."),
            N_("The same pinned package answered both; only the conversation changed."),
            N_("The diff reports the missing tool as a removed path, answer.result.tools[12]."),
            N_("A legacy server ignores _meta; the difference is the missing handshake."),
        ],
    ),
    Question(
        N_("Which differences does a replay set aside before comparing, by default?"),
        [
            N_("Nothing at all"),
            N_("Every field under _meta"),
            N_("The id and every requestState"),
            N_("Any field whose value is a string"),
        ],
        2,
        [
            N_(
                "Ids are remapped on replay and requestState is opaque: comparing them would call every replay different."
            ),
            N_("_meta holds the server's identity, which is worth seeing; ignore it explicitly."),
            N_("Right: those vary between honest runs; anything else is reported."),
            N_("That would hide almost every real difference."),
        ],
    ),
    Question(
        N_("The cassette server gets a tools/call whose arguments were never recorded. What does it do?"),
        [
            N_("Answers with the closest recorded answer"),
            N_("Crashes with a traceback on stderr"),
            N_("Forwards it to the server it recorded"),
            N_("Refuses it with -32602, says why"),
        ],
        3,
        [
            N_("A made-up answer would look real and mislead the client."),
            N_("A server that crashes on unexpected input is of no use offline."),
            N_("It is only a file; there is no real server behind it."),
            N_("Right: the method is known, the params are not; -32601 is kept for a method never recorded."),
        ],
    ),
]
