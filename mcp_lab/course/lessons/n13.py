"""Notebook 13 (Streamable HTTP): its prediction, its typed task, its quiz, two small helpers.

They live here, not in the notebook, so that no answer sits on the learner's screen before
they answer (predict, then see), and so that the notebook's cells hold the lesson alone:

- `ASKS["get-status"]`: the status of a `GET` on the MCP endpoint (the reveal cell computes it);
  `ASKS["sdk-bare-get"]`: the same `GET` without a version header, to the official SDK's server.
- `TASKS["break-a-header"]`: the learner sets one mirrored header to a value the body does not
  carry; `send_with_header(my_header)` sends the `tools/call` with it to a calendar of its own
  and prints the raw exchange, and the judge reads that exchange (400 with -32020 is the goal).
- `dentist(client, start)`: notebook 09's two-request booking, run over any transport.
- `wait_for_stream_end(client, seconds)`: a bounded wait until the last HTTP exchange is read.
"""

from __future__ import annotations

import time
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

HEADER_FORMS = [
    N_("Açores, as typed"),
    N_("Açores, percent-encoded (A%C3%A7ores)"),
    N_("a Base64 sentinel"),
    N_("no header: the body carries it"),
]


def header_form(value: str | None) -> str:
    """Which of HEADER_FORMS a mirrored header value is (for the prediction's verdict)."""
    if value is None:
        return HEADER_FORMS[3]
    if value.startswith("=?base64?") and value.endswith("?="):
        return HEADER_FORMS[2]
    return HEADER_FORMS[1] if "%" in value else HEADER_FORMS[0]


ASKS = {
    "region-header-form": Ask(
        N_(
            'The client calls the showcase\'s test_header_echo with region "Açores" over HTTP. '
            "What does the Mcp-Param-Region header carry?"
        ),
        options=HEADER_FORMS,
        why=N_(
            "a header value must be plain ASCII, and ç is not; the client wraps the UTF-8 bytes in "
            "Base64 between =?base64? and ?=, and the server decodes them before comparing with the body."
        ),
    ),
    "get-status": Ask(
        N_("A GET on the calendar's MCP endpoint, no body: which HTTP status comes back? Type the number."),
        kind=int,
        why=N_(
            "2026-07-28 removed the GET stream (and sessions with it): a modern-only server SHOULD "
            "answer GET and DELETE with 405 Method Not Allowed, and the calendar names the one method "
            "it takes in `Allow: POST`."
        ),
    ),
    "sdk-bare-get": Ask(
        N_(
            "The official SDK's server (mcp 2.3.0) gets a GET that carries `Accept` and no "
            "MCP-Protocol-Version header: which HTTP status comes back? Type the number."
        ),
        kind=int,
        why=N_(
            "the SDK serves both eras on one endpoint and picks the era from MCP-Protocol-Version "
            "alone: without it the GET takes the legacy path, where a GET without Mcp-Session-Id is a "
            "session request with no session (400, -32600). With 2026-07-28 in the header it gets 405."
        ),
    ),
}

CALL = {"name": "create_event", "arguments": {"title": "Yours", "startsAt": "2026-09-10T08:30:00Z"}}


def _judge_header(ex: Any) -> str | None:
    code = (ex.json() or {}).get("error", {}).get("code") if ex.status >= 400 else None
    if ex.status == 400 and code == -32020:
        return None
    if ex.status < 300:
        return _(
            "the server accepted the call: the mirrored headers still agree with the body; give one "
            "of MCP-Protocol-Version, Mcp-Method, Mcp-Name a value the body does not carry"
        )
    return _("the server answered {status} {code}, not a header mismatch: read its message above").format(
        status=ex.status, code=code
    )


TASKS = {
    "break-a-header": Task(
        judge=_judge_header,
        hint=N_("Mcp-Name must equal the tool's name in the body (create_event); any other name breaks it."),
        prompt=N_("Put a header and a value the body does not carry in my_header above, then run both cells."),
        done=N_("the server refused your header, as the rule says it must."),
    ),
}


def dentist(client: Any, start: str) -> dict:
    """Book the dentist as notebook 09 did: the call, its `input_required`, the retry. The result."""
    call = {"name": "create_event", "arguments": {"title": "Dentist"}}
    first = client.request("tools/call", call).unwrap()
    answer = {"when": {"action": "accept", "content": {"startsAt": start}}}
    retry = {**call, "requestState": first["requestState"], "inputResponses": answer}
    return client.request("tools/call", retry).unwrap()


