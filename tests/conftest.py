"""Shared fixtures: real server processes, each reaped when the test ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # makes `support` importable

import mcp_lab  # noqa: E402


@pytest.fixture
def calendar():
    """A fresh bundled calendar process (fresh EVENTS: e1, e2)."""
    client = mcp_lab.connect("calendar")
    try:
        yield client
    finally:
        client.close()
