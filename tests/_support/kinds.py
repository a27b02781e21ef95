"""Unit tests and system tests, told apart by what a test starts.

Theory of operation
-------------------
A *system* test starts a process: a server, a Jupyter kernel, a browser, the hub, an install
(each of those is a child process).  A *unit* test starts none; `make check` runs only those
(`-m "not system"`), `make test` runs both.  No list of test ids says which is which:

* at collection, `mark_system(items)` reads what each test would run (its own source, the sources
  of the fixtures it uses, and of the functions of the repository those call, followed a few
  levels deep) and marks the test `system` when one of them calls a process starter (`STARTERS`:
  `subprocess`, `sys.executable`, `connect(`, a kernel or a browser, ...).  A test marked
  `browser`, `hub`, `offline` or `install` is a system test too, and a test may say
  `@pytest.mark.system` itself.
* when only unit tests run, `ProcessGuard` holds the mark to the truth: an audit hook
  (`sys.addaudithook`, events `subprocess.Popen`, `os.posix_spawn`, `os.fork`) refuses any process
  a test not marked `system` tries to start, naming the test and the command, so a reading that
  missed a starter fails loudly and is fixed by marking the test, never by a silent slow check.

A reading may also mark a test that starts nothing (it mentions `connect(` of an in-memory server,
say): that test only waits for `make test`.  The guard makes the other mistake impossible.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest

from _support import ROOT

SYSTEM_MARKERS = ("system", "browser", "hub", "offline", "install")
# A call that starts a process, directly or through the package's own starters.
STARTERS = re.compile(
    r"\b(subprocess|Popen|sys\.executable|os\.fork|multiprocessing|nbclient|NotebookClient|KernelManager"
    r"|playwright|jupyterhub|pytester|reference_argv|CALENDAR_ARGV|StdioTransport|ServerProcess)\b"
    r"|\b(spawn|connect|probe|serve|isolated|start_new_kernel|create_subprocess_exec)\s*\("
    r"|(%mcp connect)"  # the magic, in a cell a test runs
)
DEPTH = 6  # how many calls deep the reading follows the repository's own functions


def _source(obj: Any) -> str | None:
    """The source of a function of this repository (tests or mcp_lab), else None."""
    try:
        path = Path(inspect.getsourcefile(obj) or "").resolve()
        if ROOT not in path.parents or ".venv" in path.parts:
            return None
        return textwrap.dedent(inspect.getsource(obj))
    except (TypeError, OSError):
        return None


def _code(source: str) -> ast.AST | None:
    """The function's code without its comments and docstrings (a word in prose starts nothing)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            node.body[0] = ast.Pass()
    return tree


