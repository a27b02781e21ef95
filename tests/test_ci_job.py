"""The CI job of docs/engineers.md, run as written (issue 38, point 9).

Its commands are read from the page itself (the YAML block that starts with
`# .github/workflows/mcp.yml`, and the shell block that makes the baseline and the cassette), so
the page and this test cannot drift apart.  In a temporary project folder, the set-up block runs
once against the correct server (the bundled calendar); then every `run:` step of the job runs
with bash, in order and each to its end (the job's `if: !cancelled()`), with `SERVER` set to
the correct calendar and then to a copy broken in two ways (tests/fakes/broken_calendar.py).
Steps that only exist on a CI runner are not run here: `uses:` actions, and `pip install`
(the package alone installed by pip in a fresh venv is tests/test_ci_install.py); `mcp-lab` is
this checkout's, and `mcp-lab conformance --install` finds the checkout's suite.

The correct server passes every step.  The broken one fails `check`, conformance and the replay,
each for its reasons: the -32002 error code and the stray stdout line, and nothing else.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from _support import ROOT

pytestmark = pytest.mark.system
DOC = ROOT / "docs" / "engineers.md"
CORRECT = f"{sys.executable} -m mcp_lab.servers.calendar"
BROKEN = f"{sys.executable} {ROOT / 'tests' / 'fakes' / 'broken_calendar.py'}"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)


def _job() -> tuple[dict, list[dict]]:
    block = next(b for b in _blocks("yaml") if b.startswith("# .github/workflows/mcp.yml"))
    workflow = yaml.safe_load(block)
    (job,) = workflow["jobs"].values()
    return job.get("env", {}), job["steps"]


def _setup_commands() -> str:
    block = next(b for b in _blocks("sh") if "--write-baseline tests/mcp/" in b)
    return "\n".join(line for line in block.splitlines() if not line.startswith("export SERVER="))


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A project folder with the committed files the job reads, and the environment the steps run in."""
    folder = tmp_path_factory.mktemp("engineer-project")
    shims = folder / ".bin"
    shims.mkdir()
    shim = shims / "mcp-lab"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mcp_lab "$@"\n')
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCP_LAB_WIRE_LOG", "PYTEST_", "PYTHONUNBUFFERED"))}
    env.update(PATH=f"{shims}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT), SERVER=CORRECT)
    done = subprocess.run(
        ["bash", "-e", "-c", _setup_commands()], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert (folder / "tests/mcp/session.jsonl").exists() and (folder / "tests/mcp/conformance-baseline.yaml").exists()
    return folder, env


def _run_job(folder: Path, env: dict[str, str], server: str) -> dict[str, subprocess.CompletedProcess]:
    job_env, steps = _job()
    env = {**env, **{k: str(v) for k, v in job_env.items()}, "SERVER": server}
    (folder / "reports").mkdir(exist_ok=True)
    for old in (folder / "reports").iterdir():
        old.unlink()
    ran = {}
    for step in steps:
        command = step.get("run")
        if command is None or command.startswith("pip install"):
            continue  # an action of the runner, or the pip install (tests/test_ci_install.py)
        ran[command] = subprocess.run(
            ["bash", "-e", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=300
        )
    return ran


GATES = {
    "install": "mcp-lab conformance --install",
    "check": "mcp-lab check ",
    "conformance": "mcp-lab conformance --stdio ",
    "replay": "mcp-lab replay ",
}


def _by_gate(ran: dict[str, subprocess.CompletedProcess]) -> dict[str, subprocess.CompletedProcess]:
    """The job's steps by what they run (each gate is exactly one step)."""

    def one(start: str) -> subprocess.CompletedProcess:
        (command,) = [c for c in ran if c.startswith(start)]
        return ran[command]

    assert len(ran) == len(GATES), list(ran)  # a step added to the page is a step this test must judge
    return {g: one(start) for g, start in GATES.items()}


def _failures(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [f"{c.get('classname')}::{c.get('name')}" for c in root.iter("testcase") if c.find("failure") is not None]


def test_the_job_passes_a_correct_server(project):
    folder, env = project
    started = time.monotonic()
    gates = _by_gate(_run_job(folder, env, CORRECT))
    print(f"\nCI job on the correct calendar: {time.monotonic() - started:.1f} s")
    for name, done in gates.items():
        assert done.returncode == 0, (name, done.stdout[-2000:], done.stderr[-2000:])
    assert _failures(folder / "reports/conformance.xml") == []
    assert _failures(folder / "reports/replay.xml") == []


def test_the_job_fails_a_broken_server_for_its_reasons(project):
    folder, env = project
    started = time.monotonic()
    gates = _by_gate(_run_job(folder, env, BROKEN))
    print(f"\nCI job on the broken calendar: {time.monotonic() - started:.1f} s")
    assert gates["install"].returncode == 0, gates["install"].stderr

    check = gates["check"]
    assert check.returncode == 1, (check.stdout, check.stderr)
    defects = [line.split()[1] for line in check.stdout.splitlines() if line.startswith("✗")]
    assert sorted(defects) == ["error-code", "framing"], check.stdout
    assert "-32002" in check.stdout and "calendar: starting up (debug)" not in check.stderr

    conformance = gates["conformance"]
    assert conformance.returncode == 1, (conformance.stdout[-2000:], conformance.stderr)
    assert sorted(_failures(folder / "reports/conformance.xml")) == [
        "conformance.mcp-lab-stdio-framing::stdout-carries-only-mcp-messages",
        "conformance.sep-2164-resource-not-found::sep-2164-error-code",
    ], conformance.stdout[:3000]

    replay = gates["replay"]
    assert replay.returncode == 1, (replay.stdout, replay.stderr)
    changed = _failures(folder / "reports/replay.xml")
    assert len(changed) == 1 and "resources/read" in changed[0], changed
    assert "-32002" in replay.stdout and "-32602" in replay.stdout, replay.stdout
