"""Expected-failures baselines: the suite's own format, with a reason for every entry.

A baseline file (YAML, `baselines/NAME.yaml` or `.yml` beside this module) names what a server is known
to fail, each entry with why:

    server:
      - check: tools-call-simple-text            # a whole scenario
        reason: a calendar has no test_simple_text tool
      - check: server-stateless:sep-2575-http-server-method-not-found-404-initialize
        reason: "our HTTP binding answers initialize 400/-32022 (issue 14)"

`to_suite_yaml` writes the plain list the suite reads (`--expected-failures`), and `judge`
applies the suite's rules to the parsed checks, so the verdict here and the suite's exit
status agree: without a baseline a FAILURE fails the run (a WARNING is shown, not counted);
with one, a FAILURE or WARNING that is not baselined is unexpected; a baselined entry
whose check now passes is STALE and fails the run (remove it); a baselined check that did not
run at all (its scenario bailed out earlier) is tolerated, as the suite does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["BASELINE_DIR", "Entry", "Baseline", "load_baseline", "judge", "Judgement"]

BASELINE_DIR = Path(__file__).resolve().parent / "baselines"
FAILING = ("FAILURE", "WARNING")


@dataclass(frozen=True)
class Entry:
    scenario: str
    check: str | None  # None: the whole scenario may fail
    reason: str

    @property
    def key(self) -> str:
        return self.scenario if self.check is None else f"{self.scenario}:{self.check}"


@dataclass(frozen=True)
class Baseline:
    name: str
    entries: tuple[Entry, ...]

    def to_suite_yaml(self, leg: str = "server") -> str:
        import yaml

        return yaml.safe_dump({leg: [e.key for e in self.entries]}, sort_keys=False)

    def reason(self, scenario: str, check: str | None = None) -> str | None:
        for e in self.entries:
            if e.scenario == scenario and (e.check is None or e.check == check):
                return e.reason
        return None


def load_baseline(which: str | Path, leg: str = "server") -> Baseline:
    """A baseline by short name (`calendar` -> baselines/calendar.yaml) or by path."""
    import yaml

    path = Path(which)
    if not path.suffix:
        path = next(
            (p for p in (BASELINE_DIR / f"{which}.yaml", BASELINE_DIR / f"{which}.yml") if p.exists()),
            BASELINE_DIR / f"{which}.yaml",
        )
    if not path.exists():
        known = sorted(p.stem for p in BASELINE_DIR.glob("*.y*ml"))
        raise ValueError(f"no baseline {which!r}: use one of {', '.join(known) or '(none)'} or a YAML path")
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    raw = data.get(leg) or []
    if not isinstance(raw, list):
        raise ValueError(f"{path.name}: '{leg}' must be a list of {{check, reason}} entries")
    entries = []
    for i, item in enumerate(raw, 1):
        if not (isinstance(item, dict) and isinstance(item.get("check"), str) and item["check"]):
            raise ValueError(f"{path.name}: entry {i} needs `check: <scenario>` or `check: <scenario>:<check-id>`")
        reason = item.get("reason")
        if not (isinstance(reason, str) and reason.strip()):
            raise ValueError(f"{path.name}: entry {i} ({item['check']}) has no reason; every entry says why")
        scenario, _, check = item["check"].partition(":")
        entries.append(Entry(scenario, check or None, " ".join(reason.split())))
    whole = {e.scenario for e in entries if e.check is None}
    for e in entries:
        if e.check is not None and e.scenario in whole:
            raise ValueError(f"{path.name}: {e.key} is redundant, the whole scenario {e.scenario} is baselined")
    return Baseline(path.stem, tuple(entries))


@dataclass
class Judgement:
    unexpected: list[str]  # failing, not baselined
    stale: list[str]  # baselined, but passing now
    expected: list[str]  # failing, baselined

    @property
    def ok(self) -> bool:
        return not self.unexpected and not self.stale


def _collapse(checks: list[dict]) -> dict[str, str]:
    """One status per check id, the most severe occurrence (INFO ignored), as the suite does."""
    rank = {"FAILURE": 3, "WARNING": 2, "SUCCESS": 1}
    out: dict[str, str] = {}
    for c in checks:
        s = c.get("status")
        if s == "INFO":
            continue
        if c["id"] not in out or rank.get(s, 0) >= rank.get(out[c["id"]], 0):
            out[c["id"]] = s
    return out


def judge(scenarios: dict[str, list[dict]], baseline: Baseline | None) -> Judgement:
    """The suite's expected-failures rules over {scenario: [check dicts]}."""
    entries = baseline.entries if baseline else ()
    whole = {e.scenario for e in entries if e.check is None}
    per_check: dict[str, set[str]] = {}
    for e in entries:
        if e.check is not None:
            per_check.setdefault(e.scenario, set()).add(e.check)
    j = Judgement([], [], [])
    if baseline is None:
        # Without a baseline the suite fails a run on FAILURE only; a WARNING (a SHOULD) is shown.
        for scenario, checks in scenarios.items():
            j.unexpected += [f"{scenario}:{cid}" for cid, s in _collapse(checks).items() if s == "FAILURE"]
        return j
    for scenario, checks in scenarios.items():
        failing = any(c.get("status") in FAILING for c in checks)
        if scenario in whole:
            (j.expected if failing else j.stale).append(scenario)
            continue
        statuses = _collapse(checks)
        named = per_check.get(scenario, set())
        for cid, status in statuses.items():
            if status in FAILING:
                (j.expected if cid in named else j.unexpected).append(f"{scenario}:{cid}")
        for cid in sorted(named):
            if statuses.get(cid) == "SUCCESS":
                j.stale.append(f"{scenario}:{cid}")
    return j
