"""The official conformance suite, pinned, against the bundled servers and mcp_lab's own client.

The four server runs (the showcase with no baseline; the calendar, the durable server and the
SDK-built calendar with their committed baselines) each run the frozen 2026-07-28 requirement set
in ONE suite process, the four side by side, while the client scenarios run against mcp_lab's
client two at a time.  A missing suite FAILS (make
setup installs it), never skips.
"""

from __future__ import annotations

import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from _support import SHARED

from mcp_lab import conformance, http_servers
from mcp_lab.conformance import baseline as bl
from mcp_lab.conformance import spec_links, suite

# The suite's own scenario servers test mcp_lab's client with a result that omits resultType.
pytestmark = pytest.mark.wire_deliberate(
    server_legacy_answer="the conformance suite's scenario server omits resultType on purpose"
)


@pytest.fixture(scope="module")
def server_runs():
    try:
        suite.suite_paths()
    except suite.SuiteNotInstalled as e:
        pytest.fail(str(e), pytrace=False)
    plan = {"showcase": None, "calendar": "calendar", "durable": "durable", "sdk_calendar": "sdk_calendar"}
    with ThreadPoolExecutor(max_workers=len(plan) + 1) as pool:
        futures = {
            name: pool.submit(conformance.run, name, "2026-07-28", expected_failures=b) for name, b in plan.items()
        }
        futures["client"] = pool.submit(conformance.run_client, parallel=2)  # mcp_lab's client, meanwhile
        runs = {name: f.result() for name, f in futures.items()}
    assert http_servers.live() == [], f"servers left running: {http_servers.live()}"
    return runs


def test_showcase_passes_every_scored_scenario_with_no_baseline(server_runs):
    r = server_runs["showcase"]
    t = r.totals()
    assert r.ok and r.baseline is None, r.text()
    assert t["scenarios"] == len(conformance.requirement_set("2026-07-28")["server"]) == 37, t
    assert t["FAILURE"] == 0 and t["WARNING"] == 0, r.text()
    assert r.suite_exit == [0], f"the suite itself disagrees: exit {r.suite_exit}"


@pytest.mark.parametrize("name", ["calendar", "durable", "sdk_calendar"])
def test_bundled_calendars_pass_with_their_baselines(server_runs, name):
    r = server_runs[name]
    assert r.ok, r.text()
    assert r.suite_exit == [0], f"the suite itself disagrees with our verdict: exit {r.suite_exit}\n{r.text()}"
    # The binding's old defect (issue 14: initialize answered 400 / -32022) is fixed: the check
    # passes, with no baseline entry left for it.
    fixed = "sep-2575-http-server-method-not-found-404-initialize"
    check = next(c for c in r.checks if c.scenario == "server-stateless" and c.id == fixed)
    assert check.status == "SUCCESS", f"{name}: {fixed} is {check.status}: {check.error}"
    assert f"server-stateless:{fixed}" not in r.judgement.expected, r.judgement.expected
    # Every failing scored check is explained by a reason, shown beside it.
    assert all(c.baselined for c in r.failures()), [c.id for c in r.failures() if not c.baselined]


# Issue 14, item 5: the suite's Streamable HTTP scenarios, on every bundled HTTP server.
HTTP_SCENARIOS = (
    "http-header-validation",
    "dns-rebinding-protection",
    "server-stateless",
    "caching",
    "sep-2164-resource-not-found",
)
# The checks a server without the suite's diagnostic tools cannot be tested on.  The suite says so
# itself (details.untestable) for all but the two list-changed ones: it reads only -32601 as "no
# such hook", so a server answering an unknown tool with the spec's -32602 gets a plain warning.
NEEDS_DIAGNOSTIC_TOOLS = {
    "server-stateless:sep-2575-server-rejects-undeclared-capability",
    "server-stateless:sep-2575-missing-capability-http-400",
    "server-stateless:sep-2575-http-server-no-independent-requests-on-stream",
    "server-stateless:sep-2575-server-no-log-without-loglevel",
}
NEEDS_LIST_CHANGE_HOOKS = {
    "server-stateless:sep-2575-server-sends-prompts-list-changed-on-subscription",
    "server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription",
}
# The caching scenario calls prompts/list whatever the server declares; a server with no prompts
# capability rightly answers -32601 (the durable calendar has no prompts).
NEEDS_PROMPTS = {"caching:sep-2549-prompts-list-caching-hints"}
EXEMPT_HTTP_CHECKS = {
    "showcase": set(),  # it has the suite's diagnostic tools
    "calendar": NEEDS_DIAGNOSTIC_TOOLS,
    "durable": NEEDS_DIAGNOSTIC_TOOLS | NEEDS_PROMPTS,
    "sdk_calendar": NEEDS_DIAGNOSTIC_TOOLS | NEEDS_LIST_CHANGE_HOOKS,  # the SDK declares listChanged
}


