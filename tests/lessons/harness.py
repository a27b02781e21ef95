"""The lessons' harness, test side: a lesson run by nbclient with a test-learner beside it.

The notebook a learner opens is the lesson alone; everything a test needs lives here:

- `tests/lessons/answers/<notebook stem>.py` (loaded by path: stems have dashes) defines
  `ANSWERS = {key: value}` (what the test-learner answers per interaction; quiz questions default
  to their right answer), optionally `EDITS = {cell_id: "new source"}` (what the test-learner
  types into a cell before the run: a challenge's message, a lab's exercise) and
  `AFTER = {cell_id: "code"}` (code run right after that cell and its answers, to read a widget's
  state and assert the effect of an answer);
- `Lesson.execute(client, cell, index)` runs a cell, then a hidden cell (never added to the
  notebook) that answers the interactions now pending through their own widgets
  (tests/lessons/answering.py), then the cell's AFTER code;
- `Lesson.finish(client)` checks that nothing is left pending, naming the key and the file.

tests/test_rerun.py (course notebooks) and tests/test_labs_rerun.py (labs) drive it.
"""

from __future__ import annotations

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANSWERS_DIR = HERE / "answers"
KERNEL_SIDE = HERE / "answering.py"


class Lesson:
    """One notebook or lab, with its answers file (which may not exist: then nothing may wait)."""

    def __init__(self, path: Path, answers_dir: Path = ANSWERS_DIR):
        self.path = Path(path)
        self.answers_file = Path(answers_dir) / f"{self.path.stem}.py"
        spec = runpy.run_path(str(self.answers_file)) if self.answers_file.exists() else {}
        self.answers: dict = dict(spec.get("ANSWERS", {}))
        self.edits: dict = dict(spec.get("EDITS", {}))
        self.after: dict = dict(spec.get("AFTER", {}))
        self._runs = 0

    def prepare(self, nb, edition: bool = False) -> None:
        """Apply EDITS to the notebook's cells (by cell id); an unknown id is an error.  With
        `edition`, `nb` is the Portuguese copy (notebooks/pt-BR/): the edits' relative paths are
        aimed from its folder, as the build aims the copy's own code."""
        ids = {c.get("id") for c in nb.cells}
        unknown = sorted(set(self.edits) - ids) + sorted(set(self.after) - ids)
        if unknown:
            raise LookupError(f"{self.answers_file.name}: no cell with id {', '.join(unknown)} in {self.path.name}")
        for cell in nb.cells:
            if cell.get("id") in self.edits:
                cell.source = self.edits[cell.id]
                if edition:
                    from mcp_lab.course.translate import reaim_code

                    cell.source = reaim_code(cell.source, self.path)
        # A notebook on a kernel that is not Python (04b's MCP wire kernel: every cell is one
        # JSON-RPC message) has no registry to answer: it gets its EDITS and no hidden cells.
        language = nb.metadata.get("kernelspec", {}).get("language", "python")
        self.python = language == "python"

    def _where(self, index: int, cell) -> str:
        return f"{self.path.name} cell {index} (id {cell.get('id')})"

    def _hidden(self, source: str):
        import nbformat

        self._runs += 1  # a distinct source per run: the kernel tells re-runs of a cell by it
        return nbformat.v4.new_code_cell(f"# lesson harness, run {self._runs}\n{source}")

    def _answer_source(self, where: str, final: bool = False) -> str:
        return (
            f"__import__('runpy').run_path({str(KERNEL_SIDE)!r})['answer_pending']"
            f"({str(self.answers_file)!r}, {where!r}, final={final})"
        )

    async def _run_hidden(self, client, source: str, index: int) -> None:
        if not getattr(self, "python", True):
            return
        # nbclient stores the cell it ran at nb.cells[index]: put the lesson's own cell back.
        original = client.nb.cells[index]
        try:
            await client.async_execute_cell(self._hidden(source), index)
        finally:
            client.nb.cells[index] = original

    async def execute(self, client, cell, index: int) -> None:
        """The cell, then the test-learner's answers, then the cell's AFTER code."""
        await client.async_execute_cell(cell, index)
        await self._run_hidden(client, self._answer_source(self._where(index, cell)), index)
        if cell.get("id") in self.after:
            await self._run_hidden(client, self.after[cell.id], index)

    async def finish(self, client) -> None:
        """Nothing may be left pending at the end of the run."""
        source = self._answer_source(f"{self.path.name} (end of the run)", final=True)
        await self._run_hidden(client, source, len(client.nb.cells) - 1)
