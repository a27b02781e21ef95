"""The noisy calendar, the notes server and the logging wrapper, as real processes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mcp_lab
from mcp_lab import revisions
from mcp_lab.servers import logged, noisy

META = revisions.meta()


def line(id, method, params=None, meta=True):
    p = dict(params or {})
    if meta:
        p["_meta"] = META
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": p}, separators=(",", ":"))


SCRIPT = [
    line(1, "server/discover"),
    line(2, "tools/list"),
    line(
        3, "tools/call", {"name": "create_event", "arguments": {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}}
    ),
    line(4, "tools/list", meta=False),
]


def run(module_args, lines, timeout=20):
    """Feed `lines` to a fresh server, close its stdin, and return (stdout lines, stderr lines)."""
    done = subprocess.run(
        [sys.executable, "-m", *module_args],
        input="".join(l + "\n" for l in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr.splitlines()


def non_json(lines):
    bad = []
    for text in lines:
        try:
            json.loads(text)
        except ValueError:
            bad.append(text)
    return bad


# -- noisy -----------------------------------------------------------------------------------


def test_noisy_prints_exactly_one_non_json_line_and_is_otherwise_the_calendar():
    out, _ = run(["mcp_lab.servers.noisy"], SCRIPT)
    assert non_json(out) == [noisy.BANNER] and out[0] == noisy.BANNER  # one stray line, first
    calendar_out, _ = run(["mcp_lab.servers.calendar"], SCRIPT)
    assert out[1:] == calendar_out  # the rest: byte-identical


def test_noisy_fixed_sends_the_banner_to_stderr():
    out, err = run(["mcp_lab.servers.noisy", "--fixed"], SCRIPT)
    assert non_json(out) == [] and len(out) == len(SCRIPT)
    assert noisy.BANNER in err


@pytest.mark.wire_deliberate(server_noise="the noisy server's banner, on purpose")
def test_mcp_lab_client_records_the_banner_as_noise_and_still_gets_its_answer():
    with mcp_lab.connect("noisy") as c:
        r = c.request("tools/list")
        assert r.ok and [t["name"] for t in r.result["tools"]] == ["create_event"]
        noise = c.trace.of("noise")
        assert [e.line for e in noise] == [noisy.BANNER]
        assert "framing violation" in noise[0].note


# -- notes -----------------------------------------------------------------------------------

NOTES_SCRIPT = [
    line(1, "server/discover"),
    line(2, "tools/list"),
    line(3, "tools/call", {"name": "add_note", "arguments": {"text": "Bring the card", "about": "e3"}}),
    line(4, "tools/call", {"name": "list_notes", "arguments": {}}),
    line(5, "tools/call", {"name": "nope", "arguments": {}}),
    line(6, "tools/list", meta=False),
    line(7, "tools/call", {"name": "add_note", "arguments": {"text": ""}}),
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
    "not json",
]


def test_notes_server_rules_and_its_log_file(tmp_path):
    log = tmp_path / "notes.log"
    out, err = run(["mcp_lab.servers.notes", "--log", str(log)], NOTES_SCRIPT)
    answers = {a.get("id"): a for a in map(json.loads, out)}
    assert len(out) == len(NOTES_SCRIPT) - 1  # the notification got no answer
    disc = answers[1]["result"]
    assert disc["supportedVersions"] == ["2026-07-28"] and disc["resultType"] == "complete"
    assert disc["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "mcp_lab-notes"
    assert [t["name"] for t in answers[2]["result"]["tools"]] == ["add_note", "list_notes"]
    assert answers[3]["result"]["structuredContent"] == {"id": "n1", "text": "Bring the card", "about": "e3"}
    assert answers[3]["result"]["content"][0]["text"] == "Saved n1: Bring the card (about e3)"
    assert answers[4]["result"]["structuredContent"] == {"notes": [answers[3]["result"]["structuredContent"]]}
    assert answers[5]["error"]["code"] == -32602  # unknown tool: a protocol error
    assert answers[6]["error"]["code"] == -32602 and "clientCapabilities" in answers[6]["error"]["message"]
    assert answers[7]["result"]["isError"] is True  # bad argument: a tool error
    assert answers[None]["error"]["code"] == -32700
    # The log is exactly what arrived, line for line, the notification and the garbage included.
    assert log.read_text(encoding="utf-8").splitlines() == NOTES_SCRIPT
    assert logged.read_log(log)[-1] == "not json" and logged.read_log(log)[0] == json.loads(NOTES_SCRIPT[0])
    assert not any(l.startswith(logged.STDERR_PREFIX) for l in err)


def test_notes_logs_to_stderr_by_default():
    out, err = run(["mcp_lab.servers.notes"], NOTES_SCRIPT[:2])
    assert [l for l in err if l.startswith(logged.STDERR_PREFIX)] == [
        logged.STDERR_PREFIX + l for l in NOTES_SCRIPT[:2]
    ]
    assert non_json(out) == []


# -- the logging wrapper --------------------------------------------------------------------


def test_logged_wrapper_logs_exactly_what_the_calendar_received_and_changes_nothing(tmp_path):
    log = tmp_path / "cal.log"
    out, err = run(["mcp_lab.servers.logged", "--log", str(log), "mcp_lab.servers.calendar"], SCRIPT)
    plain, _ = run(["mcp_lab.servers.calendar"], SCRIPT)
    assert out == plain
    assert log.read_text(encoding="utf-8").splitlines() == SCRIPT
    assert any("every received line goes to" in l for l in err)


def test_logged_wrapper_log_is_written_before_the_answer(tmp_path):
    # A live client: once the answer is in hand, the request is already in the log (no waiting).
    log = tmp_path / "cal.log"
    with mcp_lab.connect(
        [sys.executable, "-m", "mcp_lab.servers.logged", "--log", str(log), "mcp_lab.servers.calendar"]
    ) as c:
        for _ in range(3):
            assert c.request("tools/list").ok
            assert log.read_text(encoding="utf-8").splitlines() == c.trace.sent


def test_logged_wrapper_refuses_an_unknown_module_in_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "mcp_lab.servers.logged", "mcp_lab.servers.nope"],
        input="",
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert done.returncode != 0
    assert "cannot import 'mcp_lab.servers.nope'" in done.stderr and "Traceback" not in done.stderr
