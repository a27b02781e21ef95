"""Run All in the Portuguese edition waits for the person: every notebooks/pt-BR/ notebook and
labs/pt-BR/ lab, no harness.

The English edition's Run All is proven in a real Lab and browser (tests/browser/
test_run_all_browser.py); its Portuguese copies have the same code cells, so here each copy runs
under plain nbclient, as a learner's Run All would, with no test-learner beside it: no answers, no
EDITS (a task's cell stays `...`).  For each copy:

- it runs to its end: no cell fails, except a cell tagged `raises-exception` (its failure is the
  lesson);
- every interaction it declares is still pending at the end (a prediction, a quiz, a task, a form
  waits; none was answered or judged by itself);
- the kernel spoke Portuguese: nbclient starts the kernel in the copy's folder, which is how
  mcp_lab.notebook.i18n knows the edition, and the pending interactions' widgets read Portuguese
  (the Predict button reads "Prever").

The answered run of each copy is the second Run All of tests/test_rerun.py.  One kernel per
notebook; the checks run in a cell the test adds after the last one (never saved).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from _support import ROOT
from lessons.kernels import notebook_client
from lessons.wire_marks import marks_for

EDITION = ROOT / "notebooks" / "pt-BR"
LABS = ROOT / "labs" / "pt-BR"  # the labs as a learner starts them (the check cell fails: raises-exception)


def _is_python(path: Path) -> bool:
    meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    return meta.get("kernelspec", {}).get("language", "python") == "python"


# 04b runs on the wire kernel (every cell one JSON-RPC message): nothing in it waits for a person,
# and its copy's run is tests/test_rerun.py's.
COPIES = [p for p in sorted(EDITION.glob("*.ipynb")) if _is_python(p)] + sorted(LABS.glob("*.ipynb"))
NOTEBOOK_TIMEOUT = 600

# Read in the kernel after the last cell: the edition in force, and each pending interaction's
# key, kind and (for a prediction) its button's words.
REPORT = """
import json as _json
from mcp_lab.notebook import i18n as _i18n, interactions as _interactions
_pending = _interactions.pending()
print(_json.dumps({
    "language": _i18n.language(),
    "keys": sorted(i.key for i in _interactions.all_interactions()),
    "pending": sorted(i.key for i in _pending),
    "predict_button": _i18n._("Predict"),
}))
"""


def _run(path: Path) -> tuple[list[str], dict]:
    import nbformat
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    # every cell runs, as under Run All; errors are read below
    client = notebook_client(nb, path.parent, allow_errors=True)
    try:
        client.execute()
    except CellExecutionError as e:  # pragma: no cover - allow_errors keeps going; kept for a dead kernel
        return [str(e)[:500]], {}
    failed = []
    for i, cell in enumerate(nb.cells[:-1]):
        if cell.cell_type != "code" or "raises-exception" in cell.metadata.get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                failed.append(f"{path.name} cell {i} (id {cell.get('id')}): {out.get('ename')}: {out.get('evalue')}")
    report = {}
    for out in nb.cells[-1].get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            report = json.loads(out["text"].strip().splitlines()[-1])
    return failed, report


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=marks_for(p.name)) for p in COPIES],
    ids=[p.relative_to(ROOT).as_posix() for p in COPIES],
)
def test_the_portuguese_copy_runs_to_its_end_and_waits(path: Path) -> None:
    started = time.monotonic()
    failed, report = _run(path)
    assert not failed, "\n".join(failed)
    assert report, f"{path.name}: the report cell printed nothing (after {time.monotonic() - started:.0f} s)"
    assert report["language"] == "pt-BR", f"{path.name}: the kernel spoke {report['language']!r}, not Portuguese"
    assert report["pending"] == report["keys"], (
        f"{path.name}: under Run All every interaction waits for the person; answered or judged by "
        f"itself: {sorted(set(report['keys']) - set(report['pending']))}"
    )
    assert report["predict_button"] == "Prever", report["predict_button"]


def test_every_lesson_has_its_copy() -> None:
    english = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert english and sorted(p.name for p in EDITION.glob("*.ipynb")) == english, (
        "make translations ADD=notebooks/<name>.ipynb"
    )
