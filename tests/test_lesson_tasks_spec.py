"""The typed tasks and verdict helpers issue 40 added to notebooks 02, 03, 07 and 13.

Each judge is shown accepting the right value and refusing a wrong one with one sentence; the
judges that talk to the calendar are run against the real calendar, as a process and, where
the browser edition runs them too, in the kernel's own process.
"""

from __future__ import annotations

import pytest

from mcp_lab.course.lessons import n02_rules, n03, n07_security, n13


def test_tool_names_must_be_distinct_and_within_the_rule():
    assert n02_rules.judge_names(["cal.create_event", "sdk.create_event", "sdk.book_table"]) is None
    assert "same" in n02_rules.judge_names(["create_event", "create_event", "book_table"])
    assert "breaks the name rule" in n02_rules.judge_names(["cal create_event", "b.create_event", "book_table"])
    assert "list of three" in n02_rules.judge_names(...)


def test_meta_keys_are_read_as_the_rule_reads_them():
    kinds = {key: n02_rules.meta_key_kind(key) for key in n02_rules.META_KEYS}
    assert kinds == {
        "com.example/region": "valid",
        "dev.mcp/region": "reserved",
        "com.example.mcp/region": "valid",
        "com.example/-region": "invalid",
        "4example.com/region": "invalid",
        "traceparent": "reserved",
    }
    assert n02_rules.meta_key_kind("io.modelcontextprotocol/protocolVersion") == "reserved"
    assert n02_rules.judge_meta_keys(kinds) is None
    assert "off" in n02_rules.judge_meta_keys(dict.fromkeys(kinds, "valid"))


@pytest.mark.parametrize("in_browser", [False, True])
def test_the_output_schema_is_judged_on_the_calendars_real_result(monkeypatch, in_browser):
    from mcp_lab.servers import inprocess

    monkeypatch.setattr(inprocess, "IN_BROWSER", in_browser)
    good = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    assert n02_rules.judge_output_schema(good) is None
    wrong_type = {**good, "properties": {"id": {"type": "integer"}}}
    assert "does not conform" in n02_rules.judge_output_schema(wrong_type)
    assert "required" in n02_rules.judge_output_schema({"type": "object"})  # says nothing: refused


def test_the_result_reader_is_run_on_live_and_recorded_results():
    """(In the browser edition the recording is the packed copy tools/lite_build.py adds to the
    package, which a checkout does not have: that path is the lite build's to prove.)"""

    def right(result):
        kind = result.get("resultType", "complete")
        return kind if kind in ("complete", "input_required") else "invalid"

    assert n02_rules.judge_result_reader(right) is None
    assert "'partial'" in n02_rules.judge_result_reader(lambda r: r.get("resultType", "complete"))
    assert "raised KeyError" in n02_rules.judge_result_reader(lambda r: r["resultType"])


def test_the_connect_page_accepts_only_the_verified_user_who_started_it():
    def right(elicited_for, session_user, url_user):
        return session_user is not None and session_user == elicited_for

    assert n07_security.judge_connect_check(right) is None
    trusts_the_url = n07_security.judge_connect_check(lambda e, s, u: u == e)
    assert trusts_the_url.startswith("Bob opens the link Alice forwarded him: your function accepted")
    matches_the_url = n07_security.judge_connect_check(lambda e, s, u: s == u)
    assert matches_the_url.startswith("Bob signed in, the URL edited")


def test_verdict_helpers_name_the_option_the_wire_shows():
    assert n13.header_form("=?base64?QcOnb3Jlcw==?=") == "a Base64 sentinel"
    assert n13.header_form("Açores") == "Açores, as typed"
    assert n13.header_form(None) == "no header: the body carries it"
    assert n03.how_it_ended(0).startswith("exit code 0")
    assert n03.how_it_ended(-9).startswith("exit code -9")
    assert n03.how_it_ended(None) == "it is still running"
