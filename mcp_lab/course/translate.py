"""The Portuguese edition from the English one: catalogs extracted, kept in step, notebooks generated.

    python -m mcp_lab.course.translate update [NOTEBOOK ...]   # `make translations` runs update, then build
    python -m mcp_lab.course.translate build                   # notebooks/pt-BR/, labs/pt-BR/ from the catalogs
    python -m mcp_lab.course.translate check                   # what is untranslated, fuzzy or stale; exit 1 if any

Theory of operation
-------------------
English is the source; every Portuguese text lives in a gettext PO catalog, the format Weblate,
Transifex, Crowdin and Poedit read, English as `msgid`:

- the package's words (`_()`, `ngettext`, `N_` in mcp_lab/, as `babel.cfg` says):
  `mcp_lab/locale/pt_BR/LC_MESSAGES/mcp_lab.po`, read by `mcp_lab.notebook.i18n` at run time;
- one catalog per notebook, `locale/pt_BR/<folder>/<name>.po` for `<folder>/<name>.ipynb`, one
  entry per markdown block, comment and `print()` text (`mcp_lab.course.translate_cells`), each
  referenced as `#: notebooks/02-json-rpc-by-hand.ipynb#cell-id=c05:2` (the cell's id, then the
  entry's place in that cell).  A notebook is in the Portuguese edition when its catalog exists:
  `update NOTEBOOK` creates it;
- one catalog per lab, for its one source (`mcp_lab.course.generate`): `update
  labs/source/<lab>/<lab>.ipynb` starts `locale/pt_BR/labs/source/<lab>/<lab>.po`, which holds the
  source notebook's entries and, for each Python file beside it (`labs/source/<lab>/<lab>/*.py`, a
  server with TODOs), its comments and docstrings (`file_segments`), referenced by file and entry
  number.  The generated student notebook `labs/<lab>.ipynb` gets no catalog of its own (`update`
  refuses it, naming the source).

`update` extracts a template from the English (Babel for the package, the cell splitter for a
notebook) and merges it into the catalog with Babel's own merge: an entry whose English is
unchanged keeps its translation; an entry whose English changed keeps the old translation marked
*fuzzy*, with the previous English beside it (`#| msgid`), for the translator to revise; a new
entry is untranslated; an entry gone from the English becomes obsolete (`#~`).  Running it twice
changes nothing.

`check` is what the tests assert: for every catalog that exists, every entry the English has
now is in it, translated, not fuzzy, keeping its `{...}` fields; and each generated notebook is
what `build` would write.  A problem names the catalog, the entry's reference and its English.

`build` writes `notebooks/pt-BR/<name>.ipynb` (and `labs/pt-BR/`) from the English notebook and
its catalog: the same cells with the same ids, outputs cleared, code identical but for translated
comments and `print()` texts and relative paths re-aimed from the new folder (at the Portuguese
copy of a notebook or lab file when there is one).  An untranslated or fuzzy entry is written in
English.  A lab is built from its source: the source notebook and its files translated (relative
paths aimed from `labs/pt-BR/`, as the source's are written for `labs/`), then cut by
`mcp_lab.course.generate` exactly as `make labs` cuts the English (nbgrader's ClearSolutions, the
STUB/SOLUTION regions of the files), into the English layout one folder down:

    labs/pt-BR/<lab>.ipynb, labs/pt-BR/<lab>/...                      the student version
    labs/pt-BR/solutions/<lab>.ipynb, labs/pt-BR/solutions/<lab>/...  the solution

so a lab's own relative paths (`08-ask-the-person/server.py`) hold unchanged, the same checks
judge the same code, and `labs/pt-BR/solutions/` is kept from learners like `labs/solutions/`
(the hub's copy, the browser edition, the Lab's hidden names).  The generated notebooks are committed (the Lab, the workshop hub and the browser
edition read them from a clone with no step of their own, and a review shows the Portuguese), and
`check` fails when one differs from what `build` writes.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
from pathlib import Path

from mcp_lab.course.translate_cells import (
    Segment,
    file_segments,
    markdown_links,
    placeholders,
    render,
    segments,
    string_literals,
)

__all__ = [
    "EDITION",
    "LOCALE",
    "notebook_catalog",
    "edition_path",
    "reaim_code",
    "template",
    "package_template",
    "update",
    "build",
    "problems",
    "main",
]

PLURAL_FORMS = "nplurals=2; plural=(n > 1);"
EDITION = "pt-BR"  # the folder of the generated notebooks
LOCALE = "pt_BR"  # gettext's name for the same language
ROOT = Path(__file__).resolve().parents[2]
PACKAGE_PO = Path("mcp_lab/locale") / LOCALE / "LC_MESSAGES" / "mcp_lab.po"
SOURCES = ("notebooks", "labs")  # the folders whose notebooks an edition mirrors
HEADER_COMMENT = (
    "# The Portuguese (Brazil) edition of mcp_lab: English msgid, Portuguese msgstr.\n"
    "# Written by make translations (python -m mcp_lab.course.translate update); translate the msgstr\n"
    "# lines, follow locale/pt_BR/terminology.csv, and remove the fuzzy flag once revised."
)


# -- where things are -------------------------------------------------------------------------------
def notebook_catalog(rel: str | Path) -> Path:
    """notebooks/02-x.ipynb -> locale/pt_BR/notebooks/02-x.po (relative to the repository)."""
    rel = Path(rel)
    return Path("locale") / LOCALE / rel.parent / (rel.stem + ".po")


def edition_path(rel: str | Path) -> Path:
    """notebooks/02-x.ipynb -> notebooks/pt-BR/02-x.ipynb; labs/08-x/server.py -> labs/pt-BR/08-x/server.py."""
    parts = Path(rel).parts
    return Path(parts[0], EDITION, *parts[1:])


def lab_name(rel: str | Path) -> str | None:
    """labs/source/08-x/08-x.ipynb -> '08-x' (a lab's one source); None for any other notebook."""
    parts = Path(rel).parts
    if len(parts) == 4 and parts[:2] == ("labs", "source") and parts[3] == parts[2] + ".ipynb":
        return parts[2]
    return None


def lab_files(root: Path, rel: str | Path) -> list[Path]:
    """The files a lab's source keeps beside its notebook (labs/source/08-x/08-x/...), sorted."""
    folder = root / Path(rel).parent / Path(rel).stem
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def outputs(root: Path, rel: str) -> list[Path]:
    """What `build` writes for one catalog: a notebook's edition copy; for a lab's source, its
    student version and solution, notebook and files, under labs/pt-BR/ as `make labs` lays
    out the English ones under labs/."""
    lab = lab_name(rel)
    if lab is None:
        return [root / edition_path(rel)]
    base, src = root / "labs" / EDITION, root / Path(rel).parent
    files = [f.relative_to(src) for f in lab_files(root, rel)]
    return [base / folder / name for folder in ("", "solutions") for name in [Path(f"{lab}.ipynb"), *files]]


def translated_notebooks(root: Path) -> list[str]:
    """The English notebooks that have a catalog (the Portuguese edition), as repository paths."""
    base = root / "locale" / LOCALE
    found = []
    for po in sorted(base.glob("*/**/*.po")) if base.exists() else []:
        rel = po.relative_to(base)
        found.append((rel.parent / (rel.stem + ".ipynb")).as_posix())
    return found


# -- templates ---------------------------------------------------------------------------------------
def _catalog():
    from babel.messages.catalog import Catalog

    cat = Catalog(
        locale=LOCALE,
        project="mcp_lab",
        version="0.1.0",
        header_comment=HEADER_COMMENT,
        language_team="pt_BR",
        fuzzy=False,
    )
    # gettext's two forms for Brazilian Portuguese (what Poedit and Weblate propose), not CLDR's three.
    cat.mime_headers = [("Plural-Forms", PLURAL_FORMS)]
    return cat


def template(root: Path, rel: str):
    """A Babel catalog of one English notebook's entries, in the notebook's order."""
    nb = json.loads((root / rel).read_text(encoding="utf-8"))
    cat = _catalog()
    for cell in nb["cells"]:
        n = 0
        for seg in segments(cell):
            if seg.msgid is None:
                continue
            n += 1
            flags = ["python-brace-format"] if seg.kind == "string" and placeholders(seg.msgid) else []
            note = {"markdown": "markdown", "comment": "comment in code", "string": "text print() shows"}[seg.kind]
            cat.add(
                seg.msgid, locations=[(f"{rel}#cell-id={cell.get('id', '?')}", n)], auto_comments=[note], flags=flags
            )
    for path in lab_files(root, rel) if lab_name(rel) else []:
        if path.suffix != ".py":
            continue
        n = 0
        for seg in file_segments(path.read_text(encoding="utf-8")):
            if seg.msgid is not None:
                n += 1
                note = "docstring" if seg.kind == "docstring" else "comment in code"
                cat.add(seg.msgid, locations=[(path.relative_to(root).as_posix(), n)], auto_comments=[note])
    return cat


def package_template(root: Path):
    """The package's marked messages, extracted by Babel as babel.cfg says (node_modules skipped)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(root / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    cat = _catalog()
    skip = {"node_modules", "__pycache__"}
    results = extract_from_dir(
        root,
        method_map,
        options_map,
        directory_filter=lambda d: not (set(Path(d).parts) & skip or Path(d).name.startswith(".")),
    )
    for filename, _lineno, message, comments, context in results:
        cat.add(message, locations=[(Path(filename).as_posix(), None)], auto_comments=comments, context=context)
    return cat


def course_titles(fileobj, keywords, comment_tags, options):
    """Babel's extractor for notebook 00 (babel.cfg): the titles of its `COURSE = [...]` cell,
    (path, title, minutes) tuples, as messages of the package's catalog.

    The map is written once, in notebook 00's code, where the learner reads it; its titles are
    shown by `mcp_lab.course.views.course_map`, which looks each up with `_()`, so the Portuguese
    edition shows them translated with no copy of the list in the package."""
    import ast

    nb = json.loads(fileobj.read().decode("utf-8"))
    for cell in nb["cells"]:
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] != "code" or "COURSE = [" not in src:
            continue
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Tuple) and len(node.elts) == 3:
                title = node.elts[1]
                if isinstance(title, ast.Constant) and isinstance(title.value, str):
                    yield title.lineno, None, title.value, ["notebook 00's course map: a notebook's title"]


# -- catalogs on disk --------------------------------------------------------------------------------
def _read(path: Path):
    from babel.messages.pofile import read_po

    with open(path, "rb") as f:
        cat = read_po(f, locale=LOCALE)
    # Babel writes a fuzzy entry's previous English as `#| msgid "..."` but reads that line back
    # as a translator's comment ("| msgid ..."), which the next write would keep as `# | msgid`:
    # put it back where it came from, so reading and writing a catalog changes nothing.
    for m in cat:
        previous = [c for c in m.user_comments if c.startswith("| msgid ")]
        if previous and not m.previous_id:
            m.user_comments = [c for c in m.user_comments if c not in previous]
            m.previous_id = [_unquote(c[len("| msgid ") :]) for c in previous][:1]
    return cat


def _unquote(text: str) -> str:
    from babel.messages.pofile import unescape

    return unescape(text.strip())


def _write(path: Path, cat) -> bool:
    """Write the catalog; True when the file changed."""
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_previous=True, include_lineno=True)
    data = buf.getvalue()
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _merge(path: Path, tmpl):
    cat = _read(path) if path.exists() else _catalog()
    cat.update(tmpl, update_creation_date=False)
    return cat


def update(root: Path, new: list[str] = ()) -> list[Path]:
    """Merge the English into the package catalog and every notebook catalog (and create the
    catalogs of `new` notebooks); the catalogs written."""
    written = []
    # The package's catalog where there is a package to extract from (a notebook-only checkout,
    # such as the tests' fixture, has notebook catalogs alone).
    targets = [(root / PACKAGE_PO, package_template(root))] if (root / "babel.cfg").exists() else []
    for rel in sorted(set(translated_notebooks(root)) | {Path(n).as_posix() for n in new}):
        parts = Path(rel).parts
        if len(parts) == 2 and parts[0] == "labs" and (root / "labs" / "source" / Path(rel).stem).is_dir():
            lab = Path(rel).stem
            raise SystemExit(
                f"translate: {rel} is generated by make labs; translate its source labs/source/{lab}/{lab}.ipynb"
            )
        if not (root / rel).exists():
            raise SystemExit(f"translate: no English notebook {rel} (its catalog {notebook_catalog(rel)} names it)")
        targets.append((root / notebook_catalog(rel), template(root, rel)))
    for path, tmpl in targets:
        if _write(path, _merge(path, tmpl)):
            written.append(path)
    return written


# -- generation --------------------------------------------------------------------------------------
def _translations(cat) -> dict[str, str]:
    return {m.id: m.string for m in cat if m.id and isinstance(m.string, str) and m.string and not m.fuzzy}


def _relocate(value: str, en_dir: Path, pt_dir: Path, root: Path, planned: set[Path]) -> str | None:
    """A relative path valid next to the English notebook, aimed from the Portuguese one instead."""
    if not re.fullmatch(r"[\w.*{}-]+(/[\w.*{}-]+)*/?", value) or not re.search(r"[A-Za-z]", value):
        return None
    target = Path(os.path.normpath(en_dir / value))
    if not (target.exists() or target in planned):
        return None
    if "/" not in value and target.is_file() is False and not target.is_dir():
        return None
    rel = target.relative_to(root) if target.is_relative_to(root) else None
    if rel is not None and rel.parts and rel.parts[0] in SOURCES and EDITION not in rel.parts:
        mirror = root / edition_path(rel)
        if mirror.exists() or mirror in planned:
            target = mirror
    moved = Path(os.path.relpath(target, pt_dir)).as_posix() + ("/" if value.endswith("/") else "")
    return moved if moved != value else None


def _reaim_code(code: str, en_dir: Path, pt_dir: Path, root: Path, planned: set[Path]) -> str:
    edits = []
    for start, end, node, _facing in string_literals(code):
        value = getattr(node, "value", None)
        if isinstance(value, str):
            moved = _relocate(value, en_dir, pt_dir, root, planned)
            raw = code[start:end]
            if moved is not None and raw.count(value) == 1:
                edits.append((start, end, raw.replace(value, moved)))
    for start, end, text in reversed(edits):
        code = code[:start] + text + code[end:]
    return code


def reaim_code(code: str, english: Path, root: Path = ROOT) -> str:
    """Code written for the English notebook `english` (a path), with its relative paths aimed
    from the Portuguese copy's folder instead, as `build` aims the notebook's own cells (the
    tests' harness types its edits into both editions with it)."""
    english = Path(english).resolve()
    rel = english.relative_to(root)
    return _reaim_code(code, english.parent, (root / edition_path(rel)).parent, root, set())


_REPO_PATH = re.compile(r"`((?:%s)/[\w./-]*)`" % "|".join(SOURCES))


def _reaim_repo_paths(text: str, root: Path, planned: set[Path]) -> str:
    """A path from the repository's root in a code span (`notebooks/01-x.ipynb`, `labs/`) names
    the Portuguese copy when there is one (`notebooks/pt-BR/01-x.ipynb`, `labs/pt-BR/`): the
    Portuguese reader is sent on through the Portuguese edition."""
    folders = {q for p in planned for q in p.parents}

    def aim(m: re.Match) -> str:
        rel = Path(m.group(1))
        if EDITION in rel.parts:
            return m.group(0)
        mirror = root / edition_path(rel)
        if mirror.exists() or mirror in planned or mirror in folders:
            return "`" + edition_path(rel).as_posix() + ("/" if m.group(1).endswith("/") else "") + "`"
        return m.group(0)

    return _REPO_PATH.sub(aim, text)


WIDTH = 100  # characters of a code line a learner's window shows


def fit_comments(code: str, width: int = WIDTH) -> str:
    """Portuguese runs longer than English: a comment line over `width` is wrapped, and a comment
    after code that pushes its line over `width` moves to its own lines above that code, at the
    code's indentation.  Code itself is never touched."""
    import textwrap
    import tokenize

    from mcp_lab.course.translate_cells import mask_magics

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(mask_magics(code)).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    comments = {t.start[0]: t.start[1] for t in tokens if t.type == tokenize.COMMENT}
    out: list[str] = []
    for number, line in enumerate(code.split("\n"), start=1):
        col = comments.get(number)
        if len(line) <= width or col is None:
            out.append(line)
            continue
        before, comment = line[:col].rstrip(), line[col:].lstrip("#").strip()
        indent = line[: len(line) - len(line.lstrip())]
        wrapped = textwrap.wrap(comment, width - len(indent) - 2) or [""]
        out += [f"{indent}# {piece}" for piece in wrapped]
        if before.strip():
            out.append(before)
    return "\n".join(out)


def _reaim_markdown(text: str, en_dir: Path, pt_dir: Path, root: Path, planned: set[Path]) -> str:
    text = _reaim_repo_paths(text, root, planned)
    for start, end, target in reversed(markdown_links(text)):
        moved = _relocate(target, en_dir, pt_dir, root, planned)
        if moved is not None:
            text = text[:start] + moved + text[end:]
    return text


def _words(root: Path, rel: str) -> dict[str, str]:
    catalog = root / notebook_catalog(rel)
    return _translations(_read(catalog)) if catalog.exists() else {}


def _translated(root: Path, rel: str, words: dict[str, str], en_dir: Path, pt_dir: Path, planned: set[Path]):
    """The notebook `rel` with the translations put in and its relative paths re-aimed."""
    import nbformat

    nb = nbformat.reads((root / rel).read_text(encoding="utf-8"), as_version=4)
    for cell in nb.cells:
        segs: list[Segment] = segments(cell)
        text = "".join(render(s, words.get(s.msgid or "", "")) for s in segs) if segs else cell.source
        if cell.cell_type == "code":
            text = fit_comments(_reaim_code(text, en_dir, pt_dir, root, planned))
            cell.outputs, cell.execution_count = [], None
        elif cell.cell_type == "markdown":
            text = _reaim_markdown(text, en_dir, pt_dir, root, planned)
        cell.source = text
    nb.metadata["mcp_lab"] = {"edition": EDITION, "source": rel}
    return nb


def build_one(root: Path, rel: str, planned: set[Path]) -> str:
    """The Portuguese notebook of `rel`, as the text of an .ipynb file."""
    import nbformat

    en_dir, pt_dir = (root / rel).parent, (root / edition_path(rel)).parent
    return nbformat.writes(_translated(root, rel, _words(root, rel), en_dir, pt_dir, planned)) + "\n"


def build_lab(root: Path, rel: str, planned: set[Path]) -> dict[Path, str]:
    """A lab's Portuguese student version and solution from its English source and its catalog:
    the source translated (notebook and .py files: comments, docstrings), then cut into the two
    versions by `mcp_lab.course.generate`, as `make labs` cuts the English one."""
    import nbformat

    from mcp_lab.course import generate

    lab, src = lab_name(rel), (root / rel).parent
    base = root / "labs" / EDITION
    words = _words(root, rel)
    # Relative paths in a lab's source are written for where its versions live (labs/).
    nb = _translated(root, rel, words, root / "labs", base, planned)
    try:
        student = generate.student_notebook(nb)
    except ImportError as e:
        raise SystemExit(
            f"translate: the labs are cut with nbgrader, which is not installed (make teach): {e}"
        ) from None
    out = {
        base / f"{lab}.ipynb": nbformat.writes(student) + "\n",
        base / "solutions" / f"{lab}.ipynb": nbformat.writes(generate.solution_notebook(nb)) + "\n",
    }
    for path in lab_files(root, rel):
        name, text = path.relative_to(src), path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            text = "".join(render(s, words.get(s.msgid or "", "")) for s in file_segments(text))
            out[base / name] = generate.student_text(text, str(path))
            out[base / "solutions" / name] = generate.solution_text(text, str(path))
        else:
            out[base / name] = out[base / "solutions" / name] = text
    return out


def build(root: Path) -> dict[Path, str]:
    """Every file of the Portuguese edition as `build` writes it: path -> text."""
    rels = translated_notebooks(root)
    planned = {p for r in rels for p in outputs(root, r)}
    out: dict[Path, str] = {}
    for r in rels:
        out.update(
            build_lab(root, r, planned) if lab_name(r) else {root / edition_path(r): build_one(root, r, planned)}
        )
    return out


# -- the check --------------------------------------------------------------------------------------
def _entry_problems(po_rel: str, tmpl, cat) -> list[str]:
    out = []
    have = {m.id: m for m in cat if m.id}
    for m in tmpl:
        if not m.id:
            continue
        where = " ".join(f"{f}:{n}" if n else f for f, n in m.locations[:1])
        english = (m.id if isinstance(m.id, str) else m.id[0]).replace("\n", " ")
        english = english if len(english) <= 70 else english[:69] + "…"
        got = have.get(m.id)
        strings = [] if got is None else ([got.string] if isinstance(got.string, str) else list(got.string))
        if got is None:
            out.append(f"{po_rel}: {where}: not in the catalog (new or changed English): {english!r}")
        elif got.fuzzy:
            out.append(f"{po_rel}: {where}: fuzzy (the English changed; revise it): {english!r}")
        elif not all(strings):
            out.append(f"{po_rel}: {where}: untranslated: {english!r}")
        else:
            ids = [m.id] if isinstance(m.id, str) else list(m.id)
            fields = set().union(*(placeholders(i) for i in ids))
            if any(placeholders(s) != fields for s in strings):
                out.append(f"{po_rel}: {where}: the translation's {{fields}} differ from the English: {english!r}")
    return out


TERMINOLOGY = Path("locale") / LOCALE / "terminology.csv"
# Spans of an English message that are the wire or code, not prose: a term inside them is not
# translated (`code`, "quoted", {fields}, <code>...</code>, and JSON-RPC's own error names).
_NOT_PROSE = re.compile(
    r"`[^`]*`|<code>.*?</code>|\"[^\"]*\"|\{[^{}]*\}|Parse error|Invalid Request|Method not found|Invalid params"
)


def terminology(root: Path) -> list[dict[str, str]]:
    """The rows of locale/pt_BR/terminology.csv: english, portuguese, accepted_stems, note."""
    import csv

    with open(root / TERMINOLOGY, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def term_problems(po_rel: str, cat, rows: list[dict[str, str]]) -> list[str]:
    """Translated entries whose English uses a listed term in prose and whose Portuguese has none
    of the term's accepted stems (matched as written in English, from a word start in Portuguese)."""
    out = []
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        if not all(strings):
            continue
        prose = " ".join(_NOT_PROSE.sub(" ", i) for i in ids)
        for row in rows:
            if not re.search(rf"(?<![\w/.-]){re.escape(row['english'])}(?![\w/-])", prose):
                continue
            stems = [x for x in row["accepted_stems"].split("|") if x]
            if not any(re.search(rf"(?<!\w){re.escape(x)}", s, re.I) for s in strings for x in stems):
                where = " ".join(f"{f}:{n}" if n else f for f, n in m.locations[:1])
                out.append(f"{po_rel}: {where}: {row['english']!r} should read {row['portuguese']!r}: {strings[0]!r}")
    return out


def problems(root: Path, *, package: bool = True) -> list[str]:
    """Everything that keeps the Portuguese edition out of step, one line each ([] when none)."""
    out = []
    if package and (root / PACKAGE_PO).exists():
        out += _entry_problems(PACKAGE_PO.as_posix(), package_template(root), _read(root / PACKAGE_PO))
    for rel in translated_notebooks(root):
        po = notebook_catalog(rel)
        if not (root / rel).exists():
            out.append(f"{po.as_posix()}: its English notebook {rel} does not exist")
            continue
        out += _entry_problems(po.as_posix(), template(root, rel), _read(root / po))
    rows = terminology(root) if (root / TERMINOLOGY).exists() else []
    catalogs = [PACKAGE_PO] if package and (root / PACKAGE_PO).exists() else []
    catalogs += [notebook_catalog(rel) for rel in translated_notebooks(root)]
    for po in catalogs:
        out += term_problems(po.as_posix(), _read(root / po), rows)
    for path, text in build(root).items():
        rel = path.relative_to(root).as_posix()
        if not path.exists():
            out.append(f"{rel}: not generated yet: run make translations")
        elif path.read_text(encoding="utf-8") != text:
            out.append(f"{rel}: differs from what make translations generates from its catalog: run it")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcp_lab.course.translate", description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this checkout)")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("update", help="merge the English into the catalogs; NOTEBOOK... starts new catalogs")
    up.add_argument("notebooks", nargs="*", metavar="NOTEBOOK")
    sub.add_parser("build", help="write notebooks/pt-BR/ and labs/pt-BR/ from the catalogs")
    sub.add_parser("check", help="list untranslated, fuzzy and stale entries; exit 1 if any")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.command == "update":
        for path in update(root, args.notebooks):
            print(f"updated {path.relative_to(root)}")
    elif args.command == "build":
        for path, text in build(root).items():
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(root)}")
    else:
        found = problems(root)
        print("\n".join(found) if found else "translations: every catalog translated and in step")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
