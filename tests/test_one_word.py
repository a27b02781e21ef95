"""One word per concept in mcp_lab/ (issue 39, point 2), read from the source with `ast`.

- an era is an `Era` (wire/revisions.py): no bare "modern"/"legacy" string outside its definition;
- one `era_of` in the package (the version's era); other questions get names that say what they
  return;
- one class per name: two classes called `Exchange` in two layers make every import a question.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mcp_lab"
ERA_WORDS = {"modern", "legacy"}
# Where an era may be written as a bare string, and why.
ERA_LITERAL_ALLOWED = {
    "wire/revisions.py": "the definition of Era itself",
}
SKIPPED = ("servers/reference",)  # third-party reference servers kept as published


def _modules(root: Path = PACKAGE) -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if not rel.startswith(SKIPPED) and "node_modules" not in path.parts:
            out.append((rel, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))))
    return out


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def bare_era_literals(root: Path = PACKAGE) -> list[str]:
    """`path:line` of every string constant that is exactly an era word, docstrings aside."""
    out = []
    for rel, tree in _modules(root):
        if rel in ERA_LITERAL_ALLOWED:
            continue
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in ERA_WORDS and id(node) not in docs:
                out.append(f"{rel}:{node.lineno} {node.value!r}")
    return out


def duplicated_class_names(root: Path = PACKAGE) -> dict[str, list[str]]:
    """Top-level class names defined in more than one module."""
    where: dict[str, list[str]] = defaultdict(list)
    for rel, tree in _modules(root):
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                where[node.name].append(rel)
    return {name: files for name, files in where.items() if len(files) > 1}


def functions_named(name: str, root: Path = PACKAGE) -> list[str]:
    return [
        f"{rel}:{node.lineno}"
        for rel, tree in _modules(root)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
    ]


def test_no_bare_era_literal():
    found = bare_era_literals()
    assert not found, "write Era.MODERN / Era.LEGACY (mcp_lab.wire.revisions.Era):\n" + "\n".join(found)


def test_every_allowed_file_exists():
    # An allow-list entry outliving its file would hide nothing, but would mislead the next reader.
    missing = [rel for rel in ERA_LITERAL_ALLOWED if not (PACKAGE / rel).is_file()]
    assert not missing, f"remove from ERA_LITERAL_ALLOWED: {missing}"


def test_no_class_name_defined_twice():
    dups = duplicated_class_names()
    assert not dups, "give each class a name that says what it is: " + "; ".join(
        f"{name} in {', '.join(files)}" for name, files in sorted(dups.items())
    )


def test_one_era_of():
    assert functions_named("era_of") == ["wire/revisions.py:" + str(_era_of_line())]


def _era_of_line() -> int:
    tree = ast.parse((PACKAGE / "wire/revisions.py").read_text(encoding="utf-8"))
    return next(n.lineno for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "era_of")


def test_era_of_returns_the_era_and_compares_as_its_string():
    from mcp_lab.wire.revisions import LATEST, LEGACY_VERSION, Era, era_of

    assert era_of(LATEST) is Era.MODERN and era_of(LEGACY_VERSION) is Era.LEGACY and era_of("1900-01-01") is None
    # The string values are what cassettes, JSON output and the notebooks compare against.
    assert Era.MODERN == "modern" and f"{Era.LEGACY}" == "legacy" and repr(Era.MODERN) == "'modern'"


def test_the_era_type_is_the_same_object_everywhere_it_is_offered():
    import mcp_lab
    from mcp_lab.wire import era, revisions

    assert mcp_lab.Era is era.Era is revisions.Era


@pytest.mark.parametrize(
    "source, expected",
    [
        ('ERA = "legacy"\n', ["m.py:1 'legacy'"]),
        ('def f():\n    """modern"""\n    return 1\n', []),  # a docstring is prose, not an era
        ("class A: ...\n", []),
    ],
)
def test_the_scan_sees_a_planted_literal(tmp_path, source, expected):
    (tmp_path / "m.py").write_text(source)
    assert bare_era_literals(tmp_path) == expected


def test_the_scan_sees_a_planted_duplicate(tmp_path):
    (tmp_path / "a.py").write_text("class Exchange: ...\n")
    (tmp_path / "b.py").write_text("class Exchange: ...\nclass Other: ...\n")
    assert duplicated_class_names(tmp_path) == {"Exchange": ["a.py", "b.py"]}
