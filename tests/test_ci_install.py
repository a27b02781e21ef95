"""An engineer's CI install: `pip install .` alone, no course extra, in a fresh venv.

The package is installed (from this checkout, with pytest beside it, through the machine's
configured package index) into a new virtual environment; then `mcp-lab probe calendar` runs
from the console script, and the packaged pytest plugin runs a tiny test file of the
engineer's.  Neither JupyterLab nor the tokenizers are installed, and what needs them says
which extra to install.  The venv's size is printed (about 90 MB here, where the course's
set-up is about 680 MB).  Select with `-m install`; leave out with `-m "not install"`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _support import ROOT

pytestmark = pytest.mark.install


MINE = """
import pytest


@pytest.mark.mcp_server("calendar")
def test_the_calendar_lists_its_tool(mcp_client):
    tools = mcp_client.request("tools/list").result["tools"]
    assert [t["name"] for t in tools] == ["create_event"]
"""


def _run(argv, **kw):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCP_LAB_WIRE_LOG", "PYTEST_", "VIRTUAL_ENV"))}
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env, stdin=subprocess.DEVNULL, **kw)


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file() and not f.is_symlink())


def test_the_package_without_extras_runs_the_cli_and_the_plugin(tmp_path):
    venv = tmp_path / "ci"
    made = _run([sys.executable, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stderr
    py, bindir = venv / "bin" / "python", venv / "bin"
    install = _run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT), "pytest"])
    assert install.returncode == 0, install.stderr[-3000:]
    for absent in ("jupyterlab", "ipywidgets", "nbclient", "ipykernel", "playwright", "tiktoken"):
        found = _run([str(py), "-c", f"import importlib.util as u; print(u.find_spec({absent!r}) is not None)"])
        assert found.stdout.strip() == "False", f"{absent} was installed without the course extra"

    probe = _run([str(bindir / "mcp-lab"), "probe", "calendar"], cwd=tmp_path)
    assert probe.returncode == 0 and "calendar: modern era, 2026-07-28" in probe.stdout, probe.stdout + probe.stderr
    cost = _run([str(bindir / "mcp-lab"), "cost", "calendar"], cwd=tmp_path)
    assert cost.returncode == 2 and "pip install 'mcp_lab[course]'" in cost.stderr and "\n" not in cost.stderr.strip()

    (tmp_path / "test_mine.py").write_text(MINE)
    argv = [str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--mcp-lab-wire-check", "test_mine.py"]
    tests = _run(argv, cwd=tmp_path)
    out = tests.stdout + tests.stderr
    assert tests.returncode == 0 and "1 passed" in out, out[-3000:]
    assert "wire check: " in out and "none invalid" in out, out[-3000:]
    print(f"\nthe CI install without extras: {_size(venv) / 1e6:.0f} MB")
