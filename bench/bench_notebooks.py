"""`make bench` rows for the course itself (issue 9, item 9): every notebook and lab, timed.

Each notebook is executed the way `make test` executes it (tests/test_notebooks.py's
`run_notebook`, the same kernel and cwd), once, and its wall time is one row.  The baseline of
every row is an empty notebook run the same way in the same bench run: the fixed cost of a
kernel start and shutdown, so a ratio says how much the lesson itself adds.  The last row is
the whole course against the 4-minute budget (lab templates included: their check cell fails
on purpose, tagged `raises-exception`, so the run goes on past it).

In quick mode only the first notebook runs (the test suite runs every one of them anyway).
Run alone: `python bench/bench_notebooks.py`.  Not collected by pytest (no test_ prefix).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import ROOT, Row  # noqa: E402

BUDGET_S = 240.0


def _tests_on_path() -> None:
    """The notebook runner is the test suite's own (tests/test_notebooks.py): one way to run them.
    Nothing is answered: a lesson run top to bottom as a learner's Run All leaves its questions
    waiting, and reaches its end."""
    tests = str(ROOT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)


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


def measure_course() -> list[Row]:
    baseline = _empty_notebook_s()
    rows, total = [], 0.0
    course = _course()
    run = course[:1] if harness.quick() else course  # quick mode: the first notebook only
    for path in run:
        rel = path.relative_to(ROOT).as_posix()
        seconds, failure = _timed(path)
        total += seconds
        rows.append(
            Row(
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
        Row(
            f"whole course under nbclient ({len(rows)} of {len(course)} notebooks)",
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
    sys.exit(harness.run_alone(MEASUREMENTS, sys.argv[1:]))
