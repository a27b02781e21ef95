"""Notebook 07's words and helpers: its prediction, its typed task, its quiz.

    no_roots = mcp_lab.predict("no-roots")                      # ASKS below
    mcp_lab.your_turn("finish-on-a-fresh-process", my_retry)    # TASKS below
    mcp_lab.self_check("07")                                    # quiz()

They live here, not in the notebook, so that no answer sits on the learner's screen before they
answer (predict, then see).  The typed task asks the learner to write the retry of section 1's
interim answer by hand; its judge sends it, as written, to a *fresh* calendar process that never
saw the question, which is the point of `requestState`: whichever process gets the retry can
finish the call.  A retry the calendar refuses, asks again about, or answers with a tool error is
not done, and the judge says which in one sentence.
"""

from __future__ import annotations

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question, Quiz
from mcp_lab.wire import jsonrpc

ASKS = {
    "no-roots": Ask(
        "The showcase's brief_project needs the client's roots. A client whose clientCapabilities are {} "
        "calls it. What comes back?",
        options=["input_required", "-32021", "-32602", "complete"],
        why="A server MUST NOT ask for an input the client did not declare, so it cannot answer "
        "input_required with a roots/list; it refuses with -32021 (missing required client capability), "
        "and data.requiredCapabilities names what would do: roots.",
    ),
}

DENTIST = {"name": "create_event", "arguments": {"title": "Dentist"}}
FORM = {"elicitation": {"form": {}}}
STARTS_AT = "2026-09-10T08:30:00Z"  # the answer the task asks the learner to give


def _judge_retry(value) -> str | None:
    if not isinstance(value, dict):
        return "type the retry's params as a dict: the original name and arguments, inputResponses, requestState"
    if value.get("name") != DENTIST["name"] or value.get("arguments") != DENTIST["arguments"]:
        return 'keep the original params unchanged: name "create_event", arguments {"title": "Dentist"}'
    responses = value.get("inputResponses")
    if not isinstance(responses, dict) or "when" not in responses:
        return "inputResponses must hold the person's answer under the server's own key, \"when\""
    if "requestState" not in value:
        return "no requestState: the retry echoes the one the first answer carried, unchanged"
    from mcp_lab.session.connect import connect

    with connect("calendar", capabilities=FORM) as fresh:  # a process that never saw the question
        answer = fresh.request("tools/call", value)
    if isinstance(answer, jsonrpc.Error):
        return f"a fresh calendar refused it: {answer.code} {answer.message}"
    if answer.result_type != "complete":
        return 'a fresh calendar asked again: the answer under "when" is not an accepted start time'
    if answer.result.get("isError"):
        return f"a fresh calendar answered a tool error: {answer.result['content'][0]['text']}"
    made = answer.result.get("structuredContent") or {}
    if made.get("title") != DENTIST["arguments"]["title"]:
        return (
            f"a fresh calendar created {made.get('title')!r}, not 'Dentist': that requestState is not the one it gave"
        )
    if made.get("startsAt") != STARTS_AT:
        return f"the event starts at {made.get('startsAt')}, not 10 September 2026, 08:30 UTC ({STARTS_AT})"
    return None


TASKS = {
    "finish-on-a-fresh-process": Task(
        judge=_judge_retry,
        hint='Start from DENTIST: {**DENTIST, "inputResponses": {"when": {"action": "accept", '
        '"content": {"startsAt": ...}}}, "requestState": first.result["requestState"]}.',
        prompt="Set my_retry to the params of the retry, then run this cell.",
        done="a fresh calendar process, which never saw the question, created the event from your retry alone.",
    ),
}


