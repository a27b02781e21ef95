"""`make bench` row for the conformance suite (issue 15): its run time against the showcase.

The value is one `mcp_lab.conformance.run("showcase")` (server start, the 50 scenarios of the
frozen 2026-07-28 set in one suite process, checks.json read back).  The baseline is the same
run against the stdlib calendar, in the same bench run: the suite's own cost (Node 22 start,
its HTTP client, 50 scenarios) is common to both, so the ratio says what the SDK-based
showcase adds, not how fast this machine is.

Run alone: `python bench/bench_conformance.py`.  Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import Row  # noqa: E402

QUICK_SCENARIOS = ["tools-list"]  # quick mode: one scenario, not the whole frozen set


def _timed(name: str) -> tuple[float, object]:
    from mcp_lab import conformance

    scenarios = QUICK_SCENARIOS if harness.quick() else None
    t0 = time.perf_counter()
    result = conformance.run(name, scenarios=scenarios, expected_failures="auto")
    return time.perf_counter() - t0, result


def measure_conformance_showcase() -> Row:
    which = f"quick: scenario {', '.join(QUICK_SCENARIOS)}" if harness.quick() else "2026-07-28 set"
    row = Row(f"conformance suite vs showcase ({which})", target="ratio < 2x")
    base_s, base = _timed("calendar")
    value_s, result = _timed("showcase")
    row.value, row.baseline, row.ratio = value_s * 1000, base_s * 1000, value_s / base_s
    row.ok = row.ratio < 2 and result.ok
    t = result.totals()
    row.note = (
        f"{t['scenarios']} scored scenarios, {t['checks']} checks, {t['FAILURE']} failed"
        f"{'' if result.ok else ' -- NOT ALL PASSED'}; baseline: the same run against the calendar "
        f"(baseline {'passes' if base.ok else 'FAILS'} with its expected failures)"
    )
    return row


MEASUREMENTS = [measure_conformance_showcase]


if __name__ == "__main__":
    sys.exit(harness.run_alone(MEASUREMENTS, sys.argv[1:]))
