"""One requestState sealing key for every process of a stdio bridge (issue 38, point 8).

Through the bridge the suite's retry of an `input_required` round can reach another process of
the server than the one that sealed its `requestState`.  The showcase (the official SDK's
`MCPServer`) seals with a key made per process unless `$MCP_LAB_STATE_KEY` gives it one, so the
bridge puts one random key per run into every child's environment.  Proven on the scenario that
failed before (3 defects, "Invalid or expired requestState"), and the other way round: with the
variable set empty (each process its own key) the run fails and says why in one line.
"""

from __future__ import annotations

import pytest

from mcp_lab import conformance
from mcp_lab.servers.known import STATE_KEY_ENV
from mcp_lab.session.bridge import StdioBackend

SCENARIO = "input-required-result-request-state"  # its second round is a retry with requestState


def test_every_process_of_one_bridge_gets_the_same_fresh_key(monkeypatch):
    monkeypatch.delenv(STATE_KEY_ENV, raising=False)
    a, b = StdioBackend(["true"], spares=0), StdioBackend(["true"], spares=0)
    try:
        key = a.env[STATE_KEY_ENV]
        assert len(bytes.fromhex(key)) == 32  # the SDK wants >= 32 bytes
        assert b.env[STATE_KEY_ENV] != key  # one per bridge run, not a constant
    finally:
        a.close()
        b.close()


def test_a_key_the_caller_set_is_left_alone(monkeypatch):
    given = StdioBackend(["true"], env={STATE_KEY_ENV: "k" * 40}, spares=0)
    monkeypatch.setenv(STATE_KEY_ENV, "")
    inherited = StdioBackend(["true"], spares=0)
    try:
        assert given.env[STATE_KEY_ENV] == "k" * 40
        assert STATE_KEY_ENV not in inherited.env  # "" in our environment: each process keeps its own
    finally:
        given.close()
        inherited.close()


@pytest.mark.system
def test_the_showcase_over_stdio_completes_a_request_state_round(monkeypatch):
    monkeypatch.delenv(STATE_KEY_ENV, raising=False)
    result = conformance.run("showcase", stdio=True, scenarios=[SCENARIO])
    checks = {c.id: c for c in result.checks if c.scenario == SCENARIO}
    assert checks["sep-2322-request-state-complete"].status == "SUCCESS", checks
    assert result.ok, result.text()
    assert not any("requestState" in n for n in result.notes)


@pytest.mark.system
def test_a_key_per_process_fails_the_retry_and_the_run_says_why(monkeypatch):
    monkeypatch.setenv(STATE_KEY_ENV, "")  # the showcase then seals with a key of each process's own
    result = conformance.run("showcase", stdio=True, scenarios=[SCENARIO])
    failed = [c for c in result.checks if c.failed]
    assert any("Invalid or expired requestState" in (c.error or "") for c in failed), result.text()
    hint = [n for n in result.notes if "one shared key" in n]
    assert len(hint) == 1 and "docs/engineers.md" in hint[0]
    assert hint[0] in result.summary()
