"""The package's layers hold: no module imports the facade, the import contract is enforced, and
no machine path is committed anywhere.

The layer rules themselves live in `pyproject.toml` ([tool.importlinter]); `make test` runs
`lint-imports` before pytest. `test_a_forbidden_import_is_caught` shows the contract is not a
formality: the same contract, run on a copy of the package with one import against the layers
planted, fails and names it.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _support import ROOT

PACKAGE = ROOT / "mcp_lab"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _package_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "node_modules" not in p.parts)


def _facade_imports(path: Path) -> list[str]:
    """`import mcp_lab` / `from mcp_lab import x` / `from .. import x` reaching the root package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    depth = len(path.relative_to(ROOT).parts) - 1  # mcp_lab/wire/x.py -> 2 (package levels)
    if path.name == "__init__.py":
        depth -= 1
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "mcp_lab" for a in node.names):
            found.append(f"line {node.lineno}: import mcp_lab")
        elif isinstance(node, ast.ImportFrom):
            if (node.level == 0 and node.module == "mcp_lab") or (
                node.level and node.level == depth and not node.module
            ):
                found.append(f"line {node.lineno}: from {'.' * node.level}{node.module or ''} import ...")
    return found


def test_no_module_inside_the_package_imports_the_package_facade():
    offenders = {
        str(p.relative_to(ROOT)): hits
        for p in _package_modules()
        if p != PACKAGE / "__init__.py" and (hits := _facade_imports(p))
    }
    assert not offenders, (
        f"modules importing the facade mcp_lab/__init__.py: {offenders}; import the module that "
        "defines the name (e.g. `from mcp_lab.session.connect import connect`), so the facade "
        "stays the top of the graph and `import mcp_lab` stays cheap"
    )


def _committed_text_files() -> list[Path]:
    done = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, timeout=30
    )
    if done.returncode != 0:
        pytest.skip(f"not a git checkout ({done.stderr.decode(errors='replace').strip()}): nothing to list")
    names = [n for n in done.stdout.decode().split("\0") if n and not n.endswith("package-lock.json")]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


# An absolute path of one machine: a home, the course machines' /work, a temporary folder.  The
# learner image's own home (`/home/jovyan`, the user the image makes) is a path inside the
# container, the same wherever it runs, not one machine's.
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|tmp|home/(?!jovyan/)\w+|Users/\w+|root)/[\w.-]+")


def test_no_machine_path_anywhere_in_the_repository():
    hits = []
    for path in _committed_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not hits, (
        "paths of one machine are committed (they mean nothing on a fresh clone); use a path relative "
        "to the repository or a public URL:\n  " + "\n  ".join(hits[:20])
    )


def test_the_machine_path_pattern_catches_what_it_is_for():
    # The planted paths are built, not written out, so this file holds no machine path itself.
    work, tmp = "/" + "work", "/" + "tmp"
    assert MACHINE_PATH.search(f"see {work}/shared/spec/DIGEST.md")
    assert MACHINE_PATH.search(f'open("{tmp}/pytest-of-root/x")')
    assert not MACHINE_PATH.search(f"https://example.org{work}/x and tests/tmp_path")


def _contract_run(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "PYTHONPATH": str(root)},
    )


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory) -> Path:
    if not LINT_IMPORTS.exists():
        pytest.fail(f"lint-imports is not installed beside {sys.executable}; run `make setup`")
    root = tmp_path_factory.mktemp("layers")
    shutil.copytree(PACKAGE, root / "mcp_lab", ignore=shutil.ignore_patterns("node_modules", "__pycache__", "*.mjs"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_layer_contract_holds_on_a_clean_copy(package_copy):
    out = _contract_run(package_copy)
    assert out.returncode == 0, (
        f"the contract is broken on the package as committed:\n{out.stdout[-3000:]}{out.stderr[-2000:]}"
    )


@pytest.mark.parametrize(
    "module, planted, contract",
    [
        ("wire/revisions.py", "from mcp_lab.session import client as _upward  # planted", "Layers"),
        ("servers/notes.py", "import mcp_lab.transport.stdio as _upward  # planted", "Layers"),
        ("session/client.py", "import ipywidgets as _heavy  # planted", "No Jupyter or tokenizer"),
        ("conformance/results.py", "from mcp_lab.course import _check as _sideways  # planted", "Layers"),
        ("conformance_client.py", "from mcp_lab.notebook import quiz as _up  # planted", "The conformance driver"),
    ],
)
def test_a_forbidden_import_is_caught(package_copy, module, planted, contract):
    target = package_copy / "mcp_lab" / module
    original = target.read_text(encoding="utf-8")
    target.write_text(original + "\n" + planted + "\n", encoding="utf-8")
    try:
        out = _contract_run(package_copy)
    finally:
        target.write_text(original, encoding="utf-8")
    report = out.stdout + out.stderr
    assert out.returncode != 0, f"lint-imports passed with {planted!r} planted in {module}:\n{report[-2000:]}"
    broken = [line for line in report.splitlines() if line.startswith(contract) or "BROKEN" in line]
    assert any("BROKEN" in line for line in broken), f"expected the {contract!r} contract BROKEN:\n{report[-2000:]}"
