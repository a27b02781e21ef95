"""Lab 01: the check fails the untouched template helpfully, passes the solution, and is honest in between."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _support import ROOT  # noqa: E402

from mcp_lab.course.check_calendar import CheckFailed, CheckReport, check

TEMPLATE = ROOT / "labs" / "10-fix-the-calendar" / "calendar_server.py"
SOLUTION = ROOT / "labs" / "solutions" / "10-fix-the-calendar" / "calendar_server.py"


def test_untouched_template_fails_with_the_lesson():
    with pytest.raises(CheckFailed) as info:
        check(TEMPLATE)
    message = str(info.value)
    assert message.startswith("process C read 2 event(s): the write made in process B is gone")
    assert "events live in the process" in message and "SQLite" in message and "create_calendar" in message
    assert "\n" not in message, "one paragraph"
    assert isinstance(info.value, AssertionError)
    # The rows show the chapter's A/B/C really ran, each in its own process.
    labels = [r.label for r in info.value.rows]
    assert labels == ["process 0", "process A", "process B", "process C"]
    assert len({r.pid for r in info.value.rows}) == 4


def test_solution_passes():
    report = check(SOLUTION)
    assert isinstance(report, CheckReport) and len(report.passed) == 6
    assert "All 6 expectations met" in report.text()
    assert len({r.pid for r in report.rows}) == len(report.rows) >= 11


def test_no_solution_code_in_the_template():
    code = TEMPLATE.read_text()
    for pattern in (
        r"^\s*import\s+(sqlite3|hmac|secrets|hashlib)\b",
        r"^\s*from\s+(sqlite3|hmac|secrets)\b",
        r"sqlite3\.connect",
        r"hmac\.new",
        r"token_urlsafe\(",
        r"create_calendar\s*\(",
    ):
        assert not re.search(pattern, code, re.M), f"the template contains solution code: {pattern}"
    assert code.count("# TODO") >= 4
    assert "EVENTS: list[dict] = [" in code, "the bug the lab is about"


def _mutant(tmp_path: Path, old: str, new: str) -> Path:
    code = SOLUTION.read_text()
    assert old in code, f"the solution changed; update the mutant ({old[:40]!r})"
    path = tmp_path / "calendar_server.py"
    path.write_text(code.replace(old, new, 1))
    return path


def test_check_catches_an_unsigned_request_state(tmp_path):
    path = _mutant(tmp_path, "    if not hmac.compare_digest(good, mac):", "    if False:")
    with pytest.raises(
        CheckFailed,
        match=r"^process T1 sent back the requestState of process T0 with its content "
        r'rewritten so the title reads "Mallory", and the server accepted it',
    ):
        check(path)


def test_check_catches_a_handle_that_is_not_validated(tmp_path):
    path = _mutant(
        tmp_path,
        '        return tool_error(why)\n    title = args.get("title")',
        '        pass\n    title = args.get("title")',
    )
    with pytest.raises(CheckFailed, match=r"^process F1 called create_event with a made-up handle .* and it succeeded"):
        check(path)


def test_check_catches_a_guessable_handle_and_a_crash(tmp_path):
    path = _mutant(
        tmp_path,
        'handle = "cal_" + secrets.token_urlsafe(16)',
        'handle = "cal_%d" % (DB.execute("SELECT count(*) FROM calendars").fetchone()[0] + 1)',
    )
    with pytest.raises(
        CheckFailed, match=r"^two calls to create_calendar returned 'cal_1' and 'cal_2': a handle must be unguessable"
    ):
        check(path)
    broken = tmp_path / "broken.py"
    broken.write_text(TEMPLATE.read_text().replace("def main()", "def main(:"))
    with pytest.raises(CheckFailed, match=r"^process 0 \(tools/list\) got no answer: .*SyntaxError"):
        check(broken)


def test_template_notebook_fails_its_check_on_purpose():
    """The lab notebook runs end to end; its check cell (tagged raises-exception) shows CheckFailed."""
    from test_notebooks import run_notebook

    nb, failure = run_notebook(ROOT / "labs" / "10-fix-the-calendar.ipynb")
    assert failure is None, failure
    errors = [
        (i, o)
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert len(errors) == 1, errors
    index, error = errors[0]
    assert "raises-exception" in nb.cells[index].metadata.get("tags", [])
    assert error["ename"] == "CheckFailed" and "the write made in process B is gone" in error["evalue"]
