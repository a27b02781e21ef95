"""Notebook 06's words and helpers: its predictions, its typed task, its quiz.

    first_answer = mcp_lab.predict("reference-discover")   # ASKS below
    mcp_lab.your_turn("read-the-era", my_eras)             # TASKS below, judged by wire.era.decide
    mcp_lab.self_check("06")                               # quiz()

They live here, not in the notebook, so that no answer sits on the learner's screen before they
answer (predict, then see).  The typed task shows five first answers to a `server/discover`
(`FIRST_ANSWERS`) and asks which era each proves; its judge reads them with the one function
`probe()` itself uses (`mcp_lab.wire.era.decide`), so the task and the probe cannot disagree.
`tools_after_handshake` and `modern_catalogue` are the plumbing of section 6 (a fresh process,
a handshake or a request, a list), kept out of the cells so that each cell shows its result.
"""

from __future__ import annotations

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question, Quiz
from mcp_lab.wire import era, jsonrpc, revisions
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.words import N_, _

ASKS = {
    "reference-discover": Ask(
        N_("The pinned reference server gets server/discover as its very first message. What comes back?"),
        options=[N_("a DiscoverResult"), "-32022", "-32601", "-32602"],
        why=N_(
            "The reference server speaks 2025-11-25 only: server/discover is not one of its methods, "
            "so it answers Method not found, which is not a modern error, and the probe falls back to initialize."
        ),
    ),
    "bare-tools-list": Ask(
        N_(
            "A fresh reference server gets tools/list with no handshake at all (no initialize, no _meta). "
            "How many tools come back? Type 0 if you expect an error or no answer."
        ),
        kind=int,
        why=N_(
            "It does not check that a request comes after initialize: it served the request under legacy "
            "rules, with the tools it registers when it starts. One tool arrives only with "
            "notifications/initialized, so the catalogue is one short, and nothing says so."
        ),
    ),
}

# First answers to `server/discover` asking 2026-07-28, as five servers might send them (None: nothing
# arrives before the deadline).  The learner reads the era off each; `era.decide` is the judge.
FIRST_ANSWERS: dict[str, str | None] = {
    "A": '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "Unsupported protocol version", '
    '"data": {"supported": ["2027-06-30"], "requested": "2026-07-28"}}}',
    "B": '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "Server not initialized"}}',
    "C": '{"jsonrpc": "2.0", "id": 1, "result": {}}',
    "D": '{"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": ["2026-07-28"], '
    '"capabilities": {"tools": {}}, "serverInfo": {"name": "d", "version": "1"}}}',
    "E": None,
}


def era_concluded_from(line: str | None) -> Era:
    """The era a dual-era client concludes from this first answer to its server/discover."""
    answer = None if line is None else jsonrpc.parse(line)
    decision = era.decide(answer, asked=revisions.LATEST, wait=5.0)
    return Era.LEGACY if decision.era is None else Era.MODERN


def _judge_eras(value) -> str | None:
    if not isinstance(value, dict):
        return _('type a dict, one entry per letter: {"A": "modern" or "legacy", "B": ..., ...}')
    missing = sorted(set(FIRST_ANSWERS) - set(value))
    if missing:
        return _("still missing: {letters}").format(letters=", ".join(missing))
    words = {k: str(v).strip().lower() for k, v in value.items()}
    odd = sorted(k for k in FIRST_ANSWERS if words[k] not in tuple(Era))
    if odd:
        return _('{letters}: type "modern" or "legacy"').format(letters=", ".join(odd))
    wrong = [k for k in FIRST_ANSWERS if words[k] != era_concluded_from(FIRST_ANSWERS[k])]
    if wrong:
        return _("{wrong} of the {total} are not read right yet").format(wrong=len(wrong), total=len(FIRST_ANSWERS))
    return None


TASKS = {
    "read-the-era": Task(
        judge=_judge_eras,
        hint=N_(
            "Only a DiscoverResult, or a recognised modern error (-32020, -32021, -32022), proves a "
            "modern server, whatever it says inside; any other error, a result of another shape, or "
            "silence means legacy (section 1's table)."
        ),
        prompt=N_('Set my_eras = {"A": "modern" or "legacy", ...} for the five answers above, then run this cell.'),
        done=N_("all five read right: the same reading probe() makes."),
    ),
}


def tool_names(client) -> set[str]:
    """The names `tools/list` gives on `client`."""
    return {t["name"] for t in client.request("tools/list").unwrap()["tools"]}


def tools_after_handshake(capabilities: dict) -> set[str]:
    """A fresh reference server, an initialize declaring `capabilities`, the notification, tools/list."""
    from mcp_lab.session.connect import connect

    hello = {
        "protocolVersion": revisions.LEGACY_VERSION,
        "capabilities": capabilities,
        "clientInfo": {"name": "nb06", "version": "1"},
    }
    with connect("everything") as client:
        client.adopt_era(Era.LEGACY)  # handshake-era requests: no _meta
        client.request("initialize", hello, meta=False).unwrap()
        client.notify("notifications/initialized")
        return tool_names(client)


def modern_catalogue(capabilities: dict) -> list[list[str]]:
    """The calendar's tool names before and after a tools/call, on a connection declaring `capabilities`."""
    from mcp_lab.session.connect import connect

    def names(client) -> list[str]:
        return [t["name"] for t in client.request("tools/list").unwrap()["tools"]]

    with connect("calendar", capabilities=capabilities) as client:
        first = names(client)
        client.request("tools/call", {"name": "create_event", "arguments": {"title": "x"}})
        return [first, names(client)]


