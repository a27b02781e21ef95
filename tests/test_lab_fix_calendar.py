"""Lab 10 (fix the calendar): the check fails the untouched template helpfully, passes the solution,
and is honest in between: each near miss (a forged state believed, a handle not checked, a
handle usable by another caller, plumbing that breaks the schema) fails with the sentence for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _support import ROOT

from mcp_lab.course.check_calendar import CheckFailed, CheckReport, check

TEMPLATE = ROOT / "labs" / "10-fix-the-calendar" / "calendar_server.py"
SOLUTION = ROOT / "labs" / "solutions" / "10-fix-the-calendar" / "calendar_server.py"
# The check both ways in each edition (labs/pt-BR/ is generated from the same source: same code).
EDITIONS = {
    "en": (TEMPLATE, SOLUTION),
    "pt-BR": (
        ROOT / "labs" / "pt-BR" / "10-fix-the-calendar" / "calendar_server.py",
        ROOT / "labs" / "pt-BR" / "solutions" / "10-fix-the-calendar" / "calendar_server.py",
    ),
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_untouched_template_fails_with_the_lesson(edition):
    with pytest.raises(CheckFailed) as info:
        check(EDITIONS[edition][0])
    message = str(info.value)
    assert message.startswith("process C read 2 event(s): the write made in process B is gone")
    assert "events live in the process" in message and "SQLite" in message and "create_calendar" in message
    assert "\n" not in message, "one paragraph"
    assert isinstance(info.value, AssertionError)
    # The rows show the chapter's A/B/C really ran, each in its own process.
    labels = [r.label for r in info.value.rows]
    assert labels == ["process 0", "process A", "process B", "process C"], labels
    assert len({r.pid for r in info.value.rows}) == 4, "each message in its own process"


@pytest.mark.parametrize("edition", EDITIONS)
def test_solution_passes(edition):
    report = check(EDITIONS[edition][1])
    assert isinstance(report, CheckReport) and len(report.passed) == 8, report.text()
    assert "All 8 expectations met" in report.text()
    assert any("validate against the 2026-07-28 schema" in p for p in report.passed), report.passed
    assert report.passed[-1].startswith("a handle is not a permission: mallory's process"), report.passed
    assert len({r.pid for r in report.rows}) == len(report.rows) >= 14


def test_no_solution_code_in_the_template():
    code = TEMPLATE.read_text()
    for pattern in (
        r"^\s*import\s+sqlite3\b",
        r"^\s*from\s+sqlite3\b",
        r"sqlite3\.connect",
        r"token_urlsafe\(",
        r"def create_calendar\s*\(",
        r"SELECT .* FROM calendars",
    ):
        assert not re.search(pattern, code, re.M), f"the template contains solution code: {pattern}"
    assert code.count("# TODO") >= 4
    assert "EVENTS: list[dict] = [" in code, "the bug the lab is about"
    # The sealing helpers are given: the lab's time goes to the handle and the store.
    for given in ("def seal(", "def unseal(", "def load_key(", "def caller(", "os.O_EXCL", "hmac.compare_digest"):
        assert given in code, f"the template should give the learner {given!r}"


def _mutant(tmp_path: Path, old: str, new: str) -> Path:
    code = SOLUTION.read_text()
    assert old in code, f"the solution changed; update the mutant ({old[:40]!r})"
    path = tmp_path / "calendar_server.py"
    path.write_text(code.replace(old, new, 1))
    return path


def test_check_catches_an_unsigned_request_state(tmp_path):
    path = _mutant(
        tmp_path,
        "    if not hmac.compare_digest(_b64(hmac.new(KEY, body.encode(), hashlib.sha256).digest()), mac):",
        "    if False:",
    )
    with pytest.raises(
        CheckFailed,
        match=r"^process T1 sent back the requestState of process T0 with its content "
        r'rewritten so the title reads "Mallory", and the server accepted it',
    ):
        check(path)


def test_check_catches_a_handle_that_is_not_validated(tmp_path):
    path = _mutant(
        tmp_path, '        return f"Unknown calendar handle', '        return None and f"Unknown calendar handle'
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


def test_check_catches_a_handle_usable_by_another_caller(tmp_path):
    path = _mutant(tmp_path, "    if not hmac.compare_digest(row[0].encode(), caller().encode()):", "    if False:")
    with pytest.raises(
        CheckFailed,
        match=r"^process M1 was started for another caller \(MCP_LAB_CALLER=mallory\) and "
        r"called list_events with the handle that alice's process created, and it "
        r"succeeded .*a handle is a name, not a permission",
    ):
        check(path)


# Plumbing that breaks the schema: each variant fails with the rule's name and the spec page.
PLUMBING_MISSES = {
    "discover-without-cache-fields": (
        '"ttlMs": 3600000, "cacheScope": "public"})',
        "})",
        r"server/discover asking 2026-07-28\): expected an answer that validates against the 2026-07-28 schema "
        r"\(DiscoverResult\); got cacheScope: Field required.*server/discover#discoverresult",
    ),
    "serverInfo-at-the-top": (
        'return complete({"supportedVersions": SUPPORTED,',
        'return complete({"serverInfo": SERVER_INFO, "supportedVersions": SUPPORTED,',
        r"expected serverInfo inside the result's _meta.*got a top-level serverInfo.*legacy initialize shape",
    ),
    "tools-list-without-cache-fields": (
        'complete({"tools": TOOLS, "ttlMs": 300000, "cacheScope": "public"})',
        'complete({"tools": TOOLS})',
        r"\(ListToolsResult\); got cacheScope: Field required.*caching#cacheable-results",
    ),
    "version-error-without-requested": (
        "caps = check_meta(params)",
        "caps = check_meta(params) if params.get('_meta', {}).get('io.modelcontextprotocol/protocolVersion') "
        "== '2026-07-28' else (_ for _ in ()).throw(Refusal(-32022, 'Unsupported', {'supported': SUPPORTED}))",
        r"\(UnsupportedProtocolVersionError\); got error\.data\.requested: Field required.*versioning",
    ),
    "null-id-on-an-unreadable-line": (
        'answer = handle_line(line, lambda msg: handle_message(msg, dispatch, name=SERVER_INFO["name"]))',
        'answer = handle_line(line, lambda msg: handle_message(msg, dispatch, name=SERVER_INFO["name"])) '
        'if line.strip().startswith(b\'{"\') else b\'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,'
        '"message":"Parse error"}}\\n\'',
        r"a line that is not JSON\): .*got id must be a string or an integer, not None.*never \"id\": null",
    ),
}


@pytest.mark.wire_deliberate(server="lab solutions broken on purpose to prove the check catches them")
@pytest.mark.parametrize("miss", sorted(PLUMBING_MISSES))
def test_check_catches_plumbing_that_breaks_the_schema(tmp_path, miss):
    old, new, message = PLUMBING_MISSES[miss]
    with pytest.raises(CheckFailed, match=message):
        check(_mutant(tmp_path, old, new))
