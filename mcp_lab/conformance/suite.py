"""The pinned official conformance suite: where it is, and one run of it under a deadline.

Theory of operation.  `make setup` installs `@modelcontextprotocol/conformance` and the
Node 22 it needs (the `node` npm package) into `mcp_lab/conformance/suite/` from a committed
lock, so a run needs no network; a pip install gets the same from `mcp-lab conformance
--install`, in a per-user cache (`install`).  The checkout's folder is looked at first, then
that cache.  `run_suite(args, ...)` starts
`<node 22> <suite>/dist/index.js ARGS` in a process group of its own, with the pinned Node
first on PATH (the suite starts the client under test with whatever `node`/`npx` it finds),
reads its stdout line by line, and keeps a deadline that restarts whenever the suite
announces the next scenario ("=== Running scenario: X ===").  The suite has its own
per-scenario timeout (`--timeout`); this deadline is the one above it, for a suite that hangs
itself: the whole group is killed and the run says which scenario it was in.  Every exit path
reaps the group.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from mcp_lab.transport.process import reap, spawn

__all__ = ["SUITE_DIR", "SUITE_PACKAGE", "SuiteNotInstalled", "SuiteRun", "suite_paths", "run_suite", "requirement_set"]

SUITE_DIR = Path(__file__).resolve().parent / "suite"
SUITE_PACKAGE = "@modelcontextprotocol/conformance@0.2.0-alpha.12"
_SCENARIO_LINE = re.compile(r"^=== Running scenario: (\S+) ===|^Starting scenario: (\S+)")


class SuiteNotInstalled(FileNotFoundError):
    """The pinned suite or its Node 22 is missing; the message says what installs it (`make setup`
    in a checkout, `mcp-lab conformance --install` anywhere)."""


def suite_paths() -> tuple[Path, Path]:
    """(node 22 binary, the suite's CLI script), or SuiteNotInstalled with what to do."""
    from . import install

    folder = install.find()
    if folder is None:
        raise SuiteNotInstalled(install.not_installed_message())
    return install.parts(folder)


def requirement_set(revision: str) -> dict:
    """The suite's frozen requirement set for a revision: {"server": [...], "client": [...],
    "not_scored": [{"scenario", "leg", "reason", "note"}]}."""
    import yaml

    _, cli = suite_paths()
    path = cli.parent.parent / "requirements" / f"{revision}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in path.parent.glob("*.yaml"))
        raise ValueError(f"no requirement set {revision!r} in {SUITE_PACKAGE}: use one of {', '.join(known)}")
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {
        "server": list(data.get("server") or []),
        "client": list(data.get("client") or []),
        "not_scored": list(data.get("not_scored") or []),
    }


@dataclass
class SuiteRun:
    """What one suite process did: its argv, exit status, output, and whether it was killed."""

    argv: list[str]
    returncode: int | None = None
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    seconds: float = 0.0
    hung: str | None = None  # the one-line message when the deadline killed it
    last_scenario: str | None = None


def _pump(stream, sink: list[str], progress: list[float], run: SuiteRun) -> None:
    try:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            sink.append(line)
            m = _SCENARIO_LINE.match(line)
            if m:
                run.last_scenario = m.group(1) or m.group(2)
                progress[0] = time.monotonic()
    except (OSError, ValueError):
        pass


def run_suite(args: list[str], *, scenario_deadline: float, cwd: Path, env: dict | None = None) -> SuiteRun:
    """Run the suite with `args`; kill it when no scenario starts or ends for `scenario_deadline` s."""
    node, cli = suite_paths()
    argv = [str(node), str(cli), *args]
    run = SuiteRun(argv)
    full_env = {**os.environ, **(env or {})}
    full_env["PATH"] = f"{node.parent}{os.pathsep}{full_env.get('PATH', '')}"
    full_env["NO_COLOR"] = "1"
    full_env.setdefault("FORCE_COLOR", "0")
    started = time.monotonic()
    proc = spawn(argv, env=full_env, cwd=cwd, stdin=False, what="the conformance suite", whole_env=True)
    progress = [started]
    pumps = [
        threading.Thread(target=_pump, args=(proc.stdout, run.stdout, progress, run), daemon=True),
        threading.Thread(target=_pump, args=(proc.stderr, run.stderr, [started], run), daemon=True),
    ]
    for t in pumps:
        t.start()
    try:
        while proc.poll() is None:
            if time.monotonic() - progress[0] > scenario_deadline:
                where = f"scenario {run.last_scenario!r}" if run.last_scenario else "the suite's start"
                run.hung = (
                    f"the conformance suite made no progress for {scenario_deadline:g} s in {where}; "
                    "it was stopped (is the server answering?)"
                )
                break
            time.sleep(0.05)  # a poll interval; the deadline above bounds the wait
    finally:
        reap(proc, 2.0)  # SIGTERM to its process group, then SIGKILL
        for t in pumps:
            t.join(2.0)
        for pipe in (proc.stdout, proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass
    run.returncode = proc.returncode
    run.seconds = time.monotonic() - started
    return run
