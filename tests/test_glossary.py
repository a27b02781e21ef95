"""The glossary: linked from notebook 00, every entry linking the specification, and every term
linked to its entry where the course (in map order) first uses it.

Each entry of `notebooks/glossary.ipynb` is a `### anchor` heading followed by the definition,
a link into the 2026-07-28 specification (checked by tests/test_spec_links.py), and an HTML
comment naming the words that count as a use of the term.  "First use" is the first Markdown cell,
in the order of notebook 00's course map (notebooks only), that contains one of those words
outside a heading, a code block and an existing link; that cell must link `glossary.ipynb#anchor`.
"""

from __future__ import annotations

import json
import re

from _support import ROOT

GLOSSARY = ROOT / "notebooks" / "glossary.ipynb"


def entries() -> dict[str, list[str]]:
    out = {}
    for cell in json.loads(GLOSSARY.read_text())["cells"][1:]:
        src = "".join(cell["source"])
        anchor = re.match(r"### (\S+)", src)
        words = re.search(r"<!-- first use linked for: (.+?) -->", src)
        assert anchor and words, f"a glossary entry without its heading or its words: {src[:80]!r}"
        assert "https://modelcontextprotocol.io/specification/2026-07-28/" in src, (
            f"glossary entry {anchor.group(1)!r} does not link the specification"
        )
        out[anchor.group(1)] = [w.strip() for w in words.group(1).split("|")]
    return out


def map_order() -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    return re.findall(r'^\s*\("notebooks/([^"]+\.ipynb)"', src, flags=re.M)


def pattern(word: str) -> re.Pattern:
    flags = 0 if (word.isupper() or not word.isalpha()) else re.I
    return re.compile(r"(?<![\w/.-])`?" + re.escape(word) + r"`?(?![\w/-])", flags)


def eligible(src: str, word: str) -> list[re.Match]:
    """Uses of `word` in a Markdown cell that can carry a link: outside code blocks, headings,
    existing links, and not a piece of a longer inline code span."""
    blocks = [m.span() for m in re.finditer(r"```.*?```", src, flags=re.S)]
    links = [m.span() for m in re.finditer(r"\[[^\]]*\]\([^)]*\)", src)]
    codes = [m.span() for m in re.finditer(r"`[^`\n]+`", src)]
    found = []
    for m in pattern(word).finditer(src):
        a, b = m.span()
        line_start = src.rfind("\n", 0, a) + 1
        if src[line_start:].lstrip().startswith("#") or src.startswith("Next:"):
            continue
        if any(x <= a < y for x, y in blocks + links):
            continue
        if any(x < b and a < y and (x, y) != (a, b) for x, y in codes):
            continue  # inside a longer code span: linking there would break it
        found.append(m)
    return found


def first_use(anchor: str, words: list[str]) -> tuple[str, int] | None:
    for name in map_order():
        cells = json.loads((ROOT / "notebooks" / name).read_text())["cells"]
        for i, cell in enumerate(cells):
            src = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and (
                f"glossary.ipynb#{anchor})" in src or any(eligible(src, w) for w in words)
            ):
                return name, i
    return None


def test_the_glossary_is_linked_from_start_here_and_the_readme():
    start = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    assert any("](glossary.ipynb)" in "".join(c["source"]) for c in start["cells"]), (
        "notebook 00 should link the glossary"
    )
    assert "notebooks/glossary.ipynb" in (ROOT / "README.md").read_text(), "the README should link the glossary"


def test_the_glossary_defines_what_the_issue_lists():
    have = entries()
    for anchor in (
        "host",
        "client",
        "server",
        "revision",
        "capability",
        "_meta",
        "resultType",
        "input_required",
        "requestState",
        "handle",
        "SEP",
        "SSE",
        "ttlMs",
        "isError",
        "elicitation",
        "sampling",
        "WAL",
        "HMAC",
        "DNS-rebinding",
        "intermediaries",
        "Mcp-Session-Id",
        "o200k_base",
    ):
        assert anchor in have, f"the glossary has no entry {anchor!r}"


def test_every_term_links_the_glossary_where_the_course_first_uses_it():
    missing = []
    for anchor, words in entries().items():
        found = first_use(anchor, words)
        if found is None:
            continue  # defined for completeness; not (yet) used in a notebook's prose
        name, i = found
        src = "".join(json.loads((ROOT / "notebooks" / name).read_text())["cells"][i]["source"])
        if f"glossary.ipynb#{anchor})" not in src:
            missing.append(f"{anchor}: first used in {name}, cell {i}, without a link to glossary.ipynb#{anchor}")
    assert not missing, "\n".join(missing)