def _exempt_http_check(key: str, check, reason: str) -> bool:
    """A failing check the server could not pass without being a test fixture of the suite's."""
    details = check.details or {}
    if "diagnostic tool" in reason:  # the suite must agree the check was untestable
        return details.get("untestable") is True or key in NEEDS_LIST_CHANGE_HOOKS
    if key in NEEDS_PROMPTS and "no prompts" in reason:
        return (details.get("error") or {}).get("code") == -32601
    return False


@pytest.mark.parametrize("name", sorted(EXEMPT_HTTP_CHECKS))
def test_streamable_http_scenarios_pass_on_every_bundled_http_server(server_runs, name):
    r = server_runs[name]
    checks = [c for c in r.checks if c.scenario in HTTP_SCENARIOS]
    assert {c.scenario for c in checks} == set(HTTP_SCENARIOS), f"{name}: scenarios that did not run"
    failing = {f"{c.scenario}:{c.id}": c for c in checks if c.status in ("FAILURE", "WARNING")}
    base = conformance.load_baseline(name) if name != "showcase" else None
    exempt = {k for k, c in failing.items() if _exempt_http_check(k, c, (base and base.reason(c.scenario, c.id)) or "")}
    unexplained = {k: f"{c.status}: {c.detail_text(300)}" for k, c in failing.items() if k not in exempt}
    assert not unexplained, f"{name}: Streamable HTTP checks failing: {unexplained}"
    # Exactly the expected checks are exempt, so a new failure cannot hide among them.
    assert exempt == EXEMPT_HTTP_CHECKS[name], f"{name}: exempt {sorted(exempt)}"
    passed = {c.scenario for c in checks if c.status == "SUCCESS"}
    assert passed == set(HTTP_SCENARIOS), f"{name}: scenarios with no passing check: {set(HTTP_SCENARIOS) - passed}"


def test_every_baseline_entry_has_a_reason_and_matches_a_real_check(server_runs):
    for name in ("calendar", "durable", "sdk_calendar"):
        b = conformance.load_baseline(name)
        seen = {(c.scenario, c.id) for c in server_runs[name].checks} | {
            (c.scenario, None) for c in server_runs[name].checks
        }
        for e in b.entries:
            assert len(e.reason) > 20, f"{name}: {e.key} needs a reason a reader can act on"
            assert (e.scenario, e.check) in seen, f"{name}: {e.key} names no check the suite ran"


def test_a_stale_entry_fails_the_run_as_the_suite_does(tmp_path):
    stale = tmp_path / "stale.yaml"
    stale.write_text("server:\n  - check: tools-list\n    reason: pretends the calendar cannot list its tools\n")
    r = conformance.run("calendar", scenarios=["tools-list"], expected_failures=stale)
    assert not r.ok and r.judgement.stale == ["tools-list"], r.text()
    assert r.suite_exit == [1], "the suite must call the stale entry a failure too"
    assert "STALE" in r.text()


def test_judge_follows_the_suites_rules():
    checks = {
        "a": [{"id": "x", "status": "FAILURE"}, {"id": "y", "status": "SUCCESS"}],
        "b": [{"id": "w", "status": "WARNING"}],
        "c": [{"id": "z", "status": "SUCCESS"}],
    }
    j = bl.judge(checks, None)
    assert j.unexpected == ["a:x"], "without a baseline only FAILURE counts (a WARNING is shown)"
    base = bl.Baseline("t", (bl.Entry("a", "x", "r"), bl.Entry("c", None, "r"), bl.Entry("a", "gone", "r")))
    j = bl.judge(checks, base)
    assert (j.expected, j.unexpected, j.stale) == (["a:x"], ["b:w"], ["c"]), j
    # an entry for a check that never ran (its scenario bailed out early) is tolerated, not stale


def test_a_baseline_entry_without_a_reason_is_refused(tmp_path):
    f = tmp_path / "b.yaml"
    f.write_text("server:\n  - check: tools-list\n")
    with pytest.raises(ValueError, match="has no reason"):
        conformance.load_baseline(f)
    f.write_text("server:\n  - tools-list\n")
    with pytest.raises(ValueError, match="needs `check:"):
        conformance.load_baseline(f)


def test_client_scenarios_pass_against_mcp_labs_client(server_runs):
    r = server_runs["client"]
    assert r.ok and r.totals()["FAILURE"] == 0 and r.totals()["WARNING"] == 0, r.text(all_checks=True)
    from mcp_lab.conformance_client import EXTRA_SCENARIOS, OUT_OF_SCOPE, SCENARIOS

    assert set(r.scenarios) == set(SCENARIOS + EXTRA_SCENARIOS), r.scenarios
    required = conformance.requirement_set("2026-07-28")["client"]
    assert set(required) - set(SCENARIOS) == {s for s in required if s.startswith("auth/")} and "auth/*" in OUT_OF_SCOPE
    assert r.suite_exit == [0] * len(r.scenarios), r.suite_exit


def test_result_renders_as_a_table_with_spec_links(server_runs):
    r = server_runs["calendar"]
    page = r._repr_html_()
    for column in ("scenario", "check", "status", "what the spec requires", "details"):
        assert f"<th>{column}</th>" in page
    assert 'href="https://modelcontextprotocol.io/specification/2026-07-28/' in page
    text = r.text()
    assert text.startswith("PASS  calendar") and "expected (baseline):" in text


