"""Notebook 16's self-check questions: `mcp_lab.self_check("16")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    return Quiz(
        [
            Question(
                "Where is it stated what the date in a revision name such as 2026-07-28 marks?",
                [
                    "In basic/versioning of the spec",
                    "In the versioning guide",
                    "In schema.ts, beside the version",
                    "Nowhere: it is the release day",
                ],
                1,
                [
                    "That page says how peers agree on a version, not what the date means.",
                    "Right: the guide beside the specification says it is the date of the last "
                    "backwards-incompatible change.",
                    "schema.ts carries the version string (LATEST_PROTOCOL_VERSION), not its meaning.",
                    "The guide says it is the last incompatible change, what a client must know.",
                ],
            ),
            Question(
                "A feature is marked Deprecated in a revision released on 2026-07-28, with the usual "
                "window. When may it be removed, at the earliest?",
                [
                    "In the very next revision released",
                    "On or after 2027-07-28",
                    "Never: a deprecated feature stays",
                    "In a revision six months later",
                ],
                1,
                [
                    "The policy requires a window; only an expedited removal shortens it, to no less "
                    "than ninety days, and only for an active security risk.",
                    "Right: twelve months from the deprecating release; then the maintainers decide.",
                    "Removal is allowed after the window; deprecation is a notice, not a promise.",
                    "Six months is below the ordinary floor; only the security exception goes lower "
                    "(ninety days at least).",
                ],
            ),
            Question(
                "Which of these is Deprecated in 2026-07-28, and not removed?",
                ["logging/setLevel", "notifications/initialized", "notifications/message", "initialize"],
                2,
                [
                    "Removed by 2026-07-28 itself: the level now travels in each request's _meta.",
                    "Removed with the handshake (changelog, major change 2).",
                    "Right: logging, its notifications/message and the logLevel key are deprecated by "
                    "SEP-2577 and still work during the window.",
                    "Removed with the handshake: a modern-only server does not implement it.",
                ],
            ),
            Question(
                "A post tells you to call resources/subscribe on a 2026-07-28 server. What does "
                "that revision offer instead?",
                ["resources/watch", "subscriptions/listen", "notifications/initialized", "Mcp-Session-Id"],
                1,
                [
                    "There is no such method in any revision.",
                    "Right: one long-lived stream the client opens, naming the notifications it wants.",
                    "That notification was removed with the handshake.",
                    "Sessions were removed in 2026-07-28; there is no session to subscribe in.",
                ],
            ),
            Question(
                "What replaces MCP logging (notifications/message) according to SEP-2577?",
                [
                    "Nothing: servers may not log",
                    "stderr or OpenTelemetry",
                    "A new logging/v2 method",
                    "Log lines on stdout",
                ],
                1,
                [
                    "Servers may log; the protocol just stops carrying it.",
                    "Right: write to stderr (stdio) or export with OpenTelemetry.",
                    "There is no replacement method; the migration is out of the protocol.",
                    "stdout carries MCP messages only, in every revision.",
                ],
            ),
            Question(
                "Which era does it describe?",
                [
                    "The 2025-11-25 era",
                    "The 2026-07-28 revision",
                    "Any: these never changed",
                    "A draft of a later revision",
                ],
                0,
                [
                    "Right: `initialize` and `Mcp-Session-Id` are the legacy handshake and session.",
                    "2026-07-28 has no `initialize` and no sessions; it starts with `server/discover`.",
                    "All three changed in 2026-07-28.",
                    "Drafts move away from sessions, not towards them.",
                ],
                situation="A blog post's example client sends `initialize`, keeps an\n"
                "`Mcp-Session-Id` header, and answers `sampling/createMessage`\n"
                "requests from the server.",
            ),
        ],
        key="quiz",
    )
