"""Check a server's answers: the declared surface exercised, every answer judged.

    report = mcp_lab.check("calendar")                  # a name, an argv, a URL (headers=...)
    report.ok, report.findings, print(report.text())
    mcp-lab check -- python my_server.py                # the same from a terminal; exit 1 on a finding

Theory of operation.  The server is probed (`server/discover`, or `initialize` for a legacy
one); then, for each primitive kind (tools, prompts, resources), its list is asked for whether
or not the kind is declared, every prompt that needs no argument is got, every listed resource
is read (up to `limit` of each), and three requests name something that cannot exist: a tool,
a prompt and a resource.  No tool is ever called except the unknown one, so a check has no side
effect on the server.  Every line the server sent is then judged against the official schema
of its era (`mcp_lab.wire.schema_check`, the SDK's generated models, as the test suite's wire
check does).  Each finding names what was asked, what came back, and the spec's sentence:

    schema          an answer the official schema refuses
    error-code      an unknown tool or prompt not answered with -32602 (an `isError` result is a
                    tool that ran; -32603 is an internal error), an unknown resource not
                    answered with -32602 (from a 2026-07-28 server -32002 too: that code is
                    retired), an empty `contents` for a resource that does not exist, and any
                    error whose code the spec forbids (retired, or undefined in -32020..-32099)
    undeclared      a kind the server serves without declaring its capability
    not-served      a kind the server declares but does not serve
    framing         a stdout line that is not an MCP message (stdio)

Severity is not decided here: each finding names its row of `mcp_lab.wire.severity` (the one
table the conformance classifier reads too), and takes the row's verdict for the server's era
(MUST / MUST NOT: a defect, which fails the run; SHOULD: a warning) and its spec link.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from mcp_lab.wire import jsonrpc, severity
from mcp_lab.wire.revisions import Era

__all__ = ["check", "ServerCheckReport", "CheckFinding"]

SPEC = "https://modelcontextprotocol.io/specification/2026-07-28/"
_KINDS = {
    "tools": ("tools/list", "tools", "name", "server/tools"),
    "prompts": ("prompts/list", "prompts", "name", "server/prompts"),
    "resources": ("resources/list", "resources", "uri", "server/resources"),
}
UNKNOWN_TOOL = "mcp_lab_check_no_such_tool"
UNKNOWN_PROMPT = "mcp_lab_check_no_such_prompt"
UNKNOWN_URI = "mcp-lab-check://no/such/resource"


@dataclass
class CheckFinding:
    kind: str  # schema | error-code | undeclared | not-served | framing
    severity: str  # defect | warning: the verdict of `rule`'s row for the server's era
    what: str  # what was asked
    message: str  # what came back, and what the spec asks
    spec: str
    rule: str = ""  # the row of mcp_lab.wire.severity
    level: str = ""  # the spec's keyword for it (MUST, SHOULD, ...)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class ServerCheckReport:
    server: str
    era: Era | None
    version: str | None
    capabilities: dict
    served: dict[str, int] = field(default_factory=dict)  # kind -> how many listed
    asked: int = 0
    judged: int = 0  # server messages the schema judged
    findings: list[CheckFinding] = field(default_factory=list)
    trace: Any = field(default=None, repr=False)

    @property
    def defects(self) -> list[CheckFinding]:
        return [f for f in self.findings if f.severity == "defect"]

    @property
    def ok(self) -> bool:
        return not self.defects

    def text(self) -> str:
        verdict = "PASS" if self.ok else "FAIL"
        listed = ", ".join(f"{n} {k}" for k, n in self.served.items()) or "nothing listed"
        out = [
            f"{verdict}  {self.server}: {self.era or 'unknown'} era, {self.version or 'no version'}; "
            f"{listed}; {self.asked} requests, {self.judged} answers judged against the official schema; "
            f"{len(self.defects)} defect(s), {len(self.findings) - len(self.defects)} warning(s)"
        ]
        for f in sorted(self.findings, key=lambda f: f.severity != "defect"):
            out.append(f"{'✗' if f.severity == 'defect' else '!'} {f.kind:<11} {f.what}")
            out.append(f"      {f.message}")
            out.append(f"      spec ({f.level}): {f.spec}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "defects": [f.to_dict() for f in self.defects],
            "warnings": [f.to_dict() for f in self.findings if f.severity != "defect"],
            "server": self.server,
            "era": self.era,
            "version": self.version,
            "capabilities": self.capabilities,
            "served": self.served,
            "asked": self.asked,
            "judged": self.judged,
            "findings": [f.to_dict() for f in sorted(self.findings, key=lambda f: f.severity != "defect")],
        }


class _CheckRun:
    def __init__(self, client, report: ServerCheckReport, limit: int):
        self.c, self.r, self.limit = client, report, limit
        self.judged_ids: set = set()  # answers already reported under an unknown-name rule

    def ask(self, method: str, params: dict | None = None):
        self.r.asked += 1
        try:
            return self.c.request(method, params)
        except jsonrpc.ProtocolError as e:
            return jsonrpc.Error(None, e.code, e.message)

    def find(self, kind: str, rule_id: str, what: str, message: str, page: str | None = None) -> None:
        """Record a finding under its severity row (skipped when the row does not bind this
        server's era); `page` overrides the row's link where the same rule has a page per kind."""
        verdict = severity.verdict(rule_id, self.r.era)
        if verdict is None:
            return
        row = severity.rule(rule_id)
        spec = SPEC + page if page else row.url
        self.r.findings.append(CheckFinding(kind, verdict, what, message, spec, row.id, row.level))

    def kinds(self) -> dict[str, list[dict]]:
        listed: dict[str, list[dict]] = {}
        caps = self.r.capabilities
        for kind, (method, key, _, page) in _KINDS.items():
            answer = self.ask(method)
            declared = kind in caps
            served = isinstance(answer, jsonrpc.Result) and isinstance(answer.result.get(key), list)
            if declared and not served:
                code = answer.code if isinstance(answer, jsonrpc.Error) else "a result without a list"
                self.find(
                    "not-served",
                    "declared-not-served",
                    method,
                    f"the server declares `{kind}` but answered {method} with {code}",
                    f"{page}#capabilities",
                )
            if served and not declared:
                items = answer.result[key]
                self.find(
                    "undeclared",
                    "served-undeclared" if items else "served-undeclared-empty",
                    method,
                    f"the server serves {method} ({len(items)} item(s)) without declaring the `{kind}` capability",
                    f"{page}#capabilities",
                )
            if served:
                listed[kind] = [x for x in answer.result[key] if isinstance(x, dict)]
                self.r.served[kind] = len(listed[kind])
        return listed

    def exercise(self, listed: dict[str, list[dict]]) -> None:
        for p in listed.get("prompts", [])[: self.limit]:
            if isinstance(p.get("name"), str) and not any(a.get("required") for a in p.get("arguments") or []):
                self.ask("prompts/get", {"name": p["name"]})
        for res in listed.get("resources", [])[: self.limit]:
            if isinstance(res.get("uri"), str):
                self.ask("resources/read", {"uri": res["uri"]})

    def unknowns(self, listed: dict[str, list[dict]]) -> None:
        if "tools" in listed:
            a = self.ask("tools/call", {"name": UNKNOWN_TOOL, "arguments": {}})
            self.expect_invalid_params(a, f"tools/call of an unknown tool ({UNKNOWN_TOOL})", "unknown-tool")
        if "prompts" in listed:
            a = self.ask("prompts/get", {"name": UNKNOWN_PROMPT})
            self.expect_invalid_params(a, f"prompts/get of an unknown prompt ({UNKNOWN_PROMPT})", "unknown-prompt")
        if "resources" in listed:
            a = self.ask("resources/read", {"uri": UNKNOWN_URI})
            what = f"resources/read of a resource that does not exist ({UNKNOWN_URI})"
            if isinstance(a, jsonrpc.Error) and a.code == -32002 and self.r.era == Era.LEGACY:
                return  # the not-found code of 2025-11-25 and earlier: right for a legacy server
            if isinstance(a, jsonrpc.Result) and a.result.get("contents") == []:
                self.find(
                    "error-code",
                    "unknown-resource-empty",
                    what,
                    "answered an empty `contents` array: servers MUST NOT, they MUST answer -32602",
                )
            else:
                self.expect_invalid_params(a, what, "unknown-resource")

    def expect_invalid_params(self, a, what: str, rule_id: str) -> None:
        if isinstance(a, jsonrpc.Error) and a.code == jsonrpc.INVALID_PARAMS:
            return
        row = severity.rule(rule_id)
        if isinstance(a, jsonrpc.Error):
            got = f"JSON-RPC error {a.code} ({a.message})"
            forbidden = severity.code_rule(a.code, self.r.era)
            if forbidden is not None:  # a code no 2026-07-28 server may emit: that rule leads
                self.judged_ids.add(a.id)
                rule_id = forbidden.id
                got += f", a code the spec forbids ({forbidden.says})"
        elif isinstance(a, jsonrpc.Result) and a.result.get("isError"):
            got = "a result with isError: true, as if the tool had run and failed"
        else:
            got = "a successful result"
        asks = f"the spec asks for JSON-RPC error -32602 ({row.level})"
        self.find("error-code", rule_id, what, f"answered {got}; {asks}")

    def codes(self) -> None:
        """Every error the server sent, judged by its code alone (a retired code, an undefined
        one of the reserved range), unless an unknown-name check above already reported it."""
        for e in self.c.trace:
            m = e.message
            if e.kind != "recv" or not isinstance(m, jsonrpc.Error) or m.id in self.judged_ids:
                continue
            row = severity.code_rule(m.code, self.r.era)
            if row is not None:
                self.find("error-code", row.id, f"an answer (id {m.id})", f"answered error {m.code}: {row.says}")

    def schema(self) -> None:
        from mcp_lab.wire.schema_check import WireChecker

        checker = WireChecker()
        for e in self.c.trace:
            if e.kind not in ("send", "recv"):
                if e.kind == "noise":
                    self.find(
                        "framing",
                        "framing",
                        "stdout",
                        e.note or "a line that is not MCP",
                        "basic/transports/stdio#receiving-messages",
                    )
                continue
            sender: Literal["client", "server"] = "client" if e.kind == "send" else "server"
            obj = e.message.to_dict() if e.message is not None else e.line
            f = checker.feed(obj, sender=sender, line=e.line)
            if sender != "server":
                continue
            if f.verdict in ("valid", "invalid"):
                self.r.judged += 1
            if f.verdict == "invalid":
                self.find(
                    "schema",
                    "schema",
                    f"the answer to {f.method or '?'} ({f.version}, model {f.model})",
                    f"{f.error}: {(e.line or '')[:200]}",
                    f"schema#{(f.model or '').lower()}",
                )


def check(
    server: Any, *, timeout: float = 10.0, headers: dict | None = None, limit: int = 20, **connect_kwargs
) -> ServerCheckReport:
    """Exercise `server`'s declared surface and judge every answer (see the module's notes).

    `server`: a known short name, an argv list, or an http(s) URL; `headers` go with every HTTP
    request.  `limit` bounds the prompts got and the resources read of each list.  Raises what
    `mcp_lab.probe` raises when the server cannot be started or reached (a 401/403 included)."""
    from mcp_lab.session.probe import probe

    kw = dict(connect_kwargs)
    if headers:
        kw["headers"] = headers
    verdict = probe(server, timeout=min(timeout, 5.0), refresh=True, **kw)
    try:
        c = verdict.client
        if c is None:  # probe() hands back its open client; a Verdict without one cannot be exercised
            raise RuntimeError(f"{verdict.server}: the probe kept no client to check with")
        c.timeout = timeout
        report = ServerCheckReport(
            verdict.server, verdict.era, verdict.version, dict(verdict.capabilities), trace=c.trace
        )
        run = _CheckRun(c, report, limit)
        if verdict.ok:
            listed = run.kinds()
            run.exercise(listed)
            run.unknowns(listed)
        else:
            run.find(
                "not-served",
                "declared-not-served",
                "the probe",
                "no era and version could be agreed on",
                "basic/versioning",
            )
        c.finish()  # stdout read to its end: a line a buffered server flushes at exit is judged too
        run.codes()
        run.schema()
        return report
    finally:
        verdict.close()
