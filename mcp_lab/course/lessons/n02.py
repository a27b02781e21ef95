"""Notebook 02's self-check questions: `mcp_lab.self_check("02")` shows them.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).
"""

from __future__ import annotations

from mcp_lab.notebook.quiz import Question, Quiz


def quiz() -> Quiz:
    quiz = Quiz(
        [
            Question(
                "What must the server answer?",
                [
                    "-32601 Method not found",
                    "-32602 Invalid params",
                    "Reuse the last request's capabilities",
                    "-32022 Unsupported version",
                ],
                1,
                [
                    "The method exists; what is wrong is the request's params.",
                    "Right: a request missing either required `_meta` key is malformed, and the answer is -32602.",
                    "The revision is stateless: nothing may be inferred from earlier requests, even on "
                    "the same connection.",
                    "-32022 is for a version the server does not serve, with `data.supported` listing what it does.",
                ],
                situation='-> {"jsonrpc": "2.0", "id": 2, "method": "tools/list",\n'
                '    "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": '
                '"2026-07-28"}}}\n'
                "   (no io.modelcontextprotocol/clientCapabilities in _meta)",
            ),
            Question(
                "Which of these is a valid request id in MCP 2026-07-28?",
                ["null", '"a7"', '{"n": 7}', "true"],
                1,
                [
                    "MCP is stricter than JSON-RPC here: an id is never null.",
                    "Right: a string or an integer that is not in use by another pending request.",
                    "An object is not an id in JSON-RPC or in MCP.",
                    "A boolean is not an id, even though Python treats True as 1.",
                ],
            ),
            Question(
                "Who decides that a resource such as `calendar://week` enters the context?",
                ["The model", "The application (host)", "The person, by a command", "The server"],
                1,
                [
                    "The model decides to call tools.",
                    "Right: resources are application-controlled; the host chooses what to attach.",
                    "That is the prompt primitive: the person picks it, like a slash command.",
                    "The server offers primitives; it decides none of these.",
                ],
            ),
            Question(
                "What went wrong, and what does the client do next?",
                [
                    "The method is unknown on this server: fall back to `initialize`",
                    "The call needs elicitation, which the client did not declare",
                    "The version is wrong: retry with another",
                    "The server lost the session: reconnect",
                ],
                1,
                [
                    "-32601 would say that; -32021 says the method exists but needs a client capability.",
                    "Right: -32021 names what is missing in `data.requiredCapabilities`; a client that "
                    "can ask the person declares `elicitation` in `_meta` and sends a new request.",
                    "That is -32022, whose `data.supported` lists the versions the server serves.",
                    "There is no session in 2026-07-28: each request carries its own capabilities.",
                ],
                situation='-> {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": '
                '"create_event",\n'
                '    "arguments": {"title": "Dentist"}, "_meta": {..., '
                '"io.modelcontextprotocol/clientCapabilities": {}}}}\n'
                '<- {"jsonrpc": "2.0", "id": 4, "error": {"code": -32021, "message": '
                '"...",\n'
                '    "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}}}',
            ),
            Question(
                "No answer comes within the deadline. What should the client do?",
                [
                    "Resend the same line: the server drops duplicates",
                    "Send notifications/cancelled for id 7 and stop waiting; a new attempt is a new id",
                    "Send an empty line to flush the pipe",
                    "Wait without a deadline: one always comes",
                ],
                1,
                [
                    "Nothing in the protocol de-duplicates by id: a resent create_event may create a "
                    "second event, and a reused pending id is invalid.",
                    "Right: on a timeout the sender SHOULD cancel (on stdio, notifications/cancelled "
                    "naming id 7) and stop waiting, ignoring a late answer; trying again means a new "
                    "request with its own id (and thought about whether a second create is safe).",
                    "Framing is by line, and the line was complete; an empty line is just invalid input.",
                    "A server can be stuck or dead: every wait needs a deadline.",
                ],
                situation='-> {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": '
                '"create_event", ...}}\n'
                "   ... 10 s pass, nothing on stdout ...",
            ),
            Question(
                "A server author needs a new error for 'the calendar is full'. Which code may it use?",
                [
                    "-32023, the next free MCP code",
                    "-32010, in the legacy sub-range",
                    "-32002, since the resource is in a sense not found",
                    "-1001, outside the reserved range",
                ],
                3,
                [
                    "-32020 to -32099 is reserved for the MCP specification: implementations MUST NOT "
                    "emit a code from it that the spec does not define.",
                    "New codes MUST NOT be allocated in -32000 to -32019, and new implementations "
                    "SHOULD NOT use that sub-range at all.",
                    "-32002 is retired: a 2026-07-28 implementation MUST NOT emit it (a missing "
                    "resource is -32602 now).",
                    "Right: codes for purposes of your own SHOULD be allocated outside the JSON-RPC "
                    "reserved range, -32768 to -32000.",
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
