"""The course's map of the specification's requirements: every MUST and MUST NOT, and where it is met.

    python tools/spec_coverage.py update   # add rows for new sentences, rewrite the browsable page
    python tools/spec_coverage.py check    # list what is wrong with the map; exit 1 if anything is

Theory of operation.  The specification's pages for revision 2026-07-28 (`.mdx`, in the course's
shared folder beside the clone: `../shared/spec/2026-07-28/docs/`, or `$MCP_LAB_SHARED/spec/...`)
are read as text and cut into *requirement sentences*:

- the front matter and fenced code blocks are dropped (examples, not rules);
- what is left is cut into blocks: a paragraph (lines up to a blank line, a heading or a list
  item), a list item (its marker line and the indented lines under it), a table row (one line
  starting with `|`); HTML/JSX tags (`<Note>`, `<div .../>`) are dropped, their text kept;
- each block is reduced to plain text (links keep their text, `**`/`__` emphasis goes, code
  ticks stay, white space collapses) and split into sentences after `.`, `!` or `?` followed by a
  space and a capital letter, a tick or a quote (never after "e.g." or "i.e."); a table row is
  one sentence (its cells joined by " | ");
- a sentence is a requirement when it holds the word MUST in capitals (bold or not).  Its
  *level* is "MUST", "MUST NOT", or "MUST, MUST NOT" when it holds both; its *heading* is the
  nearest heading above it (plain text), or "" before the first one.

Pages that count: every page except `schema.mdx`, the reference generated from `schema.ts`
(typedoc HTML: its sentences are the types' doc comments, repeated once per type -- the
`resultType` rule a dozen times -- and they restate the pages' rules field by field).  It is
listed in SKIPPED_PAGES with that reason and gets no rows.  The changelog counts: a few rules
are stated there alone (a broken Streamable HTTP stream re-issued under a new id).  The
authorization pages count, and their rows are out of scope: authorization is the next
chapter's subject.

The map is `docs/spec-coverage.csv`, one row per requirement sentence, keyed by
(page, heading, sentence), with a status and where or why:

- `taught`: `where` is `notebooks/<name>.ipynb#cell-id=<id>`, a cell that shows the rule live or
  asks the learner to act on it, or `labs/<lab>.ipynb#cell-id=<id>`, a cell of a lab (the
  version the learner opens) that shows it or whose check holds the learner's work to it;
- `checked`: `where` is `tests/<file>.py::<test name>`, a test that holds the course's own
  servers or client to the rule;
- `out-of-scope`: `reason` says why the course does not teach it;
- `untriaged`: written by `update` for a sentence with no row yet; `check` refuses it.

An `out-of-scope` row whose reason starts "not taught yet:" is a *gap*, not a choice: the course
means to teach it and does not yet.  Gaps count as in scope (the page lists them apart), so the
share of in-scope rows that are taught is taught / (taught + checked + gaps).

`check` reports: a sentence with no row, a row whose sentence is no longer on its page (or
under its heading), a duplicated row, a status outside the three, a `taught`/`checked` row
whose `where` does not resolve (the notebook or lab and the cell id, or the test file and a
test of that name), an `out-of-scope` row without a reason.  `update` also writes
`docs/spec-coverage.md`, the map as one table per page, for a learner to browse.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSV_PATH = ROOT / "docs" / "spec-coverage.csv"
MD_PATH = ROOT / "docs" / "spec-coverage.md"
REVISION = "2026-07-28"
BASE_URL = f"https://modelcontextprotocol.io/specification/{REVISION}/"
COLUMNS = ("page", "heading", "level", "sentence", "status", "where", "reason")
STATUSES = ("taught", "checked", "out-of-scope")
SKIPPED_PAGES = {
    "schema": "generated from schema.ts: its doc comments, repeated per type, restate the pages",
}

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_TAG = re.compile(r"</?[A-Za-z][^<>]*?/?>")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[*])")
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|vs|etc|cf)\.$", re.IGNORECASE)
_MUST = re.compile(r"\bMUST\b")
_WHERE_NOTEBOOK = re.compile(r"^((?:notebooks|labs)/[\w.-]+\.ipynb)#cell-id=([\w-]+)$")
_WHERE_TEST = re.compile(r"^(tests/[\w/.-]+\.py)::(\w+)(?:\[.*\])?$")


@dataclass(frozen=True)
class Requirement:
    """One sentence of a page that states a MUST or a MUST NOT."""

    page: str
    heading: str
    level: str
    sentence: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.page, self.heading, self.sentence)


def spec_docs() -> Path:
    """Where the pages are: `$MCP_LAB_SHARED/spec/<revision>/docs`, else `../shared/...`."""
    shared = Path(os.environ.get("MCP_LAB_SHARED", ROOT.parent / "shared"))
    return shared / "spec" / REVISION / "docs"


def plain(text: str) -> str:
    """Markdown reduced to the text a reader sees (code ticks kept), white space collapsed."""
    text = _LINK.sub(r"\1", _TAG.sub(" ", text))
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?![\w*])", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def _blocks(text: str):
    """(heading, block text, is a table row) for each block of a page, code and front matter dropped."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1 :]
    heading, block, in_code = "", [], False

    def flush():
        joined = " ".join(block).strip()
        block.clear()
        return joined

    for line in lines:
        if _FENCE.match(line):
            in_code = not in_code
            if block:
                yield heading, flush(), False
            continue
        if in_code:
            continue
        stripped = _TAG.sub(" ", line).strip()
        found = _HEADING.match(line.strip())
        starts_new = not stripped or found or _ITEM.match(line) or stripped.startswith("|")
        if starts_new and block:
            yield heading, flush(), False
        if found:
            heading = plain(found.group(2))
        elif stripped.startswith("|"):
            yield heading, stripped, True
        elif stripped:
            item = _ITEM.match(line)
            block.append(item.group(2) if item else stripped)
    if block:
        yield heading, flush(), False


