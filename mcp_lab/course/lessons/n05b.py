"""Notebook 05b's predictions, typed task, helpers and self-check questions (pages, subscriptions).

They live here, not in the notebook, so that no answer key sits on the learner's screen before
they answer (predict, then see).

- "tampered-cursor": what a server answers to a cursor with one character changed; `outcome()`
  reads it off the answer.
- "empty-string-cursor": what a client does with `"nextCursor": ""`; `empty_cursor_lesson()`
  reads it off two real pages of a server whose page 1 ends with that cursor.
- "ack-keeps": which list-changed kinds the acknowledgement keeps; `kept()` names them.
- "after-restart": how many notifications reach a fresh connection before it listens (an int).
- "follow-the-cursor" (typed task): the learner types the cursor from page 1; `judge_cursor`
  sends it to a fresh paged server, which judges it.
"""

from __future__ import annotations

import time
from typing import Any

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question
from mcp_lab.wire.words import N_, _

# Options are English values (what `expect` compares); the display translates them.
STOP = N_("Stop: the list is complete")
FOLLOW = N_('Ask again with "cursor": ""')
BROKEN = N_("Report the server as broken")
RESTART = N_("Start over, without a cursor")
SAME_PAGE = N_("Page 2 all the same")
FIRST_PAGE = N_("Page 1: the server starts over")
EMPTY = N_("An empty page without nextCursor")

ASKS = {
    "tampered-cursor": Ask(
        N_("You change one character in the middle of page 1's nextCursor and ask for that page. What comes back?"),
        options=[SAME_PAGE, FIRST_PAGE, EMPTY, "-32600", "-32601", "-32602"],
        why=N_(
            "The cursor is the server's own token, sealed so that it can tell one it issued from "
            "one it did not. A cursor it cannot use is invalid params: the spec says such a cursor "
            "**SHOULD** get `-32602` (Invalid params), and a client that meets it starts over from the "
            "first page ([Error Handling](https://modelcontextprotocol.io/specification/2026-07-28/server/"
            "utilities/pagination#error-handling))."
        ),
    ),
    "empty-string-cursor": Ask(
        N_('This server\'s page 1 ends with "nextCursor": "". What should the client do?'),
        options=[STOP, FOLLOW, BROKEN, RESTART],
        why=N_(
            'A cursor is any string the server chose, "" included. The end of a list is a page '
            "with no nextCursor at all; a client MUST NOT read an empty string as the end."
        ),
    ),
    "ack-keeps": Ask(
        N_(
            "You listen with toolsListChanged, promptsListChanged and resourcesListChanged all true. "
            "Which does the acknowledgement keep?"
        ),
        options=[
            N_("All three"),
            N_("Only toolsListChanged"),
            N_("toolsListChanged and resourcesListChanged"),
            N_("None: the request is refused"),
        ],
        why=N_(
            "The acknowledgement holds the part of the filter the server agreed to honour. Only "
            "tools declares listChanged here; resources declares subscribe, which is about single "
            "resources (resourceSubscriptions), not the list."
        ),
    ),
    "after-restart": Ask(
        N_(
            "The connection restarted: a fresh server process. The operator publishes a tool. How "
            "many notifications reach the new connection before it sends anything?"
        ),
        kind=int,
        why=N_(
            "The subscription lived in the old process's memory. Over stdio a client that "
            "reconnects MUST send subscriptions/listen again; until then, nothing is owed to it."
        ),
    ),
}


def judge_cursor(value: Any) -> str | None:
    """None when a fresh paged server accepts `value` as a cursor for tools/list."""
    from mcp_lab.session.connect import connect

    if not isinstance(value, str):
        return _("a cursor is a string: copy the nextCursor value, in quotes, not {kind}").format(
            kind=type(value).__name__
        )
    with connect("paged", timeout=10) as server:
        answer = server.request("tools/list", {"cursor": value})
    if not answer.ok:
        return _("the server refused it: {code} {message}").format(code=answer.code, message=answer.message)
    return None


TASKS = {
    "follow-the-cursor": Task(
        judge=judge_cursor,
        hint=N_("copy the value printed after 'nextCursor:' exactly, between quotes; change nothing"),
        prompt=N_("Type page 1's nextCursor into my_cursor, run that cell, then this one."),
        done=N_("the server accepted your cursor and sent the next page."),
    ),
}


def outcome(answer) -> str:
    """Which option of "tampered-cursor" an answer is."""
    if not answer.ok:
        return str(answer.code)
    tools = answer.result.get("tools") or []
    if not tools:
        return EMPTY
    return FIRST_PAGE if tools[0]["name"] == "upper" else SAME_PAGE


def empty_cursor_lesson(page1: dict, page2) -> str:
    """Which option of "empty-string-cursor" the two pages show."""
    if page1.get("nextCursor") != "":
        return _("page 1 did not end with an empty cursor")
    if page2.ok and page2.result.get("tools"):
        return FOLLOW
    return STOP


def kept(ack) -> str:
    """Which option of "ack-keeps" an acknowledgement is."""
    kinds = [k for k in ("toolsListChanged", "promptsListChanged", "resourcesListChanged")
             if (ack.params.get("notifications") or {}).get(k)]  # fmt: skip
    if len(kinds) == 3:
        return "All three"
    if kinds == ["toolsListChanged"]:
        return "Only toolsListChanged"
    if kinds == ["toolsListChanged", "resourcesListChanged"]:
        return "toolsListChanged and resourcesListChanged"
    return "None: the request is refused" if not kinds else ", ".join(kinds)


