"""Shared fixtures: the bundled calendar in-process (its real logic over the in-memory transport)
and as a real process, each closed when the test ends."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # makes `_support` importable

import mcp_lab  # noqa: E402

# Every message any Trace records is judged against the official schema of its era.
pytest_plugins = ["_support.wirecheck_plugin"]


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
