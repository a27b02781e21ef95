"""`make inspector` ends with its whole process group (issue 38, point 8).

`make inspector` runs `python -m mcp_lab.course.inspector calendar`, which starts the pinned
Inspector (Node) in a process group of its own, and the Inspector starts its own Node children.
GNU make passes a SIGTERM on to its recipe's process; this test sends it to that process
directly, after recording every descendant it has (read from /proc), and checks that none of
them is left.  Needs `make inspector-install` (skipped without it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcp_lab.course import inspector

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(not inspector.installed(), reason="the Inspector is not installed: make inspector-install"),
]


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def _descendants(pid: int) -> set[int]:
    kids, found, todo = _children(), set(), [pid]
    while todo:
        for child in kids.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_ends_the_inspector_and_every_node_child(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcp_lab.course.inspector", "calendar"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    family: set[int] = set()
    try:
        line = proc.stdout.readline()  # printed once the Inspector is up (at most START_TIMEOUT)
        assert "MCP Inspector" in line and "http://127.0.0.1:" in line, line
        time.sleep(1.0)  # let it settle its children
        family = _descendants(proc.pid)
        assert family, "the Inspector started no process"
        assert any("node" in Path(f"/proc/{p}/cmdline").read_text(errors="replace") for p in family if _alive(p))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        deadline = time.monotonic() + 10
        while (left := [p for p in family if _alive(p)]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"processes outlived SIGTERM: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for p in family | _descendants(proc.pid):  # what a failed run left (orphans are no one's children)
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
