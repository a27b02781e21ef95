"""One judgement per envelope rule: the parser, the lint, the wire check and the bundled HTTP
binding read one table (`jsonrpc.ENVELOPE_RULES`), the chapter's stdio calendar (standard-library
Python on purpose) writes the same rules by hand, and these tests prove all five say the same.

Two proofs.  Every row of the table has a witness, a message that breaks that row first; each
judge must refuse it for that row (the parser with the row's code and message, the lint with a
finding named after the row, the wire check with an "invalid" verdict quoting the row, the HTTP
binding with the row's message, the calendar with the row's code for every rule a request can
break), except the parser where the row is `tolerated`.  Then a held-out
corpus of client requests that differ only in their envelope (tests/fixtures/envelope_requests.json)
must get one verdict from all four judges.

Before the table, the wire check and the HTTP binding accepted three of those requests that the
parser and the lint refused (an empty `method`, a request that also carries `result`, one that
also carries `error`; the calendar answered the last two, and the first with -32601); `test_the_agreement_check_catches_a_judge_that_drifts` keeps that old wire
check's logic as the defect the agreement check exists to catch.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import _support
import pytest

from mcp_lab.servers import calendar, streamable_http
from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.lint import lint
from mcp_lab.wire.schema_check import check_message

CORPUS = json.loads((Path(__file__).parent / "fixtures" / "envelope_requests.json").read_text())["cases"]
RULE_NAMES = {row.rule for row in jsonrpc.ENVELOPE_RULES}
REQUEST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": revisions.meta()}}
ANSWER = {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": []}}
FAILED = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}

# A message that breaks each row first (and no earlier row).
WITNESSES: dict[str, Any] = {
    "batch": [REQUEST],
    "not-object": "tools/list",
    "jsonrpc-version": {k: v for k, v in REQUEST.items() if k != "jsonrpc"},
    "id-null": {**REQUEST, "id": None},
    "error-id-null": {**FAILED, "id": None},
    "id-type": {**REQUEST, "id": 1.5},
    "method-missing": {"jsonrpc": "2.0", "id": 1},
    "method-type": {**REQUEST, "method": ""},
    "mixed-message": {**REQUEST, "result": {}},
    "params-type": {**REQUEST, "params": []},
    "result-and-error": {**ANSWER, "error": FAILED["error"]},
    "result-id": {k: v for k, v in ANSWER.items() if k != "id"},
    "result-type": {**ANSWER, "result": []},
    "error-code": {**FAILED, "error": {"code": "-32601", "message": "x"}},
    "error-message": {**FAILED, "error": {"code": -32601}},
}


def parser_verdict(msg: Any) -> str:
    try:
        jsonrpc.parse_obj(msg)
    except jsonrpc.ProtocolError as e:
        return f"refuse {e.code}"
    return "accept"


def lint_verdict(msg: Any) -> str:
    errors = [f.rule for f in lint(json.dumps(msg), era="modern") if f.severity == "error" and f.rule in RULE_NAMES]
    return f"refuse {errors[0]}" if errors else "accept"


def wire_check_verdict(msg: Any, envelope: Callable[[Any], tuple[str, str | None]] | None = None) -> str:
    if envelope is not None:  # a stand-in for the wire check's envelope step (the drift test)
        return "refuse" if envelope(msg)[1] else "accept"
    f = check_message(msg, sender="client", version=revisions.LATEST)
    return "refuse" if (f.verdict, f.model) == ("invalid", "JSON-RPC 2.0 envelope") else "accept"


def http_verdict(msg: Any) -> str:
    body, refusal = streamable_http.parse_body(json.dumps(msg).encode())
    if refusal is None:
        refusal = streamable_http._envelope_problem(body)
    return "refuse" if refusal else "accept"


def calendar_verdict(msg: Any) -> str:
    answer = calendar.handle(msg, lambda method, params: {"resultType": "complete"})
    return f"refuse {answer['error']['code']}" if answer is not None and "error" in answer else "accept"


def verdicts(msg: Any, **judges: Callable[[Any], str]) -> dict[str, str]:
    everyone = {
        "parser": parser_verdict,
        "lint": lint_verdict,
        "wire check": wire_check_verdict,
        "HTTP": http_verdict,
        "calendar": calendar_verdict,
    }
    return {name: judge(msg).split()[0] for name, judge in {**everyone, **judges}.items()}


def disagreements(**judges: Callable[[Any], str]) -> list[str]:
    """The corpus cases on which the judges do not all give the expected verdict."""
    out = []
    for case in CORPUS:
        said = verdicts(case["message"], **judges)
        if set(said.values()) != {"accept" if case["expect"] == "valid" else "refuse"}:
            out.append(case["name"])
    return out


def test_every_row_has_a_witness_and_breaks_it_first():
    assert set(WITNESSES) == RULE_NAMES, "a new row needs a witness here"
    for rule, msg in WITNESSES.items():
        first = jsonrpc.first_broken(msg)
        assert first is not None and first.rule == rule, (rule, first)
    assert jsonrpc.first_broken(REQUEST) is None and jsonrpc.first_broken(ANSWER) is None


def test_every_row_says_where_the_spec_states_it():
    spec = _support.SPEC_2026 / "docs"  # read at call time: the course's shared/ folder, when present
    for row in jsonrpc.ENVELOPE_RULES:
        assert row.url.startswith("https://modelcontextprotocol.io/specification/2026-07-28/basic/"), row
        assert row.code == jsonrpc.INVALID_REQUEST and "\n" not in row.message(WITNESSES[row.rule])
        page, _, anchor = row.anchor.partition("#")
        if spec.is_dir():
            text = (spec / f"{page}.mdx").read_text()
            headings = {line.lstrip("#").strip().lower().replace(" ", "-") for line in text.splitlines()}
            assert anchor in headings, f"{row.rule}: no heading #{anchor} in {page}.mdx"


@pytest.mark.parametrize("rule", sorted(WITNESSES))
def test_the_parser_raises_the_first_broken_row(rule):
    msg = WITNESSES[rule]
    row = jsonrpc.first_broken(msg)
    if row.tolerated:
        assert isinstance(jsonrpc.parse_obj(msg), jsonrpc.Error)  # a peer's null id is forgiven
        return
    with pytest.raises(jsonrpc.ProtocolError) as e:
        jsonrpc.parse_obj(msg)
    assert e.value.code == row.code and e.value.message == f"Invalid Request: {row.message(msg)}"
    assert e.value.id == (msg.get("id") if isinstance(msg, Mapping) and jsonrpc.is_valid_id(msg.get("id")) else None)


@pytest.mark.parametrize("rule", sorted(WITNESSES))
def test_the_lint_turns_the_row_into_a_finding(rule):
    msg = WITNESSES[rule]
    row = jsonrpc.first_broken(msg)
    hit = [f for f in lint(json.dumps(msg), era="modern") if f.rule == rule]
    assert hit and hit[0].severity == "error" and hit[0].section == row.anchor, hit
    assert hit[0].message.startswith(row.message(msg)) and hit[0].path == row.path


@pytest.mark.parametrize("rule", sorted(WITNESSES))
def test_the_wire_check_maps_the_row_to_an_invalid_verdict(rule):
    msg = WITNESSES[rule]
    sender = "server" if isinstance(msg, dict) and "method" not in msg and "id" in msg else "client"
    f = check_message(msg, sender=sender, version=revisions.LATEST, method="tools/list")
    assert (f.verdict, f.model, f.error) == ("invalid", "JSON-RPC 2.0 envelope", jsonrpc.first_broken(msg).message(msg))


@pytest.mark.parametrize("rule", sorted(WITNESSES))
def test_the_http_binding_refuses_with_the_rows_message(rule):
    msg = WITNESSES[rule]
    message = jsonrpc.first_broken(msg).message(msg)
    body, refusal = streamable_http.parse_body(json.dumps(msg).encode())
    said = refusal["error"]["message"] if refusal else streamable_http._envelope_problem(body)
    assert said is not None and said.endswith(message), said


def _answers(msg: Any) -> bool:
    return isinstance(msg, dict) and "method" not in msg and ("result" in msg or "error" in msg)


# A client never sends an answer, so the calendar answers none, well-formed or not.
@pytest.mark.parametrize("rule", sorted(rule for rule, msg in WITNESSES.items() if not _answers(msg)))
def test_the_calendar_refuses_a_request_that_breaks_the_row_with_its_code(rule):
    msg = WITNESSES[rule]
    assert calendar_verdict(msg) == f"refuse {jsonrpc.first_broken(msg).code}"


@pytest.mark.parametrize("rule", sorted(rule for rule, msg in WITNESSES.items() if not _answers(msg)))
def test_the_cassette_server_refuses_with_the_rows_code_and_message(rule):
    from mcp_lab.servers.cassette import Player

    msg = WITNESSES[rule]
    row = jsonrpc.first_broken(msg)
    answer = Player([("tools/list", None, {"resultType": "complete", "tools": []})]).handle(msg)
    assert answer is not None and answer["error"] == {
        "code": row.code,
        "message": f"Invalid Request: {row.message(msg)}",
    }


def test_the_held_out_corpus_gets_one_verdict_from_every_judge():
    assert len(CORPUS) == 18
    assert disagreements() == []


def _envelope_before_the_table(obj: Any) -> tuple[str, str | None]:
    """The wire check's own envelope rules as they were before the table (the defect)."""
    if not isinstance(obj, Mapping) or obj.get("jsonrpc") != "2.0":
        return "invalid", "envelope"
    if "id" in obj and (isinstance(obj["id"], bool) or not isinstance(obj["id"], (str, int))):
        return "invalid", "id"
    if "method" in obj:
        if not isinstance(obj["method"], str):
            return "invalid", "method"
        if "params" in obj and not isinstance(obj["params"], Mapping):
            return "invalid", "params"
        return "request", None
    return "invalid", "not a request"


def test_the_agreement_check_catches_a_judge_that_drifts():
    drifted = disagreements(**{"wire check": lambda msg: wire_check_verdict(msg, _envelope_before_the_table)})
    assert drifted == ["method empty", "request also carrying result", "request also carrying error"]
