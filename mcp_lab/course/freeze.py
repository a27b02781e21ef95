"""A stuck server on demand, for the lesson on timeouts and cancellation (notebook 02).

    from mcp_lab.course.freeze import frozen
    with frozen(cal):                  # the server's process is paused: it reads and answers nothing
        cal.request("tools/list", timeout=1.0)      # -> DeadlineExceeded, a real timeout

A real server hangs for reasons a notebook cannot stage on cue (a lock, a slow backend, a
debugger). Pausing its process with SIGSTOP is the same thing seen from the client: the pipe
still accepts what the client writes, and nothing comes back. On leaving the block the process
resumes (SIGCONT) and reads, in order, everything written meanwhile. POSIX only (Linux, macOS).
"""

from __future__ import annotations

import os
import signal
from contextlib import contextmanager
from typing import Iterator

__all__ = ["frozen"]


@contextmanager
def frozen(client) -> Iterator[int]:
    """Pause the stdio server behind `client` for the block; yields its process id."""
    proc = getattr(getattr(client, "transport", None), "proc", None)
    if proc is None or proc.poll() is not None:
        raise RuntimeError("frozen() needs a running stdio server: connect to one with mcp_lab.connect first")
    if not hasattr(signal, "SIGSTOP"):
        raise RuntimeError("frozen() pauses a process with SIGSTOP, which this system (Windows) lacks")
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        yield proc.pid
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGCONT)
