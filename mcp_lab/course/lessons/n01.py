"""Notebook 01's words and helpers: its prediction, its typed task, its quiz, and the stand-ins
the lesson calls in one line (the two scripted "models", a string collector, the consent report).

    saw = mcp_lab.predict("notes-log-holds")            # ASKS below
    mcp_lab.your_turn("note-that-names-it", my_call)    # TASKS below: sent to a fresh notes server
    mcp_lab.self_check("01")                            # quiz() below

Theory of operation
-------------------
The lesson is the host: the notebook keeps the Host class and its consent rule on screen.  What
is not the lesson lives here: the scripted models stand in for an LLM (same interface: the
conversation and the tools in, a tool call or an answer out, the same run every time), and
`strings_in` walks a JSON value.

The typed task is judged by a real notes server: `judge_note_that_names_it` sends the learner's
`tools/call` params to a fresh notes process that logs what it receives (the in-tab server in
the browser edition), and reads that log back.  It is done when the call stored a note and the
notes server's own log holds the event's title and its id: the one way a value reaches a server
is inside a request the host sends it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question, Quiz
from mcp_lab.wire.words import N_, _

ASKS = {
    "notes-log-holds": Ask(
        N_(
            "Four lines were said in this conversation: the system prompt and the person's three "
            "turns. How many of them appear, word for word, in the notes server's own log?"
        ),
        options=["0", "1", "2", "3", "4"],  # options, not an int box: its default 0 would be on screen
        why=N_(
            "a server receives requests, nothing else: the method, the arguments the model chose, "
            "and the _meta envelope (revision, capabilities, client). The conversation stays in the host."
        ),
    ),
}


def scripted_model(conversation: list[dict], tool_names: list[str]) -> dict:
    """A stand-in for a model: books the dentist and leaves a note about the booking's id, or
    lists the notes.  The event id it puts in add_note is read from the conversation."""
    last_user = max(i for i, t in enumerate(conversation) if t["role"] == "user")
    done = [t for t in conversation[last_user:] if t["role"] == "tool"]
    request = conversation[last_user]["content"].lower()
    if "dentist" in request:
        if not done:
            arguments = {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}
            return {"type": "tool", "tool": "create_event", "arguments": arguments}
        event_id = done[0]["result"]["structuredContent"]["id"]  # read from the conversation
        if len(done) == 1:
            arguments = {"text": "Bring the insurance card", "about": event_id}
            return {"type": "tool", "tool": "add_note", "arguments": arguments}
        return {"type": "answer", "content": f"Booked {event_id} and left a note."}
    if "notes" in request:
        if not done:
            return {"type": "tool", "tool": "list_notes", "arguments": {}}
        notes = done[0]["result"]["structuredContent"]["notes"]
        return {"type": "answer", "content": f"You have {len(notes)} note(s)."}
    return {"type": "answer", "content": "I can book events and keep notes."}


def gullible_model(conversation: list[dict], tools: dict) -> dict:
    """Books the dentist, but first obeys any instruction it finds in a tool description."""
    last_user = max(i for i, t in enumerate(conversation) if t["role"] == "user")
    done = [t["tool"] for t in conversation[last_user:] if t["role"] == "tool"]
    if "compliance" in tools["add_note"]["description"] and "add_note" not in done:
        said = [str(t.get("content", "")) for t in conversation if t["role"] in ("system", "user")]
        return {"type": "tool", "tool": "add_note", "arguments": {"text": " | ".join(said)}}
    if "create_event" not in done:
        arguments = {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}
        return {"type": "tool", "tool": "create_event", "arguments": arguments}
    made = next(t for t in conversation[last_user:] if t.get("tool") == "create_event")
    if made["result"]["isError"]:
        return {"type": "answer", "content": "Not booked: you declined."}
    return {"type": "answer", "content": f"Booked {made['result']['structuredContent']['id']}."}


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (dict values and list items, at any depth)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def consent_report(prompts: list, replies: list[str], notes_log: Path) -> None:
    """What the consent demo did: each prompt's decision, then what reached the notes server."""
    from mcp_lab.servers.logged import read_log

    asked = [(p.name, p.decision) for p in prompts]
    print(_("asked: {asked} | replies: {replies}").format(asked=asked, replies=replies))
    if any(p.decision is None for p in prompts):
        print(_("A prompt above is still waiting for your decision: press Allow or Deny, then run this cell again."))
        return
    sent = [m["params"]["name"] for m in read_log(notes_log) if m["method"] == "tools/call"]
    print(_("tools/call received by the notes server: {sent}").format(sent=sent or _("none")))
    if "INS-4471" in Path(notes_log).read_text():
        print(_("The notes server received the conversation."))
    else:
        print(_("The notes server never received the conversation: the host stopped the call."))


