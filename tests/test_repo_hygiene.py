"""Notebooks enter git with outputs cleared: no outputs, no execution counts, no widget state.

Executed notebooks are noise in a diff and leak one machine's run (paths, timings, nbclient's
`metadata.widgets` with final widget values) into the course. The files checked are the ones
git would commit: tracked plus untracked-but-not-ignored (`git ls-files -co --exclude-standard`),
so a notebook saved with outputs fails here before it is committed. Outside a git checkout every
notebook in the tree is checked.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from _support import ROOT  # noqa: E402

SKIP_PARTS = {".venv", "node_modules", ".ipynb_checkpoints", "test-output", "build"}


def committable_notebooks(root: Path = ROOT) -> list[Path]:
    git = shutil.which("git")
    if git and (root / ".git").exists():
        done = subprocess.run(
            [git, "ls-files", "-co", "--exclude-standard", "-z", "--", "*.ipynb"],
            cwd=root,
            capture_output=True,
            timeout=30,
        )
        if done.returncode == 0:
            names = [n for n in done.stdout.decode().split("\0") if n]
            return sorted(root / n for n in names if (root / n).is_file())
    return sorted(p for p in root.rglob("*.ipynb") if not SKIP_PARTS.intersection(p.parts))


def problems(nb: dict) -> list[str]:
    found = []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("outputs"):
            found.append(f"cell {index} has {len(cell['outputs'])} output(s)")
        if cell.get("execution_count") is not None:
            found.append(f"cell {index} has execution_count {cell['execution_count']}")
    if "widgets" in nb.get("metadata", {}):
        found.append("metadata.widgets holds saved widget state")
    return found


NOTEBOOKS = committable_notebooks()

if NOTEBOOKS:

    @pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(ROOT).as_posix() for p in NOTEBOOKS])
    def test_notebook_is_committed_clean(path: Path) -> None:
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            nb, message = None, f"{path.relative_to(ROOT)} is not a readable notebook: {e}"
        else:
            found = problems(nb)
            message = None
            if found:
                message = (
                    f"{path.relative_to(ROOT)} is not cleared: "
                    + "; ".join(found[:5])
                    + ("; ..." if len(found) > 5 else "")
                    + "\n  fix: Lab's Edit > Clear Outputs of All Cells, then save, or: "
                    "jupyter nbconvert --clear-output --inplace " + str(path.relative_to(ROOT))
                )
        if message:
            pytest.fail(message, pytrace=False)
