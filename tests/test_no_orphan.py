"""No orphan, whatever the server does: a spawned server dies with its owner even when it never
reads stdin (the parent-death signal), after a SIGKILL of the owner and after a Jupyter kernel is
shut down with now=True."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux only")

NEVER_READS = [sys.executable, "-c", "import time; time.sleep(60)"]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead: it only waits for its (new) parent to reap it
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return not alive(pid)


def kill_if_alive(pid: int) -> None:
    if alive(pid):
        os.kill(pid, signal.SIGKILL)


def test_a_server_that_never_reads_stdin_dies_when_its_owner_is_sigkilled():
    owner_code = textwrap.dedent(
        f"""
        import sys, time
        from mcp_lab.transport.process import spawn
        proc = spawn({NEVER_READS!r}, stdin=True)
        print(proc.pid, flush=True)
        time.sleep(60)
        """
    )
    owner = subprocess.Popen([sys.executable, "-c", owner_code], stdout=subprocess.PIPE, text=True)
    server = None
    try:
        server = int(owner.stdout.readline())
        assert alive(server), "the server should be running while its owner lives"
        owner.kill()
        owner.wait(10)
        assert gone_within(server, 5), f"server {server} outlived its SIGKILLed owner: an orphan"
    finally:
        owner.kill()
        owner.wait(10)
        if server is not None:
            kill_if_alive(server)


def test_a_server_started_in_a_kernel_dies_with_shutdown_now():
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", startup_timeout=60)
    server = None
    try:
        code = (
            f"from mcp_lab.transport.process import spawn\nproc = spawn({NEVER_READS!r}, stdin=True)\nprint(proc.pid)"
        )
        out: list[str] = []
        reply = kc.execute_interactive(
            code,
            timeout=60,
            output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
        )
        assert reply["content"]["status"] == "ok", f"the cell failed: {reply['content']}"
        server = int("".join(out).strip())
        assert alive(server)
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        assert gone_within(server, 5), f"server {server} outlived shutdown_kernel(now=True): an orphan"
    finally:
        if km.is_alive():
            km.shutdown_kernel(now=True)
        if server is not None:
            kill_if_alive(server)
