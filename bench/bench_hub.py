"""Capacity of the workshop hub on this machine: `make bench-hub`.

For N = 1, 3 and 5 learners at once, on a fresh hub each time (tests/_support/hub.py):

  login -> ready   seconds from a learner's REST login to their server being ready, all N
                   learners starting together (median and worst)
  RSS/learner      resident memory of a learner's whole process tree with five notebooks open
                   (single-user server; the kernel that ran the lab and four more, each kernel
                   with the package's notebook layer imported and one bundled server kept
                   open: what a learner had after 35 minutes of a workshop, issue 41),
                   summed over the tree, in MB (median and worst): counts shared library pages
                   once per process, so it overstates; the capacity rule uses it (safe side)
  PSS/learner      the same tree's proportional set size (shared pages split between their
                   users): closer to what each extra learner really costs
  lab run          seconds to run the requests-by-hand lab's solution in the learner's server,
                   all N at once (median and worst)

Prints a table and writes the figures to build/bench-hub.json.  Not collected by pytest (no
test_ prefix): a report, not an assertion, on a 2-core machine shared with other work.  Every
wait has a deadline (tests/_support/hub.py), every process is reaped (the hub stops them; the bench
checks that none is left).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the hub driver is the test suite's own

from _support.hub import ROOT, WorkshopHub, run_notebook, tree_pss, tree_rss  # noqa: E402

SIZES = (1, 3, 5)
KEEP_A_SERVER = "import mcp_lab\n_bench_server = mcp_lab.connect('calendar')\n_bench_server.request('tools/list')"
KERNELS_PER_LEARNER = 5  # the lab's kernel and four more notebooks left open
OPEN_NOTEBOOK = ("import mcp_lab.notebook.widgets, mcp_lab.notebook.interactions", KEEP_A_SERVER)
EMPTY = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _solution() -> Path:
    found = sorted((ROOT / "labs" / "solutions").glob("*requests-by-hand.ipynb"))
    if len(found) != 1:
        raise SystemExit(f"bench-hub: expected one requests-by-hand solution, found {found}")
    return found[0]


def measure(n: int, solution: Path) -> dict:
    names = [f"learner{i}" for i in range(1, n + 1)]
    lab_path = f"labs/{solution.name}"
    content = json.loads(solution.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="mcp-lab-bench-hub-") as tmp:
        Path(tmp).chmod(0o711)  # learners' accounts pass through it to their homes
        with WorkshopHub(Path(tmp) / "hub", names) as hub:
            ready = _login_and_start(hub, names)
            for name in names:
                r = hub.http.put(
                    f"{hub.server_url(name)}/api/contents/{lab_path}",
                    headers=hub.headers(name),
                    json={"type": "notebook", "format": "json", "content": content},
                )
                r.raise_for_status()

            async def everyone():
                return await asyncio.gather(
                    *(
                        run_notebook(
                            hub.server_url(n_), hub.tokens[n_], lab_path, extra_cells=(KEEP_A_SERVER,), keep_kernel=True
                        )
                        for n_ in names
                    )
                )

            runs = asyncio.run(everyone())
            _open_more_notebooks(hub, names)
            errors = [e for r in runs for e in r["errors"]]
            if errors:
                raise SystemExit(f"bench-hub: the lab failed in a learner's server: {errors[0]}")
            memory = [tree_rss(hub.learner_process(name)) / 1e6 for name in names]
            shared = [tree_pss(hub.learner_process(name)) / 1e6 for name in names]
            left = hub.stop()
    if left:
        raise SystemExit(f"bench-hub: processes left after the hub stopped: {left}")
    return {
        "learners": n,
        "ready_s": ready,
        "memory_mb": memory,
        "pss_mb": shared,
        "lab_s": [r["seconds"] for r in runs],
    }


def _open_more_notebooks(hub: WorkshopHub, names: list[str]) -> None:
    """KERNELS_PER_LEARNER - 1 more kernels per learner, each with the notebook layer imported
    and a bundled server open, left running (the hub's stop ends them)."""
    paths = [f"open-{i}.ipynb" for i in range(1, KERNELS_PER_LEARNER)]
    for name in names:
        for path in paths:
            r = hub.http.put(
                f"{hub.server_url(name)}/api/contents/{path}",
                headers=hub.headers(name),
                json={"type": "notebook", "format": "json", "content": EMPTY},
            )
            r.raise_for_status()

    async def everyone():
        return await asyncio.gather(
            *(
                run_notebook(hub.server_url(n), hub.tokens[n], p, extra_cells=OPEN_NOTEBOOK, keep_kernel=True)
                for n in names
                for p in paths
            )
        )

    for run in asyncio.run(everyone()):
        failed = [o for outputs in run["outputs"] for o in outputs if o["type"] == "error"]
        if failed:
            raise SystemExit(f"bench-hub: an open notebook failed: {failed[0].get('evalue')}")


def _login_and_start(hub: WorkshopHub, names: list[str]) -> list[float]:
    """Everyone logs in and asks for a server at the same moment (one thread per learner, as
    a room of browsers would); seconds from each learner's login to their server being ready."""

    def one(name: str) -> float:
        t0 = time.perf_counter()
        hub.login(name)
        hub.start_server(name)
        hub.wait_ready(name, deadline=180)
        return time.perf_counter() - t0

    with ThreadPoolExecutor(len(names)) as pool:
        return list(pool.map(one, names))


def _cell(values: list[float], fmt: str) -> str:
    return f"{statistics.median(values):{fmt}} / {max(values):{fmt}}"


def main() -> int:
    solution = _solution()
    rows = []
    for n in SIZES:
        rows.append(measure(n, solution))
        print(f"  measured N={n}", file=sys.stderr, flush=True)
    print(
        f"{'learners':>8}  {'login -> ready s':>18}  {'RSS/learner MB':>16}  {'PSS/learner MB':>16}  {'lab run s':>12}"
    )
    print(f"{'':>8}  {'median / worst':>18}  {'median / worst':>16}  {'median / worst':>16}  {'med / worst':>12}")
    for r in rows:
        print(
            f"{r['learners']:>8}  {_cell(r['ready_s'], '.1f'):>18}  "
            f"{_cell(r['memory_mb'], '.0f'):>16}  {_cell(r['pss_mb'], '.0f'):>16}  "
            f"{_cell(r['lab_s'], '.1f'):>12}"
        )
    out = ROOT / "build" / "bench-hub.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"figures written to {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
