"""`python -m mcp_lab host-config NAME`: the mcpServers JSON a host reads, proven by launching it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mcp_lab import TransportClosed
from mcp_lab.course import host_config


def test_entries_have_the_host_shape_and_launch_as_a_host_would(tmp_path, monkeypatch):
    monkeypatch.setenv("MCP_LAB_CACHE_DIR", str(tmp_path))  # the durable entry's database
    document = host_config.config(["calendar", "durable", "everything"])
    assert list(document) == ["mcpServers"]
    for name, entry in document["mcpServers"].items():
        assert set(entry) == {"command", "args", "env"} and entry["command"].startswith("/"), (name, entry)
        assert all(isinstance(a, str) for a in entry["args"]) and isinstance(entry["env"], dict)
    assert document["mcpServers"]["durable"]["env"]["MCP_LAB_CALLER"], "the host names the durable caller"
    eras = {name: host_config.check(name, entry).era for name, entry in document["mcpServers"].items()}
    assert eras == {"calendar": "modern", "durable": "modern", "everything": "legacy"}


def test_the_check_launches_with_a_minimal_environment_so_a_broken_entry_fails(tmp_path):
    argv = host_config.host_argv(
        {"command": "/bin/sh", "args": ["-c", "echo $PYTHONPATH $MCP_X"], "env": {"MCP_X": "given"}}, str(tmp_path)
    )
    out = subprocess.run(argv, capture_output=True, text=True, timeout=10, env={"PYTHONPATH": "leaked"})
    assert out.stdout.split() == ["given"], "only PATH, HOME and the entry's env reach the server"
    broken = {"command": sys.executable, "args": ["-m", "mcp_lab.servers.no_such_server"], "env": {}}
    with pytest.raises(TransportClosed, match="No module named"):
        host_config.check("broken", broken, timeout=5)


def test_cli_prints_json_and_refuses_unknown_names_in_one_line():
    ok = subprocess.run(
        [sys.executable, "-m", "mcp_lab", "host-config", "calendar"], capture_output=True, text=True, timeout=30
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["mcpServers"]["calendar"]["args"] == [
        "-m",
        "mcp_lab.servers.calendar",
    ]
    bad = subprocess.run(
        [sys.executable, "-m", "mcp_lab", "host-config", "bogus"], capture_output=True, text=True, timeout=30
    )
    assert (
        bad.returncode == 2
        and bad.stderr.count("\n") == 1
        and "calendar" in bad.stderr
        and "Traceback" not in bad.stderr
    )
