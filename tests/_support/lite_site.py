"""The browser edition's site for the tests: `make lite`, one build at a time across the workers.

Several tests need build/lite/ (the edition's browser test, in two units on two workers; the
bytecode check; the documented `make lite` and `make lite-serve`). Two `make lite` at once would
each delete and rewrite the same folder. So whoever needs the site takes an exclusive lock on
build/.lite-build.lock (fcntl, released when its holder exits, even by a crash) and runs
`make lite` while holding it: the first to come builds (about 30 s), the others wait and then find
it up to date (make's no-op). Building inside the run, not before it, keeps the other workers
busy meanwhile. The wait has a deadline: the build's own, plus the one it may be waiting behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import subprocess
import time

from . import ROOT

LOCK = ROOT / "build" / ".lite-build.lock"
BUILD_TIMEOUT = 600.0  # a first build downloads 25 pinned wheels and the npm Pyodide core


@contextlib.contextmanager
def site_lock(timeout: float = 2 * BUILD_TIMEOUT):
    """Hold the site's build lock (waiting at most `timeout` s for another worker's build)."""
    LOCK.parent.mkdir(exist_ok=True)
    with open(LOCK, "a") as handle:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise TimeoutError(f"another worker held {LOCK.name} for over {timeout:.0f} s") from None
                time.sleep(0.5)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def make_lite(extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """`make -s lite` under the lock: the built site (a no-op when it is up to date)."""
    with site_lock():
        return subprocess.run(
            ["make", "-s", "lite", *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
