"""What the renderers put on a learner's screen: tables sized to content, lines broken between
JSON tokens, diagrams drawn at a legible size and never cut with "…", legacy answers labelled
as legacy, one sentence for a closed connection, and one id per exchange in a trace.

The browser checks (tests/browser/screen_checks.py, run by tests/browser/test_run_all_browser.py)
measure the same views as JupyterLab draws them in Chromium; these tests pin the HTML and text
that produce them."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab import jsonrpc
from mcp_lab.servers import calendar as calendar_server
from mcp_lab.session.connect import connect_in_memory
from mcp_lab.session.isolate import Isolation, Row
from mcp_lab.wire.trace import Trace
from mcp_lab.wire.wrapping import LONG_TOKEN, soft_html, tokens, wrap

pytestmark = pytest.mark.wire_deliberate(
    client="hand-built renderer traces (minimal messages)", server="hand-built renderer traces (minimal messages)"
)

FAKES = Path(__file__).parent / "fakes"
LONG = (
    '{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","structuredContent":{"startsAt":'
    '"2026-09-10T08:30:00Z","uri":"calendar://week","title":"Dentist appointment, downtown"},'
    '"protocolVersion":"2025-11-25","requestState":"' + "A" * 90 + '"}}'
)


def _words(s: str) -> set[str]:
    """The JSON values and keys of a line that must never be split."""
    return {"2026-09-10T08:30:00Z", '"calendar://week"', '"2025-11-25"', '"resultType":', '"structuredContent":'}


# -- wrapping ---------------------------------------------------------------------------------
def test_tokens_join_back_to_the_exact_text():
    for text in (LONG, "", "plain words here", 'a "quoted \\" string, with: colons" {"x":[1,2]}'):
        assert "".join(tokens(text)) == text


def test_wrap_never_splits_a_date_a_uri_or_a_key():
    lines = wrap(LONG, 40)
    assert "".join(lines).replace(" ", "") == LONG.replace(" ", "")
    for word in _words(LONG):
        assert any(word in line for line in lines), f"{word!r} was split across lines: {lines}"
    # Only the 90-character requestState, longer than a line, may be cut.
    assert all(len(line) <= 40 for line in lines), lines


def test_trace_text_width_wraps_between_tokens_under_the_message():
    trace = Trace()
    trace.add("recv", LONG, jsonrpc.parse(LONG))
    out = trace.text(width=80).splitlines()
    assert len(out) > 2 and all(len(line) <= 80 for line in out), out
    indent = out[0].index("{")
    assert all(line.startswith(" " * indent) for line in out[1:]), "continuation lines start under the message"
    body = "".join(line[indent:] for line in out)
    for word in _words(LONG):
        assert word in body.replace(" ", "") or word.replace(" ", "") in body.replace(" ", "")
        assert any(word in line for line in out), f"{word!r} split: {out}"
    assert "…" not in "\n".join(out), "text(width=...) wraps; it does not cut"


def test_html_code_breaks_only_where_wbr_says():
    h = soft_html(LONG)
    assert "word-break:break-all" not in h
    pieces = h.split("<wbr>")
    assert any("2026-09-10T08:30:00Z" in p for p in pieces)
    shown = [re.sub(r"<[^>]+>", "", p).replace("&quot;", '"') for p in pieces]
    assert max(len(p) for p in shown) <= LONG_TOKEN + 1  # no piece wider than a narrow column


# -- tables -----------------------------------------------------------------------------------
def _row(**kw) -> Row:
    base = dict(label="process A", method="tools/call", request=LONG, answer_line=LONG, pid=1)
    base.update(kw)
    return Row(**base)


def test_isolated_table_sizes_columns_to_content_and_wraps_stderr_by_line():
    stderr = ["mcp_lab-calendar 0.1.0: serving 2026-07-28 on stdio", "requestState rejected: request binding"]
    iso = Isolation("calendar", [_row(answer=jsonrpc.parse(LONG), stderr=stderr)], Trace())
    page = iso._repr_html_()
    assert "break-all" not in page, "break-all lets a column shrink to one character a line"
    assert "table-layout:auto" in page and "max-width:100%" in page
    # Every stderr line is its own block, and no cell is right-aligned or centred by default.
    assert page.count("<div style='margin-bottom:2px'>") == len(stderr)
    cells = re.findall(r"<t[dh] style='([^']*)'", page)
    assert cells and all("text-align" in c for c in cells)
    assert all("text-align:left" in c for c in re.findall(r"<th style='([^']*)'", page))


def test_trace_html_is_left_aligned_and_never_breaks_inside_a_token():
    trace = Trace()
    trace.add("recv", LONG, jsonrpc.parse(LONG))
    page = trace._repr_html_()
    assert "break-all" not in page and "table-layout:auto" in page
    assert all("text-align:left" in c for c in re.findall(r"<th style='([^']*)'", page))


# -- diagrams ---------------------------------------------------------------------------------
def test_mermaid_notes_wrap_instead_of_being_cut():
    line = "requestState rejected on tools/call: request binding does not match the arguments given"
    trace = Trace()
    trace.add("stderr", line, peer="process A")
    diagram = trace.mermaid()
    assert diagram.startswith("sequenceDiagram")
    assert "…" not in diagram
    note = next(x for x in diagram.splitlines() if "Note over" in x)
    assert "<br/>" in note and note.split(": ", 1)[1].replace("<br/>", " ").replace("  ", " ").endswith("given")


def test_mermaid_is_drawn_at_its_natural_size():
    diagram = Trace().mermaid()
    assert '"useMaxWidth": false' in diagram.splitlines()[1], "a wide diagram scrolls, it is not shrunk"


def test_a_very_long_note_says_how_much_is_left():
    from mcp_lab.wire.trace_views import mermaid_label

    label = mermaid_label("word " * 200)
    assert label.count("<br/>") == 7 and "characters: see trace.text()" in label


def test_a_long_key_is_cut_at_its_slash_not_mid_word():
    lines = wrap('"io.modelcontextprotocol/protocolVersion":"2026-07-28"', 28)
    assert lines[:2] == ['"io.modelcontextprotocol/', 'protocolVersion":'], lines


# -- legacy answers ---------------------------------------------------------------------------
def test_a_legacy_initialize_answer_is_labelled_legacy_not_as_an_error():
    trace = Trace()
    init = jsonrpc.Request(id=1, method="initialize", params={"protocolVersion": "2025-11-25"})
    trace.add("send", jsonrpc.encode(init), init)
    ans = '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    ev = trace.add("recv", ans, jsonrpc.parse(ans))
    assert ev.summary == "legacy result (id 1)"
    later = '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}'
    assert trace.add("recv", later, jsonrpc.parse(later)).summary == "legacy result (id 2)"
    # A modern peer's answer without resultType keeps its warning.
    other = Trace()
    assert other.add("recv", later, jsonrpc.parse(later)).summary == "result (id 2) [no resultType]"


def test_the_probe_labels_a_legacy_servers_initialize_answer_legacy():
    fake = [sys.executable, str(FAKES / "discover_error.py"), "-32602"]
    with mcp_lab.probe(fake, refresh=True) as v:
        assert v.era == "legacy", v.steps
        answers = [e for e in v.trace.of("recv") if isinstance(e.message, jsonrpc.Result)]
        assert answers and all(e.summary.startswith("legacy result") for e in answers), [e.summary for e in answers]
        assert all(not (e.note or "").startswith("no resultType") for e in answers)
        assert "[no resultType]" not in v.trace.text() + v.trace._repr_html_() + v.trace.mermaid()


# -- a closed connection ----------------------------------------------------------------------
def test_a_closed_stdio_connection_says_run_the_connect_cell_again():
    c = mcp_lab.connect("calendar")
    c.request("tools/list")
    c.close()
    for use in (lambda: c.request("tools/list"), lambda: c.send_raw("{}"), lambda: c.transport.send_line("x", 1)):
        with pytest.raises(mcp_lab.TransportClosed, match="this connection is closed: run the connect cell again") as e:
            use()
        # In a notebook IPython prints this one line instead of a traceback into mcp_lab.
        assert e.value._render_traceback_() == [
            "ConnectionClosed: this connection is closed: run the connect cell again"
        ]


def test_a_closed_http_connection_says_run_the_connect_cell_again():
    with mcp_lab.serve_http("calendar") as srv:
        c = mcp_lab.connect(srv.url)
        c.request("tools/list")
        c.close()
        for use in (lambda: c.request("tools/list"), lambda: c.transport.send_line("x")):
            with pytest.raises(mcp_lab.TransportClosed, match="run the connect cell again"):
                use()


# -- ids --------------------------------------------------------------------------------------
def _ids_sent(trace: Trace) -> list:
    return [json.loads(line).get("id") for line in trace.sent if line.startswith("{") and line.endswith("}")]


def test_ids_typed_by_hand_are_never_reused_in_memory():
    c = connect_in_memory(calendar_server.handle_line, name="calendar")
    for i in (1, 2, 4):
        c.send_raw(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/list"}))
    c.send_raw('{"jsonrpc": "2.0", "id": 3, "method": ')  # garbled: its id still counts
    got = [c.request("tools/list").id for _ in range(2)]
    assert got == [5, 6], f"ids typed by hand were reused: {got}"
    ids = _ids_sent(c.trace)
    assert len(ids) == len(set(ids))


def test_ids_typed_by_hand_are_never_reused_on_stdio_and_http():
    with mcp_lab.connect("calendar") as c:
        c.send_raw('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
        assert c.request("tools/list").id == 2
    with mcp_lab.serve_http("calendar") as srv, mcp_lab.connect(srv.url) as h:
        h.send_raw('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
        assert h.request("tools/list").id == 2


# -- the probe comparison (06, "three servers side by side") -----------------------------------
def test_side_by_side_is_left_aligned_and_keeps_versions_whole():
    from mcp_lab.session.probe import Verdict

    trace = Trace()
    init = jsonrpc.Request(id=1, method="initialize", params={})
    trace.add("send", jsonrpc.encode(init), init)
    v = Verdict(
        server="everything",
        era="legacy",
        version="2025-11-25",
        capabilities={"tools": {}, "prompts": {}},
        server_info={"name": "mcp-servers/everything", "version": "2.0.0"},
        instructions=None,
        elapsed_ms=12.3,
        trace=trace,
    )
    table = mcp_lab.side_by_side({"reference": v})
    page = table._repr_html_()
    cells = dict(re.findall(r"<td style='([^']*)'>([^<]*)</td>", page)[i][::-1] for i in range(7))
    assert "white-space:nowrap" in cells["2025-11-25"] and "text-align:left" in cells["2025-11-25"]
    assert "text-align:left" in cells["prompts, tools"] and "nowrap" not in cells["prompts, tools"]
    assert "text-align:right" in cells["12"]
    assert "reference  legacy  2025-11-25" in table.text()
    with pytest.raises(ValueError, match="at least one verdict"):
        mcp_lab.side_by_side({})


def test_a_date_in_a_summary_or_a_line_is_never_broken_at_its_hyphens():
    page = soft_html("complete: Created e3: Dentist at 2026-09-10T08:30:00Z")
    assert "<span style='white-space:nowrap'>2026-09-10T08:30:00Z</span>" in page
    row = _row(answer=jsonrpc.parse('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}'))
    iso = Isolation("calendar", [row], Trace())
    assert "<span style='white-space:nowrap'>" in iso._repr_html_()


def test_the_magics_label_an_initialize_answer_legacy():
    from mcp_lab.notebook.magics import _headline

    legacy = {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {}}}
    assert _headline(legacy) == "<- legacy result (id 1)"
    assert _headline({"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}) == "<- result (id 2) [no resultType]"


def test_a_trace_built_from_events_still_labels_legacy_answers():
    trace = Trace()
    init = jsonrpc.Request(id=1, method="initialize", params={})
    trace.add("send", jsonrpc.encode(init), init)
    ans = '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    trace.add("recv", ans, jsonrpc.parse(ans))
    # As a cassette loads them: the same events, without the era they were recorded with.
    from dataclasses import replace

    again = Trace([replace(e, era=None) for e in trace])
    assert again[1].summary == "legacy result (id 1)"
    assert again.ids_seen() == {1}


def test_a_folded_line_is_cut_between_tokens():
    iso = Isolation("calendar", [_row(answer=jsonrpc.parse(LONG))], Trace())
    summaries = re.findall(r"<summary>(.*?)</summary>", iso._repr_html_())
    shown = [re.sub(r"<[^>]+>", "", x).replace("&quot;", '"') for x in summaries]
    assert shown and all(x.endswith(('",…', ":…", "{…", "[…", ",…", " …")) for x in shown), shown
