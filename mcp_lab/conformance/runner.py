"""Run the official conformance suite against a server (or mcp_lab's client) and read it back.

    result = run("calendar")                      # a bundled server, started over HTTP
    result = run("http://127.0.0.1:8000/mcp")     # a server that is already running
    result = run([sys.executable, "server.py"])   # any server with `--http PORT` (or "{port}")
    result                                        # a table in a notebook; print(result) as text

Theory of operation.  The suite has no stdio mode: it tests Streamable HTTP servers.  A
bundled name or an argv is started on a free port of 127.0.0.1 (`mcp_lab.session.serve`:
readiness is the port accepting connections, under a deadline, watching for an early exit;
its process group is reaped when the run ends).  With `requirements` and no `scenarios`, ONE
suite process runs the whole frozen set (`--requirements REV`), which is much cheaper than a
process per scenario; a scenario list runs one suite process per scenario, at the revision's
wire (`--spec-version REV --force`, what `--requirements` does inside).  The suite writes a
checks.json per scenario into a temporary folder; those files, not its console output, are
the result.  A baseline is applied both ways: handed to the suite in its own format and
judged here by the same rules, so a stale entry fails the run as the suite's exit status does.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from mcp_lab.wire.revisions import Era

from .baseline import BASELINE_DIR, Baseline, judge, load_baseline
from .results import ConformanceResult, build_checks, read_checks
from .suite import requirement_set, run_suite

__all__ = ["run", "run_client", "BUNDLED", "DEFAULT_REQUIREMENTS"]

DEFAULT_REQUIREMENTS = "2026-07-28"
START_TIMEOUT = 20.0  # seconds a server has to start listening
GRACE = 15.0  # seconds above the suite's own per-scenario timeout before we kill it


def _py(module: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", module, *extra, "--http", "{port}"]


# The bundled servers the suite can be pointed at by name: the argv that serves each over HTTP,
# given a scratch folder that lives as long as the run (the durable server's fresh database:
# conformance is about the wire, not yesterday's events).
BUNDLED = {
    "calendar": lambda scratch: _py("mcp_lab.servers.calendar"),
    "durable": lambda scratch: _py("mcp_lab.servers.durable", "--db", os.path.join(scratch, "calendar.sqlite3")),
    "showcase": lambda scratch: _py("mcp_lab.servers.showcase"),
    "sdk_calendar": lambda scratch: _py("mcp_lab.servers.sdk_calendar"),
    "everything": None,  # the pinned Node reference server (legacy era): mcp_lab.session.serve knows it
}


def _start(server: str | Sequence[str], scratch: str, path: str = "/mcp"):
    """Start a bundled server or an argv over HTTP; returns the running HttpServer."""
    from mcp_lab.session.serve import start

    if isinstance(server, str):
        if server not in BUNDLED:
            raise ValueError(
                f"unknown server {server!r}: give a bundled name ({', '.join(BUNDLED)}), "
                "an http:// URL, or an argv list of a server that takes --http PORT"
            )
        make = BUNDLED[server]
        srv = start(server if make is None else make(scratch), timeout=START_TIMEOUT)
        srv.name = server
        return srv
    from mcp_lab.session.cli_support import http_argv

    argv = [os.fspath(a) for a in server]
    if not argv:
        raise ValueError("an empty argv: give the server's command, e.g. [sys.executable, 'server.py']")
    return start(http_argv(argv), timeout=START_TIMEOUT, path=path)


def _reachable(url: str) -> None:
    from mcp_lab.session.serve import port_open

    u = urlsplit(url)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ValueError(f"not an HTTP URL: {url!r}; use e.g. http://127.0.0.1:8000/mcp")
    port = u.port or (443 if u.scheme == "https" else 80)
    if not port_open(port, u.hostname, timeout=2.0):
        raise ConnectionError(f"nothing is listening at {url}: start the server first, or give a bundled name")


def _resolve_baseline(expected_failures, server) -> Baseline | None:
    if expected_failures is None or expected_failures is False:
        return None
    if isinstance(expected_failures, Baseline):
        return expected_failures
    if expected_failures == "auto":
        name = server if isinstance(server, str) and server in BUNDLED else None
        has = name and any((BASELINE_DIR / f"{name}{ext}").exists() for ext in (".yaml", ".yml"))
        return load_baseline(name) if has else None
    return load_baseline(expected_failures)


def run(
    server: str | Sequence[str],
    requirements: str | None = DEFAULT_REQUIREMENTS,
    *,
    scenarios: Sequence[str] | None = None,
    expected_failures="auto",
    timeout: float = 30.0,
    output_dir: str | os.PathLike | None = None,
    headers: dict[str, str] | None = None,
    stdio: bool = False,
    path: str = "/mcp",
) -> ConformanceResult:
    """Run the conformance suite's server scenarios against `server`; return the ConformanceResult.

    `server`: a bundled name (see BUNDLED), an http(s) URL of a running server, or an argv
    (started with `--http PORT` appended, or with "{port}" replaced).  `requirements`: the
    revision whose frozen scenario set runs and is scored ("2026-07-28" or "2025-11-25").
    `scenarios`: run only these (each at that revision's wire).  `expected_failures`: "auto"
    (the bundled server's committed baseline, if it has one), None, a baseline name, a YAML
    path, or a Baseline.  `timeout`: the suite's per-scenario deadline, in seconds.
    `headers`: sent with every request (credentials), through a local forwarding bridge since the
    suite sends none.  `stdio=True`: `server` is a stdio server (an argv or a bundled name),
    checked through `mcp_lab.session.bridge` (one process per HTTP connection; the HTTP
    binding's checks are then untestable).  `path`: the endpoint of a server started here (default /mcp).
    Each failing check is classified (`Check.kind`: defect, fixture, capability, untestable);
    only defects fail the run.
    """
    if timeout <= 0:
        raise ValueError("timeout must be a positive number of seconds")
    reqs = requirement_set(requirements) if requirements else None
    baseline = _resolve_baseline(expected_failures, server)
    label = (
        server
        if isinstance(server, str)
        else " ".join("python" if str(a) == sys.executable else os.fspath(a) for a in server)
    )
    opts = {"headers": headers, "bridged": stdio}
    if isinstance(server, str) and server.startswith(("http://", "https://")):
        if stdio:
            raise ValueError("stdio=True needs a server to start (an argv or a bundled name), not a URL")
        _reachable(server)
        return _run_against(server, label, reqs, requirements, scenarios, baseline, timeout, output_dir, **opts)
    if stdio:
        from mcp_lab.servers import known
        from mcp_lab.session.bridge import serve_stdio

        argv = known.argv_for(server) if isinstance(server, str) else [os.fspath(a) for a in server]
        with serve_stdio(argv, timeout=timeout) as b:
            result = _run_against(b.url, label, reqs, requirements, scenarios, baseline, timeout, output_dir, **opts)
            _add_framing(result, b.backend.framing_lines())
            _hint_request_state(result)
            return result
    with tempfile.TemporaryDirectory(prefix="mcp_lab-server-") as scratch:
        srv = _start(server, scratch, path)
        try:
            return _run_against(srv.url, label, reqs, requirements, scenarios, baseline, timeout, output_dir, **opts)
        finally:
            srv.close()


def _run_against(
    url, label, reqs, requirements, scenarios, baseline, timeout, output_dir, *, headers=None, bridged=False
) -> ConformanceResult:
    from .classify import surface_of

    legacy = bool(requirements) and requirements < DEFAULT_REQUIREMENTS
    surface = surface_of(url, headers=headers, legacy=legacy)  # a 401/403 is raised: credentials first
    if headers:
        from mcp_lab.session.bridge import forward

        with forward(url, headers, timeout=timeout) as b:
            result = _run_suite(b.url, label, reqs, requirements, scenarios, baseline, timeout, output_dir)
        result.url = url
        result.notes.append("run through a local bridge that adds the given headers (the suite sends none)")
    else:
        result = _run_suite(url, label, reqs, requirements, scenarios, baseline, timeout, output_dir)
    if bridged:
        result.notes.append(
            "a stdio server, run through a bridge: one process per HTTP connection, reused for its "
            "requests since 2026-07-28 is stateless (per session for a legacy initialize); checks of the "
            "HTTP binding test the bridge and are marked untestable"
        )
    _classify(result, surface, bridged, Era.LEGACY if legacy else Era.MODERN)
    return result


def _add_framing(result: ConformanceResult, lines: list[str]) -> None:
    """The stdio bridge's own check: every stdout line of every process was a JSON-RPC message.
    The suite cannot see a stdio server's stdout (it talks to the bridge), so mcp_lab reports it,
    as a scored check judged by the severity table's `framing` row (MUST NOT)."""
    from mcp_lab.wire import severity

    from .results import Check

    row = severity.rule("framing")
    shown = ", ".join(repr(x[:80]) for x in list(dict.fromkeys(lines))[:3])
    check = Check(
        scenario="mcp-lab-stdio-framing",
        id="stdout-carries-only-mcp-messages",
        name="StdioFraming",
        status="FAILURE" if lines else "SUCCESS",
        description="mcp_lab's check through the bridge: the server writes nothing to stdout that is not an MCP message",
        error=f"{len(lines)} stdout line(s) that are not MCP messages: {shown}" if lines else None,
        revision=result.requirements,
    )
    if lines:
        check.rule, check.level, check.rule_url, check.rule_verdict = row.id, row.level, row.url, row.verdict
        check.kind, check.kind_reason = "defect", "the server broke the rule this check tests"
    result.checks.insert(0, check)


def _hint_request_state(result: ConformanceResult) -> None:
    """One line when a stdio server rejected its own requestState through the bridge: another
    process of it answered the retry, and it seals with a key made per process."""
    if any(c.failed and "Invalid or expired requestState" in (c.error or "") for c in result.checks):
        result.notes.append(
            "'Invalid or expired requestState' through the stdio bridge: a retry can reach another "
            "process of the server, so every process must seal requestState with one shared key "
            "(the bridge sets $MCP_LAB_STATE_KEY; a server that reads no such variable needs its own: "
            "see docs/engineers.md, 'One key for every process')"
        )


def _classify(result: ConformanceResult, surface, bridged: bool, era: Era) -> None:
    from .classify import NOT_OBSERVED, classify, judge, not_observed

    if not surface.read:
        result.notes.append("the server's surface could not be read, so failures are not told apart")
    for c in result.checks:
        judge(c, era)
        if c.failed or c.verdict == "defect":
            c.kind, c.kind_reason = classify(c, surface, bridged=bridged)
        elif why := not_observed(c, surface):
            c.kind, c.kind_reason = NOT_OBSERVED, why


def _run_suite(url, label, reqs, requirements, scenarios, baseline, timeout, output_dir) -> ConformanceResult:
    keep = output_dir is not None
    folder = Path(output_dir) if keep else Path(tempfile.mkdtemp(prefix="mcp_lab-conformance-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        common = ["--timeout", str(int(timeout * 1000))]
        if baseline is not None:
            bl = folder / "expected-failures.yaml"
            bl.write_text(baseline.to_suite_yaml("server"), encoding="utf-8")
            common += ["--expected-failures", str(bl)]
        runs = []
        if scenarios:
            version = ["--spec-version", requirements, "--force"] if requirements else []
            for s in scenarios:
                runs.append(
                    run_suite(
                        ["server", "--url", url, "--scenario", s, "-o", str(folder / "out"), *version, *common],
                        scenario_deadline=timeout + GRACE,
                        cwd=folder,
                    )
                )
                if runs[-1].hung:
                    break
        else:
            if not requirements:
                raise ValueError("give a requirements revision (e.g. 2026-07-28) or a list of scenarios")
            runs.append(
                run_suite(
                    ["server", "--url", url, "--requirements", requirements, "-o", str(folder / "out"), *common],
                    scenario_deadline=timeout + GRACE,
                    cwd=folder,
                )
            )
        raw = read_checks(folder / "out", "server")
        return _result(label, url, "server", requirements, reqs, scenarios, raw, baseline, runs)
    finally:
        if not keep:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


def _result(label, url, mode, requirements, reqs, scenarios, raw, baseline, runs) -> ConformanceResult:
    scored = set(reqs[mode]) if reqs else None
    not_scored = {
        n["scenario"]: n.get("reason", "not scored") for n in (reqs or {}).get("not_scored", []) if n.get("leg") == mode
    }
    expected = list(scenarios) if scenarios else ((reqs[mode] + list(not_scored)) if reqs else [])
    raw = {**{s: raw[s] for s in expected if s in raw}, **raw}  # in the requirement set's order
    problems = [r.hung for r in runs if r.hung]
    missing = [s for s in expected if s not in raw]
    unknown = [
        s
        for s, r in zip(scenarios or (), runs)
        if s in missing and any("Available server scenarios" in line or "Unknown scenario" in line for line in r.stderr)
    ]
    if unknown:
        problems.append(
            f"the suite has no {mode} scenario {', '.join(unknown)}; a revision's scenarios are "
            f"listed by mcp_lab.conformance.requirement_set('{requirements or DEFAULT_REQUIREMENTS}')"
        )
        missing = [s for s in missing if s not in unknown]
    if missing and not problems:
        tail = " | ".join((runs[-1].stderr or runs[-1].stdout)[-3:]) if runs else ""
        problems.append(
            f"{len(missing)} scenario(s) wrote no checks.json ({', '.join(missing[:5])}"
            f"{', ...' if len(missing) > 5 else ''})" + (f"; the suite said: {tail}" if tail else "")
        )
    judged = {s: c for s, c in raw.items() if scored is None or s in scored}
    return ConformanceResult(
        target=label,
        requirements=requirements,
        mode=mode,
        checks=build_checks(raw, scored, baseline, requirements),
        judgement=judge(judged, baseline),
        baseline=baseline,
        not_scored=not_scored,
        seconds=sum(r.seconds for r in runs),
        problems=problems,
        url=url,
        suite_exit=[r.returncode for r in runs],
    )


def run_client(
    scenarios: Sequence[str] | None = None,
    *,
    command: Sequence[str] | None = None,
    timeout: float = 30.0,
    parallel: int = 4,
    output_dir: str | os.PathLike | None = None,
) -> ConformanceResult:
    """Run the suite's client scenarios against a client command (default: mcp_lab's own,
    `python -m mcp_lab.conformance_client`), one suite process per scenario, `parallel` at a time."""
    import shlex

    from mcp_lab.conformance_client import EXTRA_SCENARIOS, SCENARIOS

    names = list(scenarios) if scenarios else list(SCENARIOS + EXTRA_SCENARIOS)
    cmd = shlex.join(command or [sys.executable, "-m", "mcp_lab.conformance_client"])
    reqs = requirement_set(DEFAULT_REQUIREMENTS)
    keep = output_dir is not None
    folder = Path(output_dir) if keep else Path(tempfile.mkdtemp(prefix="mcp_lab-conformance-client-"))
    folder.mkdir(parents=True, exist_ok=True)

    def one(s: str):
        return run_suite(
            [
                "client",
                "--command",
                cmd,
                "--scenario",
                s,
                "--spec-version",
                DEFAULT_REQUIREMENTS,
                "--timeout",
                str(int(timeout * 1000)),
                "-o",
                str(folder / "out"),
            ],
            scenario_deadline=timeout + GRACE,
            cwd=folder,
        )

    try:
        # Each scenario's mock server listens on a port of its own, so scenarios can run side by side.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
            runs = list(pool.map(one, names))
        raw = read_checks(folder / "out", "client")
        return _result("mcp_lab client", None, "client", DEFAULT_REQUIREMENTS, reqs, names, raw, None, runs)
    finally:
        if not keep:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