def sentences(block: str) -> list[str]:
    """A block's sentences, cut after ., ! or ? before a capital, a tick or a quote."""
    pieces: list[str] = []
    for piece in _SPLIT.split(block):
        if pieces and _ABBREV.search(pieces[-1]):
            pieces[-1] += " " + piece
        else:
            pieces.append(piece)
    return [p.strip() for p in pieces if p.strip()]


def _row_text(row: str) -> str | None:
    cells = [plain(c) for c in row.strip().strip("|").split("|")]
    if all(re.fullmatch(r":?-*:?", c) for c in cells):
        return None  # the separator row
    return " | ".join(cells)


def level_of(sentence: str) -> str:
    has_not = "MUST NOT" in sentence
    has_must = bool(_MUST.search(sentence.replace("MUST NOT", "")))
    return "MUST, MUST NOT" if has_not and has_must else ("MUST NOT" if has_not else "MUST")


def page_requirements(page: str, text: str) -> list[Requirement]:
    """The requirement sentences of one page (page = its path without `.mdx`)."""
    found: list[Requirement] = []
    for heading, block, is_row in _blocks(text):
        units = [_row_text(block)] if is_row else sentences(plain(block))
        for sentence in units:
            if sentence and _MUST.search(sentence):
                found.append(Requirement(page, heading, level_of(sentence), sentence))
    return found


def requirements(docs: Path) -> list[Requirement]:
    """Every requirement sentence of the pages that count, in page order, duplicates once."""
    seen: dict[tuple[str, str, str], Requirement] = {}
    for path in sorted(docs.rglob("*.mdx")):
        page = path.relative_to(docs).with_suffix("").as_posix()
        if page in SKIPPED_PAGES:
            continue
        for req in page_requirements(page, path.read_text(encoding="utf-8")):
            seen.setdefault(req.key, req)
    return list(seen.values())


def read_map(path: Path = CSV_PATH) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return [dict(row) for row in csv.DictReader(handle)]


def write_map(rows: list[dict[str, str]], path: Path = CSV_PATH) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: row.get(c, "") for c in COLUMNS})
    path.write_text(out.getvalue(), encoding="utf-8")


