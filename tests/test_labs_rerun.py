"""A learner re-runs a lab's cells: every lab solution survives it, and no lab asserts bare.

The same two properties the course notebooks are held to (tests/test_rerun.py on the course side),
for the labs' solutions (what a learner has once the lab is done) and the untouched templates
(what a learner has at the start), each in ONE kernel:

1. every code cell run twice in a row (the learner's second Shift-Enter);
2. then the whole notebook top to bottom once more in the same kernel (a second Run All): its
   Portuguese copy (labs/pt-BR/), whose check must fail the same way, said in Portuguese.

In a solution no cell may fail, the check included, on any run.  In a template only the check
cell (tagged `raises-exception`) fails, with the lab's lesson as a CheckFailed shown as its one
sentence (not the checker's traceback), and with the same sentence every time: the lesson does
not change because the learner ran it again.  These are the only executions of the lab
notebooks in the suite (tests/test_notebooks.py runs notebooks/ only).  As on the course side, a
test-learner answers every interaction after every cell from outside the notebook
(tests/lessons/: `tests/lessons/answers/<lab>.py`, shared by a lab's template and solution) and
nothing may be left pending at the end.

`test_no_bare_asserts_in_labs` counts `assert` statements without a message in the code cells
of every lab notebook (source, template and solution) and every lab server file.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
from _support import ROOT
from lessons.harness import Lesson
from lessons.kernels import move_to_copy, notebook_client

LABS = ("05-requests-by-hand", "08-ask-the-person", "10-fix-the-calendar", "12-token-budget")
# Where each untouched template's check stops: the lab's first lesson.
TEMPLATE_FAILURE = {
    "05-requests-by-hand": "request 1 (server/discover) is still a placeholder",
    "08-ask-the-person": 'accept (the person picks a room): expected a result with resultType "input_required"',
    "10-fix-the-calendar": "process C read 2 event(s): the write made in process B is gone",
    "12-token-budget": "catalog costs 2,726 tokens; the budget is 1,100",
}
EDITION = "pt-BR"
SECOND = "second run of the whole notebook, in Portuguese"
NOTEBOOK_TIMEOUT = 600


async def _rerun(path: Path) -> list[tuple[str, int, str, str, list]]:
    """(pass, cell index, ename, evalue, traceback) of every error, over both passes."""
    import nbformat
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    lesson = Lesson(path)
    lesson.prepare(nb)
    client = notebook_client(nb, path.parent)
    # The second Run All is the Portuguese edition's copy (labs/pt-BR/...): the same code cells,
    # run in the same kernel from the copy's folder, so the kernel speaks Portuguese and the copy's
    # own lab files are the ones used (as tests/test_rerun.py does for the course notebooks).
    second_nb = nb
    portuguese = ROOT / "labs" / EDITION / path.relative_to(ROOT / "labs")
    if portuguese.exists():
        second_nb = nbformat.read(portuguese, as_version=4)
        lesson.prepare(second_nb, edition=True)
    errors: list[tuple[str, int, str, str, list]] = []
    async with client.async_setup_kernel():
        for label, times, notebook in (("each cell twice", 2, nb), (SECOND, 1, second_nb)):
            if notebook is not nb:
                await move_to_copy(client, notebook, portuguese.parent)
            for index, cell in enumerate(notebook.cells):
                if cell.cell_type != "code":
                    continue
                for attempt in range(times):
                    cell.outputs = []
                    try:
                        await lesson.execute(client, cell, index)
                    except CellExecutionError as e:  # an untagged cell failed: stop here
                        return errors + [(f"{label} #{attempt + 1}", index, e.ename, e.evalue, [])]
                    errors += [
                        (f"{label} #{attempt + 1}", index, o.ename, o.evalue, list(o.traceback))
                        for o in cell.outputs
                        if o.output_type == "error"
                    ]
        try:
            await lesson.finish(client)
        except CellExecutionError as e:
            errors.append(("end of the run", len(nb.cells) - 1, e.ename, e.evalue, []))
    return errors


def _run(path: Path) -> list[tuple[str, int, str, str, list]]:
    return asyncio.run(asyncio.wait_for(_rerun(path), NOTEBOOK_TIMEOUT))


@pytest.mark.parametrize("lab", LABS)
def test_solution_survives_each_cell_twice_and_a_second_run(lab):
    errors = _run(ROOT / "labs" / "solutions" / f"{lab}.ipynb")
    assert not errors, f"labs/solutions/{lab}.ipynb failed on a re-run: " + "; ".join(
        f"{run}, cell {i}: {ename}: {evalue[:300]}" for run, i, ename, evalue, _ in errors
    )


@pytest.mark.parametrize("lab", LABS)
def test_template_fails_only_its_check_and_the_same_way_each_time(lab):
    import nbformat

    path = ROOT / "labs" / f"{lab}.ipynb"
    nb = nbformat.read(path, as_version=4)
    checks = [i for i, c in enumerate(nb.cells) if "check" in c.metadata.get("tags", [])]
    assert len(checks) == 1 and "raises-exception" in nb.cells[checks[0]].metadata.tags, f"{lab}: one tagged check"
    errors = _run(path)
    assert {i for _, i, _, _, _ in errors} == set(checks), f"labs/{lab}.ipynb: only the check may fail: {errors}"
    assert len(errors) == 3, f"the check should fail on each of its three runs: {errors}"
    english = [e for e in errors if not e[0].startswith(SECOND)]
    assert len({(ename, evalue) for _, _, ename, evalue, _ in english}) == 1, (
        f"the check said different things on a re-run: {errors}"
    )
    _, _, ename, evalue, traceback = errors[0]
    assert ename == "CheckFailed" and evalue.startswith(TEMPLATE_FAILURE[lab]), (ename, evalue)
    # The learner sees the sentence, not the checker's frames (IPython's custom traceback for CheckFailed).
    assert traceback == [f"CheckFailed: {evalue}"], traceback
    # The Portuguese copy's check stops at the same lesson, said in Portuguese, as one sentence.
    (_, _, pt_name, pt_value, pt_traceback) = [e for e in errors if e[0].startswith(SECOND)][0]
    assert pt_name == "CheckFailed" and pt_value != evalue, (pt_name, pt_value)
    assert pt_traceback == [f"CheckFailed: {pt_value}"], pt_traceback


def _bare_asserts(source: str, where: str) -> list[str]:
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    tree = ast.parse(python, where)
    return [
        f"{where}:{node.lineno}: {ast.get_source_segment(python, node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Assert) and node.msg is None
    ]


def test_no_bare_asserts_in_labs():
    import nbformat

    found: list[str] = []
    for path in sorted((ROOT / "labs").rglob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                found += _bare_asserts(cell.source, f"{path.relative_to(ROOT)} cell {i}")
    for path in sorted((ROOT / "labs").rglob("*.py")):
        found += _bare_asserts(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "asserts without a message (say what was expected and what came back):\n" + "\n".join(found)


def test_the_bare_assert_counter_finds_one():
    assert _bare_asserts("x = 1\nassert x == 2\nassert x, 'x must be set'", "cell") == ["cell:2: assert x == 2"]
