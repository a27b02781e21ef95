"""Cassettes: the format round trip, replay (input_required rounds, eras), diffs, the cassette
server driven by mcp_lab's client and by the official SDK's, and bad input.

Every server here is a real process (the bundled calendar, the SDK calendar, the pinned
reference server, the cassette server itself); every wait has a deadline; every process is
closed by the code under test, and the tests check that none is left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _support import CALENDAR_ARGV, ROOT, wait_for  # noqa: E402

import mcp_lab
from mcp_lab import Trace, jsonrpc, mrtr
from mcp_lab.session import cassette
from mcp_lab.session.cassette import CassetteError
from mcp_lab.session.diff import diff, exchanges
from mcp_lab.session.replay import convert
from mcp_lab.wire import jsondiff

WHEN = "2026-09-10T08:30:00Z"
DENTIST = {"name": "create_event", "arguments": {"title": "Dentist"}}
CASSETTE_SERVER = [sys.executable, "-m", "mcp_lab.servers.cassette"]
SDK_TIMEOUT = 20.0


def _accept(key, request):
    return {"action": "accept", "content": {"startsAt": WHEN}}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> "os.PathLike":
    """A real recording of the calendar: probe, catalog, a read, and an input_required round trip."""
    path = tmp_path_factory.mktemp("cassettes") / "calendar.jsonl"
    with mcp_lab.probe(CALENDAR_ARGV, refresh=True) as v:
        v.client.request("tools/list")
        v.client.request("resources/read", {"uri": "calendar://week"})
        ex = mrtr.call(v.client, "tools/call", DENTIST, _accept)
        assert ex.complete and ex.rounds == 2, ex
        v.trace.save(path)
    return path


def _children() -> set[int]:
    """Pids whose parent is this test process (Linux /proc): what a replay may have left behind."""
    me, kids = str(os.getpid()), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                kids.add(int(entry))
    return kids


# -- 1. the format ------------------------------------------------------------------------------
def test_round_trip_renders_identically_and_header_states_the_server(recorded):
    c = cassette.read(recorded)
    assert c.header["format"] == cassette.FORMAT and c.header["transport"] == "stdio"
    assert c.server["era"] == "modern" and c.server["version"] == mcp_lab.LATEST
    assert c.server["info"]["name"] == "mcp_lab-calendar"
    again = Trace.load(Trace.save(c.trace, recorded.with_name("again.jsonl")))
    assert again.text() == c.trace.text()
    assert again._repr_html_() == c.trace._repr_html_()
    assert again.mermaid() == c.trace.mermaid()
    assert [e.message for e in again] == [e.message for e in c.trace]
    assert recorded.with_name("again.jsonl").read_bytes().splitlines()[1:] == recorded.read_bytes().splitlines()[1:]


@pytest.mark.wire_deliberate(server_noise="a noise event is one of the kinds the cassette must keep")
def test_every_event_kind_and_odd_text_survive(tmp_path):
    t = Trace(title="odd")
    t.add("note", "a remark")
    t.add(
        "send",
        '{"jsonrpc":"2.0","id":"x","method":"tools/list"}',
        jsonrpc.parse('{"jsonrpc":"2.0","id":"x","method":"tools/list"}'),
    )
    t.add("noise", "bytes that were not UTF-8: \udcff\udcfe", note="framing violation")
    t.add("stderr", "caf\u00e9 \u2603 tab\there")
    t.add(
        "recv",
        '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}',
        jsonrpc.parse('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}'),
    )
    back = Trace.load(t.save(tmp_path / "odd.jsonl"))
    assert [(e.kind, e.line, e.message, e.t, e.note, e.peer) for e in back] == [
        (e.kind, e.line, e.message, e.t, e.note, e.peer) for e in t
    ]
    (tmp_path / "odd.jsonl").read_bytes().decode("utf-8")  # the file itself stays valid UTF-8


def test_http_exchanges_are_kept_raw(tmp_path):
    with mcp_lab.serve_http("calendar") as srv:
        with srv.connect(timeout=10) as c:
            c.request("tools/list")
            # The raw exchange is reported by the transport's reader thread, maybe just after the answer.
            assert wait_for(lambda: c.trace.of("http"), 5), "no raw HTTP exchange in the trace"
            path = c.trace.save(tmp_path / "http.jsonl")
            original = Trace(list(c.trace)[: len(cassette.read(path).trace)], title=c.trace.title)
    loaded = cassette.read(path)
    assert loaded.header["transport"] == "http"
    http = loaded.trace.of("http")
    assert http and http[0].message.status == 200 and http[0].message.request_headers
    assert loaded.trace.text() == original.text() and loaded.trace._repr_html_() == original._repr_html_()


def _lines(path):
    return path.read_text().splitlines(keepends=True)


BAD = {
    "truncated": (lambda ls: "".join(ls)[:-25], "line {len(ls)}: cut short: the file ends in the middle"),
    "corrupt": (lambda ls: ls[0] + ls[1] + "{not json\n" + "".join(ls[3:]), "line 3: not JSON"),
    "foreign": (lambda ls: '{"log": "something else"}\n' + "".join(ls[1:]), "line 1: not an mcp_lab cassette"),
    "newer": (
        lambda ls: ls[0].replace('"format":1', '"format":99') + "".join(ls[1:]),
        "line 1: written by a newer mcp_lab (cassette format 99",
    ),
    "unknown kind": (
        lambda ls: ls[0] + ls[1].replace('"kind":"note"', '"kind":"telepathy"') + "".join(ls[2:]),
        "line 2: unknown event kind 'telepathy'",
    ),
    "lost lines": (lambda ls: "".join(ls[:-2]), "the header promises"),
    "empty": (lambda ls: "", "empty"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_are_refused_in_one_line_naming_the_line(recorded, tmp_path, case):
    make, expected = BAD[case]
    expected = expected.replace("{len(ls)}", str(len(_lines(recorded))))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(make(_lines(recorded)))
    with pytest.raises(CassetteError) as err:
        cassette.read(bad)
    msg = str(err.value)
    assert expected in msg and "\n" not in msg and msg.startswith("bad.jsonl"), msg


def test_not_utf8_is_named(tmp_path, recorded):
    bad = tmp_path / "bin.jsonl"
    bad.write_bytes(recorded.read_bytes().replace(b"Dentist", b"Dent\xffst", 1))
    with pytest.raises(CassetteError, match=r"line \d+: not UTF-8"):
        cassette.read(bad)


# -- 2./3. replay and diff ----------------------------------------------------------------------
def test_replay_against_the_same_server_is_same(recorded):
    d = mcp_lab.replay(recorded, CALENDAR_ARGV)
    assert d.same, d.text()
    assert d.counts == {"same": 5, "changed": 0, "missing": 0, "extra": 0}


def test_replay_echoes_the_new_servers_request_state_never_the_recorded_one(recorded, tmp_path):
    # Forge the recording's requestState: a replay that echoed it would fail at the calendar
    # (-32602 Invalid requestState); one that echoes the new server's own completes.
    text = recorded.read_text().replace("eyJ0aXRsZSI6IkRlbnRpc3QifQ==", "UkVDT1JERUQtU1RBVEU=")
    forged = tmp_path / "forged.jsonl"
    forged.write_text(text)
    d = mcp_lab.replay(forged, CALENDAR_ARGV)
    assert d.same, d.text()  # requestState is normalised: the two still agree
    sent = "\n".join(d.trace.sent)
    assert "UkVDT1JERUQtU1RBVEU=" not in sent
    assert sent.count("eyJ0aXRsZSI6IkRlbnRpc3QifQ==") == 1  # the retry echoes what the new server issued
    assert d.items[-1].right.answer["result"]["content"][0]["text"] == f"Created e3: Dentist at {WHEN}"


def test_replay_against_the_sdk_calendar_shows_structural_changes(recorded):
    d = mcp_lab.replay(recorded, [sys.executable, "-m", "mcp_lab.servers.sdk_calendar"], timeout=SDK_TIMEOUT)
    assert not d.same and d.counts["changed"] == 5, d.text()
    tools = next(i for i in d.items if i.label == "tools/list")
    paths = [c.where for c in tools.changes]
    assert "answer.result.tools[1]" in paths, paths  # book_table: a tool the calendar lacks
    assert d.items[-1].right.answer["result"]["resultType"] == "complete"  # MRTR completed on the SDK too


def test_era_conversion_modern_to_legacy_shows_what_the_era_change_does(recorded):
    d = mcp_lab.replay(recorded, CALENDAR_ARGV, era="legacy")
    assert not d.same
    first = d.items[0]
    assert first.right.request["method"] == "initialize" and first.right.answer["error"]["code"] == -32601
    assert any(i.status == "extra" and i.label == "notifications/initialized" for i in d.items)
    listed = next(i for i in d.items if i.label == "tools/list")
    assert listed.right.answer["error"]["code"] == -32602  # no _meta: a modern server refuses
    assert d.items[-1].status == "missing" and "requestState" in d.items[-1].why


@pytest.mark.wire_deliberate(
    server_legacy_answer="the pinned legacy reference server answers a modern request in its own era"
)
def test_era_conversion_legacy_to_modern_on_the_reference_server_12_vs_13_tools(tmp_path):
    path = tmp_path / "everything.jsonl"
    with mcp_lab.probe("everything", timeout=10, refresh=True) as v:
        assert v.era == "legacy"
        assert len(v.client.request("tools/list", timeout=10).result["tools"]) == 13
        v.trace.save(path)
    d = mcp_lab.replay(path, "everything", era="modern", timeout=10)
    listed = next(i for i in d.items if i.label == "tools/list")
    assert len(listed.right.answer["result"]["tools"]) == 12, d.text()
    assert any(c.kind == "removed" and c.where == "answer.result.tools[12]" for c in listed.changes)
    assert "resultType" not in listed.right.answer["result"]  # a legacy server omits it, in either era
    steps, notes = convert(exchanges(cassette.load(path)), "modern")
    assert all("_meta" in s.params for s in steps if s.kind == "request") and notes


def test_diff_of_two_cassettes_and_its_renderings(recorded, tmp_path):
    other = tmp_path / "other.jsonl"
    with mcp_lab.probe(CALENDAR_ARGV, refresh=True) as v:
        v.client.request("tools/list")
        v.trace.save(other)
    d = diff(recorded, other)
    assert not d.same and d.counts == {"same": 2, "changed": 0, "missing": 3, "extra": 0}, d.text()
    text = d.text()
    assert "missing  resources/read calendar://week" in text
    html = d._repr_html_()
    assert "resources/read calendar://week" in html and "missing" in html
    assert diff(recorded, recorded).same


def test_jsondiff_paths_and_normalisation():
    a = {"id": 1, "result": {"tools": [{"name": "a"}], "requestState": "x", "n": 1}}
    b = {"id": 7, "result": {"tools": [{"name": "a"}, {"name": "b"}], "requestState": "y", "n": True}}
    changes = jsondiff.diff(jsondiff.normalise(a), jsondiff.normalise(b))
    assert [(c.where, c.kind) for c in changes] == [("result.tools[1]", "added"), ("result.n", "changed")]
    meta = {"result": {"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}}}
    newer = json.loads(json.dumps(meta).replace('"1"', '"2"'))
    assert jsondiff.diff(meta, newer)[0].where == 'result._meta["io.modelcontextprotocol/serverInfo"].version'
    rules = jsondiff.DEFAULT_RULES + jsondiff.SERVER_VERSION_RULES
    assert jsondiff.diff(jsondiff.normalise(meta, rules), jsondiff.normalise(newer, rules)) == []


# -- 7. servers that die or stay silent ---------------------------------------------------------
FIRST_THEN = """
import sys
from mcp_lab.servers import calendar
line = sys.stdin.buffer.readline()
sys.stdout.buffer.write(calendar.handle_line(line)); sys.stdout.buffer.flush()
if sys.argv[1] == "die":
    print("fake: giving up after one answer", file=sys.stderr); sys.exit(4)
