"""JUnit XML for CI: a conformance run (one test case per check) or a replay (one per exchange).

Written with the standard library's ElementTree.  A conformance failure that is a defect of the
server is a <failure>; one classified as a missing fixture, an undeclared capability or
untestable, and a baselined one, is <skipped> with its reason, so a CI page shows what was not
judged and why; a replayed exchange that differs is a <failure> listing its changed paths.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

__all__ = ["write_conformance", "write_replay"]


def _write(suites: list[ET.Element], path: str | os.PathLike) -> None:
    root = ET.Element("testsuites")
    for s in suites:
        root.append(s)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _unique(name: str, seen: dict[str, int]) -> str:
    """`name`, or `name (2)`, `name (3)` for a check the suite reports several times."""
    seen[name] = seen.get(name, 0) + 1
    return name if seen[name] == 1 else f"{name} ({seen[name]})"


def write_conformance(result, path: str | os.PathLike) -> None:
    """`result` is a `mcp_lab.conformance.Result`.  The verdicts are the result's own (the one
    severity table): a defect is a <failure>; a warning (a SHOULD), an explained failure and a
    baselined one are <skipped> with the reason and the spec heading."""
    defects = {id(c) for c in result.defects()}
    by_scenario: dict[str, list] = {}
    for c in result.checks:
        if c.scored:
            by_scenario.setdefault(c.scenario, []).append(c)
    suites = []
    for scenario, checks in by_scenario.items():
        suite = ET.Element("testsuite", name=f"conformance.{scenario}", tests=str(len(checks)))
        failures = skipped = 0
        seen: dict[str, int] = {}
        for c in checks:
            name = _unique(c.id, seen)
            case = ET.SubElement(suite, "testcase", classname=f"conformance.{scenario}", name=name)
            detail = c.detail_text(2000) + (f"\nspec: {c.link}" if c.link else "")
            if id(c) in defects:
                level = f" ({c.level})" if c.level else ""
                message = f"defect{level}: " + (c.error or c.status)
                ET.SubElement(case, "failure", message=message[:500], type=c.status).text = detail
                failures += 1
            elif c.baselined and c.failed:
                ET.SubElement(case, "skipped", message=f"expected (baseline): {c.baselined}").text = detail
                skipped += 1
            elif c.failed and c.kind not in (None, "defect"):
                ET.SubElement(case, "skipped", message=f"{c.kind}: {c.kind_reason}").text = detail
                skipped += 1
            elif c.kind == "not-observed":
                ET.SubElement(case, "skipped", message=f"not observed: {c.kind_reason}")
                skipped += 1
            elif c.verdict == "warning":
                why = f"a warning ({c.level or 'SHOULD'}): not a defect" + (f"; spec: {c.link}" if c.link else "")
                ET.SubElement(case, "skipped", message=why).text = detail
                skipped += 1
            elif c.status == "SKIPPED":
                ET.SubElement(case, "skipped", message="skipped by the suite")
                skipped += 1
        suite.set("failures", str(failures))
        suite.set("skipped", str(skipped))
        suites.append(suite)
    _write(suites, path)


def write_replay(d, path: str | os.PathLike) -> None:
    """`d` is a `mcp_lab.session.diff.TraceDiff`."""
    suite = ET.Element("testsuite", name=f"replay.{d.left_name}", tests=str(len(d.items)))
    failures = 0
    for n, item in enumerate(d.items, 1):
        case = ET.SubElement(suite, "testcase", classname=f"replay.{d.left_name}", name=f"{n:03d} {item.label}")
        if item.status != "same":
            lines = [item.why or ""] + [c.text(200) for c in item.changes]
            ET.SubElement(case, "failure", message=item.status, type=item.status).text = "\n".join(
                x for x in lines if x
            )
            failures += 1
    if d.error:
        case = ET.SubElement(suite, "testcase", classname=f"replay.{d.left_name}", name="replay completed")
        ET.SubElement(case, "failure", message="stopped early", type="error").text = d.error
        failures += 1
        suite.set("tests", str(len(d.items) + 1))
    suite.set("failures", str(failures))
    _write([suite], path)
