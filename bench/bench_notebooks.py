"""`make bench` rows for the course itself (issue 9, item 9): every notebook and lab, timed.

Each notebook is executed the way `make test` executes it (tests/test_notebooks.py's
`run_notebook`, the same kernel and cwd), once, and its wall time is one row.  The baseline of
every row is an empty notebook run the same way in the same bench run: the fixed cost of a
kernel start and shutdown, so a ratio says how much the lesson itself adds.  The last row is
the whole course against the 4-minute budget (lab templates included: their check cell fails
on purpose, tagged `raises-exception`, so the run goes on past it).

Run alone: `python bench/bench_notebooks.py`.  Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUDGET_S = 240.0


def _tests_on_path() -> None:
    """The notebook runner is the test suite's own (tests/test_notebooks.py): one way to run them."""
    tests = str(ROOT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)


def _bench():
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    from bench_tokens import _bench as bench_module  # the one place that finds bench.py's Row

    return bench_module()


def _course() -> list[Path]:
    _tests_on_path()
    from test_notebooks import find_notebooks

    templates = sorted((ROOT / "labs").glob("*.ipynb"))
    return find_notebooks(ROOT) + templates


def _timed(path: Path) -> tuple[float, str | None]:
    _tests_on_path()
    from test_notebooks import run_notebook

    t0 = time.perf_counter()
    _, failure = run_notebook(path)
    return time.perf_counter() - t0, failure


def _empty_notebook_s() -> float:
    import nbformat

    with tempfile.TemporaryDirectory(prefix="mcp_lab-bench-") as d:
        path = Path(d) / "empty.ipynb"
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.cells.append(nbformat.v4.new_code_cell("pass"))
        nbformat.write(nb, path)
        return min(_timed(path)[0] for _ in range(2))


def measure_course() -> list:
    b = _bench()
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    baseline = _empty_notebook_s()
    rows, total = [], 0.0
    for path in _course():
        rel = path.relative_to(ROOT).as_posix()
        seconds, failure = _timed(path)
        total += seconds
        rows.append(
            b.Row(
                f"notebook {rel}",
                value=seconds * 1000,
                baseline=baseline * 1000,
                ratio=seconds / baseline,
                target="(part of the total)",
                ok=None if failure else True,
                note=failure.splitlines()[0] if failure else "",
            )
        )
    rows.append(
        b.Row(
            f"whole course under nbclient ({len(rows)} notebooks)",
            value=total * 1000,
            baseline=baseline * 1000 * len(rows),
            ratio=total / (baseline * len(rows)),
            target=f"total < {BUDGET_S:.0f} s",
            ok=total < BUDGET_S,
            note=f"baseline: an empty notebook ({baseline:.2f} s) times {len(rows)}",
        )
    )
    return rows


MEASUREMENTS = [measure_course]


if __name__ == "__main__":
    b = _bench()
    print(b.render(measure_course()))
