"""What the test-learner answers in notebook 02: both predictions right, the primitives right,
the `_meta` task typed into its cell; and the facts each cell shows, checked right after it.

The quiz defaults to the right answers.  The AFTER checks are the asserts the lesson used to
carry on screen: they run after the cell (and after any prediction above it was made), so a
fact that stops holding still fails the run, without answering anything on the learner's screen.
"""

from mcp_lab.course.exercises import PRIMITIVE_CASES

ANSWERS = {
    "tools-list-asks-2025": "-32022",
    "create-without-start": "-32021",
    "primitives": {c.capability: (c.primitive, c.decider) for c in PRIMITIVE_CASES},
}

TRUTH = {"tools-list-asks-2025": "-32022", "create-without-start": "-32021"}

EDITS = {
    "rules-names": 'my_names = ["calendar.create_event", "sdk_calendar.create_event", "sdk_calendar.book_table"]',
    "rules-output": """my_output_schema = {"type": "object", "required": ["id", "title", "startsAt"],
                    "properties": {"id": {"type": "string"}, "title": {"type": "string"},
                                   "startsAt": {"type": "string", "format": "date-time"}}}""",
    "meta-keys": """my_verdicts = {"com.example/region": "valid", "dev.mcp/region": "reserved",
               "com.example.mcp/region": "valid", "com.example/-region": "invalid",
               "4example.com/region": "invalid", "traceparent": "reserved"}""",
    "result-type": '''def my_reading(result):
    kind = result.get("resultType", "complete")
    return kind if kind in ("complete", "input_required") else "invalid"''',
    "meta-task-1": """my_meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
}""",
}

AFTER = {
    "rules-tools": 'assert n02_rules.tool_report("calendar").rstrip().endswith("True"), "same order twice"',
    "meta-rules-info": """
assert all("io.modelcontextprotocol/serverInfo" in r["_meta"] for r in (answer.result, tools.result, week, made))
""",
    "meta-rules-trace": 'assert traced.ok, "reserved trace keys travel in _meta and the request is served"',
    "progress-run": """
steps = [p["progress"] for p in progress]
assert steps == sorted(set(steps)) and len(steps) > 1, "progress increases with each notification"
assert not show.trace.notifications("notifications/progress", since=ended), "none after the result"
""",
    "c06": """
assert answer.id == 1, "the response carries the request's id"
assert answer.result["resultType"] == "complete", "every result says what kind it is"
""",
    "c08": 'assert refused.code == jsonrpc.INVALID_PARAMS == -32602, "no _meta: the request is malformed"',
    "c10": """
assert [t["name"] for t in tools.result["tools"]] == ["create_event"], "the calendar's one tool"
assert tools.result["ttlMs"] == 300000 and tools.result["cacheScope"] == "public"
""",
    "practice-cache-discover": 'assert {"ttlMs", "cacheScope"} <= set(answer.result), "discover is cacheable"',
    "practice-cache-count": """
assert received.count("tools/list") == 1, "the other fifty were answered from the client's cache"
assert received.count("tools/call") == 50, "a tool call is never cached"
""",
    "c12": """
sent = __import__("json").loads(cal.trace.sent[-1])
assert sent["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28", (
    "cal.request stamps the revision on every request")
""",
    "c14": """
assert old.code == jsonrpc.UNSUPPORTED_PROTOCOL_VERSION == -32022, "2025-11-25 is not served here"
assert old.data["supported"] == ["2026-07-28"], "data.supported lists what the server serves"
""",
    "c14-init-1": 'assert hello.data["supported"] == ["2026-07-28"], "refusing initialize, it SHOULD name its versions"',
    "need-data": """
assert needs.code == jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY == -32021, "a capability is missing"
assert "elicitation" in needs.data["requiredCapabilities"], "it names the capability to declare"
""",
    "meta-task-2": """
from mcp_lab.course.lessons.n02 import judge_meta_for_the_form
assert judge_meta_for_the_form(my_meta) is None
assert "-32021" in judge_meta_for_the_form({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                            "io.modelcontextprotocol/clientCapabilities": {}})
""",
    "c16": 'assert bad.code == jsonrpc.INVALID_REQUEST == -32600, "an id is never null in MCP"',
    "c16-cut": 'assert (garbled.code, garbled.id) == (-32700, None), "the id could not be read, so none is echoed"',
    "practice-idtype-1": 'assert from_calendar[0].code == jsonrpc.INVALID_REQUEST, "the calendar refuses id 1.5"',
    "practice-idtype-2": 'assert from_sdk == [], "the SDK server stays silent on id 1.5"',
    "cancel-2": 'assert [m.id for m in got] == [20], "the request was answered; the notification never is"',
    "timeout-2": 'assert late.message.id == gave_up and after.ok, "the late answer is recorded, not matched"',
    "errors-1": 'assert missing.code == -32602, "a missing resource is -32602 in 2026-07-28, never -32002"',
    "c18": 'assert week["cacheScope"] == "private", "a person\'s week: no cache shares it across callers"',
    "c20": 'assert made["isError"] is False, "the tool ran and succeeded"',
    "c22": 'assert new_id in ids, "same process, same memory: the event just booked is in the week"',
    "c25-count": 'assert cal.trace.of("noise") == [], "every stdout line was a valid message"',
    # Once predicted, each verdict says the prediction held.
    "quiz1": """
assert guess.held and need.held, (guess.verdict(), need.verdict())
""",
}
