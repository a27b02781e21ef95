"""The wire layer does no I/O (issue 39, point 5): no environment, no file, read from the source.

`mcp_lab/wire/__init__.py` says "No I/O"; this holds it.  A Trace hands its events to its caller's
listener (`Trace(on_event=...)`); the session layer owns the run's listeners and the wire log file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WIRE = Path(__file__).resolve().parents[1] / "mcp_lab" / "wire"
# Calls that read the environment or touch a file: os.environ / os.getenv / os.putenv, the open()
# builtin (and io.open, os.open, os.fdopen), os.write, and Path's write_* / open / touch.
FORBIDDEN_ATTRS = {
    ("os", "environ"),
    ("os", "getenv"),
    ("os", "putenv"),
    ("os", "open"),
    ("os", "fdopen"),
    ("os", "write"),
    ("io", "open"),
}
FORBIDDEN_METHODS = {"write_text", "write_bytes", "touch", "mkdir", "unlink"}


def io_uses(source: str, name: str = "<src>") -> list[str]:
    out = []
    for node in ast.walk(ast.parse(source, filename=name)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id, node.attr) in FORBIDDEN_ATTRS:
                out.append(f"{name}:{node.lineno} {node.value.id}.{node.attr}")
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_METHODS:
            out.append(f"{name}:{node.lineno} .{node.attr}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            out.append(f"{name}:{node.lineno} open(")
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            bad = [a.name for a in node.names if ("os", a.name) in FORBIDDEN_ATTRS]
            if bad:
                out.append(f"{name}:{node.lineno} from os import {', '.join(bad)}")
    return out


def test_no_environment_and_no_file_in_wire():
    found = [hit for path in sorted(WIRE.glob("*.py")) for hit in io_uses(path.read_text(), path.name)]
    assert not found, "the wire layer does no I/O; move this to the layer that owns the run:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "planted",
    [
        "import os\npath = os.environ.get('X')\n",
        "import os\nfd = os.open('f', 0)\n",
        "from os import environ\n",
        "with open('f', 'a') as f:\n    pass\n",
        "from pathlib import Path\nPath('f').write_text('x')\n",
    ],
)
def test_the_scan_sees_planted_io(planted):
    assert io_uses(planted)


def test_a_trace_reports_to_the_listener_its_caller_gave():
    from mcp_lab.session import trace_listeners
    from mcp_lab.wire.trace import Trace

    heard: list = []
    everyone: list = []

    def hear_all(t, e):
        everyone.append(e.kind)

    trace_listeners.listen(hear_all)
    try:
        own = Trace(on_event=lambda t, e: heard.append((t, e.kind, e.line)))
        own.add("send", '{"jsonrpc": "2.0", "method": "x"}')
        assert heard == [(own, "send", '{"jsonrpc": "2.0", "method": "x"}')]
        assert everyone == [], "a Trace with its own listener reports to it alone"
        Trace().add("note", "made without a listener: reported to the session layer's")
        assert everyone == ["note"]
    finally:
        trace_listeners.unlisten(hear_all)


def test_the_wire_log_is_written_by_the_session_layer(tmp_path):
    import json

    from mcp_lab.session import trace_listeners
    from mcp_lab.wire.trace import Trace

    log, before = tmp_path / "wire.jsonl", trace_listeners.wire_log()
    trace_listeners.log_messages_to(str(log))
    try:
        t = Trace()
        t.add("send", '{"jsonrpc": "2.0", "id": 1, "method": "ping"}', deliberate="a lesson's point")
        t.add("note", "not a message: not logged")
    finally:
        trace_listeners.log_messages_to(before)
    [record] = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["kind"] == "send" and record["trace"] == t.id and record["deliberate"] == "a lesson's point"
