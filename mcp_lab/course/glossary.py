"""The glossary's first-use rule: each term links to its entry where the course first uses it.

`notebooks/glossary.ipynb` holds one entry per term: an explicit `<a id="anchor"></a>` (so a link
from another notebook scrolls to it), a `### anchor` heading, the definition, a link
into the specification, and an HTML comment naming the words that count as a use of the term.
The first use is the first Markdown cell, in the order of notebook 00's course map (notebooks
only), with one of those words outside a heading, a code block, an existing link and a longer
inline code span; that cell must link `glossary.ipynb#anchor`.

    python -m mcp_lab.course.glossary          # list the first uses still missing their link
    python -m mcp_lab.course.glossary --link   # add them (after a merge that moved a first use)
    python -m mcp_lab.course.glossary --cell-id-links   # rewrite glossary.ipynb#x links as #cell-id=x
    python -m mcp_lab.course.glossary --broken          # links that land on no entry, or on no cell

Links both ways must land: every `glossary.ipynb#...` link in a notebook or a lab (solutions and
sources included) names an entry, and every link from an entry to a notebook's cell
(`15-reproduce-a-trace.ipynb#cell-id=c15-06`, where the course shows the term) names a cell
that exists, so a renamed cell id is caught where it breaks (`broken_links`).

Why `#cell-id=`: each entry's cell id is its anchor, and JupyterLab (4.6, measured by the
glossary test in tests/browser/test_run_all_browser.py) scrolls to `glossary.ipynb#cell-id=x`
even when the link opens the glossary, while `glossary.ipynb#x` (the heading or the `<a id>`,
which its sanitizer keeps as `data-jupyter-id`) lands on the entry only when the glossary is
already open: on the first open the fragment is applied before the Markdown cells are rendered.
Both forms count as a link here.

tests/test_glossary.py holds the course to the rule.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from mcp_lab.servers.inprocess import course_root

ROOT = course_root(Path(__file__).resolve().parents[2])  # the checkout, or /drive in a browser
WORDS = re.compile(r"<!-- first use linked for: (.+?) -->")
ANY_LINK = re.compile(r"glossary\.ipynb#(?:cell-id=)?([A-Za-z0-9_.-]+)")
CELL_LINK = re.compile(r"\]\(([\w.-]+\.ipynb)#cell-id=([A-Za-z0-9_.-]+)\)")
PAGE_LINK = re.compile(r"\]\(#([A-Za-z0-9_.-]+)\)")
OLD_LINK = re.compile(r"glossary\.ipynb#(?!cell-id=)([A-Za-z0-9_.-]+)\)")


def href(anchor: str) -> str:
    """The link target of an entry: its cell, by id (JupyterLab scrolls there on first open)."""
    return f"glossary.ipynb#cell-id={anchor}"


def linked(src: str, anchor: str) -> bool:
    """Whether a Markdown source links the entry, in either form."""
    return f"{href(anchor)})" in src or f"glossary.ipynb#{anchor})" in src


def entries(root: Path = ROOT) -> dict[str, list[str]]:
    """anchor -> the words that count as a use of the term."""
    out = {}
    for cell in json.loads((root / "notebooks" / "glossary.ipynb").read_text())["cells"][1:]:
        src = "".join(cell["source"])
        anchor, words = re.search(r"^### (\S+)", src, flags=re.M), WORDS.search(src)
        if not (anchor and words) or f'<a id="{anchor.group(1)}"></a>' not in src:
            raise ValueError(f"a glossary entry without its anchor, heading or words: {src[:80]!r}")
        if cell.get("id") != anchor.group(1):
            raise ValueError(
                f"the glossary cell of {anchor.group(1)!r} has id {cell.get('id')!r}: it must be the anchor"
            )
        out[anchor.group(1)] = [w.strip() for w in words.group(1).split("|")]
    return out


def map_order(root: Path = ROOT) -> list[str]:
    nb = json.loads((root / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    return re.findall(r'^\s*\("notebooks/([^"]+\.ipynb)"', src, flags=re.M)


def pattern(word: str) -> re.Pattern:
    flags = 0 if (word.isupper() or not word.isalpha()) else re.I
    return re.compile(r"(?<![\w/.-])`?" + re.escape(word) + r"`?(?![\w/-])", flags)


def eligible(src: str, word: str) -> list[re.Match]:
    """Uses of `word` in a Markdown cell that can carry a link."""
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
            continue  # inside a longer code span: a link there would break it
        found.append(m)
    return found


def first_use(anchor: str, words: list[str], root: Path = ROOT) -> tuple[str, int] | None:
    for name in map_order(root):
        cells = json.loads((root / "notebooks" / name).read_text())["cells"]
        for i, cell in enumerate(cells):
            src = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and (linked(src, anchor) or any(eligible(src, w) for w in words)):
                return name, i
    return None


def missing(root: Path = ROOT) -> list[tuple[str, str, int]]:
    """(anchor, notebook, cell) for every first use without its link."""
    out = []
    for anchor, words in entries(root).items():
        found = first_use(anchor, words, root)
        if found is None:
            continue
        name, i = found
        src = "".join(json.loads((root / "notebooks" / name).read_text())["cells"][i]["source"])
        if not linked(src, anchor):
            out.append((anchor, name, i))
    return out


def link(root: Path = ROOT) -> int:
    """Link every first use that lacks its link; the number added."""
    added = 0
    for anchor, name, i in missing(root):
        path = root / "notebooks" / name
        nb = json.loads(path.read_text())
        src = "".join(nb["cells"][i]["source"])
        m = min((m for w in entries(root)[anchor] for m in eligible(src, w)), key=lambda m: m.start())
        src = src[: m.start()] + f"[{m.group(0)}]({href(anchor)})" + src[m.end() :]
        lines = src.split("\n")
        nb["cells"][i]["source"] = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        added += 1
    return added


def cell_id_links(root: Path = ROOT) -> int:
    """Rewrite every `glossary.ipynb#x)` link of an entry in notebooks and labs as `#cell-id=x`."""
    known, changed = set(entries(root)), 0
    for folder in ("notebooks", "labs"):
        for path in sorted((root / folder).rglob("*.ipynb")):
            text = path.read_text()
            new = OLD_LINK.sub(lambda m: f"{href(m.group(1))})" if m.group(1) in known else m.group(0), text)
            if new != text:
                path.write_text(new)
                changed += 1
    return changed


def broken_links(root: Path = ROOT) -> list[str]:
    """One line for every glossary link that lands on no entry, and every link from the glossary
    to a notebook cell (or to one of its own entries) that does not exist."""
    known, out = set(entries(root)), []
    for folder in ("notebooks", "labs"):
        for path in sorted((root / folder).rglob("*.ipynb")):
            if ".ipynb_checkpoints" in path.parts or path.name == "glossary.ipynb":
                continue
            for m in ANY_LINK.finditer(path.read_text(encoding="utf-8")):
                if m.group(1) not in known:
                    out.append(f"{path.relative_to(root)}: glossary.ipynb#{m.group(1)} is not an entry")
    glossary = json.loads((root / "notebooks" / "glossary.ipynb").read_text(encoding="utf-8"))
    for cell in glossary["cells"]:
        src = "".join(cell["source"])
        for m in PAGE_LINK.finditer(src):
            if m.group(1) not in known:
                out.append(f"glossary, cell {cell.get('id')}: #{m.group(1)} is not an entry")
        for name, cell_id in CELL_LINK.findall(src):
            target = root / "notebooks" / name
            ids = {c.get("id") for c in json.loads(target.read_text())["cells"]} if target.exists() else set()
            if cell_id not in ids:
                out.append(f"glossary, cell {cell.get('id')}: {name}#cell-id={cell_id} is not a cell there")
    return out


def main(argv: list[str]) -> int:
    if "--cell-id-links" in argv:
        print(f"{cell_id_links()} file(s) rewritten to glossary.ipynb#cell-id=... links")
        return 0
    if "--broken" in argv:
        broken = broken_links()
        print("\n".join(broken) or "every glossary link lands")
        return 1 if broken else 0
    if "--link" in argv:
        print(f"{link()} first use(s) linked to the glossary")
        return 0
    todo = missing()
    for anchor, name, i in todo:
        print(f"{anchor}: first used in {name}, cell {i}, without a link to glossary.ipynb#{anchor}")
    return 1 if todo else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
