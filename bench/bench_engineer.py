"""`make bench` rows for the engineer's commands (issue 38): `mcp-lab check` and `mcp-lab
conformance` over HTTP and over `--stdio`, each on the calendar, each a fresh CLI process as an
engineer or a CI job runs it (interpreter start, the server's start, the run, the exit).

  metric                                   value                 baseline              target
  mcp-lab check calendar                   `check calendar`      `probe calendar`      cost < 1.5 s
  mcp-lab conformance calendar, HTTP       `conformance`         `check calendar`      exits 0
  mcp-lab conformance calendar, --stdio    `conformance --stdio` the HTTP run above    ratio < 3x

The check's baseline is the probe of the same server (one connect, one discover): the cost
(value - baseline) is what the checks add over reaching the server, most of it (about 0.45 s of
CPU) the import of the official schema's ~500 models that judge every message.  The HTTP run's baseline is the check (the same
server judged by mcp_lab alone): the ratio is what the official suite costs beside it, shown, not
judged.  The stdio run's baseline is the HTTP run of the same bench: the ratio is what the bridge
(a server process per connection) costs, which issue 38 bounds at 3x.  HTTP and stdio runs
alternate (H S H S ...) so a machine that slows down mid-bench weighs on both.  Each figure is the
median of its runs.  Quick mode: one run each, the conformance runs on one scenario.

Run alone: `python bench/bench_engineer.py`.  Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import PY, ROOT, Row  # noqa: E402

QUICK_SCENARIOS = ["tools-list"]  # quick mode: one scenario, not the whole frozen set
CLI_DEADLINE = 300.0  # seconds for one CLI run (a full --stdio conformance run takes about 20)


def _cli(*args: str) -> tuple[float, int]:
    """Seconds from start to exit of `python -m mcp_lab ARGS`, and its exit status."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [PY, "-m", "mcp_lab", *args],
        cwd=ROOT,
        env=harness.env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=CLI_DEADLINE,
    )
    elapsed = time.perf_counter() - t0
    if done.returncode not in (0, 1):  # 1 is a verdict (a defect); anything else is a broken run
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no stderr)"]
        raise RuntimeError(f"mcp-lab {' '.join(args)} exited {done.returncode}: {tail[0]}")
    return elapsed, done.returncode


def _median_ms(runs: list[tuple[float, int]]) -> float:
    return statistics.median(s for s, _ in runs) * 1000


def measure_engineer_commands() -> list[Row]:
    check_runs, conf_runs = harness.rounds(5, 1), harness.rounds(3, 1)
    scenarios = [a for s in QUICK_SCENARIOS for a in ("--scenario", s)] if harness.quick() else []
    which = f"quick: scenario {', '.join(QUICK_SCENARIOS)}" if harness.quick() else "2026-07-28 set"

    _cli("probe", "calendar")  # warm-up: bytecode and the page cache, paid by no row
    probe = [_cli("probe", "calendar") for _ in range(check_runs)]
    check = [_cli("check", "calendar") for _ in range(check_runs)]
    http, stdio = [], []
    for _ in range(conf_runs):
        http.append(_cli("conformance", *scenarios, "calendar"))
        stdio.append(_cli("conformance", "--stdio", *scenarios, "calendar"))

    check_row = Row(f"mcp-lab check calendar (CLI, median of {check_runs})", target="cost < 1.5 s")
    check_row.value, check_row.baseline = _median_ms(check), _median_ms(probe)
    check_row.ratio = check_row.value / check_row.baseline
    check_row.ok = check_row.value - check_row.baseline < 1500 and all(rc == 0 for _, rc in check)
    check_row.note = (
        f"baseline: `mcp-lab probe calendar`; cost {check_row.value - check_row.baseline:.0f} ms; "
        f"check exit {sorted({rc for _, rc in check})}, min {min(s for s, _ in check) * 1000:.0f} ms"
    )

    http_row = Row(f"mcp-lab conformance calendar, HTTP ({which})", target="exits 0 (ratio shown)")
    http_row.value, http_row.baseline = _median_ms(http), check_row.value
    http_row.ratio = http_row.value / http_row.baseline
    http_row.ok = all(rc == 0 for _, rc in http)
    http_row.note = (
        f"baseline: `mcp-lab check calendar` above; exit {sorted({rc for _, rc in http})}, "
        f"min {min(s for s, _ in http) * 1000:.0f} ms, median of {conf_runs}"
    )

    stdio_row = Row(f"mcp-lab conformance calendar, --stdio ({which})", target="ratio < 3x")
    stdio_row.value, stdio_row.baseline = _median_ms(stdio), http_row.value
    stdio_row.ratio = stdio_row.value / stdio_row.baseline
    stdio_row.ok = stdio_row.ratio < 3 and all(rc == 0 for _, rc in stdio)
    stdio_row.note = (
        f"baseline: the HTTP run above (issue 38: --stdio at most 3x HTTP); exit "
        f"{sorted({rc for _, rc in stdio})}, min {min(s for s, _ in stdio) * 1000:.0f} ms, median of {conf_runs}"
    )
    return [check_row, http_row, stdio_row]


MEASUREMENTS = [measure_engineer_commands]


if __name__ == "__main__":
    sys.exit(harness.run_alone(MEASUREMENTS, sys.argv[1:]))
