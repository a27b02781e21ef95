"""Notebook 06's self-check questions: `mcp_lab.self_check("06")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    DISCOVER = '-> {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": ...}}\n'
    quiz = Quiz(
        [
            Question(
                "What is the server?",
                [
                    "Modern: it parsed the request",
                    "Legacy: fall back to `initialize`",
                    "Broken: report it and stop",
                    "Modern, wrong version: retry",
                ],
                1,
                [
                    "Any JSON-RPC server parses requests; -32602 is not one of the recognised modern errors.",
                    "Right: any error other than a recognised modern one (such as -32022), or no "
                    "answer in time, means legacy.",
                    "The spec says to fall back, and the fallback MUST NOT depend on one error code.",
                    "A wrong version is -32022 with `data.supported`, not -32602.",
                ],
                situation=DISCOVER + '<- {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, '
                '"message": "Invalid request parameters"}}',
            ),
            Question(
                "What next?",
                [
                    "Fall back to `initialize`",
                    "A new discover asking 2026-07-28",
                    "Resend the same line, same id",
                    "Treat it as legacy and `ping` it",
                ],
                1,
                [
                    "A recognised modern error proves the server is modern: do not fall back.",
                    "Right: modern, but the wrong version; ask again (new id) with a version from `data.supported`.",
                    "The same request gets the same answer; and a new request needs a new id.",
                    "Only a modern server emits -32022 with `data.supported`.",
                ],
                situation='-> server/discover, protocolVersion "2027-01-15" in _meta\n'
                '<- {"error": {"code": -32022, "message": "Unsupported protocol version",\n'
                '    "data": {"supported": ["2026-07-28"], "requested": "2027-01-15"}}}',
            ),
            Question(
                "Why probe first, even when a client only supports modern servers?",
                [
                    "Because `server/discover` is faster",
                    "Because legacy servers may answer anyway",
                    "Because the spec forbids it before discover",
                    "Because discover opens the session",
                ],
                1,
                [
                    "Speed is not the reason; determinism is.",
                    "Right: the reference server served its catalogue with no handshake at all, under "
                    "legacy rules; probing turns that ambiguity into a clear verdict.",
                    "Nothing forbids it: a modern request is valid on its own. The risk is what a "
                    "legacy server does with it.",
                    "There is no session in 2026-07-28: the server remembers nothing after discover.",
                ],
            ),
            Question(
                "What does the probe conclude?",
                [
                    "Legacy: try `initialize`",
                    "Modern: just slow, wait on",
                    "Crashed: restart and probe",
                    "Resend discover with id 1",
                ],
                0,
                [
                    "Right: no answer within a reasonable timeout is one of the legacy signals (some "
                    "legacy servers ignore requests before `initialize`).",
                    "Every wait has a deadline; a modern server answers discover promptly.",
                    "The process is still running; it just did not answer this request.",
                    "Id 1 is still pending; and the same request is unlikely to fare better.",
                ],
                situation=DISCOVER + "   ... the probe deadline passes, nothing on stdout, the process is alive ...",
            ),
            Question(
                "A 2026-07-28 server lists 3 tools to a client that declared `elicitation`, and 2 "
                "to one that did not, with the same credentials. What does the spec say?",
                [
                    "Fine: capabilities are per request",
                    "It breaks a MUST NOT",
                    "Fine, if it sends list_changed",
                    "Fine: lists MAY vary over time",
                ],
                1,
                [
                    "Capabilities decide what a server may *ask*; the list MUST NOT vary per "
                    "connection or with other requests on it.",
                    "Right: the set MAY vary by the authorization on the request, not by the "
                    "connection; the reference server's legacy catalogue does just that.",
                    "list_changed announces a change over time; it does not license a per-client list.",
                    "Over time, yes; between two connections at the same moment, no.",
                ],
            ),
            Question(
                'The probe gets a valid DiscoverResult whose `supportedVersions` is ["2027-06-30"]; '
                "the client speaks 2026-07-28 and 2025-11-25. What does the spec prescribe?",
                [
                    "Fall back to `initialize`",
                    "Nothing for this exact case",
                    "Retry the discover at 2025-11-25",
                    "Use 2027-06-30 anyway",
                ],
                1,
                [
                    "The spec never says to fall back after a DiscoverResult; the Python SDK does, as its own choice.",
                    "Right: the DiscoverResult branch says select a mutual version and continue; the "
                    "empty case is left open (this course reports an error, like the -32022 rule).",
                    "2025-11-25 is a handshake-era revision: it is not asked for in `_meta`.",
                    "A client cannot speak a revision it does not implement.",
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