DISCOVER = '-> {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": ...}}\n'


# Long on purpose: quiz data, one question after another, each marked for translation
def _questions_1() -> list[Question]:
    return [
        Question(
            N_("What is the server?"),
            [
                N_("Modern: it parsed the request"),
                N_("Legacy: fall back to `initialize`"),
                N_("Broken: report it and stop"),
                N_("Modern, wrong version: retry"),
            ],
            1,
            [
                N_("Any JSON-RPC server parses requests; -32602 is not one of the recognised modern errors."),
                N_(
                    "Right: any error other than a recognised modern one (such as -32022), or no "
                    "answer in time, means legacy."
                ),
                N_("The spec says to fall back, and the fallback MUST NOT depend on one error code."),
                N_("A wrong version is -32022 with `data.supported`, not -32602."),
            ],
            situation=DISCOVER + '<- {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, '
            '"message": "Invalid request parameters"}}',
        ),
        Question(
            N_("What next?"),
            [
                N_("Fall back to `initialize`"),
                N_("A new discover asking 2026-07-28"),
                N_("Resend the same line, same id"),
                N_("Treat it as legacy and `ping` it"),
            ],
            1,
            [
                N_("A recognised modern error proves the server is modern: do not fall back."),
                N_("Right: modern, but the wrong version; ask again (new id) with a version from `data.supported`."),
                N_("The same request gets the same answer; and a new request needs a new id."),
                N_("Only a modern server emits -32022 with `data.supported`."),
            ],
            situation=N_(
                '-> server/discover, protocolVersion "2027-01-15" in _meta\n'
                '<- {"error": {"code": -32022, "message": "Unsupported protocol version",\n'
                '    "data": {"supported": ["2026-07-28"], "requested": "2027-01-15"}}}'
            ),
        ),
        Question(
            N_("Why probe first, even when a client only supports modern servers?"),
            [
                N_("Because `server/discover` is faster"),
                N_("Because legacy servers may answer anyway"),
                N_("Because the spec forbids it before discover"),
                N_("Because discover opens the session"),
            ],
            1,
            [
                N_("Speed is not the reason; determinism is."),
                N_(
                    "Right: the reference server served its catalogue with no handshake at all, under "
                    "legacy rules; probing turns that ambiguity into a clear verdict."
                ),
                N_(
                    "Nothing forbids it: a modern request is valid on its own. The risk is what a "
                    "legacy server does with it."
                ),
                N_("There is no session in 2026-07-28: the server remembers nothing after discover."),
            ],
        ),
    ]


# Long on purpose: quiz data, one question after another, each marked for translation
def _questions_2() -> list[Question]:
    return [
        Question(
            N_("What does the probe conclude?"),
            [
                N_("Legacy: try `initialize`"),
                N_("Modern: just slow, wait on"),
                N_("Crashed: restart and probe"),
                N_("Resend discover with id 1"),
            ],
            0,
            [
                N_(
                    "Right: no answer within a reasonable timeout is one of the legacy signals (some "
                    "legacy servers ignore requests before `initialize`)."
                ),
                N_("Every wait has a deadline; a modern server answers discover promptly."),
                N_("The process is still running; it just did not answer this request."),
                N_("Id 1 is still pending; and the same request is unlikely to fare better."),
            ],
            situation=N_(  # DISCOVER, then what happens
                '-> {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": ...}}\n'
                "   ... the probe deadline passes, nothing on stdout, the process is alive ..."
            ),
        ),
        Question(
            N_(
                "A 2026-07-28 server lists 3 tools to a client that declared `elicitation`, and 2 "
                "to one that did not, with the same credentials. What does the spec say?"
            ),
            [
                N_("Fine: capabilities are per request"),
                N_("It breaks a MUST NOT"),
                N_("Fine, if it sends list_changed"),
                N_("Fine: lists MAY vary over time"),
            ],
            1,
            [
                N_(
                    "Capabilities decide what a server may *ask*; the list MUST NOT vary per "
                    "connection or with other requests on it."
                ),
                N_(
                    "Right: the set MAY vary by the authorization on the request, not by the "
                    "connection; the reference server's legacy catalogue does just that."
                ),
                N_("list_changed announces a change over time; it does not license a per-client list."),
                N_("Over time, yes; between two connections at the same moment, no."),
            ],
        ),
        Question(
            N_(
                'The probe gets a valid DiscoverResult whose `supportedVersions` is ["2027-06-30"]; '
                "the client speaks 2026-07-28 and 2025-11-25. What does the spec prescribe?"
            ),
            [
                N_("Fall back to `initialize`"),
                N_("Nothing for this exact case"),
                N_("Retry the discover at 2025-11-25"),
                N_("Use 2027-06-30 anyway"),
            ],
            1,
            [
                N_("The spec never says to fall back after a DiscoverResult; the Python SDK does, as its own choice."),
                N_(
                    "Right: the DiscoverResult branch says select a mutual version and continue; the "
                    "empty case is left open (this course reports an error, like the -32022 rule)."
                ),
                N_("2025-11-25 is a handshake-era revision: it is not asked for in `_meta`."),
                N_("A client cannot speak a revision it does not implement."),
            ],
        ),
    ]


def quiz() -> Quiz:
    """The self-check, built when shown."""
    return Quiz(_questions_1() + _questions_2(), key="quiz")
