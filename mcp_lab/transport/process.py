"""The process helper for the servers the package starts: start a server child in a session of
its own, drain its pipes without keeping its owner alive, and stop it the polite way, then the sure way.

Every child the package starts goes through `spawn` and is stopped by `reap`: the stdio transport
(`StdioTransport`, stdin/stdout are the protocol), the HTTP servers a notebook starts
(`ServerProcess`, the protocol is on a port; stdout and stderr are logs), the conformance suite
(`mcp_lab/conformance/suite.py`, its output read for progress) and the MCP Inspector
(`mcp_lab/course/inspector.py`, its output to a log file). Short-lived commands run to their end
with a deadline (`subprocess.run(..., timeout=)`: a build step, `npm`, a `--cli` call) do not.
Failures to start are translated here, once, into `TransportClosed` with a hint to act on.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import IO

from mcp_lab.wire.errors import TransportClosed

__all__ = ["spawn", "reap", "pump_lines", "ServerProcess", "unbuffered_env"]

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _load_prctl():
    """libc's prctl, looked up once in the parent (the child, between fork and exec, only calls it)."""
    if not os.uname().sysname == "Linux":
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()


def _die_with_parent_preexec() -> Callable[[], None] | None:
    """A preexec function asking the kernel to SIGKILL the child when its parent goes away.

    Servers start in a session of their own (so a Ctrl-C in a notebook does not reach them), which
    also means nothing kills them when their owner is SIGKILLed; every bundled server exits when
    its stdin closes, but a server that never reads stdin would live on.  The parent-death signal
    closes that hole on Linux.  Caveat: the kernel sends it when the *thread* that forked the child
    exits, not the process, so it is only asked for from the main thread (a worker thread's exit
    would otherwise kill a server still in use); a spawn from another thread relies on stdin EOF.
    """
    if _PRCTL is None or threading.current_thread() is not threading.main_thread():
        return None
    parent = os.getpid()

    def preexec() -> None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the owner died before the request took effect
            os._exit(1)

    return preexec


def spawn(
    argv: Sequence[str],
    *,
    env: dict | None = None,
    cwd: str | os.PathLike | None = None,
    stdin: bool,
    log: IO | None = None,
    what: str = "the server",
    whole_env: bool = False,
) -> subprocess.Popen:
    """Start `argv` in a new session (its own process group), pipes for stdout and stderr, and for
    stdin when `stdin` (else /dev/null). `env` is added to this process's environment. `log`: an
    open file that takes stdout and stderr instead of pipes. `what` names the child in the error.
    `whole_env`: `env` is the child's whole environment (a variable left out is unset)."""
    exe = argv[0]
    from mcp_lab.servers.inprocess import in_browser, unavailable

    if in_browser():  # Pyodide: no processes at all; say so in the browser edition's one line
        raise unavailable(f"starting {os.path.basename(str(exe))}")
    try:
        return subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE if log is None else log,
            stderr=subprocess.PIPE if log is None else subprocess.STDOUT,
            env=None if env is None else env if whole_env else {**os.environ, **env},
            cwd=cwd,
            bufsize=0,
            start_new_session=True,
            preexec_fn=_die_with_parent_preexec(),
        )
    except OSError as e:
        hint = ""
        if e.errno == errno.ENOEXEC or isinstance(e, PermissionError):
            hint = f"; if it is a script, run it through its interpreter, e.g. [sys.executable, {exe!r}]"
        raise TransportClosed(f"cannot start {what} {exe!r}: {e.strerror or e}{hint}") from None


def unbuffered_env(argv: Sequence[str]) -> dict[str, str]:
    """{"PYTHONUNBUFFERED": "1"} when `argv` runs Python, else {}: the child's stdout then reaches
    the pipe as it is written (a stray print() in order, not at exit), as on a terminal."""
    import sys

    exe = os.path.basename(str(argv[0])) if argv else ""
    return {"PYTHONUNBUFFERED": "1"} if str(argv[0]) == sys.executable or exe.startswith("python") else {}


def opened(pipe: IO[bytes] | None) -> IO[bytes]:
    """A pipe `spawn` opened (stdout and stderr always, stdin when asked for): never None."""
    if pipe is None:
        raise TransportClosed("the server was started without this pipe")
    return pipe


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def reap(proc: subprocess.Popen, grace: float, *, eof_wait: float | None = None) -> None:
    """Stop a child the polite way, then the sure way.  Safe to call more than once.

    With a stdin pipe, closing it comes first (a stdio server SHOULD exit on EOF) and the child
    gets `eof_wait` seconds (default `grace`; less when its owner already waited, reading its
    stdout to the end); then SIGTERM and SIGKILL, `grace` seconds apart.  Signals go to the
    child's whole process group (it was started in a session of its own), and still go there
    after the leader has exited, so that a wrapper's children (a shell script's, npx's) do not
    outlive it.
    """
    pgid = proc.pid
    if proc.poll() is None and proc.stdin is not None:
        try:
            if not proc.stdin.closed:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(grace if eof_wait is None else max(0.0, eof_wait))
        except subprocess.TimeoutExpired:
            pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None and not _group_alive(pgid):
            return
        _signal_group(pgid, sig)
        deadline = time.monotonic() + grace
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            continue
        # The leader is gone; give the rest of its group the same grace before the next signal.
        while _group_alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.01)


def pump_lines(stream, lines: list, owner: "weakref.ref", callback: str | None = None) -> None:
    """Drain a child's pipe into `lines`, calling the owner's `callback` attribute for each line.

    A module-level function holding only a weak reference to its transport: a thread whose
    target were a bound method would keep the transport alive as long as the child lives,
    so a Client the learner simply dropped would never be reaped.
    """
    try:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            lines.append(line)
            transport = owner()
            observer = getattr(transport, callback, None) if callback else None
            del transport
            if observer is not None:
                try:
                    observer(line)
                except Exception:  # a broken observer must not kill the pump
                    pass
    except (OSError, ValueError):
        pass


class ServerProcess:
    """A server child whose stdout and stderr are logs, drained into lists by two threads.

    The threads hold only a weak reference to this object (see `pump_lines`), so a dropped
    ServerProcess is still reaped by its finalizer."""

    def __init__(self, argv: Sequence[str], *, env: dict | None = None, cwd: str | None = None, grace: float = 3.0):
        self.argv = list(argv)
        self.grace = grace
        self.stderr_lines: list[str] = []
        self.stdout_lines: list[str] = []
        self.on_stderr: Callable[[str], None] | None = None
        self.proc = spawn(self.argv, env=env, cwd=cwd, stdin=False)
        self._finalizer = weakref.finalize(self, reap, self.proc, grace)
        me = weakref.ref(self)
        self._threads = [
            threading.Thread(target=pump_lines, args=(self.proc.stdout, self.stdout_lines, me), daemon=True),
            threading.Thread(
                target=pump_lines, args=(self.proc.stderr, self.stderr_lines, me, "on_stderr"), daemon=True
            ),
        ]
        for t in self._threads:
            t.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.poll()

    def stderr_tail(self, n: int = 5) -> list[str]:
        return self.stderr_lines[-n:]

    def close(self) -> int | None:
        reap(self.proc, self.grace)
        for t in self._threads:
            t.join(self.grace)
        for pipe in (self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        self._finalizer.detach()
        return self.proc.returncode
