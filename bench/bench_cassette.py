"""Bench rows for cassettes (issue 16): what a replay adds per exchange over a live round trip.

  metric                          value                          baseline                        target
  replay overhead per exchange    replay(cassette of N calls)/N  live: connect + N calls, /N     ratio < 2x

Both sides start one calendar process and send the same N tools/list requests over stdio; the
replay also reads the cassette, remaps ids, normalises both answers and diffs them.  Runs
alternate (live, replay, live, ...) so both meet the same machine state; medians are reported.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import Row  # noqa: E402


def _live(n: int) -> float:
    import mcp_lab

    t0 = time.perf_counter()
    with mcp_lab.connect("calendar") as c:
        for _ in range(n):
            if not c.request("tools/list").ok:
                raise RuntimeError("tools/list failed")
    return time.perf_counter() - t0


def measure_replay_overhead() -> Row:
    import mcp_lab

    exchanges, runs = harness.rounds(200, 10), harness.rounds(5, 1)
    row = Row(f"replay per exchange, tools/list x{exchanges}", target="ratio < 2x")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        with mcp_lab.connect("calendar") as c:
            for _ in range(exchanges):
                c.request("tools/list")
            c.trace.save(path)
        live, replayed = [], []
        for _ in range(runs):
            live.append(_live(exchanges) / exchanges)
            t0 = time.perf_counter()
            d = mcp_lab.replay(path, "calendar", deadline=120)
            replayed.append((time.perf_counter() - t0) / exchanges)
            if not d.same:
                raise RuntimeError(f"the replay differed: {d.headline()}")
    row.value, row.baseline = harness.ms(statistics.median(replayed)), harness.ms(statistics.median(live))
    row.ratio = row.value / row.baseline
    row.ok = row.ratio < 2.0
    row.note = (
        f"medians of {runs} alternating runs, each one calendar process and {exchanges} exchanges; "
        "the replay includes reading the cassette, id remapping, normalising and diffing each answer"
    )
    return row


MEASUREMENTS = [measure_replay_overhead]


if __name__ == "__main__":
    sys.exit(harness.run_alone(MEASUREMENTS, sys.argv[1:]))
