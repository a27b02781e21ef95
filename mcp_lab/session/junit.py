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


def write_conformance(result, path: str | os.PathLike) -> None:
    """`result` is a `mcp_lab.conformance.Result`."""
    by_scenario: dict[str, list] = {}
    for c in result.checks:
        if c.scored:
            by_scenario.setdefault(c.scenario, []).append(c)
    suites = []
    for scenario, checks in by_scenario.items():
        suite = ET.Element("testsuite", name=f"conformance.{scenario}", tests=str(len(checks)))
        failures = skipped = 0
        for c in checks:
            case = ET.SubElement(suite, "testcase", classname=f"conformance.{scenario}", name=c.id)
            if not c.failed:
                if c.status == "SKIPPED":
                    ET.SubElement(case, "skipped", message="skipped by the suite")
                    skipped += 1
                continue
            detail = c.detail_text(2000) + (f"\nspec: {c.link}" if c.link else "")
            if c.baselined:
                ET.SubElement(case, "skipped", message=f"expected (baseline): {c.baselined}").text = detail
                skipped += 1
            elif c.kind not in (None, "defect") or c.status == "WARNING" and result.baseline is None:
                why = f"{c.kind}: {c.kind_reason}" if c.kind not in (None, "defect") else "a warning (SHOULD)"
                ET.SubElement(case, "skipped", message=why).text = detail
                skipped += 1
            else:
                ET.SubElement(case, "failure", message=(c.error or c.status)[:500], type=c.status).text = detail
                failures += 1
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