def _questions_1() -> list[Question]:
    return [
        Question(
            "How does a 2026-07-28 server ask the person for a missing argument?",
            [
                "It sends `elicitation/create` to the client",
                'It answers `resultType: "input_required"`',
                "It answers -32602, naming the argument",
                "It keeps the call open and streams a form",
            ],
            1,
            [
                "Servers never send requests in this revision: that was the old design.",
                "Right: the answer lists `inputRequests`; the client asks the person and retries.",
                "An error ends the call; `input_required` is an interim result the client can complete.",
                "Nothing is kept open: the server holds nothing between the answer and the retry.",
            ],
        ),
        Question(
            "What does the client send next?",
            [
                "id 3 again, with the answers added",
                "A new id, answers, `requestState` as is",
                "A new id, answers only",
                "A new id, `requestState` edited",
            ],
            1,
            [
                "The retry is a new, independent request: its id MUST differ.",
                "Right: the original params again, `inputResponses` under the same keys, and the "
                "state echoed byte-exact.",
                "The state was given, so the client MUST echo it: the retry must be complete on its own.",
                "`requestState` is opaque: the client MUST NOT modify it.",
            ],
            situation='-> id 3  tools/call create_event {"title": "Dentist"}\n'
            '<- id 3  {"resultType": "input_required",\n'
            '          "inputRequests": {"when": {"method": "elicitation/create",\n'
            "                                     ...}},\n"
            '          "requestState": "eyJ0b29sIjoiY3JlYXRlX2V2ZW50In0.4f1c..."}',
        ),
        Question(
            "A server wants the user's API key. Which mode must it use?",
            [
                "Form mode, with a password field",
                "URL mode, on a page of its own",
                "Either, for a trusted client",
                "Form mode, with encrypted state",
            ],
            1,
            [
                "The spec forbids form mode for passwords, API keys, access tokens and payment credentials.",
                "Right: the person types the secret on the server's page; it never passes through "
                "the client or the model's context.",
                "Trust in the client does not change the rule: only URL mode is allowed for secrets.",
                "The form's answer still passes through the client, whatever happens to `requestState`.",
            ],
        ),
    ]


def _questions_2() -> list[Question]:
    return [
        Question(
            "How does the person's Decline reach the server?",
            [
                'In a retry: `inputResponses` holds `{"action": "decline"}`',
                "It does not: the client drops the call quietly",
                "As a JSON-RPC error response from the client",
                "As a JSON-RPC response to the server's request",
            ],
            0,
            [
                "Right: the answer is an ElicitResult under the same key, in a new request; the "
                "server decides what a decline means.",
                "The server gets to answer the decline (here: no event created).",
                "Clients send no responses here: the server sent no request, only a result.",
                "There was no request from the server to respond to: the question came inside a "
                "result, so the answer travels inside a new request.",
            ],
            situation='form shown: "When is the appointment?"   [Accept] [Decline] [Cancel]\n'
            "the person presses Decline",
        ),
        Question(
            "Where does the client's list of roots travel?",
            [
                "In a `roots/list` response to the server",
                "In `inputResponses` of the retried request",
                "In a `notifications/roots/list_changed`",
                "In `_meta`, on every request",
            ],
            1,
            [
                "The server sent no request: `roots/list` was an entry of `inputRequests` in a result.",
                "Right: a ListRootsResult under the server's key, in a new request.",
                "That notification was removed in 2026-07-28, and never carried the list itself.",
                "`_meta` carries the `roots` capability, not the roots.",
            ],
            situation='<- {"resultType": "input_required",\n'
            '    "inputRequests": {"workspace": {"method": "roots/list"}}}',
        ),
        Question(
            "Which request may a server answer with `input_required`?",
            ["`tools/list`", "`prompts/get`", "`server/discover`", "`resources/list`"],
            1,
            [
                "A list MUST NOT answer input_required: only three requests may.",
                "Right: `tools/call`, `prompts/get` and `resources/read` may; no other request.",
                "Discovery MUST NOT ask for input: it is how a client learns what the server speaks.",
                "A list MUST NOT answer input_required; `resources/read` may.",
            ],
        ),
    ]


def _questions_3() -> list[Question]:
    return [
        Question(
            "The server answered this. What does the client do?",
            [
                "Wait for a notification",
                "Retry at once, echoing the state",
                "Report an error: nothing to answer",
                "Retry at once, without the state",
            ],
            1,
            [
                "No notification is coming: the result itself says what to do.",
                "Right: with no inputRequests the client MAY retry immediately, and it MUST echo "
                "the state it was given.",
                "A state-only result is valid: at least one of the two fields MUST be present.",
                "The state was given, so the retry MUST carry it back exactly.",
            ],
            situation='<- {"resultType": "input_required", "requestState": "v1.RQBV..."}',
        ),
        Question(
            "A sealed requestState (AEAD, bound to the request, 5-minute expiry) is sent twice "
            "within a minute. What does the spec say?",
            [
                "The seal makes the second one fail",
                "Single use is the server's to enforce",
                "The client must never send it twice",
                "Expiry alone makes it single-use",
            ],
            1,
            [
                "A seal proves integrity; a faithful copy still verifies.",
                "Right: these measures bound the replay window; a server that needs at-most-once "
                "MUST enforce it server-side.",
                "The server MUST treat the state as attacker-controlled: it cannot rely on the client.",
                "Within its lifetime a state can be presented again.",
            ],
        ),
    ]


def quiz() -> Quiz:
    """The self-check, built when shown."""
    return Quiz(_questions_1() + _questions_2() + _questions_3(), key="quiz")
