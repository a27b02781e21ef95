"""A learner re-runs cells: every course notebook survives it, and no notebook asserts bare.

Two properties, proven together for each notebook under `notebooks/` in ONE kernel (one kernel
start per notebook keeps the suite's cost down):

1. every code cell can be run again right after itself (the learner's second Shift-Enter):
   the notebook is executed with each code cell run twice in a row;
2. the whole notebook can then be run top to bottom a second time in the same kernel (the
   learner's second "Run All"), with the same lesson.

A cell tagged `raises-exception` may fail (its failure is the lesson); any other error fails the
test, naming the notebook, the pass, the cell and its source.  A test-learner answers every
interaction after every cell, from outside the notebook (tests/lessons/: the hidden answering
cell, `tests/lessons/answers/<stem>.py`), and at the end nothing may be left pending.

`test_no_bare_asserts` counts `assert` statements without a message in notebook code cells:
a learner who changes one value must read a sentence, not a bare AssertionError.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import time
from pathlib import Path

import pytest
from _support import ROOT
from lessons.harness import ANSWERS_DIR, Lesson
from lessons.kernels import move_to_copy, notebook_client
from lessons.wire_marks import marks_for

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EDITION = "pt-BR"  # the Portuguese edition's folder beside the English notebooks
NOTEBOOK_TIMEOUT = 900
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _code_cells(nb) -> list[tuple[int, object]]:
    return [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


async def _rerun(path: Path, keep_going: bool = False, answers_dir: Path = ANSWERS_DIR) -> list[str]:
    """Run each code cell twice in a row, then the whole notebook once more; the failures.

    The second Run All is the Portuguese edition's copy when there is one (notebooks/pt-BR/): the
    same code cells (only comments and printed words differ), run top to bottom in the same
    kernel after a move to the copy's folder, so the kernel speaks Portuguese
    (mcp_lab.notebook.i18n follows the working folder) and the copy's relative paths hold.  A
    kernel that is not Python (04b's wire kernel) cannot be moved: its copy gets a kernel of its
    own, started in the copy's folder.

    After every cell the test-learner answers what is pending (tests/lessons/harness.py); at the
    end nothing may be pending.  Stops at the first failure unless `keep_going` (a report).
    """
    import nbformat

    nb = nbformat.read(path, as_version=4)
    lesson = Lesson(path, answers_dir)
    lesson.prepare(nb)
    second, second_nb = path, nb
    if (path.parent / EDITION / path.name).exists():
        second = path.parent / EDITION / path.name
        second_nb = nbformat.read(second, as_version=4)
        lesson.prepare(second_nb, edition=True)
    python = lesson.python
    failures: list[str] = []
    client = notebook_client(nb, path.parent)
    async with client.async_setup_kernel():
        failures += await _pass(client, lesson, nb, path, "each cell run twice in a row", 2, keep_going)
        if failures and not keep_going:
            return failures
        if python or second == path:
            if second != path:
                await move_to_copy(client, second_nb, second.parent)
            failures += await _pass(
                client, lesson, second_nb, second, "second run of the whole notebook", 1, keep_going
            )
            return failures + await _finish(client, lesson, path)
        failures += await _finish(client, lesson, path)
    if failures and not keep_going:
        return failures
    client = notebook_client(second_nb, second.parent)
    async with client.async_setup_kernel():
        failures += await _pass(client, lesson, second_nb, second, "run of the Portuguese copy", 1, keep_going)
        return failures + await _finish(client, lesson, path)


async def _pass(client, lesson, notebook, source: Path, label: str, times: int, keep_going: bool) -> list[str]:
    """Every code cell of `notebook`, each `times` times in a row, answered by the test-learner."""
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    failures: list[str] = []
    for index, cell in _code_cells(notebook):
        for attempt in range(times):
            cell.outputs = []
            try:
                await lesson.execute(client, cell, index)
            except (CellExecutionError, CellTimeoutError) as e:
                failures.append(_describe(source, label, index, attempt, cell, e))
                if not keep_going:
                    return failures
            except DeadKernelError as e:
                return failures + [_describe(source, label, index, attempt, cell, e)]
    return failures


async def _finish(client, lesson, path: Path) -> list[str]:
    from nbclient.exceptions import CellExecutionError

    try:
        await lesson.finish(client)
    except CellExecutionError as e:
        return [f"{_shown(path)}: {getattr(e, 'evalue', '') or e}"]
    return []


def _describe(path: Path, label: str, index: int, attempt: int, cell, e: Exception) -> str:
    run = " (its first run)" if label.startswith("each") and attempt == 0 else ""
    lines = [
        f"{_shown(path)}: {label}: cell {index}{run}: {type(e).__name__}: {getattr(e, 'evalue', '') or str(e)[:300]}",
        "--- cell source ---",
        cell.source[:2000],
    ]
    tbs = ["\n".join(o.get("traceback", [])) for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if tbs:
        lines += ["--- traceback ---", ANSI.sub("", tbs[-1])[-3000:]]
    return "\n".join(lines)


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=marks_for(p.name)) for p in NOTEBOOKS],
    ids=[p.name for p in NOTEBOOKS],
)
def test_every_cell_runs_twice_and_the_notebook_runs_twice(path: Path) -> None:
    started = time.monotonic()
    failures = asyncio.run(asyncio.wait_for(_rerun(path), NOTEBOOK_TIMEOUT))
    if failures:
        pytest.fail(f"{failures[0]}\n(after {time.monotonic() - started:.0f} s)", pytrace=False)


def bare_asserts(path: Path) -> list[str]:
    """`assert` statements without a message in the notebook's Python code cells."""
    nb = json.loads(path.read_text())
    if nb.get("metadata", {}).get("kernelspec", {}).get("language", "python") != "python":
        return []
    found = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        # IPython syntax (magics, shell escapes) is not Python: blank those lines, keep numbering.
        python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
        try:
            tree = ast.parse(python)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and node.msg is None:
                found.append(f"{path.name} cell {i}: {ast.get_source_segment(python, node)}")
    return found


def test_no_bare_asserts_in_notebooks() -> None:
    found = [line for p in NOTEBOOKS for line in bare_asserts(p)]
    assert not found, (
        f"{len(found)} asserts without a message (say what was expected and what came back):\n" + "\n".join(found[:40])
    )


if __name__ == "__main__":  # a report: every failing cell of every notebook named on the command line
    import sys

    total = 0
    for arg in sys.argv[1:] or [str(p) for p in NOTEBOOKS]:
        found = asyncio.run(_rerun(Path(arg).resolve(), keep_going=True))
        total += len(found)
        for f in found:
            print(f.splitlines()[0])
    print(f"{total} failing cell runs")
