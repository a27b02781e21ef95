"""Notebook 13's self-check questions: `mcp_lab.self_check("13")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    GET_Q = Question(
        "Over Streamable HTTP, a modern server receives a `GET` on its MCP endpoint. What should it answer?",
        ["200 with an SSE stream", "405 Method Not Allowed", "404 Not Found", "202 Accepted, no body"],
        1,
        [
            "The GET stream was removed in 2026-07-28; long-lived notifications use `subscriptions/listen`.",
            "Right: the endpoint is POST only.",
            "The endpoint exists; it just does not accept GET.",
            "202 is the answer to a POSTed notification, not to a GET.",
        ],
    )
    MISMATCH_Q = Question(
        "What is the answer?",
        ["The header wins", "400 with -32020", "The body wins silently", "400 with -32022"],
        1,
        [
            "The body is the source of truth; the headers only mirror it for intermediaries.",
            "Right: headers that disagree with the body are refused with -32020 (header mismatch).",
            "A mismatch is an error, not something to paper over.",
            "-32022 is for a version the server does not serve; here the two copies disagree.",
        ],
        situation="POST /mcp\nMCP-Protocol-Version: 2025-11-25\n\n"
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta":\n'
        '  {"io.modelcontextprotocol/protocolVersion": "2026-07-28", ...}}}',
    )
    SAME_Q = Question(
        "What is the same over stdio and over Streamable HTTP?",
        ["The framing", "The meaning of every message", "The answer to a notification", "The `Mcp-Session-Id` header"],
        1,
        [
            "stdio frames by lines; HTTP by requests and SSE events.",
            "Right: one request means the same thing whichever way it travels.",
            "On HTTP a notification gets 202 with no body; on stdio it gets nothing at all.",
            "Sessions belong to the legacy era, and stdio never had that header.",
        ],
    )
    LEGACY_Q = Question(
        "What does the spec say comes back?",
        [
            "404 with a -32601 body",
            "400 Bad Request: the required headers are missing",
            "200 with an InitializeResult",
            "405 Method Not Allowed",
        ],
        1,
        [
            "That is the conformance suite's check, for a *modern-shaped* `initialize` (with the headers "
            "and `_meta`); this request fails validation before its method is looked at.",
            "Right: the compatibility matrix and the protocol version header section: no "
            "MCP-Protocol-Version, so server validation rejects it with 400 (-32020).",
            "A modern-only server does not implement `initialize`.",
            "405 is about the HTTP method (GET); this is a POST.",
        ],
        situation="POST /mcp  (a modern-only server; no MCP-Protocol-Version, no Mcp-Method header)\n\n"
        '{"jsonrpc": "2.0", "id": 1, "method": "initialize",\n'
        ' "params": {"protocolVersion": "2025-11-25", "capabilities": {}, ...}}',
    )
    CANCEL_Q = Question(
        "A client's `tools/call` over Streamable HTTP passes its deadline. How does it cancel the request?",
        [
            "It closes that request's response stream",
            "It POSTs `notifications/cancelled` with the id",
            "It sends `DELETE` with its session id",
            "It cannot: it waits for the answer",
        ],
        0,
        [
            "Right: over HTTP the disconnect is the cancellation, and the server MUST treat it so.",
            "That is the stdio way; over HTTP no `notifications/cancelled` is required or expected.",
            "2026-07-28 has no sessions, and DELETE is answered 405.",
            "It SHOULD cancel and stop waiting; a timeout exists so that nobody waits forever.",
        ],
    )
    quiz = Quiz([GET_Q, MISMATCH_Q, SAME_Q, LEGACY_Q, CANCEL_Q], key="quiz")
    return quiz
