"""The Makefile's rules name only variables defined above them.

make expands a rule's targets and prerequisites as it reads the line, so a variable defined
further down is still empty there: the prerequisite silently disappears. That happened to
`test: ... $(LITE_STAMP)` (the site was never built before the tests, and two test workers built
it at once). A recipe line (tab-indented) is expanded later, when it runs, and is not checked.
"""

from __future__ import annotations

import re

from _support import ROOT

ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?::=|::=|\?=|\+=|=)")
REFERENCE = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")


def used_before_defined(text: str) -> list[str]:
    """'line N: VAR (defined at line M)' for each rule line naming a variable defined below it."""
    lines = text.splitlines()
    defined: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        match = ASSIGNMENT.match(line)
        if match:
            defined.setdefault(match.group(1), number)
    found = []
    for number, line in enumerate(lines, 1):
        if line.startswith(("\t", "#")) or ASSIGNMENT.match(line) or ":" not in line:
            continue
        for name in REFERENCE.findall(line.split("#", 1)[0]):
            if defined.get(name, 0) > number:
                found.append(f"line {number}: {name} (defined at line {defined[name]})")
    return found


def test_the_check_finds_a_prerequisite_named_before_its_definition():
    text = "test: lint $(SITE_STAMP)\n\tpytest\n\nSITE_STAMP := build/site/.stamp\n"
    assert used_before_defined(text) == ["line 1: SITE_STAMP (defined at line 4)"]
    assert used_before_defined("A := x\nall: $(A)\n\t@echo $(B)\nB := y\n") == []


def test_every_rule_names_variables_defined_above_it():
    found = used_before_defined((ROOT / "Makefile").read_text(encoding="utf-8"))
    assert not found, "make reads these as empty (move the definition above the rule):\n" + "\n".join(found)
