"""Why a conformance check failed: a defect of the server, or something the suite needs that the
server has no reason to have.

The suite tests a server by calling its own fixtures: tools named `test_simple_text`,
`test_missing_capability`, ..., prompts named `test_simple_prompt`, resources under `test://`.
A server built for the suite (the showcase) has them; an engineer's server does not, and every
check that calls one fails without saying anything about the server.  So before the suite runs,
the server's surface is read (`server/discover`, then tools/list, prompts/list, resources/list
and resources/templates/list for what it declares), and each failing check is put in one of:

    defect       the server broke a rule the check tests
    fixture      the check calls a suite fixture (a `test_*` tool or prompt, a `test://`
                 resource) that the server does not list
    capability   the check exercises a capability the server did not declare (completions,
                 prompts, resources, tools), by its scenario or, in a scenario that visits
                 several (caching), by the method its check calls: a -32601 there is right
    untestable   the suite says it could not exercise the rule, or (through the stdio bridge)
                 the check tests the HTTP binding, which the bridge provides, not the server

A fixture failure can still carry evidence about the server: the SDK answers the missing
`test_simple_prompt` with -32603 and the missing `test_tool_with_task` with an `isError`
result, which are exactly what `mcp-lab check` judges (an unknown prompt, an unknown tool).
Such a failure stays `fixture`, and its reason names the severity row and points at `check`
(`_EVIDENCE`).

A check that PASSED can be as empty: the SDK answers an unknown tool with `isError: true`, so
`tools-call-error` passes on a server without its `test_error_handling` fixture.  A pass of a
scenario whose fixture the server does not list is marked `not-observed` (`not_observed`): it
is reported apart, never counted as a pass of the server.

Which fixtures a scenario calls is read from the pinned suite itself (each scenario's class in
its `dist/index.js` names them); the one scenario that bundles many rules, `server-stateless`,
is mapped check by check below.

Severity is read, not decided: `judge(check, era)` looks the check up in the one severity table
(`mcp_lab.wire.severity`, which `mcp-lab check` reads too) and records the row, its level, its
link and its verdict on the check.  So a suite WARNING that the spec states as a MUST (an
unknown resource answered -32002 by a 2026-07-28 server) is a defect, and a suite pass whose
details show a code the spec forbids (-32050) is not a pass.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field

from mcp_lab.wire.revisions import Era

__all__ = [
    "DEFECT",
    "FIXTURE",
    "CAPABILITY",
    "UNTESTABLE",
    "NOT_OBSERVED",
    "KINDS",
    "Surface",
    "surface_of",
    "classify",
    "judge",
    "not_observed",
]

DEFECT, FIXTURE, CAPABILITY, UNTESTABLE = "defect", "fixture", "capability", "untestable"
NOT_OBSERVED = "not-observed"  # a pass that says nothing: the scenario's fixture is missing
KINDS = {
    DEFECT: "defects of the server",
    FIXTURE: "fixtures the suite calls and the server does not have",
    CAPABILITY: "capabilities the server did not declare",
    UNTESTABLE: "untestable here",
}

# server-stateless runs many rules; only these checks call a fixture (from the pinned suite's code).
_STATELESS_FIXTURES = {
    "sep-2575-server-rejects-undeclared-capability": ("test_missing_capability",),
    "sep-2575-missing-capability-http-400": ("test_missing_capability",),
    "sep-2575-http-server-no-independent-requests-on-stream": ("test_streaming_elicitation",),
    "sep-2575-server-no-log-without-loglevel": ("test_logging_tool",),
    "sep-2575-server-sends-prompts-list-changed-on-subscription": ("test_trigger_prompt_change",),
    "sep-2575-server-sends-tools-list-changed-on-subscription": ("test_trigger_tool_change",),
    "sep-2575-server-honors-notification-filter": ("test_trigger_tool_change",),
    "sep-2575-server-tags-subscription-id": ("test_trigger_tool_change",),
}
# The capability a scenario exercises, by the start of its name.
_CAPABILITY_OF = (
    ("completion-", "completions"),
    ("prompts-", "prompts"),
    ("resources-", "resources"),
    ("sep-2164-resource", "resources"),
    ("tools-", "tools"),
    ("input-required-result-", "tools"),
)
# In a scenario that visits several capabilities (caching), the method a check calls, read from
# its id (`sep-2549-prompts-list-caching-hints`), names the capability.
_CAPABILITY_OF_CHECK = (
    ("-prompts-list-", "prompts"),
    ("-prompts-get-", "prompts"),
    ("-resources-templates-list-", "resources"),
    ("-resources-list-", "resources"),
    ("-resources-read-", "resources"),
    ("-tools-list-", "tools"),
    ("-tools-call-", "tools"),
    ("-completion-", "completions"),
)
# Scenarios (and server-stateless checks) about the HTTP binding: through the stdio bridge they
# test the bridge.
_HTTP_SCENARIOS = ("dns-rebinding-protection", "server-sse-multiple-streams", "caching")
# Evidence in a fixture failure that `mcp-lab check` would report: (pattern over the check's
# error and details, the severity row it shows).
_EVIDENCE = (
    (re.compile(r"Unknown tool.*\"isError\":\s*true|\"isError\":\s*true.*Unknown tool", re.S), "unknown-tool"),
    (re.compile(r"^prompts-get.*(Internal server error|-32603)", re.S), "unknown-prompt"),
)
_NAME = re.compile(r"test_[a-z0-9_]+|test://[A-Za-z0-9/{}_.-]+")


@dataclass
class Surface:
    """What a server declares and lists: the ground the classification stands on."""

    capabilities: dict = field(default_factory=dict)
    tools: set[str] = field(default_factory=set)
    prompts: set[str] = field(default_factory=set)
    resources: set[str] = field(default_factory=set)
    templates: set[str] = field(default_factory=set)
    read: bool = False  # False: the surface could not be read, so nothing is classified as a fixture

    def has(self, name: str) -> bool:
        if name.startswith("test://"):
            if name in self.resources or name in self.templates:
                return True
            return any(re.fullmatch(re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(t)), name) for t in self.templates)
        return name in self.tools or name in self.prompts


def _names(client, method: str, key: str, field_name: str) -> set[str]:
    from mcp_lab.wire import jsonrpc

    out: set[str] = set()
    cursor = None
    for _ in range(20):  # pages, bounded
        answer = client.request(method, {"cursor": cursor} if cursor else None)
        if not isinstance(answer, jsonrpc.Result):
            return out
        out |= {x.get(field_name) for x in answer.result.get(key) or [] if isinstance(x, dict)}
        cursor = answer.result.get("nextCursor")
        if not cursor:
            break
    return {n for n in out if isinstance(n, str)}


def surface_of(url: str, *, headers: dict | None = None, timeout: float = 10.0, legacy: bool = False) -> Surface:
    """Read a running server's declared capabilities and listed primitives (best effort: a server
    that cannot be read gives an empty Surface with `read` False; a 401/403 is raised).  `legacy`:
    the run is at a handshake-era revision, so the server is asked the way the suite asks it,
    with `initialize` (no `server/discover` probe a legacy server would answer with id null)."""
    from mcp_lab.session.probe_http import initialize_http, probe_http
    from mcp_lab.transport.http import Unauthorized
    from mcp_lab.wire.errors import McpError

    try:
        if legacy:
            v = initialize_http(url, timeout=timeout, headers=headers)
        else:
            v = probe_http(url, timeout=timeout, headers=headers)
    except Unauthorized:
        raise  # the suite would fail every check for it: say so first, once
    except (McpError, OSError, ValueError):
        return Surface()
    try:
        caps = v.capabilities or {}
        s = Surface(capabilities=caps, read=v.era is not None)
        c = v.client
        if "tools" in caps:
            s.tools = _names(c, "tools/list", "tools", "name")
        if "prompts" in caps:
            s.prompts = _names(c, "prompts/list", "prompts", "name")
        if "resources" in caps:
            s.resources = _names(c, "resources/list", "resources", "uri")
            s.templates = _names(c, "resources/templates/list", "resourceTemplates", "uriTemplate")
        return s
    except (McpError, OSError, ValueError):
        return Surface(capabilities=v.capabilities or {}, read=False)
    finally:
        v.close()


@functools.lru_cache(maxsize=1)
def scenario_fixtures() -> dict[str, tuple[str, ...]]:
    """{scenario: the fixture names its code calls}, read from the pinned suite."""
    from .suite import suite_paths

    _, cli = suite_paths()
    js = cli.read_text(encoding="utf-8")
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"this\.name=`([a-z0-9:/_-]+)`", js)]
    out: dict[str, tuple[str, ...]] = {}
    for i, (at, name) in enumerate(starts):
        segment = js[at : starts[i + 1][0] if i + 1 < len(starts) else len(js)]
        found = sorted(set(_NAME.findall(segment)))
        # A tool's embedded resource is content, not something listed; a "nonexistent" one is
        # meant to be missing.
        keep = [n for n in found if n.startswith("test_") or (name.startswith("resources-") and "{" not in n)]
        out[name] = tuple(n for n in keep if "nonexistent" not in n)
    return out


def _capability(scenario: str, check_id: str = "") -> str | None:
    by_scenario = next((cap for prefix, cap in _CAPABILITY_OF if scenario.startswith(prefix)), None)
    return by_scenario or next((cap for part, cap in _CAPABILITY_OF_CHECK if part in f"-{check_id}"), None)


def _needed(scenario: str, check_id: str) -> tuple[str, ...]:
    if scenario == "server-stateless":
        return _STATELESS_FIXTURES.get(check_id, ())
    try:
        return scenario_fixtures().get(scenario, ())
    except (OSError, ValueError):
        return ()


def _evidence(text: str) -> str:
    """A pointer to `mcp-lab check` when a fixture failure shows what check judges, else ""."""
    from mcp_lab.wire import severity

    for pattern, rule_id in _EVIDENCE:
        if pattern.search(text):
            row = severity.rule(rule_id)
            return (
                f"; but the server's answer to the missing fixture is itself a finding of `mcp-lab check` "
                f"(rule {row.id}, {row.level}: {row.says}; {row.url}): run `mcp-lab check` on this server"
            )
    return ""


def not_observed(check, surface: Surface) -> str | None:
    """For a passing check: why the pass says nothing about the server (its scenario calls a
    fixture the server does not list), or None."""
    if not surface.read or check.status != "SUCCESS":
        return None
    missing = sorted(n for n in _needed(check.scenario, check.id) if not surface.has(n))
    if not missing:
        return None
    return f"passed without the suite's fixture {', '.join(missing)}, which the server does not list: not observed"


def _is_http_check(scenario: str, check_id: str) -> bool:
    """A check of the HTTP binding, or of a subscriptions/listen stream (an HTTP stream the
    bridge's one-request processes cannot hold open)."""
    return (
        scenario in _HTTP_SCENARIOS
        or "http" in scenario
        or "-http-" in check_id
        or "subscription" in check_id
        or "notification-filter" in check_id
    )


def classify(check, surface: Surface, *, bridged: bool = False) -> tuple[str, str]:
    """(kind, reason) for one failing check (a `results.Check`)."""
    scenario, cid = check.scenario, check.id
    cap = _capability(scenario, cid)
    if surface.read and cap and cap not in surface.capabilities:
        return CAPABILITY, f"the server does not declare the `{cap}` capability this check exercises"
    needed = _needed(scenario, cid)
    text = (check.error or "") + " " + json.dumps(check.details or {}, ensure_ascii=False)
    mentioned = tuple(n for n in _NAME.findall(text) if n.startswith("test_"))
    missing = sorted({n for n in (*needed, *mentioned) if surface.read and not surface.has(n)})
    if missing:
        why = f"calls the suite's fixture {', '.join(missing)}, which the server does not list"
        return FIXTURE, why + _evidence(f"{scenario} {text}")
    if bridged and _is_http_check(scenario, cid):
        return UNTESTABLE, "tests the HTTP binding, which the stdio bridge provides, not the server"
    if bridged and cid.startswith("sep-2575-request-meta-invalid") and '"code":-32601' in text.replace(" ", ""):
        # Through the bridge every request is the first line of a fresh stdio connection, where
        # a request without _meta's protocolVersion is what a legacy client sends: a dual-era
        # server may answer it in the legacy era (-32601 for server/discover).
        return UNTESTABLE, (
            "on stdio a first request without _meta.protocolVersion reads as a legacy client's; "
            "the bridge cannot tell a dual-era answer from a defect (check it over HTTP)"
        )
    if isinstance(check.details, dict) and check.details.get("untestable"):
        return UNTESTABLE, "the suite could not exercise this rule: " + " ".join((check.error or "").split())[:160]
    return DEFECT, "the server broke the rule this check tests"


def judge(check, era: Era | None) -> None:
    """Record the severity table's reading of one check (see the module's notes)."""
    from mcp_lab.wire import severity

    row = severity.suite_rule(check.id, check.details, era)
    if row is None or not check.failed and row.id not in ("retired-code", "reserved-code"):
        return
    check.rule, check.level, check.rule_url, check.rule_verdict = row.id, row.level, row.url, row.verdict
