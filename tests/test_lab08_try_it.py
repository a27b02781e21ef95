"""Lab 08's "try it by hand" cells do what they promise, on the solution and on the template.

The defect (issue 36): the try-it cells connected without declaring form elicitation, so even a
solved lab printed -32021 and "not asking yet: finish TODO 1 and 2 first".  A real client that
can show a form declares it on every request; the cells now do, and say in one line what the
learner's server did.

`run_try_it(notebook)` executes the lab's code cells in-process, in the notebook's folder, up
to the check (as a learner's Run All would, minus the check), and returns what each cell
tagged `try-it` printed.  Every server is a real process started by the cells themselves.

- on the solution, the two cells that declare a form get `input_required` and the loop books
  the room (the person is asked, not refused); only the cell that declares nothing gets -32021;
- on the template, each try-it cell names the TODO to finish;
- the checker is shown catching the defect: the solution's cells with the declaration removed
  (the cells as they were) fail it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from _support import ROOT

# Each of these starts real servers or a kernel (tests/_support/kinds.py cannot follow the route).
pytestmark = pytest.mark.system

TEMPLATE = ROOT / "labs" / "08-ask-the-person.ipynb"
SOLUTION = ROOT / "labs" / "solutions" / "08-ask-the-person.ipynb"
FORM_CELLS = ("cell-04", "cell-06")  # the two calls from a client that declares a form
NO_FORM_CELL = "try-no-form"


def run_try_it(path: Path, rewrite=lambda source: source) -> dict[str, str]:
    """{cell id: what it printed} for the try-it cells, after running every code cell before the check."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    ns: dict = {"__name__": "__lab__"}
    printed: dict[str, str] = {}
    old = os.getcwd()
    os.chdir(path.parent)
    try:
        for cell in cells:
            tags = cell.get("metadata", {}).get("tags", [])
            if cell["cell_type"] != "code" or "your-work" in tags:
                continue
            if "check" in tags:
                break
            source = "".join(cell["source"])
            source = "\n".join("" if line.lstrip().startswith("%") else line for line in source.split("\n"))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(rewrite(source), f"{path.name}:{cell['id']}", "exec"), ns)
            if "try-it" in tags:
                printed[cell["id"]] = out.getvalue()
    finally:
        os.chdir(old)
    return printed


def assert_they_ask_the_person(printed: dict[str, str]) -> None:
    """What a solved lab's try-it cells must show: asked, booked, and -32021 only without a form."""
    assert set(printed) == {*FORM_CELLS, NO_FORM_CELL}, sorted(printed)
    for cell in FORM_CELLS:
        assert "-32021" not in printed[cell] and "not finished" not in printed[cell], (cell, printed[cell])
        assert "asks the person" in printed[cell] or "the server asks (room)" in printed[cell], (cell, printed[cell])
    assert '"resultType":"input_required"' in printed["cell-04"].replace(" ", ""), printed["cell-04"]
    assert "2 round(s): complete: Booked Borealis at 2026-09-10T08:30:00Z." in printed["cell-06"], printed["cell-06"]
    assert "refused with -32021" in printed[NO_FORM_CELL] and "cannot show a form" in printed[NO_FORM_CELL], printed


def test_on_the_solution_the_try_it_cells_ask_the_person():
    assert_they_ask_the_person(run_try_it(SOLUTION))


def test_on_the_template_the_try_it_cells_say_what_to_finish():
    printed = run_try_it(TEMPLATE)
    assert set(printed) == {*FORM_CELLS, NO_FORM_CELL}, sorted(printed)
    for cell, text in printed.items():
        assert "not finished yet: TODO 2 (the server says: TODO 2 in ask_for_room" in text, (cell, text)
    assert '"code":-32603' in printed["cell-04"].replace(" ", ""), printed["cell-04"]  # the raw line, above it


def test_the_checker_catches_cells_that_declare_no_form():
    undeclared = run_try_it(SOLUTION, rewrite=lambda s: s.replace(", capabilities=FORM", ""))
    assert "-32021" in undeclared["cell-04"] and "although this request declared a form" in undeclared["cell-04"]
    with pytest.raises(AssertionError):
        assert_they_ask_the_person(undeclared)


def test_said_names_todo_1_when_a_form_is_asked_of_a_client_without_one():
    from mcp_lab.course.lessons import lab08
    from mcp_lab.wire import jsonrpc

    asked = jsonrpc.Result(1, {"resultType": "input_required", "inputRequests": {"room": {"params": {}}}})
    assert "that is TODO 1" in lab08.said(asked, declared_form=False)
    assert lab08.said(asked).startswith("asks the person (room: ")
