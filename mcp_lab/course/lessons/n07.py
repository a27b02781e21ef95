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
from mcp_lab.wire.words import N_, _

ASKS = {
    "no-roots": Ask(
        N_(
            "The showcase's brief_project needs the client's roots. A client whose clientCapabilities are {} "
            "calls it. What comes back?"
        ),
        options=["input_required", "-32021", "-32602", "complete"],
        why=N_(
            "A server MUST NOT ask for an input the client did not declare, so it cannot answer "
            "input_required with a roots/list; it refuses with -32021 (missing required client capability), "
            "and data.requiredCapabilities names what would do: roots."
        ),
    ),
}

DENTIST = {"name": "create_event", "arguments": {"title": "Dentist"}}
FORM = {"elicitation": {"form": {}}}
STARTS_AT = "2026-09-10T08:30:00Z"  # the answer the task asks the learner to give


def _judge_retry(value) -> str | None:
    if not isinstance(value, dict):
        return _("type the retry's params as a dict: the original name and arguments, inputResponses, requestState")
    if value.get("name") != DENTIST["name"] or value.get("arguments") != DENTIST["arguments"]:
        return _('keep the original params unchanged: name "create_event", arguments {"title": "Dentist"}')
    responses = value.get("inputResponses")
    if not isinstance(responses, dict) or "when" not in responses:
        return _("inputResponses must hold the person's answer under the server's own key, \"when\"")
    if "requestState" not in value:
        return _("no requestState: the retry echoes the one the first answer carried, unchanged")
    from mcp_lab.session.connect import connect

    with connect("calendar", capabilities=FORM) as fresh:  # a process that never saw the question
        answer = fresh.request("tools/call", value)
    if isinstance(answer, jsonrpc.Error):
        return _("a fresh calendar refused it: {code} {message}").format(code=answer.code, message=answer.message)
    if answer.result_type != "complete":
        return _('a fresh calendar asked again: the answer under "when" is not an accepted start time')
    if answer.result.get("isError"):
        return _("a fresh calendar answered a tool error: {text}").format(text=answer.result["content"][0]["text"])
    made = answer.result.get("structuredContent") or {}
    if made.get("title") != DENTIST["arguments"]["title"]:
        return _("a fresh calendar created {title}, not 'Dentist': that requestState is not the one it gave").format(
            title=repr(made.get("title"))
        )
    if made.get("startsAt") != STARTS_AT:
        return _("the event starts at {got}, not 10 September 2026, 08:30 UTC ({wanted})").format(
            got=made.get("startsAt"), wanted=STARTS_AT
        )
    return None


TASKS = {
    "finish-on-a-fresh-process": Task(
        judge=_judge_retry,
        hint=N_(
            'Start from DENTIST: {**DENTIST, "inputResponses": {"when": {"action": "accept", '
            '"content": {"startsAt": ...}}}, "requestState": first.result["requestState"]}.'
        ),
        prompt=N_("Set my_retry to the params of the retry, then run this cell."),
        done=N_("a fresh calendar process, which never saw the question, created the event from your retry alone."),
    ),
}


# Long on purpose: quiz data, one question after another, each marked for translation
def _questions_1() -> list[Question]:
    return [
        Question(
            N_("How does a 2026-07-28 server ask the person for a missing argument?"),
            [
                N_("It sends `elicitation/create` to the client"),
                N_('It answers `resultType: "input_required"`'),
                N_("It answers -32602, naming the argument"),
                N_("It keeps the call open and streams a form"),
            ],
            1,
            [
                N_("Servers never send requests in this revision: that was the old design."),
                N_("Right: the answer lists `inputRequests`; the client asks the person and retries."),
                N_("An error ends the call; `input_required` is an interim result the client can complete."),
                N_("Nothing is kept open: the server holds nothing between the answer and the retry."),
            ],
        ),
        Question(
            N_("What does the client send next?"),
            [
                N_("id 3 again, with the answers added"),
                N_("A new id, answers, `requestState` as is"),
                N_("A new id, answers only"),
                N_("A new id, `requestState` edited"),
            ],
            1,
            [
                N_("The retry is a new, independent request: its id MUST differ."),
                N_(
                    "Right: the original params again, `inputResponses` under the same keys, and the "
                    "state echoed byte-exact."
                ),
                N_("The state was given, so the client MUST echo it: the retry must be complete on its own."),
                N_("`requestState` is opaque: the client MUST NOT modify it."),
            ],
            situation=(  # wire only: nothing to translate
                '-> id 3  tools/call create_event {"title": "Dentist"}\n'
                '<- id 3  {"resultType": "input_required",\n'
                '          "inputRequests": {"when": {"method": "elicitation/create",\n'
                "                                     ...}},\n"
                '          "requestState": "eyJ0b29sIjoiY3JlYXRlX2V2ZW50In0.4f1c..."}'
            ),
        ),
        Question(
            N_("A server wants the user's API key. Which mode must it use?"),
            [
                N_("Form mode, with a password field"),
                N_("URL mode, on a page of its own"),
                N_("Either, for a trusted client"),
                N_("Form mode, with encrypted state"),
            ],
            1,
            [
                N_("The spec forbids form mode for passwords, API keys, access tokens and payment credentials."),
                N_(
                    "Right: the person types the secret on the server's page; it never passes through "
                    "the client or the model's context."
                ),
                N_("Trust in the client does not change the rule: only URL mode is allowed for secrets."),
                N_("The form's answer still passes through the client, whatever happens to `requestState`."),
            ],
        ),
    ]


