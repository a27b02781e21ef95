"""What the test-learner answers in notebook 03: a prediction a learner could get wrong, the line
it types for the fix, and the facts each cell shows (checked off screen, right after the cell)."""

from mcp_lab.course.lessons.n03 import ANSWERED, ENDINGS

ANSWERS: dict = {
    "glued-answer": ANSWERED,  # "the client skips the banner's text": a likely wrong guess
    "calendar-at-eof": ENDINGS[1],  # "stopped by SIGTERM": a likely wrong guess
}
TRUTH = {
    "glued-answer": "It is lost: request 1 waits until the client's deadline",
    "calendar-at-eof": "exit code 0: it left on its own at end of input",
}
EDITS = {"my-line": 'my_line = "print(BANNER, file=sys.stderr)"   # a line of Python, as a string'}
AFTER = {
    "crash-restart": 'assert [e["id"] for e in events] == ["e1", "e2"], "a fresh process: the booking is gone"',
    "raw-out": "assert stdout_lines[0] == __import__('mcp_lab.servers.noisy').servers.noisy.BANNER",
    "naive-run": (
        "try:\n    naive_answer(stdout_lines)\nexcept json.JSONDecodeError:\n    pass\n"
        "else:\n    raise AssertionError('the banner should have broken the naive client')"
    ),
    "c06": (
        "from mcp_lab.servers import noisy\n[event] = loud.trace.of('noise')\n"
        "assert tools.ok and event.line == noisy.BANNER, 'the banner is noise; the request is still answered'"
    ),
    "c08": (
        "from pydantic import ValidationError\n[record] = sdk.log\n[fault] = sdk.handed\n"
        "assert sdk.made.startswith('Created e3'), 'every request was answered despite the banner'\n"
        "assert isinstance(fault, ValidationError) and sdk.ended == 'normally'"
    ),
    "c11": (
        "from mcp_lab.servers import noisy\n[bad] = glued.trace.of('noise')\n"
        'assert bad.line.startswith(noisy.BANNER + \'{"jsonrpc":"2.0","id":1,\'), \'banner + answer, one line\''
    ),
    "sdk-glued": "assert sdk_glued.tools is None and sdk_glued.ended.startswith('TimeoutError')",
    "c15": "assert answered and quiet.trace.of('noise') == [], 'no noise: the banner went to stderr'",
    "sdk-fixed": (
        "from mcp_lab.servers import noisy\n"
        "assert sdk_fixed.stderr[0] == noisy.BANNER and sdk_fixed.log == [] and sdk_fixed.handed == []"
    ),
}
