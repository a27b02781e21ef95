"""The fast inner loop holds: `make check` runs the unit tests only, the reading that tells unit
from system tests finds a process starter however deep it is called, the guard refuses a process
a unit test starts, the type checker catches a planted type error, and the pre-commit hooks use
the project's own tools (nothing downloaded)."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
import yaml
from _support import ROOT, kinds


def _helper_that_starts_a_server():
    return subprocess.run([sys.executable, "-c", "pass"], check=False)


def _caller_of_the_helper():
    return _helper_that_starts_a_server()


def _talks_about_processes_only():
    """This docstring mentions subprocess and sys.executable, which start nothing."""
    # nor does a comment saying subprocess.Popen(...)
    return "connect"


def test_the_reading_finds_a_starter_through_the_functions_a_test_calls():
    scope = globals()  # looked up, not named: naming them would make this test read as a system test
    found = kinds._starter_in(scope["_caller_of_the_helper"], scope, kinds.DEPTH)
    assert found is not None and found.startswith("_helper_that_starts_a_server calls"), found
    assert kinds._starter_in(scope["_talks_about_processes_only"], scope, kinds.DEPTH) is None


class _UnmarkedItem:
    nodeid = "tests/planted.py::test_a_unit_test_that_starts_a_process"

    def get_closest_marker(self, name):
        return None


def test_the_guard_refuses_a_process_a_unit_test_starts():
    guard = kinds.ProcessGuard()
    guard.item = _UnmarkedItem()  # as pytest_runtest_protocol sets it
    try:
        # Hidden from the reading on purpose: only the guard can see this one.
        start = getattr(__import__("sub" + "process"), "Po" + "pen")
        with pytest.raises(RuntimeError, match="starts a process .* but is not marked system"):
            start(["true"])
    finally:
        guard.item = None


def test_make_check_is_make_lint_then_the_unit_tests():
    makefile = (ROOT / "Makefile").read_text()
    rule = makefile.split("\ncheck: ", 1)[1].split("\n\n", 1)[0]
    assert rule.startswith("lint\n") and '-m "not system"' in rule, rule
    lint = makefile.split("\nlint: ", 1)[1].split("\n\n", 1)[0]
    assert "mypy" in lint and "lint-imports" in lint and "ruff format --check" in lint, lint
    assert kinds.only_units(type("C", (), {"getoption": lambda self, name, default=None: "not system"})())


def test_the_type_checker_catches_a_planted_error(tmp_path):
    from mypy import api

    planted = tmp_path / "planted.py"
    planted.write_text("def count() -> int:\n    return 'three'\n")
    out, _, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-incremental", str(planted)])
    assert status == 1 and "planted.py:2: error: Incompatible return value type" in out, out


def test_the_type_checker_is_pinned_configured_and_the_package_says_it_is_typed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(d.startswith("mypy==") for d in project["project"]["optional-dependencies"]["dev"])
    assert {"mcp_lab/wire", "mcp_lab/transport", "mcp_lab/session"} <= set(project["tool"]["mypy"]["files"])
    assert (ROOT / "mcp_lab" / "py.typed").is_file()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["mcp_lab"]


def test_the_pre_commit_hooks_are_local_and_use_the_projects_tools():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert {repo["repo"] for repo in config["repos"]} == {"local"}, "a remote hook repo would be downloaded"
    assert {hook["language"] for hook in hooks} == {"system"}
    assert {hook["entry"].split()[0] for hook in hooks} == {".venv/bin/ruff", ".venv/bin/mypy"}


def _root_definitions(text: str) -> int:
    import re

    return len(re.findall(r"^ROOT\s*=", text, flags=re.M))


def test_one_root_for_the_whole_suite():
    """The repository's folder is named once (tests/_support); every test imports it."""
    defined = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").rglob("*.py")
        if _root_definitions(p.read_text(encoding="utf-8"))
    }
    assert defined == {"tests/_support/__init__.py"}, f"import ROOT from _support instead: {sorted(defined)}"
    assert _root_definitions("import x\nROOT = Path(__file__).parents[1]\n") == 1  # the count sees a definition
