"""Helpers shared by the test modules, once: `from _support import ROOT, wait_for, ...`.

Kept out of conftest.py on purpose: with a second conftest.py under tests/browser/,
`from conftest import ...` would be ambiguous.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is tests/_support/__init__.py)
SHARED = ROOT.parent / "shared"  # the course's shared folder, when it is beside the repo
SPEC_2026 = SHARED / "spec" / "2026-07-28"
CALENDAR_ARGV = [sys.executable, "-m", "mcp_lab.servers.calendar"]


def wait_for(predicate, timeout: float = 5.0, interval: float = 0.01) -> bool:
    """Poll `predicate` until it is true or the deadline passes (no bare sleeps in tests)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def spec_examples_dir() -> Path:
    """The official 2026-07-28 example messages, or skip saying why (never a silent pass)."""
    d = SPEC_2026 / "examples"
    if not d.is_dir():
        pytest.skip(f"spec examples not found at {d} (the course's shared/ folder is not beside the repo)")
    return d


def reference_argv() -> list[str]:
    """The pinned reference server's argv, or a one-line FAILURE naming the fix.

    `make test` installs it (npm ci from the committed lock), so its absence is a broken
    set-up, never a reason to skip.
    """
    from mcp_lab.servers import known

    try:
        return known.argv_for("everything")
    except FileNotFoundError as e:
        pytest.fail(str(e), pytrace=False)
