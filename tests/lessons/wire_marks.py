"""What the suite's wire check must know of a lesson notebook's traffic, for every run of it
(tests/test_rerun.py, tests/test_edition_waits.py)."""

from __future__ import annotations

import pytest

# Lessons that show the pinned legacy reference server (the official TypeScript SDK) meeting
# modern requests: it answers them in its own era (no resultType) and refuses some with "id": null.
REFERENCE_SERVER = pytest.mark.wire_deliberate(
    server_id_null="the pinned reference server refuses a request before initialize with id null",
    server_legacy_answer="the pinned legacy reference server answers a modern request in its own era",
)
LEGACY_LESSONS = {"06-probe-then-fallback.ipynb", "09-statelessness.ipynb", "13-streamable-http.ipynb"}
# Notebook 15 builds a Trace from an exchange pasted out of a bug report: abridged answers (no
# ttlMs / cacheScope), someone else's server, not traffic of the course.
PASTED = pytest.mark.wire_deliberate(server="notebook 15's exchange pasted from a bug report (abridged answers)")


def marks_for(name: str) -> list:
    """The wire-check marks of the lesson notebook `name` (either edition's copy)."""
    return [REFERENCE_SERVER] if name in LEGACY_LESSONS else [PASTED] if name.startswith("15-") else []
