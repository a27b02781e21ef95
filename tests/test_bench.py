"""`make bench` keeps running: its quick mode prints every row, each with a ratio.

The quick run measures a few rounds per row, so its figures are rough and none is asserted (speed
is measured in `make bench`, never in a timed test); what is asserted is that every row the table
has is there, ran (no ERROR), and carries a ratio against its baseline from the same run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import harness  # bench/harness.py, the Row and the table (bench/ is on pytest's pythonpath)
from _support import ROOT

# Every row `make bench` prints, by the start of its metric name (counts differ in quick mode).
EXPECTED_ROWS = (
    "import mcp_lab (fresh interpreter)",
    "calendar cold start to first answer",
    "warm round trip, tools/list x",
    "Client overhead, tools/list x",
    "Client vs the SDK's Client, tools/call x",
    "HTTP keep-alive round trip, tools/list x",
    "HTTP burst of ",
    "load o200k_base (fresh interpreter)",
    "count the reference catalog",
    "replay per exchange, tools/list x",
    "notebook notebooks/",
    "whole course under nbclient",
    "conformance suite vs showcase",
    "mcp-lab check calendar (CLI",
    "mcp-lab conformance calendar, HTTP (",
    "mcp-lab conformance calendar, --stdio (",
)
RATIO = re.compile(r"^\d+\.\d\dx$")


def table_rows(output: str) -> list[dict]:
    """The rows of a printed bench table, each as {column: cell}, read by the dash line's widths."""
    lines = output.splitlines()
    for n, line in enumerate(lines):
        if line.startswith("metric") and n + 1 < len(lines) and set(lines[n + 1]) <= {"-", " "}:
            break
    else:
        raise AssertionError(f"no bench table in the output:\n{output}")
    head, dashes = lines[n], lines[n + 1]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]
    names = [head[a:b].strip() for a, b in spans]
    rows = []
    for line in lines[n + 2 :]:
        if not line.strip():
            break
        cells = [line[a : (spans[i + 1][0] if i + 1 < len(spans) else None)].strip() for i, (a, _) in enumerate(spans)]
        rows.append(dict(zip(names, cells)))
    return rows


def problems(output: str) -> list[str]:
    """What is wrong with a printed table: a missing row, a row that did not run, one with no ratio."""
    rows = table_rows(output)
    found = []
    for prefix in EXPECTED_ROWS:
        if not any(r["metric"].startswith(prefix) for r in rows):
            found.append(f"no row {prefix!r}")
    for r in rows:
        if r["verdict"] not in ("PASS", "MISS"):
            found.append(f"{r['metric']}: verdict {r['verdict']}")
        if not RATIO.match(r["ratio"]):
            found.append(f"{r['metric']}: no ratio ({r['ratio']!r})")
    return found


def test_the_table_check_catches_a_missing_row_an_error_and_a_missing_ratio():
    good = [harness.Row(p + "x", 2.0, 1.0, 2.0, "t", True) for p in EXPECTED_ROWS]
    assert problems(harness.render(good)) == []
    broken = good[1:-1] + [harness.Row(EXPECTED_ROWS[-1], ok=None, note="RuntimeError: boom")]
    found = problems(harness.render(broken))
    assert f"no row {EXPECTED_ROWS[0]!r}" in found
    assert f"{EXPECTED_ROWS[-1]}: verdict ERROR" in found
    assert f"{EXPECTED_ROWS[-1]}: no ratio ('-')" in found


def test_make_bench_quick_prints_every_row_with_its_ratio():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", harness.QUICK_ENV)}
    done = subprocess.run(
        ["make", "--no-print-directory", "bench", "QUICK=1", f"VENV={sys.prefix}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, f"make bench QUICK=1 exited {done.returncode}:\n{done.stdout}\n{done.stderr[-3000:]}"
    assert "(quick:" in done.stdout
    assert problems(done.stdout) == [], done.stdout
