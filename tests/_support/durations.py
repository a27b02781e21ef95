"""Measured test durations: what the scheduler orders work units by, and how they are measured.

`make durations` runs the whole suite with `MCP_LAB_RECORD_DURATIONS=tests/durations.json`: the
controller (the process that prints results; with pytest-xdist, the one that hears every
worker's reports) adds up each test's setup, call and teardown and, at the end of the session,
writes `{node id: seconds}` to that file, sorted, rounded to a tenth.  The file is committed.

`make test` reads it: tests/conftest.py hands out the slowest unit first, so that no long unit
starts last while the other workers sit idle.  A test the file does not know (a new one) counts as
NEW_TEST_SECONDS, which keeps it from either end of the queue; a record that no test matches any
more is ignored.  Nothing here reads a clock during `make test`: speed is measured by `make bench`,
and the order only decides when a unit starts, never what it proves.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

from _support import ROOT

FILE = ROOT / "tests" / "durations.json"
NEW_TEST_SECONDS = 1.0
RECORD = "MCP_LAB_RECORD_DURATIONS"


def load(path: Path = FILE) -> dict[str, float]:
    """{node id: seconds} as last measured; {} when there is no record (then collection order)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


def unit_seconds(nodeids: list[str], unit_of, known: dict[str, float]) -> dict[str, float]:
    """Each work unit's measured length: the sum of its tests' records (NEW_TEST_SECONDS for one
    not recorded)."""
    total: dict[str, float] = defaultdict(float)
    for nodeid in nodeids:
        total[unit_of(nodeid)] += known.get(nodeid, NEW_TEST_SECONDS)
    return dict(total)


def longest_first(nodeids: list[str], unit_of, known: dict[str, float]) -> list[str]:
    """`nodeids` with the longest unit's tests first; a unit's tests stay together, in their order
    (ties keep the order of collection)."""
    length = unit_seconds(nodeids, unit_of, known)
    first: dict[str, int] = {}
    for i, nodeid in enumerate(nodeids):
        first.setdefault(unit_of(nodeid), i)
    return sorted(nodeids, key=lambda n: (-length[unit_of(n)], first[unit_of(n)]))


class Recorder:
    """Registered by conftest when MCP_LAB_RECORD_DURATIONS names a file: sums each test's phases
    and writes the file when the session ends (only where the results are heard: the controller)."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid] += report.duration

    def pytest_sessionfinish(self, session) -> None:
        if os.environ.get("PYTEST_XDIST_WORKER"):
            return  # a worker: its reports reach the controller, which writes
        record = {k: round(v, 1) for k, v in sorted(self.seconds.items())}
        self.path.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"\ndurations: {len(record)} tests, {sum(record.values()):.0f} s in all, written to {self.path}")
