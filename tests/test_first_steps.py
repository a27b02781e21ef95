"""A newcomer's first steps outside the happy path (README, Makefile, browser-test prerequisites)."""

from __future__ import annotations

import importlib.util
import subprocess

import pytest
from _support import ROOT


def test_the_docs_show_lab_args_and_the_conda_route_to_the_same_lab():
    # The README keeps the two commands; LAB_ARGS and conda are in docs/contributing.md since the split
    # (tests/test_documented_commands.py runs both forms).
    docs = "\n".join(p.read_text() for p in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))))
    assert "LAB_ARGS='--no-browser" in docs, "the docs should show LAB_ARGS (remote machine, another port)"
    assert 'make lab VENV="$CONDA_PREFIX"' in docs, "the conda route should reach the same `make lab`"


def test_make_lab_roots_at_the_repo_opens_00_and_turns_the_news_off():
    make = (ROOT / "Makefile").read_text()
    lab = make[make.index("\nlab: ") : make.index("\ntest: ")]
    assert "--ServerApp.root_dir=." in lab and "notebooks/00-start-here.ipynb" in lab and "$(LAB_ARGS)" in lab
    assert "$(LAB_SETTINGS)" in make.split("\nsetup:", 1)[1].splitlines()[0], "setup should install the Lab settings"
    import json

    overrides = json.loads((ROOT / "tools" / "lab-overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_make_setup_runs_the_same_steps_for_a_conda_prefix(tmp_path):
    """`make -n lab VENV=<prefix>`: kernels, npm, settings and the Lab, with the prefix's python."""
    prefix = tmp_path / "conda-env"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "python").symlink_to((ROOT / ".venv" / "bin" / "python").resolve())
    out = subprocess.run(["make", "-n", "lab", f"VENV={prefix}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    plan = out.stdout
    assert "-m venv" not in plan, "with VENV set to an existing environment, no .venv should be created"
    for step in (
        "ipykernel install --sys-prefix",
        "wire_kernel install --sys-prefix",
        "lab-overrides.json",
        f"{prefix}/bin/jupyter lab",
    ):
        assert step in plan, f"`make lab VENV=...` should run {step!r}; the plan was:\n{plan}"


def test_lab_databases_are_ignored_by_git():
    for path in (
        "labs/10-fix-the-calendar/calendar.sqlite3",
        "labs/10-fix-the-calendar/calendar.sqlite3.key",
        "labs/solutions/10-fix-the-calendar/calendar.sqlite3-wal",
    ):
        out = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, timeout=30)
        assert out.returncode == 0, f"{path} is not ignored by git; a lab's database must never be committed"


def _browser_conftest():
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_chromium_browser_tests_skip_saying_why_but_fail_under_ci(monkeypatch, tmp_path):
    conftest = _browser_conftest()
    monkeypatch.setattr(conftest, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs Debian's Chromium"):
        conftest._environment_check()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="needs Debian's Chromium"):
        conftest._environment_check()
