"""No import circle, in the package or in the bench, and no exception in the layer contract.

A circle is a set of modules each of which reaches the others by imports (a strongly connected
component of the import graph, with more than one module or a module importing itself).  Every
import counts, those under `if TYPE_CHECKING:` and those inside a function included: a lazy
import hides a circle from the interpreter, not from the reader.  The package's graph is grimp's
(the library import-linter is built on); the bench is a folder of scripts, read with ast.
`test_the_circle_finder_catches_a_planted_circle` shows each check failing on a circle planted
in a copy.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import grimp
from _support import ROOT


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of a graph {module: modules it imports}, each sorted (Tarjan's SCCs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def package_graph(package: str, where: Path) -> dict[str, set[str]]:
    sys.path.insert(0, str(where))
    try:
        graph = grimp.build_graph(package, cache_dir=None)
    finally:
        sys.path.remove(str(where))
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def script_graph(folder: Path) -> dict[str, set[str]]:
    """The imports between the scripts of one folder (each file a top-level module by its stem)."""
    names = {p.stem for p in folder.glob("*.py")}
    edges: dict[str, set[str]] = {n: set() for n in names}
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [node.module.split(".")[0]]
            else:
                continue
            edges[path.stem].update(t for t in targets if t in names)
    return edges


def _say(found: list[list[str]]) -> str:
    return "; ".join(" <-> ".join(c) for c in found)


def test_no_import_circle_in_the_package():
    found = circles(package_graph("mcp_lab", ROOT))
    assert not found, (
        f"import circles in mcp_lab: {_say(found)}; move what both sides need into a module of "
        "its own, or pass it in, so that one of the imports goes"
    )


def test_no_import_circle_in_the_bench():
    found = circles(script_graph(ROOT / "bench"))
    assert not found, f"import circles in bench/: {_say(found)}; shared helpers belong in bench/harness.py"


def test_the_layer_contract_declares_no_exception():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    assert contracts, "no import contract in pyproject.toml"
    excepted = {c["name"]: c["ignore_imports"] for c in contracts if c.get("ignore_imports")}
    assert not excepted, f"contracts with ignored imports: {excepted}"


def test_the_circle_finder_catches_a_planted_circle(tmp_path):
    pkg = tmp_path / "planted"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from planted.c import X\n")
    (pkg / "c.py").write_text("def f():\n    from planted import a\n")
    (pkg / "d.py").write_text("import planted.a\n")  # imports into the circle, not part of it
    assert circles(package_graph("planted", tmp_path)) == [["planted.a", "planted.b", "planted.c"]]

    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "main.py").write_text("import helper\nimport json\n")
    (scripts / "helper.py").write_text("from main import ROWS\n")
    (scripts / "alone.py").write_text("import helper\n")
    assert circles(script_graph(scripts)) == [["helper", "main"]]
    assert circles({"self": {"self"}, "x": set()}) == [["self"]]