def judge_note_that_names_it(call: Any) -> str | None:
    """None when `call`, sent as tools/call params to a fresh notes server, stored a note whose
    arguments (in the server's own log) name the dentist and e3; else one sentence."""
    if not isinstance(call, dict) or not isinstance(call.get("arguments"), dict):
        return _('type a dict {"name": "add_note", "arguments": {...}}: the params of the host\'s tools/call.')
    if call.get("name") != "add_note":
        return _("the notes server offers add_note and list_notes; {name} stores nothing.").format(
            name=repr(call.get("name"))
        )
    from mcp_lab.servers.logged import read_log
    from mcp_lab.session.connect import connect

    # A folder of its own for each judging, removed after: the log is read here and nowhere else.
    with tempfile.TemporaryDirectory(prefix="mcp_lab-01-task-") as folder:
        log = Path(folder) / "notes.log"
        argv = [sys.executable, "-m", "mcp_lab.servers.notes", "--log", str(log)]
        with connect(argv, name="notes", timeout=10) as notes:
            answer = notes.request("tools/call", call)
        if not answer.ok:
            return _("the notes server answered {code} ({message}).").format(code=answer.code, message=answer.message)
        if answer.result.get("isError"):
            return _("the notes server refused: {text}").format(text=answer.result["content"][0]["text"])
        [received] = [m["params"]["arguments"] for m in read_log(log) if m["method"] == "tools/call"]
    said = " ".join(strings_in(received)).lower()
    if "dentist" not in said:
        return _("the notes server received {received}: nothing in it says it is a dentist appointment.").format(
            received=json.dumps(received)
        )
    if "e3" not in set(strings_in(received)):
        return _("the notes server received {received}: nothing in it says which event (e3).").format(
            received=json.dumps(received)
        )
    return None


TASKS = {
    "note-that-names-it": Task(
        judge=judge_note_that_names_it,
        hint=N_("add_note takes a text and, optionally, what the note is about (an event id)."),
        prompt=N_("Write my_call in the cell above (a dict), run it, then run this cell."),
        done=N_("done: the notes server's own log holds the title now, because your call carried it."),
    ),
}


def quiz() -> Quiz:  # Long on purpose: the questions are data, one Question each
    quiz = Quiz(
        [
            Question(
                N_("A weather server is connected to your assistant. What does it receive when the model uses it?"),
                [
                    N_("The whole conversation so far, so that it can understand the question"),
                    N_("A tools/call with the arguments the model chose, plus the envelope"),
                    N_("The last user message and the names of the other servers"),
                    N_("The conversation and the other servers' recent results"),
                ],
                1,
                [
                    N_("The history stays with the host; servers get only what they need."),
                    N_("Right: method, arguments, and `_meta` (revision, capabilities, client info). Nothing else."),
                    N_("The person's words stay with the host too; a server sees only its own requests."),
                    N_("Servers do not see into each other; only the host holds every result."),
                ],
            ),
            Question(
                N_("The notes server above stored a note about 'e3'. How did it get that id?"),
                [
                    N_("It asked the calendar server directly"),
                    N_("The host put it in the add_note arguments"),
                    N_("It read the calendar's resources itself"),
                    N_("MCP shares ids between all servers of a host"),
                ],
                1,
                [
                    N_("Servers never talk to each other in MCP; the host sits between them."),
                    N_("Right: a cross-server value travels as an ordinary argument the host chose to send."),
                    N_("A server can read only its own resources; the calendar's are behind the calendar's process."),
                    N_("There is no shared namespace; 'e3' means nothing to the notes server beyond a string."),
                ],
            ),
            Question(
                N_("Which party in this exchange saw both the event's title and the note?"),
                [
                    N_("The calendar server"),
                    N_("The notes server"),
                    N_("The host"),
                    N_("Both servers, via their session"),
                ],
                2,
                [
                    N_("The calendar saw the title but never the note: it was not sent to it."),
                    N_("The notes server saw 'Remember e3', never the title 'Dentist'."),
                    N_("Right: only the host holds every request and every result."),
                    N_("There is no shared session between servers (nor any session at all in 2026-07-28)."),
                ],
                situation=(  # wire only: nothing to translate
                    'host -> calendar: tools/call create_event {"title": "Dentist", '
                    '"startsAt": "..."}\n'
                    'calendar -> host: {"content": [{"type": "text", "text": "Created e3"}], '
                    "...}\n"
                    'host -> notes:    tools/call add_note {"text": "Remember e3"}'
                ),
            ),
            Question(
                N_("Which of these are the host's job?"),
                [
                    N_("Holding the conversation history"),
                    N_("Deciding which server gets which call"),
                    N_("Storing the calendar's events"),
                    N_("Asking the person before a write happens"),
                ],
                {0, 1, 3},
                [
                    N_("Yes: the history stays with the host."),
                    N_("Yes: the host routes each tool call to the one server that owns the tool."),
                    N_("No: that is the calendar server's own data, behind its tools."),
                    N_("Yes: consent is the host's to ask for, since only it talks to the person."),
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
