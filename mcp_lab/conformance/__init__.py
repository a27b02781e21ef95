"""The official MCP conformance suite, driven from Python and read back as a table.

    from mcp_lab import conformance
    result = conformance.run("calendar")                    # 2026-07-28's frozen scenario set
    result = conformance.run("everything", "2025-11-25")    # the legacy reference server
    result.ok, result.totals(), result.failures()
    conformance.run_client()                                # mcp_lab's own Client, client mode

The suite (`@modelcontextprotocol/conformance`, pinned, with its own Node 22) is installed by
`make setup` into `mcp_lab/conformance/suite/`, or, for a pip install, by `mcp-lab conformance
--install` into a per-user cache (`install`: where it looks, install, uninstall).  Modules: `suite` (where it is, one process
under a deadline), `runner` (targets, the runs), `results` (checks.json -> ConformanceResult, rendered),
`baseline` (expected failures with reasons), `spec_links` (each check's 2026-07-28 page).
"""

from __future__ import annotations

from .baseline import Baseline, load_baseline
from .results import Check, ConformanceResult
from .runner import BUNDLED, DEFAULT_REQUIREMENTS, run, run_client
from .suite import SuiteNotInstalled, requirement_set

__all__ = [
    "run",
    "run_client",
    "ConformanceResult",
    "Check",
    "Baseline",
    "load_baseline",
    "BUNDLED",
    "DEFAULT_REQUIREMENTS",
    "SuiteNotInstalled",
    "requirement_set",
]
