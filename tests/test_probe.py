"""probe(): the stdio probe-then-fallback rule of 2026-07-28, against real processes.

Real servers (the pinned reference server, the bundled calendar, the SDK-built calendar, the
bundled `future` server whose DiscoverResult shares no version with us) and small misbehaving
fakes in tests/fakes/, one per branch of the rule.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab import LATEST, TransportClosed, jsonrpc
from mcp_lab.servers import known
from mcp_lab.session.probe import Verdict, cached, forget, probe
from mcp_lab.wire import revisions

FAKES = Path(__file__).resolve().parent / "fakes"
from _support import ROOT  # noqa: E402


def fake(name: str, *args: str) -> list[str]:
    return [sys.executable, str(FAKES / name), *args]


def methods(v: Verdict) -> list[str]:
    return [json.loads(line).get("method", "") for line in v.trace.sent]


@pytest.fixture(autouse=True)
def fresh_cache():
    forget()
    yield
    forget()


@pytest.fixture(scope="module")
def everything_available():
    try:
        known.argv_for("everything")
    except FileNotFoundError as e:
        pytest.fail(f"the pinned reference server is required by these tests: {e}")


# -- real servers ------------------------------------------------------------------------------
def test_reference_server_is_legacy_by_fallback_after_32601(everything_available):
    with probe("everything") as v:
        assert v.era == "legacy" and v.version == "2025-11-25"
        assert methods(v) == ["server/discover", "initialize", "notifications/initialized"]
        discover = json.loads(v.trace.sent[0])
        assert discover["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == LATEST
        [err, init] = [e.message for e in v.trace.of("recv") if isinstance(e.message, (jsonrpc.Result, jsonrpc.Error))][
            :2
        ]
        assert isinstance(err, jsonrpc.Error) and err.code == jsonrpc.METHOD_NOT_FOUND
        # the fallback is a legacy method, so it asks the newest legacy version, not 2026-07-28
        asked = json.loads(v.trace.sent[1])["params"]["protocolVersion"]
        assert asked == revisions.LEGACY_VERSION == "2025-11-25", f"initialize asked {asked!r}"
        assert init.result["protocolVersion"] == "2025-11-25"
        assert (
            v.server_info["name"] == "mcp-servers/everything"
            and v.server_info["title"] == "Everything Reference Server"
        )
        assert {"tools", "prompts", "resources", "logging", "completions"} <= set(v.capabilities)
        assert v.instructions and v.client.era == "legacy"
        # The notebook continues on the same connection: the legacy session is open.
        tools = v.client.request("tools/list").unwrap()["tools"]
        assert len(tools) == 13
        assert len(v.client.request("resources/list").unwrap()["resources"]) == 7
        assert len(v.client.request("prompts/list").unwrap()["prompts"]) == 4
        assert "_meta" not in json.loads(v.trace.sent[-1]).get("params", {})
        assert [e.line for e in v.trace.of("note")] == list(v.steps)


def test_reference_server_answers_tools_list_with_no_handshake_at_all(everything_available):
    # The era-ambiguity risk: a legacy server that serves a request before initialize.
    with mcp_lab.connect("everything") as c:
        c.era = "legacy"  # no _meta, no handshake: a bare tools/list
        r = c.request("tools/list")
        assert r.ok and len(r.result["tools"]) == 12
        assert "simulate-research-query" not in {t["name"] for t in r.result["tools"]}


def test_bundled_calendar_is_modern():
    with probe("calendar") as v:
        assert (v.era, v.version) == ("modern", LATEST)
        assert methods(v) == ["server/discover"]
        assert v.server_info == {"name": "mcp_lab-calendar", "version": "0.1.0"}
        assert set(v.capabilities) == {"tools", "resources", "prompts"}
        assert v.supported_versions == (LATEST,)
        assert v.client.era == "modern"
        r = v.client.request("tools/list").unwrap()
        assert [t["name"] for t in r["tools"]] == ["create_event"]


def test_sdk_calendar_is_modern():
    if not (ROOT / "mcp_lab" / "servers" / "sdk_calendar.py").exists():
        pytest.fail("mcp_lab/servers/sdk_calendar.py is missing")
    with probe("sdk_calendar", timeout=10) as v:
        assert (v.era, v.version) == ("modern", LATEST), v.text()
        assert v.server_info["name"] == "mcp-lab-sdk-calendar"
        assert "tools" in v.capabilities
        assert methods(v) == ["server/discover"]


def test_probe_accepts_an_open_client_and_leaves_it_open():
    with mcp_lab.connect("calendar") as c:
        v = probe(c)
        assert v.client is c and c.era == "modern"
        assert c.request("resources/list").ok


# -- the cache ---------------------------------------------------------------------------------
def test_the_verdict_is_cached_and_refresh_probes_again():
    v1 = probe("calendar")
    try:
        assert probe("calendar") is v1 and cached("calendar") is v1
        v2 = probe("calendar", refresh=True)
        assert v2 is not v1 and not v2.cached
        v2.close()
    finally:
        v1.close()
    # The connection is gone, the verdict is not: a new connection, no second discover.
    v3 = probe("calendar")
    with v3:
        assert v3.cached and v3.era == "modern" and methods(v3) == []
        assert v3.client.request("tools/list").ok


def test_a_cached_legacy_verdict_still_opens_each_connection_with_the_handshake():
    argv = fake("discover_error.py", "-32602")
    probe(argv, timeout=2).close()
    with probe(argv, timeout=2) as v:
        assert v.cached and v.era == "legacy"
        assert methods(v) == ["initialize", "notifications/initialized"]


# -- misbehaving fakes -------------------------------------------------------------------------
def test_silence_past_the_deadline_means_legacy():
    with probe(fake("silent.py"), timeout=0.5) as v:
        assert (v.era, v.version) == ("legacy", "2025-06-18")
        assert methods(v) == ["server/discover", "initialize", "notifications/initialized"]
        assert any("no answer to server/discover within 0.5 s" in s for s in v.steps)
        assert v.client.request("tools/list").ok


@pytest.mark.parametrize("code", [jsonrpc.INVALID_PARAMS, jsonrpc.INTERNAL_ERROR])
def test_any_other_error_means_legacy(code):
    with probe(fake("discover_error.py", str(code)), timeout=2) as v:
        assert (v.era, v.version) == ("legacy", "2025-06-18")
        assert methods(v) == ["server/discover", "initialize", "notifications/initialized"]
        assert any(str(code) in s for s in v.steps)


def test_32022_means_modern_retry_and_never_fall_back():
    with probe(fake("wrong_version.py", "retry"), timeout=2) as v:
        assert (v.era, v.version) == ("modern", LATEST)
        assert methods(v) == ["server/discover", "server/discover"]
        assert v.server_info["name"] == "fake-wrong-version"


def test_initialize_refused_naming_a_modern_version_reprobes_and_is_modern_never_legacy():
    # Before: the probe took only a -32022 to initialize as modern evidence, so a modern-only
    # server's -32601 (naming its versions) became "refused initialize", an error, not modern.
    with probe(fake("modern_only_silent_first.py"), timeout=0.5) as v:
        assert (v.era, v.version) == ("modern", LATEST), v.text()
        assert methods(v) == ["server/discover", "initialize", "server/discover"], methods(v)
        assert v.server_info["name"] == "fake-modern-only"
        assert any("probe again" in s for s in v.steps), v.steps


def test_32022_with_no_mutual_version_is_a_modern_verdict_without_a_version():
    with probe(fake("wrong_version.py", "none"), timeout=2) as v:
        assert v.era == "modern" and v.version is None and not v.ok
        assert v.supported_versions == ("2099-01-01",)
        assert "initialize" not in methods(v)
        assert any("no mutual version" in s for s in v.steps)


# -- a DiscoverResult that shares no version: mcp_lab.servers.future ------------------------
FUTURE = "2027-06-30"


def test_a_discover_result_with_no_mutual_version_stops_the_probe_with_no_initialize():
    # The server would answer initialize (it keeps the 2025-11-25 handshake), so a probe that
    # fell back here would be seen to "succeed" with a legacy session: the spec's answer is a
    # modern verdict with no version, and an error, never the fallback. The official SDK does
    # fall back here: tests/test_sdk_interop.py pins that deviation on the same server.
    with probe("future", timeout=5) as v:
        assert (v.era, v.version, v.ok) == ("modern", None, False), v.text()
        assert v.supported_versions == (FUTURE,)
        assert methods(v) == ["server/discover"], methods(v)
        assert "no mutual version" in v.steps[-1] and "no initialize" in v.steps[-1], v.steps
        # what the DiscoverResult said is kept, so the learner sees who it was
        assert v.server_info == {"name": "mcp_lab-future", "version": "0.1.0"}
        assert v.capabilities == {"tools": {}} and v.instructions
        assert "no mutual version" in v.headline() and "mcp_lab-future" in v.headline()


def test_future_server_speaks_its_version_per_request_and_2025_11_25_after_initialize():
    with mcp_lab.connect("future") as c:
        found = c.request("server/discover").unwrap()  # asked at 2026-07-28: answered anyway
        assert (found["supportedVersions"], found["resultType"]) == ([FUTURE], "complete")
        refused = c.request("tools/list")
        assert isinstance(refused, jsonrpc.Error) and refused.code == jsonrpc.UNSUPPORTED_PROTOCOL_VERSION
        assert refused.data == {"supported": [FUTURE], "requested": LATEST}
        at_future = c.request("tools/list", {"_meta": {revisions.PROTOCOL_VERSION_KEY: FUTURE}}).unwrap()
        assert at_future["resultType"] == "complete" and [t["name"] for t in at_future["tools"]] == ["which_revision"]

        c.era = "legacy"  # handshake-era requests: no _meta
        early = c.request("tools/list")
        assert isinstance(early, jsonrpc.Error) and early.code == jsonrpc.INVALID_REQUEST
        assert "send initialize" in early.message
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        init = c.request("initialize", hello).unwrap()
        assert init["protocolVersion"] == "2025-11-25"  # the server picks the one it speaks
        c.notify("notifications/initialized")
        listed = c.request("tools/list").unwrap()
        assert "resultType" not in listed and listed["tools"][0]["name"] == "which_revision"
        called = c.request("tools/call", {"name": "which_revision", "arguments": {}}).unwrap()
        assert called["content"][0]["text"].startswith("served under 2025-11-25")


def test_a_server_that_exits_at_once_is_a_clear_error_with_its_stderr():
    with pytest.raises(TransportClosed) as info:
        probe(fake("exits.py"), timeout=2)
    assert "cannot open /nonexistent/config.toml" in info.value.message
    assert "exit code 3" in info.value.message
    assert cached(fake("exits.py")) is None


@pytest.mark.wire_deliberate(server_noise="a banner on stdout, on purpose")
def test_a_stdout_banner_is_noise_and_the_probe_still_reaches_a_verdict():
    with probe(fake("banner.py"), timeout=2) as v:
        assert (v.era, v.version) == ("modern", LATEST)
        [noise] = v.trace.of("noise")
        assert noise.line == "Banner Server v1.0 ready on stdio"
        assert "framing violation" in noise.note
        assert any("framing violation" in s for s in v.steps)


def test_renderers_show_the_steps():
    with probe("calendar") as v:
        assert "modern era" in v.text() and "server/discover" in v.text()
        page = v._repr_html_()
        assert "<ol>" in page and "mcp_lab-calendar" in page
        assert "Note over C" in v.trace.mermaid()
        assert json.loads(json.dumps(v.to_dict()))["era"] == "modern"


# -- the command line --------------------------------------------------------------------------
def cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mcp_lab", *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout
    )


def test_cli_probe_a_known_name_prints_steps_verdict_and_trace():
    r = cli("probe", "calendar")
    assert r.returncode == 0, r.stderr
    assert "modern era, 2026-07-28" in r.stdout and "server/discover" in r.stdout


def test_cli_probe_argv_json():
    r = cli("probe", "--json", "--timeout", "2", "--", *fake("discover_error.py", "-32603"))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["era"] == "legacy" and out["version"] == "2025-06-18"
    assert [e["kind"] for e in out["trace"]].count("send") == 3


def test_cli_everything_prints_the_chapter_trace(everything_available):
    r = cli("probe", "everything")
    assert r.returncode == 0, r.stderr
    assert '"error":{"code":-32601' in r.stdout and '"protocolVersion":"2025-11-25"' in r.stdout


@pytest.mark.parametrize("args", [("probe", "--", *fake("exits.py")), ("probe", "no-such-server")])
def test_cli_failure_is_one_line_and_non_zero(args):
    r = cli(*args)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout == ""


def test_a_probe_that_gives_up_too_early_on_a_modern_server_recovers():
    # 10 ms is shorter than the calendar takes to start, so the discover "times out" and the
    # probe falls back; the modern server refuses initialize (-32601 naming its versions) and the late
    # DiscoverResult has arrived meanwhile: that is modern evidence, and it wins.
    with probe("calendar", timeout=0.01) as v:
        assert (v.era, v.version) == ("modern", LATEST), v.text()
        assert "notifications/initialized" not in methods(v)
