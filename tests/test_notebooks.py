"""The one notebook runner of the suite and the bench, and the list of notebooks it runs.

What runs here: nothing of its own any more. Every notebook is executed by a re-run test, whose
first pass is the plain run this module used to make: the course notebooks by tests/test_rerun.py
(each cell twice in a row, then the whole notebook again, in one kernel), the labs by
tests/test_labs_rerun.py (each solution and each template the same way). A single extra run here
would prove nothing more and cost a kernel per notebook. This module keeps the one notebook
runner (`run_notebook`) and the list of notebooks (`find_notebooks`, notebooks/ and
labs/solutions/) that `make bench` times.

How: plain nbclient (see JUPYTER-NOTES.md for why not nbmake/testbook/nbval). Each notebook gets
its own kernel, named by its metadata (default python3 -- the `.venv` kernel `make setup`
registers), started in the notebook's own folder, so relative paths behave as they do in Lab.
A cell may run 120 s, a whole notebook NOTEBOOK_TIMEOUT s; on either deadline the kernel is shut
down by nbclient's own clean-up. A cell tagged `raises-exception` may fail (the lesson is the
error); any other error fails the test with the notebook, the cell's index and source, and the
error's name and value -- without ANSI colours, and without a doubled traceback.

It collects zero items (no skip): NOTEBOOKS below is empty on purpose, and the parametrized
test stays for a notebook folder a future change adds without a re-run test of its own.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from _support import ROOT  # noqa: E402
from _support.output_widgets import use_own_connection_for_output_widgets

SEARCHED = ("notebooks", "labs/solutions")
CELL_TIMEOUT = 120  # seconds, per cell (nbclient's `timeout`)
NOTEBOOK_TIMEOUT = 600  # seconds, per notebook, kernel start and shutdown included
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
FAILED_COPIES = ROOT / "test-output" / "notebooks"  # executed copy of a failing notebook


def find_notebooks(root: Path = ROOT) -> list[Path]:
    found = []
    for folder in SEARCHED:
        for path in sorted((root / folder).rglob("*.ipynb")):
            if ".ipynb_checkpoints" not in path.parts:
                found.append(path)
    return found


# The course notebooks run in tests/test_rerun.py and the labs in tests/test_labs_rerun.py (see
# above); find_notebooks() still lists them for the benchmark, which times the course as a
# learner runs it.
RERUN_ELSEWHERE = ("notebooks", "labs")
NOTEBOOKS = [p for p in find_notebooks() if p.relative_to(ROOT).parts[0] not in RERUN_ELSEWHERE]


def _shorten(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters)"


def run_notebook(path: Path):
    """Execute the notebook at `path`; return (executed_nb, failure_message or None)."""
    import nbformat
    from jupyter_client.kernelspec import NoSuchKernel
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    from traitlets.config import Config

    nb = nbformat.read(path, as_version=4)
    kernel_name = nb.metadata.get("kernelspec", {}).get("name") or "python3"

    config = Config()
    # ipykernel 7 warns about unencrypted TCP; "auto" encrypts when CurveZMQ is available.
    # nbclient builds its kernel manager with config=self.config, so this reaches it.
    config.KernelManager.transport_encryption = "auto"

    current = {"index": None}

    def on_cell_start(cell, cell_index):
        current["index"] = cell_index

    client = NotebookClient(
        nb,
        config=config,
        kernel_name=kernel_name,
        timeout=CELL_TIMEOUT,
        startup_timeout=60,
        # Tracebacks without ANSI escapes: readable in a pytest report and a CI log.
        extra_arguments=["--InteractiveShell.colors=nocolor"],
        resources={"metadata": {"path": str(path.parent)}},  # the kernel's cwd
        on_cell_start=on_cell_start,
    )
    use_own_connection_for_output_widgets(client)  # nbclient #312: see _support/output_widgets.py

    async def execute():
        # wait_for cancels async_execute on the deadline; nbclient's setup context manager
        # then shuts the kernel down in its `finally`.
        await asyncio.wait_for(client.async_execute(), NOTEBOOK_TIMEOUT)

    failure = None
    started = time.monotonic()
    try:
        asyncio.run(execute())
    except CellExecutionError as e:
        failure = ("error", e.ename, e.evalue, e.traceback)
    except CellTimeoutError as e:
        failure = ("timeout", "CellTimeoutError", f"a cell ran longer than {CELL_TIMEOUT} s", str(e))
    except (asyncio.TimeoutError, TimeoutError):
        failure = ("timeout", "TimeoutError", f"the notebook ran longer than {NOTEBOOK_TIMEOUT} s", "")
    except DeadKernelError as e:
        failure = ("dead", "DeadKernelError", str(e), "")
    except NoSuchKernel:
        failure = (
            "set-up",
            "NoSuchKernel",
            f"kernel {kernel_name!r} (notebook metadata) is not installed; `make setup` registers python3",
            "",
        )
        current["index"] = None

    if failure is None:
        return nb, None
    if failure[0] != "error" and time.monotonic() - started >= NOTEBOOK_TIMEOUT:
        # Cancelling on the notebook deadline kills the kernel, which nbclient may report as
        # DeadKernelError rather than our TimeoutError: name the real cause.
        failure = ("timeout", "TimeoutError", f"the notebook ran longer than {NOTEBOOK_TIMEOUT} s", "")

    kind, ename, evalue, detail = failure
    index = current["index"]
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    where = f" in cell {index}" if index is not None else ""
    lines = [f"{rel}: {kind}{where}: {ename}: {evalue}"]
    if index is not None:
        cell = nb.cells[index]
        lines += ["--- cell source ---", _shorten(cell.source)]
        streams = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
        if streams.strip():
            lines += ["--- cell output (last 20 lines) ---", *streams.rstrip().splitlines()[-20:]]
        tracebacks = [
            "\n".join(o.get("traceback", [])) for o in cell.get("outputs", []) if o.get("output_type") == "error"
        ]
        if tracebacks:
            # The kernel's own traceback (colours are off; strip any escapes a library added).
            lines += ["--- traceback ---", _shorten(ANSI.sub("", tracebacks[-1]), 4000)]
        elif detail:
            lines += ["--- details ---", _shorten(ANSI.sub("", detail), 4000)]
    elif detail:
        lines.append(_shorten(ANSI.sub("", detail), 4000))
    return nb, "\n".join(lines)


def _keep_failed_copy(path: Path, nb) -> Path | None:
    import nbformat

    try:
        rel = path.relative_to(ROOT)
    except ValueError:
        rel = Path(path.name)
    out = FAILED_COPIES / rel
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out)
    except OSError:
        return None
    return out


if NOTEBOOKS:

    @pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(ROOT).as_posix() for p in NOTEBOOKS])
    def test_notebook_runs(path: Path) -> None:
        nb, message = run_notebook(path)
        if message is not None:
            copy = _keep_failed_copy(path, nb)
            if copy is not None:
                message += f"\n(executed copy with outputs: {copy.relative_to(ROOT)})"
            # Outside any except block: pytest prints the message once, not a chained traceback.
            pytest.fail(message, pytrace=False)