def arrivals(client, quiet: float = 0.6, limit: float = 4.0) -> list:
    """The messages that arrive unasked: read until `quiet` seconds pass with none, `limit` at most."""
    from mcp_lab.wire.errors import DeadlineExceeded

    got, end = [], time.monotonic() + limit
    while time.monotonic() < end:
        try:
            event = client.read_event(min(quiet, end - time.monotonic()))
        except DeadlineExceeded:
            break
        got.append(event.message if event.message is not None else event.line)
    return got


def tagged(messages: list) -> list[tuple[str, Any]]:
    """(method, subscriptionId) of each notification: the stream each one belongs to."""
    key = "io.modelcontextprotocol/subscriptionId"
    return [(m.method, ((m.params or {}).get("_meta") or {}).get(key)) for m in messages if hasattr(m, "method")]


QUESTIONS = [
    Question(
        N_("What does this client do next?"),
        [
            N_("It has every tool: show them"),
            N_('It sends tools/list with "cursor": "b2Zmc2V0PTM"'),
            N_('It decodes the cursor and asks for "offset=6"'),
            N_("It asks for page 2 with a page size of 3"),
        ],
        1,
        [
            N_("A nextCursor means there may be more: the list is not finished."),
            N_("Right: the cursor goes back to the server unchanged, in params.cursor."),
            N_("A client MUST NOT parse or modify a cursor, even one that looks like base64."),
            N_("There are no page numbers or sizes in MCP: the server decides the page size."),
        ],
        situation=(  # wire only: nothing to translate
            '<- {"result": {"resultType": "complete", "tools": [3 tools],\n'
            '    "nextCursor": "b2Zmc2V0PTM", "ttlMs": 300000, "cacheScope": "public"}}'
        ),
    ),
    Question(
        N_('Page 1 said `cacheScope: "private"`. What may page 2 say?'),
        [
            N_('Only "private"'),
            N_('Only "public"'),
            N_("Anything: each page is cached on its own"),
            N_("Nothing: no cache hints"),
        ],
        0,
        [
            N_("Right: a server MUST apply the same cacheScope to every page of one list."),
            N_("The scope must stay what page 1 said."),
            N_("Each page has its own ttlMs, but the scope is the same on all pages."),
            N_("A list result carries ttlMs and cacheScope on every page."),
        ],
    ),
    Question(
        N_("What does a client do when a cursor it kept comes back -32602?"),
        [
            N_("Retry the same cursor later"),
            N_("Drop its cached pages and list again from the start"),
            N_("Decrease the cursor by one page"),
            N_("Treat the list as empty"),
        ],
        1,
        [
            N_("The server said the cursor is invalid; the same cursor gets the same answer."),
            N_("Right: the caching rules say to discard the cached pages and re-fetch without a cursor."),
            N_("A cursor is opaque: there is nothing to decrease."),
            N_("An invalid cursor says nothing about the list being empty."),
        ],
    ),
    Question(
        N_("What arrives on stream 7?"),
        [
            N_("notifications/tools/list_changed and the resource update"),
            N_("Only notifications/resources/updated"),
            N_("Nothing until it re-sends subscriptions/listen"),
            N_("notifications/tools/list_changed only"),
        ],
        3,
        [
            N_("The server MUST NOT send a kind the stream did not ask for."),
            N_("Stream 7 did not ask for that resource."),
            N_("The stream is open and acknowledged; it needs nothing more."),
            N_("Right: only the kind it asked for, tagged with subscriptionId 7."),
        ],
        situation=N_(
            '-> {"id": 7, "method": "subscriptions/listen",\n'
            '    "params": {"notifications": {"toolsListChanged": true}, "_meta": {...}}}\n'
            "<- notifications/subscriptions/acknowledged (subscriptionId 7)\n"
            "   ... then the tool list and a resource both change"
        ),
    ),
    Question(
        N_("On stdio, how does a client end the stream it opened with id 7?"),
        [
            N_("It closes its stdin"),
            N_("It sends a new subscriptions/listen with an empty filter"),
            N_("It sends notifications/cancelled with requestId 7"),
            N_("It stops reading stdout"),
        ],
        2,
        [
            N_("That ends the whole connection, every stream with it."),
            N_("That opens a second stream; the first stays open."),
            N_("Right: stdio has no per-request stream to close, so cancellation names the request."),
            N_("The server keeps writing; the pipe fills up."),
        ],
    ),
    Question(
        N_('What does the capability `resources: {"subscribe": true}` tell a client?'),
        [
            N_("It may ask for notifications/resources/updated of given URIs"),
            N_("The resource list sends list_changed"),
            N_("It must subscribe before reading a resource"),
            N_("Every resource read is pushed to it"),
        ],
        0,
        [
            N_("Right: subscribe is about single resources named in resourceSubscriptions."),
            N_("That is listChanged, a separate flag."),
            N_("Reading never needs a subscription."),
            N_("Only updates it asked for, on a stream it opened."),
        ],
    ),
]