def send_with_header(my_header: dict) -> Any:
    """POST a `tools/call` of `create_event` with `my_header` in place of the derived one.

    Runs a calendar of its own (so the notebook's calendar keeps its events), prints the raw
    request and answer, and returns the exchange; `...` (the cell as given) sends nothing.
    """
    from mcp_lab.session.serve import serve_http

    if not isinstance(my_header, dict) or ... in my_header.values():
        return ...
    with serve_http("calendar") as own, own.connect(headers=my_header) as mine:
        mine.request("tools/call", CALL)
        ex = mine.transport.last_exchange
    print(ex.request_text, "\n")
    print(ex.response_text)
    return ex


def wait_for_stream_end(client: Any, seconds: float = 5.0) -> None:
    """Wait (at most `seconds`) until the client's last HTTP exchange has been read to its end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ex = client.transport.last_exchange
        if ex is not None and ex.done:
            return
        time.sleep(0.02)


GET_Q = Question(
    N_("Over Streamable HTTP, a modern server receives a `GET` on its MCP endpoint. What should it answer?"),
    [N_("200 with an SSE stream"), "405 Method Not Allowed", "404 Not Found", N_("202 Accepted, no body")],
    1,
    [
        N_("The GET stream was removed in 2026-07-28; long-lived notifications use `subscriptions/listen`."),
        N_("Right: the endpoint is POST only."),
        N_("The endpoint exists; it just does not accept GET."),
        N_("202 is the answer to a POSTed notification, not to a GET."),
    ],
)
MISMATCH_Q = Question(
    N_("What is the answer?"),
    [N_("The header wins"), N_("400 with -32020"), N_("The body wins silently"), N_("400 with -32022")],
    1,
    [
        N_("The body is the source of truth; the headers only mirror it for intermediaries."),
        N_("Right: headers that disagree with the body are refused with -32020 (header mismatch)."),
        N_("A mismatch is an error, not something to paper over."),
        N_("-32022 is for a version the server does not serve; here the two copies disagree."),
    ],
    situation=(  # wire only: nothing to translate
        "POST /mcp\nMCP-Protocol-Version: 2025-11-25\n\n"
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta":\n'
        '  {"io.modelcontextprotocol/protocolVersion": "2026-07-28", ...}}}'
    ),
)
SAME_Q = Question(
    N_("What is the same over stdio and over Streamable HTTP?"),
    [
        N_("The framing"),
        N_("The meaning of every message"),
        N_("The answer to a notification"),
        N_("The `Mcp-Session-Id` header"),
    ],
    1,
    [
        N_("stdio frames by lines; HTTP by requests and SSE events."),
        N_("Right: one request means the same thing whichever way it travels."),
        N_("On HTTP a notification gets 202 with no body; on stdio it gets nothing at all."),
        N_("Sessions belong to the legacy era, and stdio never had that header."),
    ],
)
LEGACY_Q = Question(
    N_("What does the spec say comes back?"),
    [
        N_("404 with a -32601 body"),
        N_("400 Bad Request: the required headers are missing"),
        N_("200 with an InitializeResult"),
        "405 Method Not Allowed",
    ],
    1,
    [
        N_(
            "That is the conformance suite's check, for a *modern-shaped* `initialize` (with the headers "
            "and `_meta`); this request fails validation before its method is looked at."
        ),
        N_(
            "Right: the compatibility matrix and the protocol version header section: no "
            "MCP-Protocol-Version, so server validation rejects it with 400 (-32020)."
        ),
        N_("A modern-only server does not implement `initialize`."),
        N_("405 is about the HTTP method (GET); this is a POST."),
    ],
    situation=N_(
        "POST /mcp  (a modern-only server; no MCP-Protocol-Version, no Mcp-Method header)\n\n"
        '{"jsonrpc": "2.0", "id": 1, "method": "initialize",\n'
        ' "params": {"protocolVersion": "2025-11-25", "capabilities": {}, ...}}'
    ),
)
CANCEL_Q = Question(
    N_("A client's `tools/call` over Streamable HTTP passes its deadline. How does it cancel the request?"),
    [
        N_("It closes that request's response stream"),
        N_("It POSTs `notifications/cancelled` with the id"),
        N_("It sends `DELETE` with its session id"),
        N_("It cannot: it waits for the answer"),
    ],
    0,
    [
        N_("Right: over HTTP the disconnect is the cancellation, and the server MUST treat it so."),
        N_("That is the stdio way; over HTTP no `notifications/cancelled` is required or expected."),
        N_("2026-07-28 has no sessions, and DELETE is answered 405."),
        N_("It SHOULD cancel and stop waiting; a timeout exists so that nobody waits forever."),
    ],
)
QUESTIONS = [GET_Q, MISMATCH_Q, SAME_Q, LEGACY_Q, CANCEL_Q]