@pytest.mark.skipif(
    not (SHARED / "spec" / "2026-07-28" / "docs").is_dir(),
    reason="the spec pages are not beside the repository (../shared/spec), so anchors cannot be read",
)
def test_every_spec_link_target_is_a_heading_of_the_released_spec():
    import re

    docs = SHARED / "spec" / "2026-07-28" / "docs"
    for target in spec_links.TARGETS:
        page, _, anchor = target.partition("#")
        path = docs / f"{page}.mdx"
        assert path.exists(), f"{target}: no page {page} in 2026-07-28"
        if not anchor:
            continue
        slugs = {
            re.sub(r"[^a-z0-9 _-]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
        }
        assert anchor in slugs, f"{target}: no heading with slug {anchor!r} on {page}"


def test_a_hung_scenario_ends_at_its_deadline_with_one_line():
    import socket
    import threading

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held: list = []
    stop = threading.Event()

    def accept():  # accepts every connection and never answers
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        started = time.monotonic()
        r = conformance.run(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", scenarios=["tools-list"], timeout=1.5)
        assert time.monotonic() - started < 15, "the suite's per-scenario deadline did not hold"
        assert not r.ok and any(c.id == "scenario-timeout" for c in r.failures()), r.text()
    finally:
        stop.set()
        t.join(2)
        for c in held:
            c.close()
        sock.close()


def test_a_suite_that_hangs_itself_is_killed_with_its_group(tmp_path, monkeypatch):
    fake = tmp_path / "fake_suite.py"
    fake.write_text(
        textwrap.dedent("""
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(f"child {child.pid}", flush=True)
        print("=== Running scenario: stuck-one ===", flush=True)
        time.sleep(60)
    """)
    )
    monkeypatch.setattr(suite, "suite_paths", lambda: (Path(sys.executable), fake))
    started = time.monotonic()
    run = suite.run_suite([], scenario_deadline=1.0, cwd=tmp_path)
    assert time.monotonic() - started < 8
    assert run.hung and "'stuck-one'" in run.hung and "\n" not in run.hung, run.hung
    assert run.returncode is not None
    child = int(next(line.split()[1] for line in run.stdout if line.startswith("child ")))
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), f"the suite's own child {child} outlived the suite: its process group was not killed"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"  # a zombie is dead, waiting for its reaper
    except FileNotFoundError:
        return False


def test_bad_input_is_one_clear_line(capsys, monkeypatch, tmp_path):
    from mcp_lab.__main__ import main

    def cli(*argv):
        code = main(["conformance", *argv])
        return code, capsys.readouterr().err.strip()

    code, err = cli("no-such-server")
    assert code == 2 and err.startswith("mcp-lab conformance: unknown server 'no-such-server'") and "\n" not in err
    port = http_servers.free_port()
    code, err = cli(f"http://127.0.0.1:{port}/mcp")
    assert code == 2 and "nothing is listening" in err and "\n" not in err
    from mcp_lab.conformance import install

    monkeypatch.setattr(install, "locations", lambda: [(tmp_path / "absent", False), (tmp_path / "cache", True)])
    code, err = cli("calendar")
    assert code == 2 and "run `make setup`, or `mcp-lab conformance --install`" in err and "\n" not in err


def test_cli_exit_status_follows_the_verdict(capsys):
    from mcp_lab.__main__ import main

    assert main(["conformance", "calendar", "--scenario", "tools-list"]) == 0
    assert "PASS  calendar" in capsys.readouterr().out
    # Without a baseline the failure is shown, classified: the suite's own fixture is missing,
    # which is no defect of the calendar, so the run passes (only defects fail it).
    assert main(["conformance", "calendar", "--no-baseline", "--scenario", "tools-call-simple-text"]) == 0
    out = capsys.readouterr().out
    assert "PASS  calendar" in out and "[fixture]" in out and "server/tools#calling-tools" in out
    assert main(["conformance", "calendar", "--scenario", "no-such-scenario"]) == 1
    assert "the suite has no server scenario no-such-scenario" in capsys.readouterr().out


def test_the_client_command_refuses_what_it_does_not_drive(monkeypatch, capsys):
    from mcp_lab import conformance_client

    monkeypatch.setenv("MCP_CONFORMANCE_SCENARIO", "auth/metadata-default")
    assert conformance_client.main(["http://127.0.0.1:9/mcp"]) == 2
    err = capsys.readouterr().err.strip()
    assert "out of scope" in err and "OAuth" in err and "\n" not in err
    monkeypatch.setenv("MCP_CONFORMANCE_SCENARIO", "tools_call")
    assert conformance_client.main([]) == 2 and "usage:" in capsys.readouterr().err
    monkeypatch.setenv("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
    assert conformance_client.main(["http://127.0.0.1:9/mcp"]) == 2
    assert "2026-07-28 scenarios only" in capsys.readouterr().err
