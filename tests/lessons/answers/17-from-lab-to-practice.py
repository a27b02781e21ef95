"""What the test-learner does in notebooks/17-from-lab-to-practice.ipynb (quizzes: the right answer).

It predicts the SDK calendar answers initialize with -32601 (as the standard-library calendar
does): wrong on purpose, so the run shows the "Not quite" verdict.
"""

# The test-learner fixes the host entry for lab 10's server with absolute paths.
EDITS = {
    "p17-yours": (
        "MY_ENTRY = {'command': sys.executable,\n"
        "            'args': [str(Path('../labs/10-fix-the-calendar/calendar_server.py').resolve())]}\n"
    ),
}
ANSWERS = {"sdk-calendar-meets-initialize": "-32601"}
TRUTH = {"sdk-calendar-meets-initialize": "an initialize result"}
AFTER = {
    "p17-06": "assert no_meta.code == -32602, 'the SDK checks _meta before the tool runs'",
    "p17-06c": "assert states['sdk_calendar'].startswith('v1.'), 'the SDK seals its state (v1. tokens)'",
    "p17-reveal": ("assert guess.held is False and hello.result['protocolVersion'] == '2025-11-25', guess.verdict()"),
    "p17-eras-stdlib": "assert hello.code == -32601, 'the standard-library calendar is modern only'",
    "p17-ping": "assert pong.ok and pong.result == {}, 'a bare {} for a legacy ping: no resultType'",
    "p17-07-code": (
        "source = inspect.getsource(sdk_calendar.require_form_elicitation)\n"
        "assert 'MISSING_REQUIRED_CLIENT_CAPABILITY' in source and 'ctx' in source, 'the SDK calendar own check'\n"
        "assert sdk_calendar.require_form_elicitation.__module__ == 'mcp_lab.servers.sdk_calendar'"
    ),
    "p17-08": (
        "entries = json.loads(printed.stdout)['mcpServers']\n"
        "assert all(e['command'].startswith('/') for e in entries.values()), 'absolute commands only'"
    ),
    "p17-yours-check": (
        "from mcp_lab.notebook import interactions\n"
        "assert interactions.get('host-entry-of-your-own').done, 'the entry launched'"
    ),
}
