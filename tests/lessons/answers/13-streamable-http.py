"""What the test-learner does in notebook 13: predicts the GET, breaks a header of their choice.

The header is typed in lower case on purpose: header names are case-insensitive, so it must
replace the derived `Mcp-Name` (one field on the wire), not travel beside it.  AFTER holds the
facts the cells show, checked off screen.
"""

TRUTH = {"get-status": "405", "sdk-bare-get": "400", "region-header-form": "a Base64 sentinel"}
# The SDK prediction is answered with the plausible wrong guess (the rule of section 3).
ANSWERS = {"get-status": 405, "sdk-bare-get": 405, "region-header-form": "Açores, as typed"}
EDITS = {"your-turn-edit": 'my_header = {"mcp-name": "delete_everything"}   # a name the body does not carry\n'}
AFTER = {
    "duties-reveal": 'assert echoed == "Region: Açores", "the server decoded the header and matched the body"',
    "duties-forget": """
assert forgot.code == -32020 and echoer.transport.last_exchange.status == 400, "no mirror: a mismatch"
""",
    "c13-same": (
        "assert stdio.trace.sent == http.trace.sent, 'the same JSON-RPC text was sent both ways'\n"
        "assert stdio.trace.received == http.trace.received, 'and the same text came back'"
    ),
    "c13-mirror": (
        "assert sent['MCP-Protocol-Version'] == body['_meta']['io.modelcontextprotocol/protocolVersion']\n"
        "assert (sent['Mcp-Method'], sent['Mcp-Name']) == ('tools/call', 'create_event')"
    ),
    "c13-sse-read": (
        "assert ex.header('X-Accel-Buffering') == 'no'\n"
        "assert [e['event'] for e in ex.events] == ['message']\n"
        "assert http.request('tools/list').unwrap() == r"
    ),
    "a1346170": "assert evil.transport.last_exchange.status == 403, 'a foreign Origin is refused'",
    "37db1cdd": (
        "assert guess.held, '405 was predicted, and came back'\n"
        "assert [(x.status, x.header('Allow')) for x in got.values()] == [(405, 'POST')] * 2"
    ),
    "47ef34e0": "assert (http.transport.last_exchange.status, e.code) == (400, -32020)",
    "05ee1120": "assert (http.transport.last_exchange.status, e.code) == (400, -32602)",
    "c13-version": (
        "assert (http.transport.last_exchange.status, e.code) == (400, -32022)\n"
        "assert e.data == {'supported': ['2026-07-28'], 'requested': '1999-01-01'}, '-32022 names both'"
    ),
    "c13-nocaps": "assert (no_caps.transport.last_exchange.status, e.code) == (400, -32021)",
    "bc75682e": "assert (http.transport.last_exchange.status, e.code) == (404, -32601)",
    "your-turn-run": (
        "assert (ex.status, ex.json()['error']['code']) == (400, -32020), 'the header was refused'\n"
        "assert [k for k, _ in ex.request_headers if k.lower() == 'mcp-name'] == ['mcp-name']"
    ),
    "legacy-init-run": "assert (raw.status, raw.json()['error']['code']) == (404, -32601), 'the callout says 404'",
    "c13-suite-init-run": "assert (http.transport.last_exchange.status, e.code) == (404, -32601)",
    "07b1e793": "assert (http.transport.last_exchange.status, http.transport.last_exchange.body) == (202, '')",
    "0e60d7c4": "assert (v.era, v.version) == ('modern', '2026-07-28')",
    "1847d558": "assert (v.era, v.version) == ('legacy', '2025-11-25') and session",
    "c13-sdk-get": (
        "assert (bare.status, modern.status) == (400, 405), 'the version header picks the era'\n"
        "assert sdk_get.held is False and sdk_get.actual == 400, sdk_get.verdict()"
    ),
    "c13-stream-end": "assert waiter.transport.last_exchange.done and len(waiter.transport.last_exchange.events) == 4",
    "c13-after-close": "assert served is True",
    "c13-reissue": 'assert events[-1]["id"] == 8 and "result" in events[-1], "the new id gets the answer"',
    "c13-auth-without": "assert (with_token.status, without_token.status) == (200, 401), 'no token, no answer'",
}