def _references(tree: ast.AST) -> set[tuple[str, ...]]:
    """Every name and dotted name the code reads (`helper`, `conformance.run`): called, or passed on."""
    refs: set[tuple[str, ...]] = set()
    for node in ast.walk(tree):
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.insert(0, node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            refs.add((node.id, *parts))
    return refs


OURS = ("mcp_lab", "_support", "fakes", "tests")  # the packages a reading follows into


def _ours(module_name: str) -> bool:
    return module_name.split(".")[0] in OURS


def _with_local_imports(tree: ast.AST, scope: dict[str, Any]) -> dict[str, Any]:
    """`scope` plus what the code imports inside itself (`from mcp_lab.__main__ import main`)."""
    local: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _ours(node.module):
            try:
                module = importlib.import_module(node.module)
            except Exception:  # noqa: BLE001 - a module that cannot be imported here starts nothing here
                continue
            for alias in node.names:
                local[alias.asname or alias.name] = getattr(module, alias.name, None)
    return {**scope, **local} if local else scope


def _resolve(ref: tuple[str, ...], scope: dict[str, Any]) -> tuple[Any, dict[str, Any]] | None:
    """The function or class of this repository a reference names, with the globals it reads."""
    obj: Any = scope.get(ref[0])
    for part in ref[1:]:
        if obj is None or isinstance(obj, types.ModuleType) and not _ours(obj.__name__):
            return None
        obj = getattr(obj, part, None)
    obj = inspect.unwrap(getattr(obj, "__func__", obj)) if callable(obj) else obj
    if getattr(obj, "__module__", None) == __name__:
        return None  # the reader itself names the starters it looks for; it starts none of them
    if isinstance(obj, types.FunctionType):
        return obj, obj.__globals__
    if isinstance(obj, type):
        module = sys.modules.get(obj.__module__)
        return obj, vars(module) if module else {}
    return None


# function -> (the depth it was read to, what it starts): parametrized tests share one reading, and
# a reading that stopped short is read again when a caller can follow it further.
_READINGS: dict[Any, tuple[int, str | None]] = {}


def _starter_in(obj: Any, scope: dict[str, Any], depth: int) -> str | None:
    key = getattr(obj, "__code__", None) or obj
    read_to, known = _READINGS.get(key, (-1, None))
    if known is not None or read_to >= depth:
        return known
    _READINGS[key] = (depth, None)  # a call cycle reads as "starts nothing" on the way round
    if isinstance(obj, type):  # a class: what its own methods start (its source whole is costly to find)
        methods = [m for m in vars(obj).values() if isinstance(m, types.FunctionType)]
        hit = next(filter(None, (_starter_in(m, m.__globals__, depth) for m in methods)), None)
        _READINGS[key] = (depth, hit)
        return hit
    source = _source(obj)
    tree = _code(source) if source is not None else None
    if tree is None:
        return None
    # The source first (cheap); the code without prose only when the source has a starter at all.
    found = STARTERS.search(ast.unparse(tree)) if STARTERS.search(source or "") else None
    hit = f"{getattr(obj, '__qualname__', obj)} calls {found.group(0).rstrip('(')}" if found else None
    scope = _with_local_imports(tree, scope) if hit is None and depth > 0 else scope
    for ref in sorted(_references(tree)) if hit is None and depth > 0 else ():
        target = _resolve(ref, scope)
        if target is not None:
            hit = _starter_in(target[0], target[1], depth - 1)
            if hit:
                break
    _READINGS[key] = (depth, hit)
    return hit


def what_it_starts(item: pytest.Item) -> str | None:
    """Why `item` is a system test (the first starter found), or None for a unit test."""
    for name in SYSTEM_MARKERS:
        if item.get_closest_marker(name):
            return f"marked {name}"
    function = getattr(item, "function", None)
    module_scope = vars(item.module) if getattr(item, "module", None) else {}
    if function is not None:
        hit = _starter_in(function, module_scope, DEPTH)
        if hit:
            return hit
    fixtureinfo = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        defs = fixtureinfo.name2fixturedefs.get(name) if fixtureinfo else None
        for fixturedef in defs or ():
            func = fixturedef.func
            hit = _starter_in(func, getattr(func, "__globals__", module_scope), DEPTH)
            if hit:
                return f"fixture {name}: {hit}"
    return None


def mark_system(items: list[pytest.Item]) -> None:
    """Add the `system` marker to every test that starts a process (see the module docstring)."""
    for item in items:
        why = what_it_starts(item)
        if why and not item.get_closest_marker("system"):
            item.add_marker(pytest.mark.system(why=why))


class ProcessGuard:
    """While only unit tests run: refuse, with one line, a process started by a test not marked system."""

    EVENTS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.fork", "os.forkpty"})

    def __init__(self) -> None:
        self.item: pytest.Item | None = None
        sys.addaudithook(self._audit)

    def _audit(self, event: str, args: tuple) -> None:
        item = self.item
        if item is None or event not in self.EVENTS or item.get_closest_marker("system"):
            return
        command = args[1] if event == "subprocess.Popen" and len(args) > 1 else args[:1]
        raise RuntimeError(
            f"{item.nodeid} starts a process ({event}: {str(command)[:120]}) but is not marked system: "
            "add @pytest.mark.system to it, or a starter to tests/_support/kinds.py STARTERS"
        )

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None):
        self.item = item
        try:
            yield
        finally:
            self.item = None


def only_units(config: pytest.Config) -> bool:
    """True when the run selects unit tests only (`-m "not system"`, as `make check` does)."""
    expr = (config.getoption("markexpr", "") or "").replace(" ", "")
    return "notsystem" in expr
