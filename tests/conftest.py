"""Shared fixtures: the bundled calendar in-process (its real logic over the in-memory transport)
and as a real process, each closed when the test ends."""

from __future__ import annotations

import copy
import os

import pytest
from _support import durations, kinds

import mcp_lab
from mcp_lab.notebook import i18n

# Every message any Trace records is judged against the official schema of its era: by the plugin
# the package ships (mcp_lab/pytest_plugin.py), which pytest loads through its entry point; named
# here only when plugin autoloading is off, so it is never registered twice.
pytest_plugins = ["mcp_lab.pytest_plugin"] if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD") else []


@pytest.fixture
def calendar():
    """The bundled calendar's own handle_line, in this process over the in-memory transport: the
    real server logic, the real Client, no child process. Its EVENTS (e1, e2) are restored after."""
    from mcp_lab.servers import calendar as server
    from mcp_lab.session.connect import connect_in_memory

    saved = copy.deepcopy(server.EVENTS)
    client = connect_in_memory(server.handle_line, name="calendar")
    try:
        yield client
    finally:
        client.close()
        server.EVENTS[:] = saved


@pytest.fixture
def calendar_process():
    """A fresh bundled calendar process (fresh EVENTS: e1, e2), reaped at the end."""
    client = mcp_lab.connect("calendar")
    try:
        yield client
    finally:
        client.close()


# --- Scheduling on pytest-xdist workers ----------------------------------------------------------
# `make test` runs `-n N --dist loadscope --no-loadscope-reorder`, with the scheduler below: xdist
# hands out work units in the order of the collection.  Most files are one unit (their tests share
# module fixtures: a Lab, a hub, a lab folder, a `once` exercise).  The files in SPREAD hold
# independent tests, each with its own kernel and servers (a notebook's re-run), so each test is a
# unit of its own and the workers share them out.  Units start longest first, by the durations
# `make durations` measured (tests/durations.json), so no long unit starts last while the other
# workers sit idle.
# (xdist's own `--dist loadgroup` renames node ids, which pytest 9 no longer reads: its groups are
# silently ignored.  A scheduler that maps each node id to its unit does not depend on that.)
SPREAD = {"tests/test_rerun.py", "tests/test_edition_waits.py"}
# Files split into two units by test id: the tests whose id holds one of the markers form a second
# unit, which a second worker runs with its own module fixtures (a second Lab, site and browser).
# Each file is otherwise one serial unit of four to five minutes under load: longer than the rest
# of the suite needs once shared out.  The Run-All file's clicking checks, and the browser
# edition's screenshots and its whole-page request check, stay in the first unit (every notebook
# of the edition checks its own requests too).
SPLIT = {
    "tests/browser/test_run_all_browser.py": ("[06-", "[09-", "[14-", "[16-"),
    "tests/browser/test_lite_browser.py": (
        "[notebooks/09-",
        "[notebooks/11-",
        "[notebooks/15-",
        "[notebooks/16-",
        "[labs/08-",
        "[labs/12-",
    ),
}


def work_unit(nodeid: str) -> str:
    """The unit a test is handed out in: its own node id in a SPREAD file, one of two halves of a
    SPLIT file, else its file."""
    path = nodeid.split("::", 1)[0]
    if path in SPREAD:
        return nodeid
    if any(marker in nodeid for marker in SPLIT.get(path, ())):
        return f"{path} (second unit)"
    return path


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the tests that start processes `system` (tests/_support/kinds.py), before `-m` selects;
    then the longest unit first, by the durations last measured (tests/_support/durations.py): a
    stable sort keyed by the unit, so a unit's tests stay together and in their order."""
    kinds.mark_system(items)
    rank = {n: i for i, n in enumerate(durations.longest_first([i.nodeid for i in items], work_unit, durations.load()))}
    items.sort(key=lambda item: rank[item.nodeid])


def pytest_configure(config):
    """When only unit tests run (`make check`), a process started by a test not marked system fails
    it; with MCP_LAB_RECORD_DURATIONS set (`make durations`), each test's time is recorded."""
    if kinds.only_units(config):
        config.pluginmanager.register(kinds.ProcessGuard(), "mcp_lab-process-guard")
    if os.environ.get(durations.RECORD):
        config.pluginmanager.register(durations.Recorder(os.environ[durations.RECORD]), "mcp_lab-durations")


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None  # any other --dist a person asks for is xdist's own
    from xdist.scheduler import LoadScopeScheduling

    class WorkUnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return WorkUnitScheduling(config, log)


# The edition a test's own process speaks (mcp_lab.notebook.i18n), chosen afresh and restored after.
@pytest.fixture
def edition(monkeypatch):
    """A clean choice of edition for the test, restored after it."""
    for name in ("MCP_LAB_LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(name, raising=False)
    i18n.set_language(None)
    yield i18n
    i18n.set_language(None)
