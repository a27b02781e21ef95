"""`make bench` rows for mcp_lab.tokens (issue 6, item 7), in bench/bench.py's Row format.

bench.py includes them with two lines after its MEASUREMENTS list:

    from bench_tokens import MEASUREMENTS as TOKEN_MEASUREMENTS  # noqa: E402
    MEASUREMENTS += TOKEN_MEASUREMENTS

Run alone: `python bench/bench_tokens.py`. Not collected by pytest (no test_ prefix).

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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COUNT_ROUNDS = 50  # catalog_cost calls per measurement (median)
LOAD_CODE = "import mcp_lab.tokens as t; t.encoding('o200k_base')"


def _bench():
    """bench.py's module: `__main__` when bench.py runs these rows, else imported by name."""
    main = sys.modules.get("__main__")
    if getattr(main, "__file__", None) and Path(main.__file__).name == "bench.py" and hasattr(main, "Row"):
        return main
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import bench

    return bench


def measure_encoding_load() -> "object":
    b = _bench()
    row = b.Row("load o200k_base (fresh interpreter)", target="cost < 1 s")
    with tempfile.TemporaryDirectory(prefix="mcp_lab-bench-") as cache:
        env = {**b._env(), "MCP_LAB_CACHE_DIR": cache}

        def run(argv: list[str]) -> float:
            t0 = time.perf_counter()
            done = subprocess.run(
                argv,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=b.DEADLINE,
            )
            if done.returncode != 0:
                tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no stderr)"]
                raise RuntimeError(f"loading the encoding exited {done.returncode}: {tail[0]}")
            return time.perf_counter() - t0

        cold = run([b.PY, "-c", LOAD_CODE])  # empty cache: not counted, reported
        loads, bases = [], []
        for _ in range(b.SPAWN_RUNS):  # interleaved, as bench.py's import row
            bases.append(run([b.PY, "-c", "pass"]))
            loads.append(run([b.PY, "-c", LOAD_CODE]))
    row.value, row.baseline = b._ms(statistics.median(loads)), b._ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    extra = row.value - row.baseline
    row.ok = extra < 1000.0
    row.note = (
        f"import + encoding() cost {extra:.0f} ms over `-c pass` (warm cache); "
        f"cold first run {b._ms(cold) - row.baseline:.0f} ms"
    )
    return row


def measure_catalog_count() -> "object":
    import json

    from mcp_lab import tokens

    b = _bench()
    row = b.Row("count the reference catalog (encoding loaded)", target="< 50 ms")
    enc = tokens.encoding("o200k_base")
    cat = tokens.fetch_catalog("everything")  # the pinned reference server, 13 tools
    tools, instructions = list(cat.tools), cat.instructions
    tokens.catalog_cost(tools, instructions, enc)  # warm-up, not counted
    counts, bases = [], []
    for _ in range(COUNT_ROUNDS):
        t0 = time.perf_counter()
        len(json.dumps({"tools": tools, "instructions": instructions}))
        bases.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = tokens.catalog_cost(tools, instructions, enc)
        counts.append(time.perf_counter() - t0)
    row.value, row.baseline = b._ms(statistics.median(counts)), b._ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    row.ok = row.value < 50.0
    row.note = (
        f"catalog_cost of {len(tools)} tools + instructions = {result.total:,} tokens, median of "
        f"{COUNT_ROUNDS}; baseline: len(json.dumps(catalog)) of the same {cat.era}-era catalog"
    )
    return row


MEASUREMENTS: list[Callable[[], object]] = [measure_encoding_load, measure_catalog_count]


if __name__ == "__main__":
    b = _bench()
    rows = []
    for fn in MEASUREMENTS:
        try:
            rows.append(fn())
        except Exception as e:  # the same ERROR row bench.py makes
            rows.append(
                b.Row(fn.__name__.removeprefix("measure_").replace("_", " "), ok=None, note=f"{type(e).__name__}: {e}")
            )
    print(b.render(rows))
    sys.exit(1 if any(r.ok is None for r in rows) else 0)
