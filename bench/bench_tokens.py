"""`make bench` rows for mcp_lab.tokens (issue 6, item 7), in bench/bench.py's Row format.

bench.py adds this file's MEASUREMENTS to its own.  Run alone: `python bench/bench_tokens.py`. Not collected by pytest (no test_ prefix).

  metric                               value                        baseline                 target
  load o200k_base (fresh interpreter)  `-c "...encoding()"`, warm   `-c pass`                cost < 1 s
  count the reference catalog          catalog_cost(13 tools+instr) len(json.dumps(catalog)) < 50 ms

The encoding is loaded with MCP_LAB_CACHE_DIR pointed at a fresh temporary folder: the first
(uncounted) run is the cold one -- decompress, hash, write the verified copy -- and its time is
reported in the note; the counted runs are warm, which is what every later kernel pays.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import DEADLINE, PY, ROOT, Row  # noqa: E402

LOAD_CODE = "import mcp_lab.tokens as t; t.encoding('o200k_base')"


def measure_encoding_load() -> Row:
    row = Row("load o200k_base (fresh interpreter)", target="cost < 1 s")
    with tempfile.TemporaryDirectory(prefix="mcp_lab-bench-") as cache:
        env = {**harness.env(), "MCP_LAB_CACHE_DIR": cache}

        def run(argv: list[str]) -> float:
            t0 = time.perf_counter()
            done = subprocess.run(
                argv,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=DEADLINE,
            )
            if done.returncode != 0:
                tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no stderr)"]
                raise RuntimeError(f"loading the encoding exited {done.returncode}: {tail[0]}")
            return time.perf_counter() - t0

        cold = run([PY, "-c", LOAD_CODE])  # empty cache: not counted, reported
        loads, bases = [], []
        for _ in range(harness.rounds(7, 2)):  # interleaved, as bench.py's import row
            bases.append(run([PY, "-c", "pass"]))
            loads.append(run([PY, "-c", LOAD_CODE]))
    row.value, row.baseline = harness.ms(statistics.median(loads)), harness.ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    extra = row.value - row.baseline
    row.ok = extra < 1000.0
    row.note = (
        f"import + encoding() cost {extra:.0f} ms over `-c pass` (warm cache); "
        f"cold first run {harness.ms(cold) - row.baseline:.0f} ms"
    )
    return row


def measure_catalog_count() -> Row:
    import json

    from mcp_lab import tokens

    rounds = harness.rounds(50, 5)  # catalog_cost calls per measurement (median)
    row = Row("count the reference catalog (encoding loaded)", target="< 50 ms")
    enc = tokens.encoding("o200k_base")
    cat = tokens.fetch_catalog("everything")  # the pinned reference server, 13 tools
    tools, instructions = list(cat.tools), cat.instructions
    tokens.catalog_cost(tools, instructions, enc)  # warm-up, not counted
    counts, bases = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        len(json.dumps({"tools": tools, "instructions": instructions}))
        bases.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = tokens.catalog_cost(tools, instructions, enc)
        counts.append(time.perf_counter() - t0)
    row.value, row.baseline = harness.ms(statistics.median(counts)), harness.ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    row.ok = row.value < 50.0
    row.note = (
        f"catalog_cost of {len(tools)} tools + instructions = {result.total:,} tokens, median of "
        f"{rounds}; baseline: len(json.dumps(catalog)) of the same {cat.era}-era catalog"
    )
    return row


MEASUREMENTS: list[Callable[[], Row]] = [measure_encoding_load, measure_catalog_count]


if __name__ == "__main__":
    sys.exit(harness.run_alone(MEASUREMENTS, sys.argv[1:]))
