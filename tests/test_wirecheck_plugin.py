"""The wire check can fail: a pytest run in a subprocess, with the plugin, drives a server whose
tools/list result breaks the schema; the test that produced it fails, naming the message, the
model and the first error.  The same server marked deliberate passes and is counted apart."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent

INNER = '''
import json

import pytest

from mcp_lab.session.connect import connect_in_memory
from mcp_lab.wire.trace import Trace

DISCOVER = {"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "broken", "version": "1"},
            "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}


def broken_server(line):
    msg = json.loads(line)
    result = DISCOVER if msg["method"] == "server/discover" else {"resultType": "complete", "tools": []}
    return json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result})


def test_unmarked():
    with connect_in_memory(broken_server, name="broken") as c:
        assert c.request("tools/list").ok


def test_marked():
    with connect_in_memory(broken_server, name="broken", deliberate="a tools/list without cache fields") as c:
        assert c.request("tools/list").ok


CHILD = """
import json
from mcp_lab.wire.trace import Trace
bad = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": 5}}
Trace().add("send", json.dumps(bad))
"""


def test_in_a_child_process(tmp_path):
    """A Trace recorded in another process (as a notebook kernel would) reports through the log."""
    import subprocess, sys

    (tmp_path / "child.py").write_text(CHILD)
    subprocess.run([sys.executable, str(tmp_path / "child.py")], check=True)
'''


def test_an_invalid_message_fails_the_test_that_made_it(tmp_path):
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(INNER))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    env.pop("MCP_LAB_WIRE_LOG", None)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "--mcp-lab-wire-check"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, f"expected the inner run to fail, exit {run.returncode}:\n{out[-3000:]}"
    assert "FAILED test_inner.py::test_unmarked" in out, out[-3000:]
    assert "FAILED test_inner.py::test_in_a_child_process" in out, out[-3000:]
    assert "test_marked" not in out.split("short test summary")[-1], out[-3000:]
    assert "INVALID server result tools/list (2026-07-28, model ListToolsResult): cacheScope" in out, out[-3000:]
    assert "INVALID client request tools/list" in out, out[-3000:]
    assert "2 deliberate exempt" in out and "2 INVALID" in out, out[-3000:]


ENGINEER_TESTS = """
import sys

import pytest

SERVER = [sys.executable, {server!r}]


@pytest.mark.mcp_server(SERVER)
def test_over_stdio(mcp_client):
    assert mcp_client.era == "modern"
    names = [t["name"] for t in mcp_client.request("tools/list").result["tools"]]
    assert names == ["add_note", "read_note"]


@pytest.mark.mcp_server(SERVER, http=True)
def test_over_http(mcp_client):
    assert mcp_client.request("prompts/list").ok


def test_from_the_command_line_option(mcp_client):
    assert mcp_client.request("resources/list").ok


def test_a_broken_answer_fails_the_test(mcp_connect):
    from mcp_lab.wire.trace import Trace

    client = mcp_connect(SERVER)
    # as if the server had sent a log notification with a level the schema does not know
    client.trace.add("recv", '{{"jsonrpc": "2.0", "method": "notifications/message", "params": {{"level": 5}}}}')
"""


def test_the_packaged_plugin_serves_an_engineers_own_tests(tmp_path):
    """The plugin as a user of the package meets it: loaded by its entry point, a fixture that
    starts their server (stdio, HTTP, from the command line), and the same end-of-run line."""
    server = TESTS / "fakes" / "engineer_server.py"
    (tmp_path / "test_mine.py").write_text(ENGINEER_TESTS.format(server=str(server)))
    env = {k: v for k, v in os.environ.items() if k not in ("MCP_LAB_WIRE_LOG", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rf",
            "--mcp-lab-wire-check",
            "--mcp-lab-server",
            f"{sys.executable} {server}",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    out = run.stdout + run.stderr
    assert "3 passed, 1 failed" in out or "1 failed, 3 passed" in out, out[-3000:]
    assert "FAILED test_mine.py::test_a_broken_answer_fails_the_test" in out, out[-3000:]
    line = next(x for x in out.splitlines() if x.startswith("wire check: "))
    assert "messages valid against the official schema (2026-07-28:" in line and "1 INVALID" in line, line


def test_this_suite_runs_the_packaged_plugin(request):
    plugin = request.config.pluginmanager.get_plugin("mcp_lab") or request.config.pluginmanager.get_plugin(
        "mcp_lab.pytest_plugin"
    )
    assert plugin is not None and plugin.__name__ == "mcp_lab.pytest_plugin", "the plugin is not loaded"
    assert request.config.getini("mcp_lab_wire_check") is True, "pyproject.toml no longer asks for the wire check"
    assert plugin._STATE is not None, "the wire check is not on"


# -- the plugin waits to be asked ----------------------------------------------------------------
QUIET_PROJECT = """
import os
import sys

