"""Notebook 03's prediction, typed task and self-check questions.

They live here, not in the notebook, so that no answer key sits on the learner's screen
before they answer (predict, then see).

- "glued-answer": what becomes of request 1's answer when the banner has no newline and the
  answer shares its line.  `fate(trace, id)` reads the answer off the Trace (which option the
  exchange showed), so the notebook's reveal cell never names it.
- "banner-line": the learner writes the banner's line so that the server keeps saying it, off
  the protocol channel.  `judge_banner_line` runs the real calendar behind that line (the
  `noisy` server's shape: the line, then `serve_stdio()`), sends it one request, and says what a
  client would meet: a stdout line that is not a message, a lost answer, or no banner at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mcp_lab.course.lessons import Ask, Task
from mcp_lab.notebook.quiz import Question, Quiz
from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.words import N_, _

# Options are English values (what `expect` compares); the display translates them.
ANSWERED = N_("It is answered: the client skips the banner's text")
REFUSED = N_("The server answers with a parse error (-32700)")
LOST = N_("It is lost: request 1 waits until the client's deadline")
LATE = N_("It arrives late, once the server writes another newline")

ENDINGS = [
    N_("exit code 0: it left on its own at end of input"),
    N_("exit code -15: stopped by SIGTERM"),
    N_("exit code -9: killed by SIGKILL"),
    N_("it is still running"),
]


def how_it_ended(code: int | None) -> str:
    """Which of ENDINGS an exit code is (None: the process has not exited)."""
    return {0: ENDINGS[0], -15: ENDINGS[1], -9: ENDINGS[2]}.get(code, ENDINGS[3])


ASKS = {
    "calendar-at-eof": Ask(
        N_(
            "mcp_lab closes the calendar's stdin and waits (2 s grace before each signal). "
            "How does the calendar's process end?"
        ),
        options=ENDINGS,
        why=N_(
            "the calendar reads stdin line by line and returns when it reads end-of-file, the one "
            "portable way to ask a stdio server to stop; the signals are only for a server that lingers."
        ),
    ),
    "glued-answer": Ask(
        N_(
            "`--glued` prints the banner without its newline, then the server answers request 1. "
            "What becomes of that answer?"
        ),
        options=[ANSWERED, REFUSED, LOST, LATE],
        why=N_(
            "A line parser reads up to the newline: banner and answer arrive as one line, which is "
            "neither a banner nor a message, so nobody can read the answer's id out of it. The server "
            "did answer (it never saw a problem); the client, waiting for id 1, only stops at its "
            "deadline. The next request gets a line of its own and is answered."
        ),
    ),
}


def first_request(client, method: str, seconds: float = 1.0):
    """Send one request and wait at most `seconds`: its answer, or None after printing
    mcp_lab's one line saying that none came (the request stays pending on the client).
    The reveal cell calls it without the deadline in sight, which would hint at the answer."""
    from mcp_lab.wire.errors import DeadlineExceeded

    try:
        return client.request(method, timeout=seconds)
    except DeadlineExceeded as e:
        print("mcp_lab:", e)
        return None


def fate(trace, request_id) -> str:
    """Which option of "glued-answer" the Trace shows for the request `request_id`."""
    for event in trace:
        message = event.message
        if event.kind == "recv" and getattr(message, "id", None) == request_id:
            late = "late" in (event.note or "")
            if late:
                return LATE
            return REFUSED if isinstance(message, jsonrpc.Error) else ANSWERED
    marker = f'"id":{json.dumps(request_id)},'
    if any(event.kind == "noise" and marker in event.line.replace(" ", "") for event in trace):
        return LOST
    return _("no trace of an answer at all")


BANNER_PRELUDE = "import logging, sys\nfrom mcp_lab.servers.noisy import BANNER\n"
BANNER_SERVER = "\nfrom mcp_lab.servers import calendar\ncalendar.serve_stdio()\n"
REPO = Path(__file__).resolve().parents[3]


def judge_banner_line(line) -> str | None:
    """None when a calendar started behind `line` keeps stdout for messages and says BANNER elsewhere."""
    from mcp_lab.servers.noisy import BANNER

    if not isinstance(line, str) or not line.strip():
        return _("Type one line of Python, as a string, e.g. my_line = 'print(BANNER)' changed.")
    try:
        compile(line, "<your line>", "exec")
    except SyntaxError as e:
        return _("That is not valid Python: {error}.").format(error=e.msg)
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": revisions.meta()}})
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))
    try:
        done = subprocess.run(
            [sys.executable, "-c", BANNER_PRELUDE + line + BANNER_SERVER],
            input=request + "\n",
            capture_output=True,
            text=True,
            timeout=15,
            cwd=str(REPO),
            env={**os.environ, "PYTHONPATH": path},
        )
    except subprocess.TimeoutExpired:
        return _("The server behind your line did not finish within 15 s: does your line wait for something?")
    for out_line in done.stdout.splitlines():
        try:
            jsonrpc.parse(out_line)
        except jsonrpc.ProtocolError:
            return _("stdout got {line}, which is not a message: a client reads every stdout line as one.").format(
                line=repr(out_line[:60])
            )
    answers = [jsonrpc.parse(x) for x in done.stdout.splitlines()]
    if not any(isinstance(a, jsonrpc.Result) and a.id == 1 for a in answers):
        tail = done.stderr.strip().splitlines()[-1:] or [_("nothing")]
        return _("The server never answered request 1 (its stderr ended with: {tail}).").format(tail=tail[0][:100])
    if BANNER not in done.stderr:
        return _("The banner is gone: a server may say what it likes, on its own stream.")
    return None


TASKS = {
    "banner-line": Task(
        judge=judge_banner_line,
        hint=N_("print() takes a file= argument; the stream a server may log on is in sys."),
        prompt=N_("Write my_line above (a line of Python that says BANNER), then run both cells."),
        done=N_("done: the banner is still said, and stdout carries only messages."),
    ),
}


# Long on purpose: quiz data, one question after another, each marked for translation
def quiz() -> Quiz:
    quiz = Quiz(
        [
            Question(
                N_("What does the official Python SDK client (mcp 2.3.0) do with the first line?"),
                [
                    N_("It raises and closes the connection"),
                    N_("It logs an ERROR, and carries on"),
                    N_("It treats the line as a notification"),
                    N_("It restarts the server process"),
                ],
                1,
                [
                    N_("No exception reaches your code; the requests are still answered."),
                    N_(
                        "Right: one 'Failed to parse JSONRPC message from server' record (handed to "
                        "`message_handler` if you gave one), and the session continues."
                    ),
                    N_("The line is not JSON at all, so it cannot be any kind of message."),
                    N_("Nothing restarts: the process keeps running and keeps being used."),
                ],
                situation=N_(
                    "server stdout, line 1: Calendar server v1.2 starting...\n"
                    'server stdout, line 2: {"jsonrpc": "2.0", "id": 1, "result": {...}}'
                ),
            ),
            Question(
                N_("What happens to the answer to request 3?"),
                [
                    N_("Nothing: the client skips the text"),
                    N_("It is lost; request 3 waits for its deadline"),
                    N_("The server exits with an error"),
                    N_("It arrives, a little late, once the next newline is written"),
                ],
                1,
                [
                    N_("The client cannot skip part of a line: the whole line is one unreadable message."),
                    N_(
                        "Right: the shared line is neither noise nor a message, and the id inside it never "
                        "reaches the waiting request."
                    ),
                    N_("The server keeps running; it is the client that is left waiting."),
                    N_("It never arrives: it was glued to the fragment, and that line was dropped."),
                ],
                situation=N_(
                    'server code:   print("saving...", end="")     # no newline\n'
                    'server stdout: saving...{"jsonrpc": "2.0", "id": 3, "result": {...}}'
                ),
            ),
            Question(
                N_("Where should a stdio server write its progress and log lines?"),
                [N_("stdout, prefixed with '#'"), "stderr", N_("nowhere: be silent"), N_("stdout, as JSON lines")],
                1,
                [
                    N_("There are no comments in the framing: every stdout line must be an MCP message."),
                    N_("Right: stderr is free-form logging, and clients SHOULD NOT assume it means an error."),
                    N_("Logging is allowed and useful; it just has its own stream."),
                    N_("A JSON line that is not a JSON-RPC message is still invalid on stdout."),
                ],
            ),
        ],
        key="quiz",
    )
    return quiz
