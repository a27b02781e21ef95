"""The paged toolbox: pages, opaque cursors, -32602, cache hints, and its subscription streams."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

import mcp_lab
from mcp_lab import revisions
from mcp_lab.servers import paged
from mcp_lab.wire.schema_check import check_message

META = revisions.meta()


def req(rid, method, **params):
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": {**params, "_meta": META}})


def answers(box, line, **kw):
    out = box.handle_line(line, **kw)
    return [json.loads(x) for x in (out or b"").decode().splitlines()]


def valid(msg, method=None):
    sender = "server"
    finding = check_message(msg, sender=sender, version=revisions.LATEST, method=method)
    assert finding.verdict == "valid", finding


def every_page(box, kind="tools", method="tools/list"):
    pages, cursor = [], None
    for rid in range(1, 20):
        extra = {} if cursor is None else {"cursor": cursor}
        [msg] = answers(box, req(rid, method, **extra))
        valid(msg, method)
        pages.append(msg["result"])
        cursor = msg["result"].get("nextCursor")
        if cursor is None:
            return pages
    raise AssertionError("no last page")


def test_the_catalog_is_cut_into_pages_with_the_same_cache_hints():
    pages = every_page(paged.Toolbox())
    assert [len(p["tools"]) for p in pages] == [3, 3, 1]
    assert [t["name"] for p in pages for t in p["tools"]] == [t["name"] for t in paged.TOOLS]
    assert {(p["ttlMs"], p["cacheScope"], p["resultType"]) for p in pages} == {(300000, "public", "complete")}
    assert "nextCursor" not in pages[-1]


def test_a_cursor_is_opaque_and_stable_across_processes():
    first = every_page(paged.Toolbox())
    again = every_page(paged.Toolbox())  # a fresh process issues the same cursors
    cursors = [p["nextCursor"] for p in first[:-1]]
    assert cursors == [p["nextCursor"] for p in again[:-1]]
    assert not any(c.isdigit() for c in cursors)
    assert cursors[0][:4] != cursors[1][:4], "no shared prefix that gives the offset away"


@pytest.mark.parametrize("bad", ["", "3", "AAMK", None, 3])
def test_a_cursor_the_server_did_not_issue_is_minus_32602(bad):
    box = paged.Toolbox()
    first = every_page(box)[0]["nextCursor"]
    for cursor in [bad, first[:-1] + ("A" if first[-1] != "A" else "B")]:
        if cursor is None:
            continue
        [msg] = answers(box, req(9, "tools/list", cursor=cursor))
        assert msg["error"]["code"] == -32602, msg
        valid(msg)


def test_a_cursor_for_another_list_is_refused():
    box = paged.Toolbox()
    cursor = every_page(box)[0]["nextCursor"]
    [msg] = answers(box, req(2, "prompts/list", cursor=cursor))
    assert msg["error"]["code"] == -32602


def test_the_empty_cursor_is_a_cursor_not_the_end():
    box = paged.Toolbox(empty_cursor=True)
    pages = every_page(box)
    assert pages[0]["nextCursor"] == ""
    assert [len(p["tools"]) for p in pages] == [3, 3, 1]


def test_a_list_change_invalidates_old_cursors(tmp_path):
    plugins = tmp_path / "plugins.json"
    box = paged.Toolbox(plugins)
    cursor = every_page(box)[0]["nextCursor"]
    plugins.write_text('["shout"]')
    [msg] = answers(box, req(5, "tools/list", cursor=cursor))
    assert msg["error"]["code"] == -32602 and "changed" in msg["error"]["message"]
    assert [t["name"] for p in every_page(box) for t in p["tools"]][-1] == "shout"


def listen(rid, **filt):
    return req(rid, "subscriptions/listen", notifications=filt)


def test_listen_acknowledges_only_what_the_capabilities_allow(tmp_path):
    box = paged.Toolbox(tmp_path / "p.json")
    [ack] = answers(box, listen("L", toolsListChanged=True, promptsListChanged=True, resourcesListChanged=True))
    valid(ack)
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"]["notifications"] == {"toolsListChanged": True}
    assert ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L"
    [ack2] = answers(box, listen(7, resourceSubscriptions=[paged.SUMMARY_URI, "toolbox://nothing"]))
    assert ack2["params"]["notifications"] == {"resourceSubscriptions": [paged.SUMMARY_URI]}


def test_a_change_reaches_each_stream_as_asked_and_tagged(tmp_path):
    plugins = tmp_path / "p.json"
    box = paged.Toolbox(plugins)
    answers(box, listen("tools", toolsListChanged=True))
    answers(box, listen("summary", resourceSubscriptions=[paged.SUMMARY_URI]))
    assert box.poll() == [], "no change, no notification"
    plugins.write_text('["shout"]')
    got = box.poll()
    for m in got:
        valid(m)
    tagged = {(m["method"], m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]) for m in got}
    assert tagged == {("notifications/tools/list_changed", "tools"), ("notifications/resources/updated", "summary")}
    box.handle_line(
        json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "tools"}})
    )
    plugins.write_text('["shout", "whisper"]')
    assert [m["method"] for m in box.poll()] == ["notifications/resources/updated"]


def test_in_process_the_file_is_read_before_each_line(tmp_path):
    plugins = tmp_path / "p.json"
    serve = paged.serve_in_process(["--plugins", str(plugins)])
    serve(listen("L", toolsListChanged=True))
    plugins.write_text('["shout"]')
    lines = [json.loads(x) for x in serve(req(2, "prompts/list")).decode().splitlines()]
    assert [m.get("method") for m in lines] == ["notifications/tools/list_changed", None]


def test_what_the_lesson_sends_is_valid_client_traffic():
    for line in (
        listen("L", toolsListChanged=True, resourceSubscriptions=[paged.SUMMARY_URI]),
        req(2, "tools/list", cursor=""),
    ):
        finding = check_message(json.loads(line), sender="client", version=revisions.LATEST)
        assert finding.verdict == "valid", finding
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "L", "reason": "done"}}
    assert check_message(cancel, sender="client", version=revisions.LATEST).verdict == "valid"


def test_a_listen_without_meta_is_refused():
    box = paged.Toolbox()
    bad = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {"notifications": {}}})
    [msg] = answers(box, bad)
    assert msg["error"]["code"] == -32602


def test_the_real_process_streams_changes_and_closes_each_stream_at_shutdown(tmp_path):
    plugins = tmp_path / "plugins.json"
    argv = [sys.executable, "-m", "mcp_lab.servers.paged", "--plugins", str(plugins)]
    with mcp_lab.connect(argv, name="paged") as c:
        [ack] = c.send_raw(listen("L", toolsListChanged=True), stop_after=1, timeout=10)
        assert ack.method == "notifications/subscriptions/acknowledged"
        start = len(c.trace)
        plugins.write_text('["shout"]')
        deadline = time.monotonic() + 5
        while not c.trace.notifications("notifications/tools/list_changed", since=start):
            assert time.monotonic() < deadline, "the change never arrived"
            try:
                c.read_event(0.2)
            except mcp_lab.DeadlineExceeded:
                pass
        assert len(c.request("tools/list").unwrap()["tools"]) == 3
    # Shutdown: stdin closes, and each open stream gets its closing result, then cancelled.
    done = subprocess.run(argv, input=listen(4, toolsListChanged=True) + "\n", capture_output=True, text=True,
                          timeout=20)  # fmt: skip
    msgs = [json.loads(x) for x in done.stdout.splitlines()]
    assert [m.get("method", "result") for m in msgs] == [
        "notifications/subscriptions/acknowledged",
        "result",
        "notifications/cancelled",
    ]
    for m in msgs:
        valid(m, "subscriptions/listen" if "result" in m else None)
    assert msgs[1]["id"] == 4 and msgs[1]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 4
    assert done.returncode == 0


def test_the_short_name_and_the_browser_edition_know_it():
    from mcp_lab.servers import inprocess, known

    assert known.argv_for("paged")[-1] == "mcp_lab.servers.paged"
    serve, label = inprocess.serve_line_for("paged")
    assert json.loads(serve(req(1, "tools/list")))["result"]["nextCursor"]


def test_the_pages_run_in_the_browser_edition(monkeypatch):
    """In a browser tab (no processes) the toolbox runs in this process, flags included."""
    from mcp_lab.servers import inprocess

    monkeypatch.setattr(inprocess, "IN_BROWSER", True)
    with mcp_lab.connect("paged") as box:
        assert type(box.transport).__name__ == "MemoryTransport", "no child process in a browser tab"
        first = box.request("tools/list").unwrap()
        assert len(box.request("tools/list", {"cursor": first["nextCursor"]}).unwrap()["tools"]) == 3
    with mcp_lab.connect([sys.executable, "-m", "mcp_lab.servers.paged", "--empty-cursor"]) as odd:
        assert odd.request("tools/list").unwrap()["nextCursor"] == ""


def test_the_lesson_s_cursor_task_is_judged_by_the_server():
    from mcp_lab.course.lessons import n05b

    cursor = every_page(paged.Toolbox())[0]["nextCursor"]
    assert n05b.judge_cursor(cursor) is None
    assert n05b.judge_cursor(cursor[:-2]).startswith("the server refused it: -32602 Invalid cursor")
    assert n05b.judge_cursor("").startswith("the server refused it: -32602"), '"" is no cursor of the default toolbox'
    assert n05b.judge_cursor(3).startswith("a cursor is a string")