import mcp_lab
from mcp_lab.session import trace_listeners


def test_nothing_is_on(mcp_connect):
    assert "mcp_lab.wire.schema_check" not in sys.modules, "the wire check's models were loaded"
    assert "MCP_LAB_WIRE_LOG" not in os.environ
    assert trace_listeners.listening() == [] and trace_listeners.wire_log() is None
    with mcp_lab.connect("calendar") as c:
        assert c.request("tools/list").ok
"""
QUIET_CONFTEST = """
def pytest_addoption(parser):
    parser.addoption("--mcp-server", default="mine", help="the project's own option, same name as ours once was")


def test_its_own_option(pytestconfig):
    assert pytestconfig.getoption("--mcp-server") == "mine"
"""


def _inner(tmp_path: Path, *args: str, timeout: float = 180) -> tuple[int, str]:
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("MCP_LAB_WIRE_LOG", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    env["TMPDIR"] = str(tmp)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return run.returncode, run.stdout + run.stderr


def test_a_project_that_did_not_ask_meets_nothing(tmp_path):
    """No env var, no tap, no line, no folder; a conftest's own --mcp-server does not collide."""
    (tmp_path / "test_quiet.py").write_text(QUIET_PROJECT)
    (tmp_path / "conftest.py").write_text(QUIET_CONFTEST)
    code, out = _inner(tmp_path, "conftest.py", "test_quiet.py")
    assert code == 0 and "2 passed" in out, out[-3000:]
    assert "wire check" not in out, out[-3000:]
    assert not list((tmp_path / "tmp").glob("mcp-lab-wire-*")), "a temp folder was left"


MARKED_PROJECT = """
import pytest

from mcp_lab.wire.trace import Trace

BAD = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": 5}}'


@pytest.mark.mcp_lab_wire_check
def test_marked():
    Trace().add("send", BAD)


def test_unmarked():
    Trace().add("send", BAD)
"""


def test_a_mark_asks_for_the_marked_tests_only(tmp_path):
    (tmp_path / "test_marked.py").write_text(MARKED_PROJECT)
    code, out = _inner(tmp_path)
    assert code == 1 and "FAILED test_marked.py::test_marked" in out, out[-3000:]
    assert "test_unmarked" not in out.split("short test summary")[-1], out[-3000:]
    assert "1 INVALID" in out, out[-3000:]


FRAMING_PROJECT = """
import sys

import mcp_lab

STRAY = [sys.executable, {server!r}, "--stray"]


def test_fixture_started_server_with_a_stray_print(mcp_connect):
    assert mcp_connect(STRAY).request("tools/list").ok


def test_own_connection_buffered(monkeypatch):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    with mcp_lab.connect(STRAY) as c:
        assert c.request("tools/list").ok


def test_deliberate_noise_is_counted_apart():
    with mcp_lab.connect(STRAY, deliberate="a stray line on purpose") as c:
        assert c.request("tools/list").ok
"""


def test_the_wire_check_fails_a_test_whose_server_broke_framing(tmp_path):
    server = TESTS / "fakes" / "engineer_server.py"
    (tmp_path / "test_framing.py").write_text(FRAMING_PROJECT.format(server=str(server)))
    code, out = _inner(tmp_path, "--mcp-lab-wire-check")
    summary = out.split("short test summary")[-1]
    assert code == 1, out[-3000:]
    assert "FAILED test_framing.py::test_fixture_started_server_with_a_stray_print" in summary, out[-3000:]
    assert "FAILED test_framing.py::test_own_connection_buffered" in summary, out[-3000:]
    assert "test_deliberate_noise_is_counted_apart" not in summary, out[-3000:]
    assert "INVALID server stdout line" in out and "engineer-notes: starting up" in out, out[-3000:]


SLOW_PROJECT = """
import time


def test_waits():
    time.sleep(60)
"""


def test_the_temp_folder_goes_on_sigterm(tmp_path):
    import signal
    import time

    (tmp_path / "test_slow.py").write_text(SLOW_PROJECT)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("MCP_LAB_WIRE_LOG", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    env["TMPDIR"] = str(tmp)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--mcp-lab-wire-check"]
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp.glob("mcp-lab-wire-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(tmp.glob("mcp-lab-wire-*")), "the enabled check made no folder"
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) != 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert not list(tmp.glob("mcp-lab-wire-*")), "the folder outlived SIGTERM"