import time
while True: time.sleep(1)       # silent: reads nothing, answers nothing
"""


@pytest.mark.parametrize("mode", ["die", "silent"])
def test_replay_against_a_server_that_dies_or_goes_silent_ends_with_a_partial_diff(recorded, mode):
    before = _children()
    d = mcp_lab.replay(recorded, [sys.executable, "-c", FIRST_THEN, mode], timeout=1.0, deadline=10)
    assert not d.same and d.error, d.text()
    assert d.items[0].status == "same"
    assert [i.status for i in d.items[1:]] == ["missing"] * 4, d.text()
    assert ("exit code 4" in d.error) if mode == "die" else ("within 1 s" in d.error), d.error
    assert wait_for(lambda: _children() <= before, 5), f"left running: {_children() - before}"


# -- 4. the cassette server ---------------------------------------------------------------------
def test_cassette_server_answers_mcp_lab_client_and_refuses_unrecorded(recorded):
    with mcp_lab.probe(CASSETTE_SERVER + [str(recorded)], refresh=True) as v:
        assert v.era == "modern" and v.server_info["name"] == "mcp_lab-calendar"
        c = v.client
        assert c.request("tools/list").result["tools"][0]["name"] == "create_event"
        ex = mrtr.call(c, "tools/call", DENTIST, _accept)
        assert ex.complete and ex.final.result["structuredContent"]["title"] == "Dentist", ex
        missing = c.request("prompts/get", {"name": "prepare_week"})
        assert isinstance(missing, jsonrpc.Error) and missing.code == -32601
        wrong = c.request("tools/call", {"name": "delete_everything"})
        assert isinstance(wrong, jsonrpc.Error) and wrong.code == -32602
        assert wait_for(lambda: sum("unrecorded" in s for s in c.stderr) == 2, 5), c.stderr
    assert mcp_lab.replay(recorded, CASSETTE_SERVER + [str(recorded)]).same


def test_cassette_server_over_http(recorded):
    argv = CASSETTE_SERVER + [str(recorded), "--http", "{port}"]
    with mcp_lab.serve_http(argv) as srv:
        d = mcp_lab.replay(recorded, srv.url, timeout=10)
    assert d.same, d.text()
    assert d.trace.of("http"), "the replay over HTTP records each raw exchange"


def test_the_official_sdk_client_drives_the_cassette_server(recorded):
    import anyio
    import mcp_types as types
    from mcp import Client as SdkClient
    from mcp import StdioServerParameters

    asked = []

    async def on_elicit(context, params):
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"startsAt": WHEN})

    async def main():
        server = StdioServerParameters(
            command=sys.executable, args=CASSETTE_SERVER[1:] + [str(recorded)], cwd=str(ROOT)
        )
        with anyio.fail_after(SDK_TIMEOUT):
            async with SdkClient(server, elicitation_callback=on_elicit) as client:
                tools = await client.list_tools()
                week = await client.read_resource("calendar://week")
                created = await client.call_tool("create_event", {"title": "Dentist"})
                return tools, week, created

    tools, week, created = anyio.run(main)
    assert [t.name for t in tools.tools] == ["create_event"]
    assert '"Standup"' in week.contents[0].text
    assert created.content[0].text == f"Created e3: Dentist at {WHEN}"
    assert asked == ['When should "Dentist" start?']


def test_cassette_server_refuses_a_bad_file_in_one_line(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"cassette": "mcp_lab", "format": 7, "events": 0}\n')
    p = subprocess.run(CASSETTE_SERVER + [str(bad)], capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "newer" in p.stderr, p.stderr


# -- the command line ---------------------------------------------------------------------------
def _cli(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "mcp_lab", *args], input=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT
    )


def test_cli_record_replay_diff(tmp_path, recorded):
    out = tmp_path / "rec.jsonl"
    script = (
        "tools/list\n# a comment\n"
        'tools/call {"name": "create_event", "arguments": {"title": "Dentist"}}\n'
        'tools/call {"name": "create_event", "arguments": {"title": "Dentist"}, '
        '"inputResponses": {"when": {"action": "accept", "content": {"startsAt": "' + WHEN + '"}}}}\n'
    )
    p = _cli("record", str(out), "calendar", stdin=script)
    assert p.returncode == 0, p.stderr
    rec = cassette.read(out)
    assert rec.header["server"]["era"] == "modern" and "record" in rec.header["how"]
    final = [e for e in rec.trace.of("recv")][-1].message
    assert final.result["structuredContent"]["title"] == "Dentist", "the script's retry got requestState filled in"
    p = _cli("replay", str(out), "calendar")
    assert p.returncode == 0 and "-> SAME" in p.stdout, p.stdout + p.stderr
    p = _cli("diff", str(out), str(recorded))
    assert p.returncode == 1 and "extra    resources/read" in p.stdout, p.stdout
    p = _cli("diff", str(out), str(out), "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["same"] is True


def test_cli_record_over_http(tmp_path):
    script = tmp_path / "script.txt"
    script.write_text('resources/read {"uri": "calendar://week"}\n')
    out = tmp_path / "http.jsonl"
    p = _cli("record", str(out), "calendar", "--http", "--script", str(script))
    assert p.returncode == 0, p.stderr
    rec = cassette.read(out)
    assert rec.header["transport"] == "http" and rec.header["server"]["url"].startswith("http://127.0.0.1:")
    assert rec.trace.of("http") and _cli("replay", str(out), "calendar").returncode == 0


def test_cli_record_keeps_what_it_got_when_the_server_dies(tmp_path):
    out = tmp_path / "partial.jsonl"
    dies = [sys.executable, "-c", FIRST_THEN, "die"]
    p = _cli("record", str(out), "--timeout", "3", "--", *dies, stdin="tools/list\ntools/list\n")
    assert p.returncode == 1 and "saved the" in p.stderr and p.stderr.strip().count("\n") == 0, p.stderr
    rec = cassette.read(out)
    assert "stopped early" in rec.header["how"] and rec.header["server"]["era"] is not None


def test_cli_bad_input_is_one_line(tmp_path):
    junk = tmp_path / "junk.jsonl"
    junk.write_text("[1, 2, 3]\n")
    p = _cli("replay", str(junk), "calendar")
    assert p.returncode == 2 and p.stderr.strip().count("\n") == 0 and "line 1" in p.stderr, p.stderr
    p = _cli("record", str(tmp_path / "o.jsonl"), "calendar", stdin="tools/call {broken\n")
    assert p.returncode == 2 and "stdin line 1" in p.stderr, p.stderr


# -- 5. the chapter's cassettes -----------------------------------------------------------------
CHAPTER = ROOT / "notebooks" / "cassettes"


def test_the_chapter_cassettes_hold_the_chapters_facts():
    probe = cassette.read(CHAPTER / "probe-everything.jsonl")
    assert probe.era == "legacy" and probe.server["version"] == mcp_lab.LEGACY
    first = exchanges(probe.trace)[0]
    assert first.method == "server/discover" and first.answer["error"]["code"] == -32601
    listed = next(x for x in exchanges(probe.trace) if x.method == "tools/list")
    assert len(listed.answer["result"]["tools"]) == 13
    mrtr_round = exchanges(cassette.load(CHAPTER / "calendar-input-required.jsonl"))
    assert mrtr_round[1].answer["result"]["requestState"] == "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="
    abc = cassette.read(CHAPTER / "statelessness-abc.jsonl")
    assert abc.trace.peers == ["process A", "process B", "process C"]
    assert cassette.loads(cassette.dumps(abc.trace)).trace.mermaid() == abc.trace.mermaid()
    week = json.loads(exchanges(abc.trace)[2].answer["result"]["contents"][0]["text"])
    assert [e["title"] for e in week] == ["Standup", "Design review"], "process C never saw the Dentist"
    for path in CHAPTER.glob("*.jsonl"):
        text = path.read_text()
        assert "/work/" not in text and "/home/" not in text and "/tmp/" not in text, f"{path.name}: a machine path"


def test_cassette_server_plays_a_legacy_recording_to_another_client():
    # The chapter's probe of the reference server, served from the file: no Node needed, and a
    # client that describes itself differently still gets the recorded legacy session.
    served = CASSETTE_SERVER + [str(CHAPTER / "probe-everything.jsonl")]
    with mcp_lab.probe(served, refresh=True, client_info={"name": "someone-else", "version": "9"}) as v:
        assert v.era == "legacy" and v.version == mcp_lab.LEGACY, v.headline()
        tools = v.client.request("tools/list").result["tools"]
        assert len(tools) == 13 and "resultType" not in v.client.trace.of("recv")[-1].message.result
