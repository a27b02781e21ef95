"""Replay as an engineer uses it: `--ignore` with the paths the diff prints, a warning for a rule
that matches nothing, JUnit for CI, exit 2 when the server cannot be reached, and a stateful
session (a handle the server minted, sent back later) replayed against a fresh server."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.__main__ import main

FAKES = Path(__file__).resolve().parent / "fakes"
MINTED = [sys.executable, str(FAKES / "engineer_server.py"), "--minted"]
CALENDAR = [sys.executable, "-m", "mcp_lab.servers.calendar"]
SDK = [sys.executable, "-m", "mcp_lab.servers.sdk_calendar"]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "calendar.jsonl"
    with mcp_lab.probe(CALENDAR, refresh=True) as v:
        v.client.request("tools/list")
        v.trace.save(path)
    return path


def test_ignore_takes_the_paths_the_diff_prints(catalog):
    d = mcp_lab.replay(catalog, SDK, timeout=20)
    tools = next(i for i in d.items if i.label == "tools/list")
    printed = [c.where for c in tools.changes]
    assert "answer.result.tools[1]" in printed, printed
    again = mcp_lab.replay(catalog, SDK, timeout=20, ignore=printed)
    left = next(i for i in again.items if i.label == "tools/list")
    assert left.status == "same" and again.warnings == [], (left.changes, again.warnings)
    star = mcp_lab.replay(
        catalog,
        SDK,
        timeout=20,
        ignore=["answer.result.tools[*]", 'answer.result._meta["io.modelcontextprotocol/serverInfo"].name'],
    )
    assert next(i for i in star.items if i.label == "tools/list").status == "same"


def test_a_rule_that_matches_nothing_is_warned_of(catalog, capsys):
    code = main(["diff", str(catalog), str(catalog), "--ignore", "answer.result.no_such_field"])
    err = capsys.readouterr().err
    assert code == 0 and "--ignore 'answer.result.no_such_field' matched nothing" in err, err
    d = mcp_lab.diff(catalog, catalog, ignore=["result.tools[0].name"])  # the old form, one message
    assert d.warnings == [] and d.same


def test_replay_writes_junit_and_tells_unreachable_from_different(catalog, tmp_path, capsys):
    junit = tmp_path / "replay.xml"
    code = main(["replay", str(catalog), "--junit", str(junit), "--", *SDK])
    assert code == 1
    root = ET.parse(junit).getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert any(n.endswith("tools/list") and c.find("failure") is not None for n, c in cases.items()), list(cases)
    assert any(n.endswith("server/discover") for n in cases)
    capsys.readouterr()
    code = main(["replay", str(catalog), "http://127.0.0.1:9/mcp"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "cannot connect" in err and "\n" not in err, err


def test_a_minted_handle_is_learned_and_sent_back(tmp_path):
    path = tmp_path / "minted.jsonl"
    with mcp_lab.probe(MINTED, refresh=True) as v:
        handle = v.client.request("tools/call", {"name": "open_list", "arguments": {"title": "groceries"}})
        handle = handle.result["content"][0]["text"]
        added = v.client.request("tools/call", {"name": "add_item", "arguments": {"handle": handle, "item": "milk"}})
        assert "1 item(s)" in added.result["content"][0]["text"]
        v.trace.save(path)
    d = mcp_lab.replay(path, MINTED)  # a fresh process: it never issued the recorded handle
    assert d.same, d.text()
    sent = [e.message.params["arguments"] for e in d.trace if e.kind == "send" and e.message.method == "tools/call"]
    assert sent[1]["handle"] != handle and sent[1]["handle"].startswith("list-"), sent


def test_a_durable_calendar_session_replays_against_a_fresh_database(tmp_path):
    def durable(db):
        return [sys.executable, "-m", "mcp_lab.servers.durable", "--db", str(tmp_path / db)]

    path = tmp_path / "durable.jsonl"
    with mcp_lab.probe(durable("first.sqlite3"), refresh=True) as v:
        made = v.client.request("tools/call", {"name": "create_calendar", "arguments": {}})
        cal = made.result["structuredContent"]["calendar"]
        event = {"calendar": cal, "title": "Standup", "startsAt": "2026-09-07T09:00:00Z"}
        assert not v.client.request("tools/call", {"name": "create_event", "arguments": event}).result.get("isError")
        v.trace.save(path)
    d = mcp_lab.replay(path, durable("second.sqlite3"), ignore=["**.expiresAt"])
    assert "Unknown calendar handle" not in d.text(), d.text()
    last = d.items[-1]
    assert last.label == "tools/call create_event" and last.status == "same", d.text()


def test_a_replay_across_catalogs_sends_the_recorded_requests(tmp_path):
    """calendar's tools/list holds create_event first; durable's holds create_calendar there.
    The replay must still call create_event (a tool name is the client's choice, never a value
    to learn), and the row must show the bytes that went out."""
    path = tmp_path / "calendar.jsonl"
    with mcp_lab.probe(CALENDAR, refresh=True) as v:
        v.client.request("tools/list")
        v.client.request("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}})
        v.trace.save(path)
    durable = [sys.executable, "-m", "mcp_lab.servers.durable", "--db", str(tmp_path / "d.sqlite3")]
    d = mcp_lab.replay(path, durable)
    sent = [json.loads(e.line) for e in d.trace if e.kind == "send"]
    recorded = [json.loads(e.line) for e in mcp_lab.session.cassette.read(path).trace if e.kind == "send"]
    assert [(m["method"], m["params"].get("name")) for m in sent] == [
        (m["method"], m["params"].get("name")) for m in recorded
    ], sent
    assert sent[-1]["params"]["arguments"] == {"title": "Dentist"}, sent[-1]
    row = d.items[-1]
    assert row.label == "tools/call create_event" and json.loads(row.right.request_line) == sent[-1]


def test_only_argument_values_are_minted():
    """A cursor and a handle sent back as arguments are minted; a name from a catalog is not."""
    from mcp_lab.session.exchanges import RpcExchange
    from mcp_lab.session.minted import Minted, candidates
    from mcp_lab.session.replay import Step

    def step(method, params, result):
        return Step("p", "request", method, params, RpcExchange("request", "p", {}, {"result": result}))

    steps = [
        step("tools/list", {}, {"tools": [{"name": "create_event"}], "nextCursor": "page-2-abc"}),
        step("tools/list", {"cursor": "page-2-abc"}, {"tools": [{"name": "open_list"}]}),
        step("tools/call", {"name": "open_list", "arguments": {}}, {"content": [{"text": "list-123456"}]}),
        step("tools/call", {"name": "create_event", "arguments": {"handle": "list-123456"}}, {}),
    ]
    assert candidates(steps) == {"page-2-abc", "list-123456"}
    m = Minted({"list-123456", "create_event"})
    m.table = {"list-123456": "list-999999", "create_event": "create_calendar"}
    sent = m.forward({"name": "create_event", "uri": "x://list-123456", "arguments": {"handle": "list-123456"}})
    assert sent == {"name": "create_event", "uri": "x://list-123456", "arguments": {"handle": "list-999999"}}
