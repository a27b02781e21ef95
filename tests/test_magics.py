"""The `%mcp` / `%%rpc` magics, driven through nbclient in a real IPython kernel (python3).

A small notebook is built here: each message cell is followed by a cell that asserts on the
value the magic returned (`_`), exactly as a learner's notebook does.  Cells tagged
`raises-exception` are the foreseeable mistakes; the test then checks that each produced one
clear line and no traceback.  The course notebook 06 is executed too.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
from _support import ROOT
from _support.output_widgets import use_own_connection_for_output_widgets
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook
from test_lint import reference_argv

META_FULL = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/list",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "bare-hands", "version": "0.0.1"},
            }
        },
    },
    indent=2,
)


def run(nb, cwd: Path = ROOT):
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport_encryption = "auto"
    client = NotebookClient(
        nb,
        config=config,
        kernel_name="python3",
        timeout=60,
        startup_timeout=60,
        extra_arguments=["--InteractiveShell.colors=nocolor"],
        resources={"metadata": {"path": str(cwd)}},
    )
    use_own_connection_for_output_widgets(client)  # nbclient #312: see _support/output_widgets.py
    client.execute()
    return nb


def _cells(*sources):
    cells = []
    for src in sources:
        tags = []
        if src.startswith("#raises\n"):
            src, tags = src[len("#raises\n") :], ["raises-exception"]
        c = new_code_cell(src)
        if tags:
            c.metadata["tags"] = tags
        cells.append(c)
    return cells


def _text(cell) -> str:
    parts = []
    for o in cell.outputs:
        if o.output_type == "stream":
            parts.append(o.text)
        elif o.output_type in ("display_data", "execute_result"):
            parts.append(o.data.get("text/plain", ""))
        elif o.output_type == "error":
            parts.append(f"{o.ename}: {o.evalue}")
    return "\n".join(parts)


def _one_line_error(cell) -> str:
    """The single line a foreseeable mistake prints; fail on a Python traceback."""
    errors = [o for o in cell.outputs if o.output_type == "error"]
    streams = "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stderr")
    text = (f"{errors[0].ename}: {errors[0].evalue}" if errors else streams).strip()
    assert text, cell.outputs
    assert "Traceback" not in text and 'File "' not in text, text
    for e in errors:
        assert not any("Traceback" in line or '.py"' in line for line in e.traceback), e.traceback
    assert len(text.splitlines()) == 1, text
    return text


def test_magics_in_a_notebook():
    nb = new_notebook()
    nb.cells = _cells(
        "%load_ext mcp_lab",  # 0
        "%mcp connect calendar",  # 1
        '%%rpc calendar\n{"jsonrpc": "2.0", "id": 1,\n "method": "tools/list"}',  # 2
        "import mcp_lab.notebook.magics\n"  # 3
        'assert _["error"]["code"] == -32602, _\n'
        'assert "meta-missing" in _.findings.rules\n'
        'assert _.sent == \'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\'\n'
        "assert mcp_lab.notebook.magics.last is _",
        "%%rpc calendar\n" + META_FULL,  # 4
        'assert [t["name"] for t in _["result"]["tools"]] == ["create_event"]\n'  # 5
        "assert _.findings.ok and not _.findings.warnings",
        # --meta fills what is missing; the caller's clientInfo wins
        '%%rpc calendar --meta\n{"jsonrpc": "2.0", "id": 3, "method": "server/discover",'  # 6
        ' "params": {"_meta": {"io.modelcontextprotocol/clientInfo": {"name": "mine", "version": "9"}}}}',
        'sent = __import__("json").loads(_.sent)["params"]["_meta"]\n'  # 7
        'assert sent["io.modelcontextprotocol/clientInfo"] == {"name": "mine", "version": "9"}\n'
        'assert sent["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"\n'
        'assert _["result"]["supportedVersions"] == ["2026-07-28"]',
        # bad JSON without --raw: the lint says so, and it is still sent
        '%%rpc calendar\n{"jsonrpc": "2.0", "id": 4,\n "method": "tools/list"',  # 8
        'assert "not-json" in _.findings.rules\nassert _["error"]["code"] == -32700\n'  # 9
        'assert "\\n" not in _.sent',
        # --raw: the newline really splits the message
        '%%rpc calendar --raw\n{"jsonrpc": "2.0", "id": 5,\n "method": "tools/list"}',  # 10
        'assert "embedded-newline" in _.findings.rules\n'  # 11
        'assert [m["error"]["code"] for m in _.all] == [-32700, -32700]\n'
        'assert _.sent.count("\\n") == 1',
        # --no-lint, --timeout, and a notification (nothing comes back)
        "%%rpc calendar --no-lint --timeout 2\n"  # 12
        '{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}',
        "assert _ == {} and _.all == [] and list(_.findings) == []",  # 13
        "%mcp trace calendar",  # 14
        "%mcp list",  # 15
        '#raises\n%%rpc nosuch\n{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',  # 16
        "#raises\n%mcp frobnicate",  # 17
        f'#raises\n%mcp connect dead --no-probe -- {sys.executable} -c "pass"',  # 18 (connects)
        '#raises\n%%rpc dead\n{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',  # 19
        '#raises\n%%rpc calendar --raw --meta\n{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',  # 20
        "%mcp close calendar\n%mcp close dead",  # 21
        "%mcp list",  # 22
    )
    run(nb)
    c = nb.cells
    # The order under a %%rpc cell: lint, then the exact line sent, then the answer (the value).
    kinds = [
        (
            "lint"
            if o.data.get("text/plain", "").startswith("lint:")
            else "sent"
            if o.data.get("text/plain", "").startswith("-> sent")
            else o.output_type
        )
        for o in c[2].outputs
    ]
    assert kinds == ["lint", "sent", "execute_result"], c[2].outputs
    html = c[2].outputs[0].data["text/html"]
    assert "meta-missing" in html and "basic/index#general-fields" in html
    assert json.loads(c[2].outputs[2].data["text/plain"].split("\n", 1)[1])["error"]["code"] == -32602
    assert "sent 2 lines" in _text(c[10])
    trace_mimes = {k for o in c[14].outputs for k in o.get("data", {})}
    assert {"text/html", "text/vnd.mermaid"} <= trace_mimes
    assert "calendar" in _text(c[15]) and "modern" in _text(c[15])
    assert "no connection named 'nosuch'" in _one_line_error(c[16])
    assert "unknown %mcp command" in _one_line_error(c[17])
    err = _one_line_error(c[19])
    assert "dead" in err and ("closed" in err or "exit code" in err), err
    assert "pick one" in _one_line_error(c[20])
    assert "no connections" in _text(c[22])


def _with_reference(nb):
    """Point `everything` at a same-version copy when the repo's `npm ci` has not run (stated, not hidden)."""
    from mcp_lab.servers import known

    try:
        known.argv_for("everything")
        return nb
    except FileNotFoundError:
        argv = " ".join(reference_argv())
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = cell.source.replace("%mcp connect everything", f"%mcp connect everything -- {argv}")
            cell.source = cell.source.replace("%connect everything", f"%connect everything -- {argv}")
    return nb


