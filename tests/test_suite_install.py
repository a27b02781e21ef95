"""The conformance suite where a pip user can have it (issue 38, point 7).

A pip install is simulated without a mock: the package's files are copied, as pip would lay them
out in site-packages (no Makefile beside them, no node_modules), into a temporary folder that is
put first on PYTHONPATH; `$XDG_CACHE_HOME` points at an empty temporary cache.  Then the real
commands run: the message names `mcp-lab conformance --install` (never `make setup`, never npm
inside site-packages); `--install` runs the real `npm ci` of the shipped lock (from npm's own
cache when the packages are there, else from the registry); a conformance run of one scenario
against the bundled calendar then passes (this copy has no other suite to use); `--uninstall`
removes the folder, and the message is back.  Install size and time are printed (`-s`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _support import ROOT

pytestmark = pytest.mark.system
INSTALL_MESSAGE = "run `mcp-lab conformance --install`"


@pytest.fixture
def pip_site(tmp_path: Path) -> dict[str, str]:
    """The environment of a pip user: this package copied as site-packages holds it, an empty
    per-user cache."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "mcp_lab", site / "mcp_lab", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    (tmp_path / "cache").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCP_LAB_WIRE_LOG", "PYTEST_"))}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp_path / "cache"))
    return env


def _mcp_lab(env: dict[str, str], cwd: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mcp_lab", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_a_pip_install_without_the_suite_is_told_the_install_command(pip_site, tmp_path):
    imported = subprocess.run(
        [sys.executable, "-c", "import mcp_lab; print(mcp_lab.__file__)"],
        capture_output=True,
        text=True,
        env=pip_site,
        cwd=tmp_path,
        timeout=60,
    ).stdout.strip()
    assert imported.startswith(str(tmp_path / "site")), imported
    done = _mcp_lab(pip_site, tmp_path, "conformance", "calendar", "--scenario", "tools-list")
    err = done.stderr.strip()
    assert done.returncode == 2 and "\n" not in err and "Traceback" not in err, err
    assert INSTALL_MESSAGE in err and str(tmp_path / "cache" / "mcp_lab") in err, err
    assert "make setup" not in err and "npm ci in" not in err, err


def test_install_then_the_runner_uses_it_then_uninstall_removes_it(pip_site, tmp_path):
    started = time.monotonic()
    done = _mcp_lab(pip_site, tmp_path, "conformance", "--install", timeout=660)
    seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("mcp-lab conformance: installing the conformance suite"), lines  # the progress line
    assert "installed the conformance suite" in lines[-1] and "--uninstall" in lines[-1], lines
    folder = tmp_path / "cache" / "mcp_lab" / "conformance-0.2.0-alpha.12"
    assert (folder / "node_modules" / "node" / "bin" / "node").exists()
    assert not list(folder.parent.glob("*.partial-*")), "an install left its partial folder"
    assert not (tmp_path / "site" / "mcp_lab" / "conformance" / "suite" / "node_modules").exists()
    size = int(subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True).stdout.split()[0])
    print(f"\nsuite install for a pip user: {size / 1024:.0f} MB in {seconds:.1f} s ({lines[-1]})")

    again = _mcp_lab(pip_site, tmp_path, "conformance", "--install")
    assert again.returncode == 0 and "already installed in" in again.stderr and str(folder) in again.stderr

    run = _mcp_lab(pip_site, tmp_path, "conformance", "calendar", "--scenario", "tools-list", "--json")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    checks = [c for c in result["checks"] if c["scenario"] == "tools-list"]
    assert checks and all(c["status"] in ("SUCCESS", "INFO") for c in checks), checks
    gone = _mcp_lab(pip_site, tmp_path, "conformance", "--uninstall")
    assert gone.returncode == 0 and f"removed {folder}" in gone.stderr, gone.stderr
    assert not folder.exists()
    after = _mcp_lab(pip_site, tmp_path, "conformance", "calendar", "--scenario", "tools-list")
    assert after.returncode == 2 and INSTALL_MESSAGE in after.stderr, after.stderr


def test_no_npm_and_no_network_are_one_line_each(pip_site, tmp_path):
    no_npm = {**pip_site, "PATH": str(tmp_path / "cache")}  # an empty folder: no npm on PATH
    done = _mcp_lab(no_npm, tmp_path, "conformance", "--install")
    err = done.stderr.strip()
    assert done.returncode == 2 and err == (
        "mcp-lab conformance: npm is not on PATH: install Node.js 20 or later (it brings npm), "
        "then run `mcp-lab conformance --install` again"
    ), err

    # No network: an empty npm cache and a registry where nothing listens (port 9, discard).
    (tmp_path / "npm-cache").mkdir()
    offline = {
        **pip_site,
        "npm_config_cache": str(tmp_path / "npm-cache"),
        "npm_config_registry": "http://127.0.0.1:9/",
        "npm_config_fetch_retries": "0",
    }
    done = _mcp_lab(offline, tmp_path, "conformance", "--install", timeout=120)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "npm could not reach its registry (ECONNREFUSED)" in last and "--install" in last, last
    assert not any((tmp_path / "cache" / "mcp_lab").glob("conformance-*")), "a failed install left a folder"


def test_uninstall_leaves_a_checkouts_own_suite(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "mcp_lab", "conformance", "--uninstall"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0 and "nothing to remove" in done.stderr, done.stderr
    assert (ROOT / "mcp_lab" / "conformance" / "suite" / "package-lock.json").exists()
