"""The helpers of notebooks 03 and 04 that judge or reveal, each shown doing its job.

- notebook 03's task "banner-line" runs the real calendar behind the learner's line: a print to
  stdout, a print without its newline, silence and a syntax error are each refused in one
  sentence; stderr (by print or by logging) is accepted;
- `n03.fate` reads what became of a request off a Trace: the glued server's answer is lost, a
  plain server's answered, a late answer is late;
- notebook 04's `send_as_given` sends a challenge's starting text through `%%rpc` (the magics'
  own path, in an IPython shell), and the starting text of challenge 7 earns one answer a line.
"""

from __future__ import annotations

import sys

import pytest

import mcp_lab
from mcp_lab.course.lessons import n03, your_turn
from mcp_lab.wire.trace import Trace

# Each of these starts real servers or a kernel (tests/_support/kinds.py cannot follow the route).
pytestmark = pytest.mark.system


@pytest.mark.parametrize(
    "line,says",
    [
        ("print(BANNER)", "stdout got 'Calendar server ready"),
        ('print(BANNER, end="")', "which is not a message"),
        ("pass", "The banner is gone"),
        ("print(BANNER", "not valid Python"),
        ("", "Type one line of Python"),
        (..., "Type one line of Python"),
    ],
)
def test_the_banner_task_refuses_what_breaks_the_framing_or_drops_the_banner(line, says):
    reason = n03.judge_banner_line(line)
    assert reason is not None and says in reason and "\n" not in reason, reason


@pytest.mark.parametrize("line", ["print(BANNER, file=sys.stderr)", "logging.warning(BANNER)"])
def test_the_banner_task_accepts_the_banner_on_stderr(line):
    assert n03.judge_banner_line(line) is None


def test_the_banner_task_waits_then_judges(capsys):
    from mcp_lab.course import lessons
    from mcp_lab.course.challenges import NotYet
    from mcp_lab.notebook import interactions

    try:
        your_turn("banner-line")
        assert "banner-line: waiting for you" in capsys.readouterr().out
        with pytest.raises(NotYet):
            your_turn("banner-line", "print(BANNER)")
        your_turn("banner-line", "print(BANNER, file=sys.stderr)")
        assert "banner-line: done" in capsys.readouterr().out
    finally:  # the registry and the solved set are the process's: leave them as found
        interactions.clear()
        lessons._SOLVED.pop("banner-line", None)


@pytest.mark.wire_deliberate(server_noise="the noisy calendar glues its banner to an answer: the fate under test")
def test_fate_reads_what_became_of_a_request_off_the_trace():
    glued = mcp_lab.connect([sys.executable, "-m", "mcp_lab.servers.noisy", "--glued"])
    try:
        assert n03.first_request(glued, "tools/list") is None
        assert n03.fate(glued.trace, 1) == n03.LOST
    finally:
        glued.close()
    with mcp_lab.connect("calendar") as plain:
        plain.request("tools/list", id=1)
        assert n03.fate(plain.trace, 1) == n03.ANSWERED
    late = Trace()
    late.add(
        "recv",
        '{"jsonrpc":"2.0","id":1,"result":{}}',
        mcp_lab.jsonrpc.parse('{"jsonrpc":"2.0","id":1,"result":{}}'),
        note="a late answer to a request this client gave up on after its deadline",
    )
    assert n03.fate(late, 1) == n03.LATE
    assert n03.fate(Trace(), 1) not in n03.ASKS["glued-answer"].options


def test_send_as_given_sends_challenge_7_as_it_stands():
    from IPython import get_ipython
    from IPython.testing.globalipapp import start_ipython

    from mcp_lab.course.challenges import send_as_given

    shell = start_ipython() or get_ipython()  # IPython's one test shell, shared with other tests
    if "mcp_lab" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "mcp_lab")
    shell.run_line_magic("mcp", "connect calendar")
    try:
        answer = send_as_given(7)
        assert [m["error"]["code"] for m in answer.all] == [-32700] * 3
    finally:
        shell.run_line_magic("mcp", "close calendar")
