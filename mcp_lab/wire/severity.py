"""One severity table: the rule a finding breaks, the level the spec states it at, its verdict.

Theory of operation.  `mcp-lab check`, the conformance classifier, their JUnit and their
`--json` all judge the same kind of evidence (an error code, an answer the schema refuses, a
stray stdout line).  So that they cannot disagree, none of them decides a severity: each names
the rule of this table that the evidence breaks, and reads the verdict from the row.

A row is a `Rule`: an id, the keyword the specification uses (`MUST`, `MUST NOT`, `SHOULD`,
...), the server eras it applies to, the spec heading's public URL, and one line in our words.
The verdict follows from the level and nothing else (as h11 keeps its state machine as data):

    MUST, MUST NOT, STATED  -> "defect"   fails the run
    SHOULD, SHOULD NOT      -> "warning"  shown, never fails the run

`STATED` marks a rule the page gives as how the protocol works, without a keyword (tools:
an unknown tool "is returned as" a JSON-RPC protocol error, not a result); breaking it makes
the answer mean something else, so it is judged as a requirement.

The era matters: a 2025-11-25 server answers an unknown resource with -32002, which was that
revision's code; a 2026-07-28 server MUST NOT emit it.  `verdict(rule, era)` is None when the
rule does not bind a server of that era.  `code_rule(code, era)` finds the row an error code
breaks wherever it appears (a retired code, an undefined code of the range the spec reserves).
`SUITE_CHECKS` maps the official conformance suite's check ids onto rows, so a suite WARNING
that is a MUST of the spec is a defect, and a suite check that passed on a forbidden code is
not a pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_lab.wire.revisions import Era

__all__ = ["Rule", "RULES", "DEFECT", "WARNING", "rule", "verdict", "code_rule", "suite_rule", "SUITE_CHECKS"]

DEFECT, WARNING = "defect", "warning"
_VERDICT_OF_LEVEL = {
    "MUST": DEFECT,
    "MUST NOT": DEFECT,
    "STATED": DEFECT,
    "SHOULD": WARNING,
    "SHOULD NOT": WARNING,
}
_BOTH = frozenset(Era)
_ONLY_MODERN = frozenset({Era.MODERN})


@dataclass(frozen=True)
class Rule:
    id: str
    level: str  # a key of _VERDICT_OF_LEVEL
    eras: frozenset[Era]  # the server eras the rule binds
    url: str  # the spec heading that states it
    says: str  # the rule in one line, in our words

    @property
    def verdict(self) -> str:
        return _VERDICT_OF_LEVEL[self.level]


RULES: tuple[Rule, ...] = (
    Rule(
        "schema",
        "MUST",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/schema",
        "every message conforms to the official schema of its revision",
    ),
    Rule(
        "framing",
        "MUST NOT",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio",
        "a stdio server writes nothing to stdout that is not an MCP message",
    ),
    Rule(
        "unknown-tool",
        "STATED",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling",
        "an unknown tool is a protocol error (-32602), not a tool result with isError",
    ),
    Rule(
        "unknown-prompt",
        "SHOULD",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/prompts#error-handling",
        "an unknown prompt name is answered with -32602",
    ),
    Rule(
        "unknown-resource",
        "MUST",
        _ONLY_MODERN,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling",
        "a resource that does not exist is answered with JSON-RPC error -32602",
    ),
    Rule(
        "unknown-resource-empty",
        "MUST NOT",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling",
        "a resource that does not exist is never answered with an empty `contents`",
    ),
    Rule(
        "unknown-resource-data-uri",
        "SHOULD",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/resources#error-handling",
        "the not-found error names the requested URI in its data (the suite's reading)",
    ),
    Rule(
        "retired-code",
        "MUST NOT",
        _ONLY_MODERN,
        "https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes",
        "a 2026-07-28 implementation never emits a retired code (-32002, -32042)",
    ),
    Rule(
        "reserved-code",
        "MUST NOT",
        _ONLY_MODERN,
        "https://modelcontextprotocol.io/specification/2026-07-28/basic#error-codes",
        "no code of -32020..-32099 that the specification does not define is emitted",
    ),
    Rule(
        "declared-not-served",
        "MUST",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#capabilities",
        "a declared capability's methods are served",
    ),
    Rule(
        "served-undeclared",
        "MUST",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#capabilities",
        "a server that supports a primitive declares its capability",
    ),
    Rule(
        "served-undeclared-empty",
        "SHOULD",
        _BOTH,
        "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#capabilities",
        "a method of an undeclared capability is not served, not even with an empty list",
    ),
)
_BY_ID = {r.id: r for r in RULES}
DEFINED_CODES = frozenset({-32020, -32021, -32022})
RETIRED_CODES = frozenset({-32002, -32042})
RESERVED = range(-32099, -32019)
# The official suite's checks that test a row of this table (check id -> rule id).
SUITE_CHECKS = {
    "sep-2164-error-code": "unknown-resource",
    "sep-2164-data-uri": "unknown-resource-data-uri",
}


def rule(rule_id: str) -> Rule:
    return _BY_ID[rule_id]


def verdict(rule_id: str, era: Era | None) -> str | None:
    """The verdict for breaking `rule_id` on a server of `era` (None: the rule does not bind it).
    An unknown era is judged as modern (the revision this course teaches)."""
    r = _BY_ID[rule_id]
    return r.verdict if (era or Era.MODERN) in r.eras else None


def code_rule(code: Any, era: Era | None) -> Rule | None:
    """The row an error code breaks wherever a server emits it, or None."""
    if not isinstance(code, int) or (era or Era.MODERN) != Era.MODERN:
        return None
    if code in RETIRED_CODES:
        return _BY_ID["retired-code"]
    if code in RESERVED and code not in DEFINED_CODES:
        return _BY_ID["reserved-code"]
    return None


def suite_rule(check_id: str, details: dict | None, era: Era | None) -> Rule | None:
    """The row a conformance suite check stands for, judged from its details: a check mapped in
    SUITE_CHECKS, or any check whose details show an error code the table forbids."""
    details = details if isinstance(details, dict) else {}
    for key in ("receivedErrorCode", "observedCode", "code"):
        found = code_rule(details.get(key), era)
        if found is not None:
            return found
    rid = SUITE_CHECKS.get(check_id)
    return _BY_ID[rid] if rid and verdict(rid, era) else None