def test_notebook_04_by_hand_challenges():
    path = ROOT / "notebooks" / "04-by-hand-challenges.ipynb"
    nb = nbformat.read(path, as_version=4)
    saved = nbformat.read(path, as_version=4)
    assert all(
        not c.get("outputs") and c.get("execution_count") is None for c in saved.cells if c.cell_type == "code"
    ), "04 must be saved with outputs cleared"
    assert "Goals" in nb.cells[0].source and re.search(r"\*\*Time\.\*\* About \d+ minutes\.", nb.cells[0].source)
    run(_with_reference(nb), cwd=path.parent)
    by_id = {c.id: c for c in nb.cells}
    # The learner's starting text is sent as it stands: the lint flags it, the server refuses it.
    assert "meta-missing" in _text(by_id["challenge-1"])
    assert "-32602" in _text(by_id["challenge-1"])
    # Run All with nothing typed: every check waits for the learner, none fails.
    for n in range(1, 9):
        assert f"challenge {n}: waiting for your message" in _text(by_id[f"check-{n}"])

    # The learner types each solution into its cell: every check passes.
    from mcp_lab.course.challenges import CHALLENGES

    solved = nbformat.read(path, as_version=4)
    for cell in solved.cells:
        if cell.id.startswith("challenge-"):
            c = CHALLENGES[int(cell.id.split("-")[1])]
            cell.source = f"%%rpc {c.connection} {c.flags}".strip() + "\n" + c.solution
    run(_with_reference(solved), cwd=path.parent)
    by_id = {c.id: c for c in solved.cells}
    for n in range(1, 9):
        assert f"challenge {n}: done." in _text(by_id[f"check-{n}"]), _text(by_id[f"check-{n}"])
