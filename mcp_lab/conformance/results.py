"""A conformance run read back: every checks.json, judged, as a table (HTML and text).

The suite writes one folder per scenario (`server-<scenario>-<timestamp>/checks.json`, or
`<scenario>-<timestamp>/` in client mode), each an array of checks: id, name, description,
status (SUCCESS, FAILURE, WARNING, SKIPPED, INFO), spec references, details and, on failure,
an error message.  `read_checks` collects them; `ConformanceResult` holds them with the requirement set's
scoring (scored, or not scored and why), the baseline's verdict, and renders them.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .baseline import FAILING, Baseline, Judgement
from .spec_links import spec_link

__all__ = ["Check", "ConformanceResult", "read_checks"]

_TIMESTAMP = re.compile(r"-\d{4}-\d\d-\d\dT[\d-]+Z$")
_SYMBOL = {"SUCCESS": "✓", "FAILURE": "✗", "WARNING": "!", "SKIPPED": "-", "INFO": "i"}
# One page wide: fixed columns, long ids and messages wrapped instead of running off the right edge.
_TABLE_STYLE = (
    "<style>table.mcp-lab-conformance{border-collapse:collapse;font-size:12px;width:100%;table-layout:fixed}"
    "table.mcp-lab-conformance td{border-top:1px solid #d0d7de;padding:3px 6px;vertical-align:top;"
    "overflow-wrap:anywhere;text-align:left}</style>"
)
_COLOUR = {"SUCCESS": "#1a7f37", "FAILURE": "#cf222e", "WARNING": "#9a6700", "SKIPPED": "#57606a", "INFO": "#57606a"}


@dataclass
class Check:
    scenario: str
    id: str
    name: str
    status: str
    description: str = ""
    error: str | None = None
    details: dict | None = None
    references: list[dict] = field(default_factory=list)
    scored: bool = True
    baselined: str | None = None  # the baseline's reason, when this check is expected to fail
    revision: str | None = None  # the requirement set the run was made at
    kind: str | None = None  # a failing check's classification (classify.py): defect, fixture, ...
    kind_reason: str | None = None
    # The severity table's reading (mcp_lab.wire.severity, set by classify.judge): the row the
    # check stands for, the spec's level for it, and its link; None where the suite's own
    # status is the verdict (FAILURE: a MUST it tests, WARNING: a SHOULD).
    rule: str | None = None
    level: str | None = None
    rule_url: str | None = None
    rule_verdict: str | None = None

    @property
    def verdict(self) -> str | None:
        """defect | warning | None (passed): the table's verdict, else the suite's status."""
        if self.rule_verdict is not None:
            return self.rule_verdict
        return {"FAILURE": "defect", "WARNING": "warning"}.get(self.status)

    @property
    def failed(self) -> bool:
        return self.status in FAILING

    @property
    def link(self) -> str | None:
        return self.rule_url or spec_link(self.scenario, self.references, self.revision, self.id)

    def detail_text(self, limit: int = 400) -> str:
        parts = [self.error] if self.error else []
        if self.failed and self.details:
            parts.append(json.dumps(self.details, ensure_ascii=False, separators=(",", ":")))
        # Lines joined, spaces kept: a check about whitespace ("  create_event  ") must show it.
        text = re.sub(r"\s*\n\s*", " ", " ".join(parts)).strip()
        return text if len(text) <= limit else text[: limit - 1] + "…"


def _scenario_of(folder: str, mode: str) -> str:
    name = _TIMESTAMP.sub("", folder)
    return name[len("server-") :] if mode == "server" and name.startswith("server-") else name


def read_checks(out_dir: Path, mode: str = "server") -> dict[str, list[dict]]:
    """{scenario: [check dicts]} from every checks.json under `out_dir` (latest run of each)."""
    found: dict[str, list[dict]] = {}
    for path in sorted(Path(out_dir).glob("*/checks.json")):
        try:
            checks = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            checks = [
                {
                    "id": "checks-json-unreadable",
                    "name": "ChecksJsonUnreadable",
                    "status": "FAILURE",
                    "errorMessage": f"{path.parent.name}/checks.json could not be read: {e}",
                }
            ]
        if isinstance(checks, list):
            found[_scenario_of(path.parent.name, mode)] = [c for c in checks if isinstance(c, dict)]
    return found


@dataclass
class ConformanceResult:
    """One conformance run of one target: the checks, the scoring, the baseline's verdict."""

    target: str
    requirements: str | None
    mode: str
    checks: list[Check]
    judgement: Judgement
    baseline: Baseline | None = None
    not_scored: dict[str, str] = field(default_factory=dict)  # scenario -> reason
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)  # hung suite, missing scenario, ...
    url: str | None = None
    suite_exit: list = field(default_factory=list)  # the suite's exit status, per process
    notes: list[str] = field(default_factory=list)  # how the run was made (a stdio bridge, ...)

    # -- the verdict ------------------------------------------------------------------------
    @property
    def ok(self) -> bool:
        """True when no scored, non-baselined check failed as a defect of the server (a failure
        classified as a missing fixture, an undeclared capability or untestable is explained, not
        a defect), no baseline entry is stale, and nothing went wrong around the suite."""
        return not self.defects() and not self.judgement.stale and not self.problems

    def unexpected_checks(self) -> list[Check]:
        """The failing occurrences of the judgement's unexpected checks (a check id the suite
        reports several times, passing some of them, counts by its failing ones)."""
        keys = set(self.judgement.unexpected)
        return [c for c in self.checks if c.scored and c.failed and f"{c.scenario}:{c.id}" in keys]

    def _judged(self, verdict: str) -> list[Check]:
        return [
            c
            for c in self.checks
            if c.scored and not c.baselined and c.verdict == verdict and c.kind in (None, "defect")
        ]

    def defects(self) -> list[Check]:
        """Every scored check, not baselined, whose verdict (the severity table's, else the
        suite's FAILURE) is a defect and whose failure is not explained as a fixture, a
        capability or untestable: whatever status the suite gave it (a suite WARNING that is a
        MUST of the spec, a suite pass on a code the spec forbids)."""
        return self._judged("defect")

    def not_observed(self) -> list[Check]:
        """Scored passes that say nothing about the server: the scenario's fixture is missing."""
        return [c for c in self.checks if c.scored and c.kind == "not-observed"]

    def warnings(self) -> list[Check]:
        """The same for SHOULDs: shown, never failing the run."""
        return self._judged("warning")

    def by_kind(self) -> dict[str, list[Check]]:
        out: dict[str, list[Check]] = {}
        for c in self.unexpected_checks():
            out.setdefault(c.kind or "defect", []).append(c)
        return out

    def baseline_skeleton(self) -> str:
        """A baseline (YAML) listing every failing scored check, each with its classification as
        the reason: a start to edit, not a verdict (a defect stays a defect until it is fixed)."""
        import yaml

        entries = []
        for c in self.checks:
            if c.scored and c.failed:
                why = c.baselined or f"{c.kind or 'defect'}: {c.kind_reason or c.detail_text(160)}"
                entries.append({"check": f"{c.scenario}:{c.id}", "reason": why})
        unique = list({e["check"]: e for e in entries}.values())
        head = (
            f"# Expected failures of {self.target} (requirements {self.requirements}), written by\n"
            "# `mcp-lab conformance --write-baseline`: each reason is the failure's classification.\n"
            "# Read every entry: a `defect:` entry hides a real bug until the server is fixed.\n"
        )
        return head + yaml.safe_dump({"server": unique}, sort_keys=False, allow_unicode=True, width=1000)

    @property
    def scenarios(self) -> list[str]:
        return list(dict.fromkeys(c.scenario for c in self.checks))

    def failures(self, *, scored_only: bool = True, include_baselined: bool = True) -> list[Check]:
        return [
            c
            for c in self.checks
            if c.failed and (c.scored or not scored_only) and (include_baselined or not c.baselined)
        ]

    def totals(self, *, scored_only: bool = True) -> dict[str, int]:
        out = {"scenarios": 0, "checks": 0, "SUCCESS": 0, "FAILURE": 0, "WARNING": 0, "SKIPPED": 0, "INFO": 0}
        seen = set()
        for c in self.checks:
            if scored_only and not c.scored:
                continue
            seen.add(c.scenario)
            out["checks"] += 1
            out[c.status] = out.get(c.status, 0) + 1
        out["scenarios"] = len(seen)
        return out

    def summary(self) -> str:
        t = self.totals()
        head = (
            f"{self.target}: {t['scenarios']} scored scenarios, {t['checks']} checks -- "
            f"{t['SUCCESS']} passed, {t['FAILURE']} failed, {t['WARNING']} warnings, {t['SKIPPED']} skipped"
            + (f", {t['INFO']} informational (reported, not judged)" if t["INFO"] else "")
        )
        if self.requirements:
            head += f" (requirements {self.requirements})"
        j = self.judgement
        if self.baseline is not None:
            head += f"; baseline {self.baseline.name}: {len(j.expected)} expected"
        verdict = "PASS" if self.ok else "FAIL"
        defects, warnings = len(self.defects()), len(self.warnings())
        counted = f"{defects} defect(s) (MUST), {warnings} warning(s) (SHOULD)"
        if self.ok and (j.unexpected or warnings):
            counted += "; PASS because no failure is a defect of the server"
        extra = [counted]
        if self.not_observed():
            extra.append(
                f"{len(self.not_observed())} pass(es) not observed: the scenario calls a fixture the "
                "server does not list, so the pass says nothing about the server"
            )
        if j.unexpected:
            extra.append(f"{len(j.unexpected)} failure(s) not in the baseline (unexpected), each classified below")
        if j.stale:
            extra.append(
                f"{len(j.stale)} stale baseline entr{'y' if len(j.stale) == 1 else 'ies'} (now passing: remove)"
            )
        kinds = self.by_kind()
        if kinds:
            from .classify import KINDS

            order = ("defect", "fixture", "capability", "untestable")
            extra.append(
                "; ".join(f"{len(kinds[k])} {KINDS[k]}" for k in order if k in kinds)
                + (" (only defects fail the run)" if set(kinds) - {"defect"} else "")
            )
        extra += self.problems + self.notes
        return f"{verdict}  {head}" + ("".join(f"\n      {e}" for e in extra))

    # -- renderers ----------------------------------------------------------------------------
    def text(self, *, all_checks: bool = False, width: int = 100, include_baselined: bool = True) -> str:
        """The summary, then one line per check: every scored check when `all_checks`, else the
        failing ones; a failure's details, baseline reason and spec link below it.  Checks of
        scenarios that are not scored are summed up in one line."""
        lines = [self.summary(), ""]
        rank = {"defect": 0, None: 0, "fixture": 1, "capability": 2, "untestable": 3}
        shown = [c for c in self.checks if c.scored and (all_checks or c.failed or c.verdict == "defect")]
        if not include_baselined:
            shown = [c for c in shown if not c.baselined]
        # Defects first, then the explained failures, then baselined ones, then the rest.
        shown.sort(key=lambda c: (not c.failed, bool(c.baselined), rank.get(c.kind, 0)))
        for c in shown:
            mark = "~" if c.baselined else ("?" if c.kind == "not-observed" else _SYMBOL.get(c.status, "?"))
            kind = f"  [{c.kind}]" if (c.failed or c.kind == "not-observed") and c.kind and not c.baselined else ""
            lines.append(f"{mark} {c.status:<8} {c.scenario} :: {c.id}{kind}")
            if (c.failed or c.kind == "not-observed") and c.kind and c.kind != "defect" and not c.baselined:
                lines.append(f"      {c.kind}: {c.kind_reason}")
            elif c.rule and c.verdict and not c.baselined:
                lines.append(f"      {c.verdict} ({c.level}, whatever the suite's status): rule {c.rule}")
            if c.failed:
                detail = c.detail_text(width * 2)
                if detail:
                    lines.append(f"      {detail}")
                if c.baselined:
                    lines.append(f"      expected (baseline): {c.baselined}")
                if c.link:
                    lines.append(f"      spec: {c.link}")
        for s in self.judgement.stale:
            lines.append(f"✓ STALE    {s}  (baselined, but passing now: remove the entry)")
        extra = [s for s in self.scenarios if s in self.not_scored]
        if extra:
            failing = sorted({c.scenario for c in self.checks if c.scenario in extra and c.status == "FAILURE"})
            lines.append(
                f"not scored for {self.requirements}: {len(extra)} scenario(s) run, {len(failing)} failing"
                + (f" ({', '.join(failing)})" if failing else "")
                + "; they do not count"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<conformance.Result {self.summary().splitlines()[0]}>"

    def _repr_html_(self) -> str:
        return self.html()

    def html(self, *, all_checks: bool = True) -> str:
        """Sized for a page: the summary; the scored checks that fail the run; then, folded, the
        scored failures the baseline expects (with their reasons), the checks of scenarios that
        are not scored (extensions, pending scenarios: they do not count) and the scored checks
        that passed, were skipped or only informed (`all_checks=False` omits the folded parts)."""
        colour = "#1a7f37" if self.ok else "#cf222e"
        head = "".join(f"<div>{html.escape(line.strip())}</div>" for line in self.summary().splitlines())
        scored = [c for c in self.checks if c.scored]
        unexpected = [c for c in scored if c.failed and not c.baselined]
        out = [_TABLE_STYLE, f'<div style="border-left:4px solid {colour};padding-left:8px">{head}</div>']
        if unexpected:
            out.append(f"<p><b>Scored checks that failed, not in the baseline ({len(unexpected)})</b></p>")
            out.append(self._table(unexpected))
        else:
            out.append("<p>No scored check failed outside the baseline.</p>")
        if not all_checks:
            return "".join(out)
        expected = [c for c in scored if c.failed and c.baselined]
        extra = [c for c in self.checks if not c.scored]
        rest = [c for c in scored if not c.failed]
        folds = []
        if expected:
            folds.append((f"{len(expected)} scored failures the baseline expects, each with its reason", expected))
        if extra:
            reasons = ", ".join(sorted({self.not_scored.get(c.scenario, "not scored") for c in extra}))
            folds.append(
                (
                    f"{len(extra)} checks of {len({c.scenario for c in extra})} scenarios that are not scored "
                    f"({reasons}): {sum(c.failed for c in extra)} failing; they do not count",
                    sorted(extra, key=lambda c: not c.failed),
                )
            )
        if rest:
            folds.append((f"{len(rest)} scored checks that passed, were skipped or are informational", rest))
        for summary, checks in folds:
            out.append(f"<details><summary>{html.escape(summary)}</summary>{self._table(checks)}</details>")
        return "".join(out)

    def _table(self, checks: list[Check]) -> str:
        """A table that fits a page: fixed column widths, long values wrapped, details cut at 300
        characters with the whole text one click away."""
        e = html.escape
        rows = []
        for c in checks:
            status = "EXPECTED" if c.baselined else c.status
            cell = f'<span style="color:{_COLOUR.get(c.status, "#000")};font-weight:600">{e(status)}</span>'
            link = (
                f'<a href="{e(c.link)}" target="_blank" rel="noopener">{e(c.link.split("/specification/", 1)[-1])}</a>'
                if c.link
                else ""
            )
            what = e(c.description or c.name) + (f"<br>{link}" if link else "")
            detail = ""
            if c.failed:
                short, full = c.detail_text(300), c.detail_text(100_000)
                detail = e(short) if short == full else f"<details><summary>{e(short)}</summary>{e(full)}</details>"
            if c.baselined:
                detail += f"<br><i>expected: {e(c.baselined)}</i>"
            scored = "" if c.scored else f" <small>(not scored: {e(self.not_scored.get(c.scenario, ''))})</small>"
            rows.append(
                f"<tr><td>{e(c.scenario)}{scored}</td><td><code>{e(c.id)}</code></td><td>{cell}</td>"
                f"<td>{what}</td><td>{detail}</td></tr>"
            )
        widths = "".join(f'<col style="width:{w}%">' for w in (15, 22, 9, 27, 27))
        return (
            f'<table class="mcp-lab-conformance"><colgroup>{widths}</colgroup><thead><tr><th>scenario</th>'
            "<th>check</th><th>status</th><th>what the spec requires</th><th>details</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "defects": list(dict.fromkeys(f"{c.scenario}:{c.id}" for c in self.defects())),
            "warnings": list(dict.fromkeys(f"{c.scenario}:{c.id}" for c in self.warnings())),
            "not_observed": list(dict.fromkeys(f"{c.scenario}:{c.id}" for c in self.not_observed())),
            "target": self.target,
            "requirements": self.requirements,
            "mode": self.mode,
            "totals": self.totals(),
            "seconds": round(self.seconds, 2),
            "problems": self.problems,
            "classified": {k: [f"{c.scenario}:{c.id}" for c in v] for k, v in self.by_kind().items()},
            "notes": self.notes,
            "unexpected": self.judgement.unexpected,
            "stale": self.judgement.stale,
            "expected": self.judgement.expected,
            "checks": [
                {
                    "scenario": c.scenario,
                    "id": c.id,
                    "status": c.status,
                    "scored": c.scored,
                    "error": c.error,
                    "spec": c.link,
                    "baselined": c.baselined,
                    "kind": c.kind,
                    "kind_reason": c.kind_reason,
                    "verdict": c.verdict,
                    "rule": c.rule,
                    "level": c.level,
                }
                for c in sorted(self.checks, key=lambda c: (not c.failed, c.kind not in (None, "defect")))
            ],
        }


def build_checks(
    raw: dict[str, list[dict]], scored: set[str] | None, baseline: Baseline | None, revision: str | None = None
) -> list[Check]:
    out = []
    for scenario, checks in raw.items():
        for c in checks:
            status = str(c.get("status", "FAILURE"))
            reason = baseline.reason(scenario, c.get("id")) if baseline and status in FAILING else None
            out.append(
                Check(
                    scenario=scenario,
                    id=str(c.get("id", "?")),
                    name=str(c.get("name", "")),
                    status=status,
                    description=str(c.get("description", "")),
                    error=c.get("errorMessage"),
                    details=c.get("details") if isinstance(c.get("details"), dict) else None,
                    references=[r for r in c.get("specReferences") or [] if isinstance(r, dict)],
                    scored=scored is None or scenario in scored,
                    baselined=reason,
                    revision=revision,
                )
            )
    return out