def _questions_2() -> list[Question]:
    return [
        Question(
            N_("How does the person's Decline reach the server?"),
            [
                N_('In a retry: `inputResponses` holds `{"action": "decline"}`'),
                N_("It does not: the client drops the call quietly"),
                N_("As a JSON-RPC error response from the client"),
                N_("As a JSON-RPC response to the server's request"),
            ],
            0,
            [
                N_(
                    "Right: the answer is an ElicitResult under the same key, in a new request; the "
                    "server decides what a decline means."
                ),
                N_("The server gets to answer the decline (here: no event created)."),
                N_("Clients send no responses here: the server sent no request, only a result."),
                N_(
                    "There was no request from the server to respond to: the question came inside a "
                    "result, so the answer travels inside a new request."
                ),
            ],
            situation=N_(
                'form shown: "When is the appointment?"   [Accept] [Decline] [Cancel]\nthe person presses Decline'
            ),
        ),
        Question(
            N_("Where does the client's list of roots travel?"),
            [
                N_("In a `roots/list` response to the server"),
                N_("In `inputResponses` of the retried request"),
                N_("In a `notifications/roots/list_changed`"),
                N_("In `_meta`, on every request"),
            ],
            1,
            [
                N_("The server sent no request: `roots/list` was an entry of `inputRequests` in a result."),
                N_("Right: a ListRootsResult under the server's key, in a new request."),
                N_("That notification was removed in 2026-07-28, and never carried the list itself."),
                N_("`_meta` carries the `roots` capability, not the roots."),
            ],
            situation=(  # wire only: nothing to translate
                '<- {"resultType": "input_required",\n    "inputRequests": {"workspace": {"method": "roots/list"}}}'
            ),
        ),
        Question(
            N_("Which request may a server answer with `input_required`?"),
            ["`tools/list`", "`prompts/get`", "`server/discover`", "`resources/list`"],
            1,
            [
                N_("A list MUST NOT answer input_required: only three requests may."),
                N_("Right: `tools/call`, `prompts/get` and `resources/read` may; no other request."),
                N_("Discovery MUST NOT ask for input: it is how a client learns what the server speaks."),
                N_("A list MUST NOT answer input_required; `resources/read` may."),
            ],
        ),
    ]


def _questions_3() -> list[Question]:
    return [
        Question(
            N_("The server answered this. What does the client do?"),
            [
                N_("Wait for a notification"),
                N_("Retry at once, echoing the state"),
                N_("Report an error: nothing to answer"),
                N_("Retry at once, without the state"),
            ],
            1,
            [
                N_("No notification is coming: the result itself says what to do."),
                N_(
                    "Right: with no inputRequests the client MAY retry immediately, and it MUST echo "
                    "the state it was given."
                ),
                N_("A state-only result is valid: at least one of the two fields MUST be present."),
                N_("The state was given, so the retry MUST carry it back exactly."),
            ],
            situation=(  # wire only: nothing to translate
                '<- {"resultType": "input_required", "requestState": "v1.RQBV..."}'
            ),
        ),
        Question(
            N_(
                "A sealed requestState (AEAD, bound to the request, 5-minute expiry) is sent twice "
                "within a minute. What does the spec say?"
            ),
            [
                N_("The seal makes the second one fail"),
                N_("Single use is the server's to enforce"),
                N_("The client must never send it twice"),
                N_("Expiry alone makes it single-use"),
            ],
            1,
            [
                N_("A seal proves integrity; a faithful copy still verifies."),
                N_(
                    "Right: these measures bound the replay window; a server that needs at-most-once "
                    "MUST enforce it server-side."
                ),
                N_("The server MUST treat the state as attacker-controlled: it cannot rely on the client."),
                N_("Within its lifetime a state can be presented again."),
            ],
        ),
    ]


def quiz() -> Quiz:
    """The self-check, built when shown."""
    return Quiz(_questions_1() + _questions_2() + _questions_3(), key="quiz")
