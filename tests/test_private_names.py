"""No module of the package imports another module's private name (`from x import _name`).

A leading underscore says "this module's own business": a name another module needs is made
public (in the defining module's `__all__`) or the need is removed. Issue 39 found the HTTP probe
subclassing the stdio probe's `_Reasoning`; it is `mcp_lab.session.verdict.Reasoning` now.
Lazy imports inside functions count too. The scan is of the source (ast), so it costs no import.
"""

from __future__ import annotations

import ast
from pathlib import Path

from _support import ROOT

PACKAGE = ROOT / "mcp_lab"

# (importing module, defining module, name): why the import stays.
ALLOWED = {
    # gettext's convention: `_` is the message lookup every layer calls; it is public
    # (mcp_lab.wire.words.__all__), its underscore is the extractor's keyword, not privacy.
    ("*", "mcp_lab.wire.words", "_"): "gettext's lookup",
    # The tokens package hands its tests the pinned encodings' table and file paths (tampering
    # tests); the package re-exports its own submodule's names, no other layer reads them.
    ("mcp_lab/tokens/__init__.py", "mcp_lab.tokens.encodings", "_SPECS"): "tests' handle on the pins",
    ("mcp_lab/tokens/__init__.py", "mcp_lab.tokens.encodings", "_packaged_path"): "tests' handle on the pins",
}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _private_imports(path: Path, root: Path = ROOT) -> list[tuple[str, str, int]]:
    """(defining module, name, line) for each `from ... import _name` in `path`."""
    here = _module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        if not module.startswith("mcp_lab"):
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append((module, alias.name, node.lineno))
    return found


def test_no_module_imports_another_modules_private_name():
    offenders = []
    for path in sorted(p for p in PACKAGE.rglob("*.py") if "node_modules" not in p.parts):
        rel = str(path.relative_to(ROOT))
        for module, name, line in _private_imports(path):
            if (rel, module, name) in ALLOWED or ("*", module, name) in ALLOWED:
                continue
            offenders.append(f"{rel}:{line}: from {module} import {name}")
    assert not offenders, "private names imported across modules (make them public, or list why):\n" + "\n".join(
        offenders
    )


def test_the_scan_finds_a_planted_private_import(tmp_path):
    planted = tmp_path / "mcp_lab" / "session" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text("def f():\n    from .probe import _key\n    from mcp_lab.wire.words import _\n")
    found = _private_imports(planted, tmp_path)
    assert found == [("mcp_lab.session.probe", "_key", 2), ("mcp_lab.wire.words", "_", 3)]
