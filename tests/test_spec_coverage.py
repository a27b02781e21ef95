"""The spec coverage map (docs/spec-coverage.csv) matches the specification's pages, row for row.

tools/spec_coverage.py cuts the 2026-07-28 pages into MUST / MUST NOT sentences (its docstring
states how). These tests hold the map to them: every sentence has a row, every row's sentence
is still on its page, every status is taught / checked / out-of-scope, every `where` names a
notebook cell or a test that exists, and the browsable page is the CSV's current rendering.
The pages sit in the course's shared folder beside the clone (`../shared`, or $MCP_LAB_SHARED),
as for tests/test_spec_links.py: absent, the tests skip, except under CI where they fail.
The last tests show the checker catching each defect it exists for, on a copy of the map.
"""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest
from _support import ROOT

_spec = importlib.util.spec_from_file_location("spec_coverage", ROOT / "tools" / "spec_coverage.py")
coverage = importlib.util.module_from_spec(_spec)
sys.modules["spec_coverage"] = coverage  # dataclasses look their module up there
_spec.loader.exec_module(coverage)


@pytest.fixture(scope="module")
def reqs():
    docs = coverage.spec_docs()
    if not docs.is_dir():
        reason = f"the specification's pages are not at {docs} (the shared folder is not beside this clone)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + "; under CI the shared folder must be present", pytrace=False)
        pytest.skip(reason)
    return coverage.requirements(docs)


@pytest.fixture(scope="module")
def rows():
    return coverage.read_map()


def test_every_row_resolves_and_every_sentence_has_a_row(reqs, rows):
    found = coverage.problems(reqs, rows)
    assert not found, "\n".join(found[:40]) + "\n(python tools/spec_coverage.py update, then triage)"


def test_the_browsable_page_is_the_current_rendering(rows):
    assert coverage.MD_PATH.read_text(encoding="utf-8") == coverage.render_markdown(rows), (
        "docs/spec-coverage.md is stale: python tools/spec_coverage.py update"
    )


def test_at_least_half_of_the_in_scope_rows_are_taught(rows):
    taught, in_scope = coverage.in_scope_counts(rows)  # gaps ("not taught yet: ...") count in scope
    assert taught * 2 >= in_scope, f"{taught} of {in_scope} in-scope rows taught"


def test_authorization_is_out_of_scope(rows):
    auth = [r for r in rows if r["page"].startswith("basic/authorization")]
    assert auth and all(r["status"] == "out-of-scope" for r in auth)


def _one(reqs, rows):
    """The first requirement and its row, for the defect tests below."""
    row = next(r for r in rows if (r["page"], r["heading"], r["sentence"]) == reqs[0].key)
    return reqs[0], dict(row)


def test_a_sentence_without_a_row_is_caught(reqs, rows):
    req, _ = _one(reqs, rows)
    kept = [r for r in rows if (r["page"], r["heading"], r["sentence"]) != req.key]
    assert any(p.startswith("no row for") for p in coverage.problems(reqs, kept))


def test_a_row_whose_sentence_is_gone_is_caught(reqs, rows):
    _, row = _one(reqs, rows)
    row["sentence"] += " (edited)"
    assert any("not on the page" in p for p in coverage.problems(reqs, [*rows, row]))


@pytest.mark.parametrize(
    ("status", "where", "expected"),
    [
        ("untriaged", "", "is not one of"),
        ("taught", "notebooks/02-json-rpc-by-hand.ipynb#cell-id=no-such-cell", "no cell id"),
        ("taught", "notebooks/99-none.ipynb#cell-id=x", "no notebook"),
        ("taught", "labs/12-token-budget.ipynb#cell-id=no-such-cell", "no cell id"),
        ("taught", "labs/solutions/12-token-budget.ipynb#cell-id=schema-rules", "is neither"),
        ("checked", "tests/test_spec_coverage.py::test_no_such_test", "no test"),
        ("checked", "a sentence", "is neither"),
        ("out-of-scope", "", "without a reason"),
    ],
)
def test_a_bad_status_or_where_is_caught(reqs, rows, status, where, expected):
    req, row = _one(reqs, rows)
    row.update(status=status, where=where, reason="")
    others = [r for r in rows if (r["page"], r["heading"], r["sentence"]) != req.key]
    assert any(expected in p for p in coverage.problems(reqs, [*others, row]))


def test_update_adds_a_new_sentence_as_untriaged(reqs, rows):
    new = coverage.Requirement("basic/index", "Requests", "MUST", "A new sentence MUST appear.")
    merged = coverage.merged([*reqs, new], rows)
    assert merged[len(reqs)]["status"] == "untriaged"


def test_sentences_are_cut_at_full_stops_but_not_after_eg():
    text = "Clients MUST do X, e.g. Y. Servers MAY do Z. Servers MUST NOT do W."
    found = coverage.page_requirements("p", text)
    assert [r.level for r in found] == ["MUST", "MUST NOT"]
    assert found[0].sentence == "Clients MUST do X, e.g. Y."


def test_a_lab_cell_resolves():
    """A lab's cell is a place the course teaches; the student version is the one named."""
    assert coverage.where_problem("labs/12-token-budget.ipynb#cell-id=schema-rules") is None
    assert coverage.where_problem("labs/99-none.ipynb#cell-id=x") == "no notebook labs/99-none.ipynb"
