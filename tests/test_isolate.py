"""mcp_lab.isolated: one fresh process per message, against real servers."""

from __future__ import annotations

import json
import re
import secrets
import sys

import pytest

import mcp_lab
from mcp_lab import jsonrpc
from mcp_lab.session.isolate import Isolation, flip_one_character, isolated

ANSWER = {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}}
A = ("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}})


def B(rows):
    return (
        "tools/call",
        {
            "name": "create_event",
            "arguments": {"title": "Dentist"},
            "inputResponses": ANSWER,
            "requestState": rows[0].request_state,
        },
    )


C = {"method": "resources/read", "params": {"uri": "calendar://week"}}
# The script answers A's question itself (B), so its requests declare form elicitation.
FORM = {"elicitation": {"form": {}}}


@pytest.fixture(scope="module")
def abc() -> Isolation:
    return isolated("calendar", [A, B, C], capabilities=FORM)


def test_chapter_abc_on_the_bundled_calendar(abc):
    a, b, c = abc.rows
    assert [r.label for r in abc] == ["process A", "process B", "process C"]
    assert len({a.pid, b.pid, c.pid}) == 3, "each message must reach its own process"
    assert a.result_type == "input_required"
    assert a.request_state == "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="
    assert b.result_type == "complete" and b.text == "Created e3: Dentist at 2026-09-10T08:30:00Z"
    events = json.loads(c.text)
    assert [e["id"] for e in events] == ["e1", "e2"], "the write made in process B is gone"


def test_rows_keep_the_exact_lines(abc):
    for row in abc:
        sent = jsonrpc.parse(row.request)
        assert isinstance(sent, jsonrpc.Request) and sent.method == row.method
        assert sent.params["_meta"][mcp_lab.revisions.PROTOCOL_VERSION_KEY] == mcp_lab.LATEST
        assert jsonrpc.parse(row.answer_line) == row.answer
        assert row.stderr == ["mcp_lab-calendar 0.1.0: serving 2026-07-28 on stdio"]
        assert row.elapsed_ms > 0 and row.exit_code == 0 and row.error is None and row.noise == []
    # B echoed A's requestState byte-exact, inside the exact line it sent.
    assert '"requestState":"eyJ0aXRsZSI6IkRlbnRpc3QifQ=="' in abc[1].request
    assert abc["process C"] is abc[2]
    with pytest.raises(KeyError, match="process A"):
        abc["process Z"]


def test_renderings(abc):
    page = abc._repr_html_()
    assert page.count("<tr") == 4 and "process B" in page
    shown = re.sub(r"<[^>]+>", "", page)  # the text a person reads (the HTML adds break points)
    assert "Created e3: Dentist at 2026-09-10T08:30:00Z" in shown
    text = abc.text()
    assert text.count("  -> ") == 3 and text.count("  <- ") == 3 and abc[0].request in text
    diagram = abc.mermaid()
    assert diagram.startswith("sequenceDiagram")
    for label in ("process A", "process B", "process C"):
        assert f"participant P{label.replace(' ', '_')} as {label}" in diagram
    assert "Pprocess_A-->>C: result (id 1) input_required" in diagram
    assert diagram._repr_mimebundle_()["text/vnd.mermaid"] == str(diagram)
    # The combined trace has one peer per process, in order.
    assert abc.trace.peers == ["process A", "process B", "process C"]


def test_callable_sees_previous_rows_and_labels():
    seen = []

    def second(rows):
        seen.append([r.label for r in rows])
        return {"method": "tools/list", "params": {}, "meta": False}

    iso = isolated("calendar", [("tools/list", {}), second], labels=["first", "second"])
    assert seen == [["first"]]
    assert iso["first"].ok and iso["first"].result["tools"][0]["name"] == "create_event"
    # meta=False: the request goes out without _meta and a modern server refuses it.
    assert "_meta" not in iso["second"].request
    assert iso["second"].error_code == -32602
    with pytest.raises(ValueError, match="labels has 1 item"):
        isolated("calendar", [A, A], labels=["only one"])
    with pytest.raises(TypeError, match=r"\(method, params\) pair"):
        isolated("calendar", [42])


@pytest.mark.wire_deliberate(server="a learner-written server that is broken on purpose")
def test_a_learners_file_that_crashes_or_prints_becomes_a_row(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom at import')\n")
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import json, sys\n"
        "print('hello from the server')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': {'resultType': 'complete'}}), flush=True)\n"
    )
    iso = isolated([sys.executable, str(broken)], [("tools/list", {})], timeout=5)
    row = iso[0]
    assert row.answer is None and "closed its stdout" in row.error
    assert any("RuntimeError: boom at import" in line for line in row.stderr)
    assert row.exit_code == 1 and "no answer" in row.summary
    iso = isolated([sys.executable, str(noisy)], [("tools/list", {})])
    assert iso[0].noise == ["hello from the server"] and iso[0].result_type == "complete"
    assert "stdout must carry only MCP" in iso.text()


def test_flip_one_character_changes_exactly_one():
    s = "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="
    t = flip_one_character(s)
    assert len(t) == len(s) and sum(x != y for x, y in zip(s, t)) == 1


@pytest.mark.wire_deliberate(
    server="the legacy reference server answers a modern request as a legacy one (the test's point)"
)
def test_reference_server_answers_without_initialize():
    from _support import reference_argv

    reference_argv()  # fails with the fix named when the pinned server is missing
    iso = isolated(
        "everything",
        [("tools/call", {"name": "echo", "arguments": {"message": "hi"}}), ("server/discover", {})],
        timeout=20,
    )
    echo, discover = iso.rows
    # A legacy-era server: no handshake was sent, and it answers anyway, with no resultType.
    assert echo.ok and echo.result_type is None and echo.text == "Echo: hi"
    assert discover.error_code == -32601 and discover.text == "Method not found"


def test_sdk_server_per_process_key_then_shared_key():
    pytest.importorskip("mcp")
    from concurrent.futures import ThreadPoolExecutor

    shared = {"MCP_LAB_STATE_KEY": secrets.token_hex(32)}
    # The two runs are independent; overlapping them halves the SDK's ~1 s start-up cost.
    with ThreadPoolExecutor(2) as pool:
        default, keyed = pool.map(
            lambda env: isolated("sdk_calendar", [A, B], timeout=40, env=env, capabilities=FORM), (None, shared)
        )
    for iso in (default, keyed):
        assert iso[0].result_type == "input_required" and iso[0].request_state.startswith("v1.")
    b = default[1]
    assert b.error_code == -32602 and b.text == "Invalid or expired requestState"
    assert "requestState rejected on tools/call: unknown key" in b.stderr
    b = keyed[1]
    assert b.result_type == "complete" and b.text == "Created e3: Dentist at 2026-09-10T08:30:00Z"
