"""The classroom bundle: `make wheelhouse`, then `make setup OFFLINE=...` with no network.

Builds the bundle from this checkout, copies the checkout as git would commit it (tracked and
untracked-but-not-ignored files, so uncommitted work is what gets tested) into a fresh folder,
and runs `make setup OFFLINE=bundle` there with every package index unreachable: pip's index is a
closed 127.0.0.1 port and its machine-wide configuration (extra indexes, find-links) is switched
off; npm and any HTTP client go through a proxy on a closed port.  (npm keeps its default
registry: the bundled cache is keyed by the registry's URLs, as it would be on the room's
machine.)  Then one notebook that drives the pinned Node reference server runs in the copy, and
the browser edition's site is built there from the same bundle (`make lite OFFLINE=`).
Slow (about a minute): select with `-m offline`, leave out with `-m "not offline"`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from _support import ROOT
from _support.hub import free_ports

pytestmark = pytest.mark.offline

DEADLINE = 600


def _run(argv: list[str], cwd: Path, env: dict | None = None, timeout: float = DEADLINE) -> str:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if done.returncode != 0:
        pytest.fail(
            f"`{' '.join(argv)}` in {cwd} exited {done.returncode}:\n{(done.stdout + done.stderr)[-3000:]}",
            pytrace=False,
        )
    return done.stdout


def _copy_checkout(dest: Path) -> None:
    names = _run(["git", "ls-files", "-co", "--exclude-standard", "-z"], ROOT).split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _no_network_env() -> dict:
    closed = f"http://127.0.0.1:{free_ports(1)[0]}"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith(("PIP_", "NPM_CONFIG_")) and k not in ("MAKEFLAGS", "MFLAGS")
    }
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_INDEX_URL=f"{closed}/simple",
        npm_config_proxy=closed,
        npm_config_https_proxy=closed,
        HTTP_PROXY=closed,
        HTTPS_PROXY=closed,
        http_proxy=closed,
        https_proxy=closed,
        NO_PROXY="",
        no_proxy="",
    )
    return env


@pytest.mark.wire_deliberate(
    server_legacy_answer="the pinned legacy reference server answers a modern request in its own era"
)
def test_a_fresh_checkout_installs_from_the_bundle_offline(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("this test copies the checkout with git: run it in a git checkout", pytrace=False)
    bundle, clone = tmp_path / "bundle", tmp_path / "clone"
    _run(["make", "--no-print-directory", "wheelhouse", f"BUNDLE={bundle}"], ROOT)
    install = (bundle / "INSTALL.txt").read_text(encoding="utf-8")
    assert "make setup OFFLINE=" in install and "cp3" in install, install
    assert len(list((bundle / "wheels").glob("*.whl"))) > 50, "the bundle holds too few wheels"
    # The browser edition's inputs (make lite OFFLINE=): its Pyodide wheels, the npm Pyodide core.
    held = {w.name.split("-")[0].lower().replace("_", "-") for w in (bundle / "wheels").glob("*.whl")}
    pins = [ln.split("==")[0] for ln in (ROOT / "lite" / "wheels.in").read_text().splitlines() if "==" in ln]
    missing = [p for p in pins if p.lower().replace("_", "-") not in held]
    assert not missing, (
        f"the bundle lacks the browser edition's wheels {missing}: make wheelhouse must add lite/wheels.in"
    )
    assert any((bundle / "wheels").glob("pydantic_core-*pyemscripten*.whl")), "no Pyodide build of pydantic-core"
    assert "  - lite\n" in install, "the bundle's npm cache must hold lite/ (the Pyodide core)"

    _copy_checkout(clone)
    env = _no_network_env()
    _run(["make", "--no-print-directory", "setup", f"OFFLINE={bundle}"], clone, env)

    py = clone / ".venv" / "bin" / "python"
    _run([str(py), "-c", "import jupyterhub, nbgrader, mcp_lab"], clone, env, timeout=120)
    proxy = clone / "classroom" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
    assert _run([str(proxy), "--version"], clone, env, timeout=60).strip().startswith("5.3.")
    notebook = sorted((clone / "notebooks").glob("*probe-then-fallback.ipynb"))
    assert len(notebook) == 1, f"expected one probe-then-fallback notebook, found {notebook}"
    _run(
        [
            str(clone / ".venv" / "bin" / "jupyter"),
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--ExecutePreprocessor.timeout=120",
            "--output-dir",
            str(tmp_path / "out"),
            str(notebook[0]),
        ],
        notebook[0].parent,
        env,
        timeout=300,
    )

    # The browser edition from the same bundle, still with no network: its build tools, its
    # Pyodide wheels and the npm Pyodide core all come from the bundle.
    _run(["make", "--no-print-directory", "lite", f"OFFLINE={bundle}"], clone, env)
    site = clone / "build" / "lite"
    assert (site / "lab" / "index.html").is_file(), "make lite OFFLINE= wrote no site (no lab/index.html)"
    assert (site / "static" / "pyodide" / "pyodide.asm.wasm").is_file(), "the site holds no Pyodide core"
    assert list(site.rglob("pydantic_core-*.whl")), "the site holds no Pyodide build of pydantic-core"
