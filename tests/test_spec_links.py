"""Every link the course gives into the 2026-07-28 specification lands on a real page and heading.

Links are collected from the notebooks (every cell), the labs and their solutions (notebooks and
Python files: the lab messages), the documents (README.md and docs/), and the package's source
(full URLs anywhere, and the lint's findings, which name a page and anchor relative to the
specification's base URL).  Each one is checked against the specification's own pages (`.mdx`),
which sit in the course's shared folder beside the repository (`../shared/spec/2026-07-28/docs/`):

- the page exists (`<page>.mdx`, or `<page>/index.mdx`);
- the anchor, if any, is an explicit `id="..."` in the page or the slug of one of its headings
  under ONE stated rule, the GitHub-style rule the course's authors follow: markup dropped
  (links keep their text; code ticks, emphasis and HTML tags go), lower case, every character
  that is not a letter, a digit, a space, `-` or `_` dropped, then each space turned into `-`.

A heading whose slug depends on the rule is a fragile target: `_meta` (GitHub keeps the
underscore, the docs site drops it: the specification's own links say `#meta`) or
`Security & Endpoint` (the dropped `&` leaves two spaces: `security--endpoint` under this rule,
one hyphen under a rule that collapses them).  The course links no such heading: it links the
section around it (`basic/index#general-fields`) or a neighbouring heading that states the
claim.  The specification's own links are checked against the same rule; the only ones that
miss are links to such fragile headings, which is the evidence that the docs site slugs them
differently.

Links into older revisions (2025-11-25 and before) are history the course cites on purpose; their
pages are not in the shared folder, so they are not checked here.

Where the shared folder is not beside the clone, the tests skip and say so -- except under CI
(`CI=true`), where the folder is part of the set-up and its absence is a failure.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest
from _support import ROOT

SPEC_DOCS = Path(os.environ.get("MCP_LAB_SHARED", ROOT.parent / "shared")) / "spec" / "2026-07-28" / "docs"
BASE = "https://modelcontextprotocol.io/specification/2026-07-28/"
URL = re.compile(
    r"https://modelcontextprotocol\.io/specification/(?:2026-07-28|\{LATEST\})/?"
    r"([A-Za-z0-9/_-]*)(?:#([A-Za-z0-9_-]+))?"
)
# The lint names a section relative to the base: "basic/index#general-fields", "schema#...".
LINT_SECTION = re.compile(
    r'"((?:basic|server|client|schema|changelog|architecture|deprecated|index|'
    r'feature-lifecycle)[a-z/-]*(?:#[A-Za-z0-9_-]+)?)"'
)


def _docs() -> Path:
    if not SPEC_DOCS.is_dir():
        reason = (
            f"the specification's pages are not at {SPEC_DOCS} (the course's shared folder is "
            "not beside this clone), so the links cannot be checked here"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason + "; under CI the shared folder must be present", pytrace=False)
        pytest.skip(reason)
    return SPEC_DOCS


def _plain(heading: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # [text](link) -> text
    return re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "").strip().lower()


def slug(heading: str) -> str:
    """The course's one slug rule (GitHub-style): see the module's docstring."""
    return re.sub(r" ", "-", re.sub(r"[^\w\s-]", "", _plain(heading)))


def other_slug(heading: str) -> str:
    """The docs site's variant, for spotting fragile headings: underscores dropped too, and a
    run of hyphens collapsed to one."""
    return re.sub(r"-+", "-", slug(heading).replace("_", ""))


def page_file(page: str) -> Path | None:
    page = page.strip("/") or "index"
    for candidate in (_docs() / f"{page}.mdx", _docs() / page / "index.mdx"):
        if candidate.is_file():
            return candidate
    return None


@cache
def headings(page: Path) -> dict[str, str]:
    """{slug: heading} for every heading of a page (a '#' in a code block is no heading)."""
    prose = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {slug(m.group(1)): m.group(1) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", prose, flags=re.M)}


@cache
def anchors(page: Path) -> frozenset[str]:
    return frozenset(set(headings(page)) | set(re.findall(r'\bid="([^"]+)"', page.read_text())))


def fragile(page: Path, anchor: str) -> bool:
    """True when `anchor` names a heading whose slug another rule would spell differently."""
    heading = headings(page).get(anchor)
    return heading is not None and other_slug(heading) != anchor


def problem(page: str, anchor: str | None) -> str | None:
    f = page_file(page)
    if f is None:
        return f"no page {page or 'index'!r} in the specification"
    if anchor and anchor not in anchors(f):
        near = sorted(a for a in anchors(f) if anchor.replace("_", "") in a or a in anchor)[:5]
        return f"no heading #{anchor} on {page}" + (f" (close: {', '.join('#' + a for a in near)})" if near else "")
    return None


def _course_files() -> list[Path]:
    files = sorted((ROOT / "notebooks").glob("*.ipynb"))
    files += sorted(p for p in (ROOT / "labs").rglob("*") if p.suffix in (".ipynb", ".py"))
    files += [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    files += sorted(p for p in (ROOT / "mcp_lab").rglob("*.py"))
    return [p for p in files if ".ipynb_checkpoints" not in p.parts]


def course_links() -> list[tuple[str, str, str | None]]:
    """(where, page, anchor) for every 2026-07-28 link the course gives."""
    links = []
    for path in _course_files():
        text = path.read_text()
        rel = path.relative_to(ROOT).as_posix()
        # In a notebook's JSON a quote is escaped; the regexes stop at it either way.
        links += [(rel, m.group(1), m.group(2)) for m in URL.finditer(text)]
        if path.parent.name == "wire" and (path.name.startswith("lint") or path.name == "findings.py"):
            links += [
                (f"{rel} (lint finding)", *(s.split("#", 1) if "#" in s else (s, None)))
                for s in LINT_SECTION.findall(text)
            ]
    return links


def test_the_slug_rule_resolves_the_specifications_own_links():
    docs = _docs()
    total, broken, fragile_misses = 0, [], []
    for page in docs.rglob("*.mdx"):
        for m in re.finditer(r"\]\((/specification/2026-07-28/)?([^)#\s]*)#([A-Za-z0-9_-]+)\)", page.read_text()):
            target = page_file(m.group(2)) if m.group(1) else (page if not m.group(2) else None)
            if target is None:
                continue
            total += 1
            if m.group(3) in anchors(target):
                continue
            # A miss is acceptable only as the docs site's spelling of a fragile heading.
            spelled = {other_slug(h) for h in headings(target).values() if other_slug(h) != slug(h)}
            where = f"{page.relative_to(docs)} -> {m.group(2)}#{m.group(3)}"
            (fragile_misses if m.group(3) in spelled else broken).append(where)
    assert total > 100, f"only {total} internal links found in the specification's pages"
    # The pages themselves hold one stray `#_meta` next to the `#meta` ones: allow a handful.
    assert len(broken) <= 3, f"the slug rule does not match the specification's own links: {broken}"
    assert fragile_misses, "expected the specification's own `#meta` links to show a fragile heading"


def test_no_course_link_depends_on_the_slug_rule():
    _docs()
    found = sorted(
        {
            f"{where}: {BASE}{page}#{anchor}"
            for where, page, anchor in course_links()
            if anchor and (f := page_file(page)) is not None and fragile(f, anchor)
        }
    )
    assert not found, (
        f"{len(found)} links name a heading whose slug depends on the rule (an underscore, or "
        "punctuation between words); link the section around it instead:\n" + "\n".join(found)
    )


def test_a_fragile_heading_is_recognised():
    assert slug("`_meta`") == "_meta" and other_slug("`_meta`") == "meta"
    assert slug("Security & Endpoint") == "security--endpoint" != other_slug("Security & Endpoint")
    assert slug("Protocol Version Header") == other_slug("Protocol Version Header") == "protocol-version-header"


def test_every_spec_link_in_the_course_lands_on_a_page_and_a_heading():
    _docs()
    links = course_links()
    assert len(links) >= 20, f"only {len(links)} links into the 2026-07-28 specification found in the course"
    bad = sorted(
        {
            f"{where}: {BASE}{page}{'#' + anchor if anchor else ''}: {why}"
            for where, page, anchor in links
            if (why := problem(page, anchor))
        }
    )
    assert not bad, f"{len(bad)} links do not resolve:\n" + "\n".join(bad)


def test_every_schema_anchor_the_lint_can_give_exists():
    """The lint's schema findings link `schema#<type>` for the message's model (see lint._schema)."""
    from mcp_types import methods

    schema = page_file("schema")
    names = {
        model.__name__.lower()
        for surface in (methods.CLIENT_REQUESTS, methods.CLIENT_NOTIFICATIONS)
        for (_method, version), model in surface.items()
        if version == "2026-07-28"
    }
    assert names, "no 2026-07-28 client message models found in mcp_types"
    missing = sorted(n for n in names if n not in anchors(schema))
    assert not missing, f"schema anchors the lint would link that the schema page lacks: {missing}"


def test_a_missing_shared_folder_fails_under_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(__import__(__name__), "SPEC_DOCS", tmp_path / "absent")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="under CI the shared folder must be present"):
        _docs()
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="cannot be checked here"):
        _docs()