def _cell_ids(notebook: Path) -> set[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    return {c.get("id", "") for c in cells}


def where_problem(where: str, root: Path = ROOT) -> str | None:
    """None when `where` names an existing notebook or lab cell or test, else what is wrong with it."""
    if m := _WHERE_NOTEBOOK.match(where):
        notebook = root / m.group(1)
        if not notebook.exists():
            return f"no notebook {m.group(1)}"
        return None if m.group(2) in _cell_ids(notebook) else f"no cell id {m.group(2)} in {m.group(1)}"
    if m := _WHERE_TEST.match(where):
        test_file = root / m.group(1)
        if not test_file.exists():
            return f"no test file {m.group(1)}"
        pattern = rf"^\s*(?:async\s+)?def {re.escape(m.group(2))}\("
        found = re.search(pattern, test_file.read_text(encoding="utf-8"), re.M)
        return None if found else f"no test {m.group(2)} in {m.group(1)}"
    return f"'{where}' is neither notebooks/NAME.ipynb#cell-id=ID, labs/NAME.ipynb#cell-id=ID nor tests/FILE.py::TEST"


def problems(reqs: list[Requirement], rows: list[dict[str, str]], root: Path = ROOT) -> list[str]:
    """Everything wrong with the map against the pages, one line each."""
    found: list[str] = []
    keys = {r.key for r in reqs}
    counts = Counter((r["page"], r["heading"], r["sentence"]) for r in rows)
    row_keys = set(counts)
    for req in reqs:
        if req.key not in row_keys:
            found.append(f"no row for {req.page} [{req.heading}]: {req.sentence[:90]}")
    for n, row in enumerate(rows, start=2):
        key = (row["page"], row["heading"], row["sentence"])
        label = f"line {n} ({row['page']})"
        if key not in keys:
            found.append(f"{label}: the sentence is not on the page under that heading any more")
        if counts[key] > 1:
            found.append(f"{label}: the same sentence has {counts[key]} rows")
        status = row["status"]
        if status not in STATUSES:
            found.append(f"{label}: status '{status}' is not one of {', '.join(STATUSES)}")
        elif status == "out-of-scope" and not row["reason"].strip():
            found.append(f"{label}: out-of-scope without a reason")
        elif status in ("taught", "checked"):
            problem = where_problem(row["where"], root)
            if problem:
                found.append(f"{label}: {problem}")
    return found


def merged(reqs: list[Requirement], rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The map in page order: existing rows kept (level refreshed), new sentences `untriaged`;
    rows whose sentence is gone are kept at the end, for `check` to report."""
    by_key = {(r["page"], r["heading"], r["sentence"]): r for r in rows}
    out = []
    for req in reqs:
        row = dict(by_key.pop(req.key, {"status": "untriaged", "where": "", "reason": ""}))
        row.update(page=req.page, heading=req.heading, level=req.level, sentence=req.sentence)
        out.append(row)
    return out + list(by_key.values())


GAP = "not taught yet:"


def status_of(row: dict[str, str]) -> str:
    """The row's status for counting: a gap is an out-of-scope row the course has yet to teach."""
    if row["status"] == "out-of-scope" and row["reason"].startswith(GAP):
        return "gap"
    return row["status"]


def in_scope_counts(rows: list[dict[str, str]]) -> tuple[int, int]:
    """(taught, in scope): in scope is taught + checked + gaps + untriaged."""
    kinds = Counter(status_of(r) for r in rows)
    return kinds["taught"], len(rows) - kinds["out-of-scope"]


def tallies(rows: list[dict[str, str]]) -> dict[str, Counter]:
    per_page: dict[str, Counter] = {}
    for row in rows:
        per_page.setdefault(row["page"], Counter())[status_of(row)] += 1
    return per_page


def _link(row: dict[str, str]) -> str:
    where = row["where"]
    if row["status"] == "taught":
        m = _WHERE_NOTEBOOK.match(where)
        return f"[{Path(m.group(1)).stem} · {m.group(2)}](../{m.group(1)})" if m else where
    if row["status"] == "checked":
        return f"`{where}`"
    return row["reason"]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(rows: list[dict[str, str]]) -> str:
    """The map as a page: counts, then one table per specification page."""
    per_page = tallies(rows)
    total = Counter()
    for counter in per_page.values():
        total.update(counter)
    taught, in_scope = in_scope_counts(rows)
    lines = [
        f"# The {REVISION} specification, requirement by requirement",
        "",
        "Every sentence of the specification's pages that says MUST or MUST NOT, and where the",
        "course meets it: a cell that shows it live or asks you to act on it (*taught*), a test that",
        "holds the course's own servers to it (*checked*), or why the course leaves it out",
        '(*out of scope*; a reason that starts "not taught yet" is a gap the course means to',
        "close, and counts as in scope). Generated from [spec-coverage.csv](spec-coverage.csv) by",
        "`python tools/spec_coverage.py update`; the rules for cutting pages into sentences are in",
        "that tool's docstring. Not counted: " + "; ".join(f"`{p}` ({why})" for p, why in SKIPPED_PAGES.items()) + ".",
        "",
        f"**{len(rows)} requirements**: {total['taught']} taught, {total['checked']} checked, "
        f"{total['gap']} not taught yet, {total['out-of-scope']} out of scope. "
        f"Of the {in_scope} in scope, {taught} taught ({100 * taught // max(in_scope, 1)}%).",
        "",
        "| Page | Rows | Taught | Checked | Not yet | Out of scope |",
        "|---|---|---|---|---|---|",
    ]
    for page, c in per_page.items():
        lines.append(
            f"| [{page}](#{page.replace('/', '-')}) | {sum(c.values())} | {c['taught']} | "
            f"{c['checked']} | {c['gap']} | {c['out-of-scope']} |"
        )
    for page in per_page:
        lines += ["", f'<a id="{page.replace("/", "-")}"></a>', "", f"## [{page}]({BASE_URL}{page})", ""]
        lines += ["| Heading | Level | Sentence | Status | Where / why |", "|---|---|---|---|---|"]
        for row in (r for r in rows if r["page"] == page):
            cells = [row["heading"], row["level"], row["sentence"], row["status"], _link(row)]
            lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("update", "check"):
        print("usage: python tools/spec_coverage.py update|check", file=sys.stderr)
        return 2
    docs = spec_docs()
    if not docs.is_dir():
        print(f"the specification's pages are not at {docs} (set MCP_LAB_SHARED)", file=sys.stderr)
        return 2
    reqs, rows = requirements(docs), read_map()
    if argv[0] == "update":
        rows = merged(reqs, rows)
        write_map(rows)
        MD_PATH.write_text(render_markdown(rows), encoding="utf-8")
        waiting = sum(r["status"] == "untriaged" for r in rows)
        print(f"{len(rows)} rows in {CSV_PATH.relative_to(ROOT)}; {waiting} untriaged")
    found = problems(reqs, rows)
    for line in found:
        print(line)
    if argv[0] == "check":
        print(f"{len(found)} problem(s) in {len(rows)} rows" if found else f"{len(rows)} rows: the map is sound")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
