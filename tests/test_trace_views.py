"""What a person sees of a trace: text that wraps at token boundaries, tables that fit their
output area, legacy answers labelled as legacy, diagram notes that wrap instead of being cut."""

from __future__ import annotations

import json

import pytest

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.trace import Trace
from mcp_lab.wire.trace_views import as_html, as_mermaid, as_text
from mcp_lab.wire.wrapping import wrap

_BREAKS = (" ", ",", ":", "{", "[")

# Traces built by hand to test the renderers: abridged messages, never sent to anyone.
pytestmark = pytest.mark.wire_deliberate(
    client="abridged messages in a hand-built Trace (a renderer test)",
    server="abridged messages in a hand-built Trace (a renderer test)",
)

LINE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "resultType": "complete",
            "tools": [{"name": "create_event", "description": "Create a calendar event. Writes to the calendar."}],
        },
    },
    separators=(",", ":"),
)


def _trace() -> Trace:
    t = Trace(title="t")
    t.add("send", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', None, peer="ref")
    t.add(
        "recv",
        '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}',
        jsonrpc.Result(id=1, result={"protocolVersion": "2025-11-25"}),
        peer="ref",
    )
    t.add("stderr", "Starting the everything server; " * 5, peer="ref")
    t.add("recv", LINE, jsonrpc.Result(id=2, result={"resultType": "complete"}), peer="ref")
    return t


def test_wrap_breaks_only_at_token_boundaries_and_loses_nothing():
    pieces = wrap(LINE, 40)
    assert "".join(pieces) == LINE, "wrapping must not drop or add a character"
    assert all(len(p) <= 40 for p in pieces), [len(p) for p in pieces]
    assert all(p[-1] in _BREAKS for p in pieces[:-1]), f"a piece ends inside a token: {pieces}"


def test_text_view_wraps_instead_of_cutting():
    text = as_text(_trace(), width=60)
    assert "…" not in text, "with a width, long lines wrap; nothing is cut off"
    assert "Writes to the calendar." in text.replace("\n", "").replace(" " * 16, "")


def test_a_legacy_answer_is_labelled_legacy_not_as_a_fault():
    legacy = [e.summary for e in _trace().of("recv")][0]
    assert legacy == "legacy result (id 1)", legacy
    assert "[" not in legacy and "no resultType" not in legacy


def test_the_html_table_fits_its_area_and_wraps_by_words():
    page = as_html(_trace())
    assert "table-layout:auto" in page and "max-width:100%" in page, "columns sized to content, never wider"
    assert "word-break:break-all" not in page, "lines should wrap at spaces first, not at every character"
    assert "<wbr>" in page and "text-align:left" in page


def test_diagram_notes_wrap_rather_than_being_cut():
    diagram = str(as_mermaid(_trace()))
    stderr_note = next(line for line in diagram.splitlines() if "stderr:" in line)
    assert "<br/>" in stderr_note and "…" not in stderr_note or stderr_note.count("<br/>") == 3, stderr_note


def test_diagram_labels_stay_narrow_so_a_wide_diagram_is_not_shrunk():
    t = _trace()
    t.add("send", LINE, None, peer="another server with a long name")
    diagram = str(as_mermaid(t))
    for line in diagram.splitlines()[1:]:
        if line.strip().startswith("%%"):  # the drawing directive, not a label
            continue
        text = line.split(": ", 1)[1] if ": " in line else ""
        assert all(len(piece) <= 48 for piece in text.split("<br/>")), line


def test_a_trace_has_a_public_name_for_its_html():
    from mcp_lab.wire.trace import Trace

    trace = Trace()
    assert trace.html() == trace._repr_html_()
