"""The lint's checks, each alone: `mcp_lab.wire.lint.CHECKS` is a table of small functions, each
given a Draft and the findings so far, each saying whether the checks below it can still run.
tests/test_lint.py tests the whole lint against real servers; these pin the pieces."""

from __future__ import annotations

import json

from mcp_lab import revisions
from mcp_lab.wire import lint as L
from mcp_lab.wire.findings import Findings


def run(check, message, **draft) -> tuple[list[str], bool, Findings]:
    text = message if isinstance(message, str) else json.dumps(message)
    out = Findings()
    stop = check(L.Draft(text, **draft), out)
    return out.rules, stop, out


def test_the_table_runs_every_check_in_order_and_lint_is_only_the_table():
    assert L.CHECKS[0] is L.check_framing and L.CHECKS[-1] is L.check_modern_schema
    assert len(set(L.CHECKS)) == len(L.CHECKS) == 10
    assert all(c.__doc__ for c in L.CHECKS), "each check says what it checks"


def test_check_framing_counts_embedded_newlines_only_in_raw_text():
    assert run(L.check_framing, '{"a":\n1}', raw=True)[:2] == (["embedded-newline"], False)
    assert run(L.check_framing, '{"a":\n1}')[:2] == ([], False)
    assert run(L.check_framing, '{"a":1}\n', raw=True)[:2] == ([], False)  # the delimiter itself


def test_check_json_object_stops_on_anything_but_one_object():
    assert run(L.check_json_object, "{nope")[:2] == (["not-json"], True)
    assert run(L.check_json_object, "[]")[:2] == (["batch"], True)
    assert run(L.check_json_object, "3")[:2] == (["not-object"], True)
    assert run(L.check_json_object, "{}")[:2] == ([], False)


def test_check_id_judges_the_id_and_never_stops():
    base = {"jsonrpc": "2.0", "method": "tools/list"}
    assert run(L.check_id, {**base, "id": None})[:2] == (["id-null"], False)
    assert run(L.check_id, {**base, "id": 1.5})[:2] == (["id-type"], False)
    rules, stop, out = run(L.check_id, {**base, "id": 7}, pending={7})
    assert (rules, stop, out[0].path) == (["id-pending"], False, "id")
    assert run(L.check_id, {**base, "id": "7"}, pending={7})[:2] == ([], False)  # "7" is not 7
    assert run(L.check_id, base)[:2] == ([], False)  # no id: a notification, judged further down


def test_check_method_and_params_stops_when_there_is_nothing_to_judge():
    answer = {"jsonrpc": "2.0", "id": 1, "result": {}}
    rules, stop, out = run(L.check_method_and_params, answer)
    assert (rules, stop, out[0].severity) == (["response-from-client"], True, "error")
    rules, stop, out = run(L.check_method_and_params, answer, era="legacy")
    assert (rules, stop, out[0].severity) == (["response-from-client"], True, "warning")
    assert run(L.check_method_and_params, {"jsonrpc": "2.0", "id": 1})[:2] == (["method-missing"], True)
    assert run(L.check_method_and_params, {"id": 1, "method": ""})[:2] == (["method-type"], True)
    assert run(L.check_method_and_params, {"id": 1, "method": "x", "params": []})[:2] == (["params-type"], True)
    mixed = {"id": 1, "method": "x", "result": {}}
    assert run(L.check_method_and_params, mixed)[:2] == (["mixed-message"], False)


def test_check_legacy_only_method_names_the_replacement_and_stops():
    rules, stop, out = run(L.check_legacy_only_method, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, era="modern")
    assert (rules, stop, out[0].severity) == (["legacy-only-method"], True, "error")
    assert "replaced by nothing" in out[0].message
    rules, stop, out = run(L.check_legacy_only_method, {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert (rules[0], stop, out[0].severity) == ("legacy-only-method", True, "warning")
    assert run(L.check_legacy_only_method, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})[:2] == ([], False)
    assert set(L.LEGACY_REPLACEMENTS) == set(revisions.LEGACY_ONLY_METHODS)


def test_check_legacy_connection_runs_only_on_a_legacy_connection_and_then_ends_the_lint():
    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": revisions.meta()}}
    assert run(L.check_legacy_connection, discover, era="modern")[:2] == ([], False)
    rules, stop, _ = run(L.check_legacy_connection, discover, era="legacy")
    assert (rules, stop) == (["modern-only-method", "meta-on-legacy"], True)


def test_lint_stops_at_the_first_check_that_says_stop():
    assert L.lint('{"a":\n1', raw=True).rules == ["embedded-newline", "not-json"]
    assert L.lint('{"jsonrpc":"2.0","id":1,"method":"ping"}', era="modern").rules == ["legacy-only-method"]
