"""The glossary: linked from notebook 00 and the README, every entry linking the specification,
and every term linked to its entry where the course (in map order) first uses it.

The rule itself is in mcp_lab/course/glossary.py (`python -m mcp_lab.course.glossary --link` adds
the links a merge may have moved).
"""

from __future__ import annotations

import json
import re
import shutil

from _support import ROOT

from mcp_lab.course import glossary


def test_the_glossary_is_linked_from_start_here_and_the_readme():
    start = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    assert any("](glossary.ipynb)" in "".join(c["source"]) for c in start["cells"]), (
        "notebook 00 should link the glossary"
    )
    assert "notebooks/glossary.ipynb" in (ROOT / "README.md").read_text(), "the README should link the glossary"


def test_every_entry_links_the_specification():
    cells = json.loads((ROOT / "notebooks" / "glossary.ipynb").read_text())["cells"][1:]
    for cell in cells:
        src = "".join(cell["source"])
        assert "https://modelcontextprotocol.io/specification/2026-07-28/" in src, f"no spec link in: {src[:80]!r}"


def test_the_glossary_defines_what_the_issue_lists():
    have = glossary.entries(ROOT)
    for anchor in ("host", "client", "server", "revision", "capability", "_meta", "resultType", "input_required",
                   "requestState", "handle", "SEP", "SSE", "ttlMs", "isError", "elicitation", "sampling",
                   "WAL", "HMAC", "DNS-rebinding", "intermediaries", "Mcp-Session-Id", "o200k_base",
                   # the second half's terms (issue 36)
                   "cassette", "replay", "baseline", "conformance-suite", "fixture", "just-in-time",
                   "Inspector", "showcase"):  # fmt: skip
        assert anchor in have, f"the glossary has no entry {anchor!r}"


def test_every_term_links_the_glossary_where_the_course_first_uses_it():
    todo = glossary.missing(ROOT)
    assert not todo, "\n".join(
        f"{a}: first used in {n}, cell {i}, without a link to glossary.ipynb#{a} "
        "(python -m mcp_lab.course.glossary --link adds it)"
        for a, n, i in todo
    )


def test_every_glossary_link_lands_on_an_explicit_anchor():
    # A link is `glossary.ipynb#cell-id=x` (JupyterLab scrolls there even on the glossary's first
    # open) or `glossary.ipynb#x` (an explicit <a id="x">, which lands only once the glossary is
    # open): either way the entry's anchor and cell id must exist (glossary.entries() checks the id).
    cells = json.loads((ROOT / "notebooks" / "glossary.ipynb").read_text())["cells"]
    defined = {a for c in cells for a in re.findall(r'<a id="([^"]+)"></a>', "".join(c["source"]))}
    linked = {
        m.group(1)
        for folder in ("notebooks", "labs")
        for path in (ROOT / folder).rglob("*.ipynb")
        for m in re.finditer(r"glossary\.ipynb#(?:cell-id=)?([A-Za-z0-9_.-]+)", path.read_text())
    }
    assert linked, "no notebook links the glossary"
    assert linked <= defined, f"glossary links without an explicit <a id> anchor: {sorted(linked - defined)}"


def test_the_glossary_is_prose_only():
    # It keeps its kernelspec on purpose: without one JupyterLab 4.6 asks which kernel to start,
    # and answering "No Kernel" scrolls the page back to its top, undoing the link that opened it
    # (measured by the glossary test in tests/browser/test_run_all_browser.py; see mcp_lab/course/glossary.py).
    nb = json.loads((ROOT / "notebooks" / "glossary.ipynb").read_text())
    assert not [c for c in nb["cells"] if c["cell_type"] == "code"], "the glossary holds only prose"


def test_every_glossary_link_resolves_both_ways():
    # Every glossary.ipynb#... link in a notebook, a lab, a lab's solution or source names an entry;
    # every link from an entry to a notebook cell (where the course shows the term) names a cell.
    broken = glossary.broken_links(ROOT)
    assert not broken, "\n".join(broken)


def test_the_link_reader_catches_a_broken_link(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "labs" / "solutions").mkdir(parents=True)
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        shutil.copy(path, tmp_path / "notebooks")
    assert glossary.broken_links(tmp_path) == [], "the real glossary, with the notebooks it links"
    lab = {
        "cells": [
            {
                "cell_type": "markdown",
                "id": "a",
                "metadata": {},
                "source": ["A [cassete](glossary.ipynb#cell-id=cassete)."],
            }
        ]
    }
    (tmp_path / "labs" / "solutions" / "99-x.ipynb").write_text(json.dumps(lab))
    moved = json.loads((tmp_path / "notebooks" / "15-reproduce-a-trace.ipynb").read_text())
    for cell in moved["cells"]:
        cell["id"] = cell["id"].replace("c15-06", "c15-replay")
    (tmp_path / "notebooks" / "15-reproduce-a-trace.ipynb").write_text(json.dumps(moved))
    broken = "\n".join(glossary.broken_links(tmp_path))
    assert "labs/solutions/99-x.ipynb: glossary.ipynb#cassete is not an entry" in broken
    assert "15-reproduce-a-trace.ipynb#cell-id=c15-06 is not a cell there" in broken
