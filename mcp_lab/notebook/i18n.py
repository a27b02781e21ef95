"""Which edition this kernel speaks, and its catalog: what `mcp_lab.wire.words._()` looks up.

Theory of operation
-------------------
The course has two editions from one source: the English notebooks (`notebooks/`, `labs/`) and
the Portuguese ones generated beside them (`notebooks/pt-BR/`, `labs/pt-BR/`).  A kernel speaks
the edition of the notebook it was started for, decided once, at the first message shown, from
(first that applies):

1. `set_language("pt-BR")` or the magic `%mcp lang pt-BR` in this kernel (JupyterLite, a console,
   a test that wants one language whatever the path);
2. the environment variable `MCP_LAB_LANG` (`pt-BR` or `en`), for a whole process tree;
3. the notebook's path, which the Jupyter server hands every kernel it starts for a notebook in
   `JPY_SESSION_NAME`: a path with a `pt-BR` folder in it is the Portuguese edition; where no
   server says (nbclient, JupyterLite's kernel, a console), the kernel's working folder, which
   those set to the notebook's own;
4. English.

The path is what makes "one kernel follows its notebook's edition" hold without a line of code
in the Portuguese notebooks (their code cells are the English ones): two notebooks open side by
side each have their own kernel and their own `JPY_SESSION_NAME`.  The machine's own locale
(`LANG`) is never read: an English notebook on a Brazilian laptop stays English.

The catalog is the PO file itself (`mcp_lab/locale/pt_BR/LC_MESSAGES/mcp_lab.po`), read with
polib at the first lookup in a Portuguese kernel and kept: no compiled `.mo` to fall out of step
with it.  Fuzzy, obsolete and untranslated entries are left out, so those show in English.
Importing this module reads nothing; an English kernel never opens the file.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Callable

from mcp_lab.wire.words import Catalog, _, ngettext

__all__ = ["_", "ngettext", "LANGUAGES", "language", "set_language", "active_catalog", "catalog_path"]

# An edition's tag (as in notebooks/pt-BR/) -> its gettext locale folder; None: the source text.
LANGUAGES: dict[str, str | None] = {"en": None, "pt-BR": "pt_BR"}
DOMAIN = "mcp_lab"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_chosen: str | None = None  # set_language's choice; None: decide from the environment
_loaded: dict[str, tuple[Catalog, Callable[[int], int]]] = {}


def _normalise(tag: str) -> str:
    """'pt-BR', 'pt_BR', 'pt-br' -> 'pt-BR'; ValueError (one line) for an edition that does not exist."""
    wanted = tag.strip().replace("_", "-").casefold()
    for known in LANGUAGES:
        if known.casefold() == wanted:
            return known
    raise ValueError(f"no {tag!r} edition: the course speaks {', '.join(LANGUAGES)}")


def language() -> str:
    """The edition this kernel speaks now: 'en' or 'pt-BR'."""
    if _chosen is not None:
        return _chosen
    session = os.environ.get("JPY_SESSION_NAME", "")
    if not session:
        try:  # no server named the notebook: the kernel's folder, which is the notebook's in
            session = os.path.join(os.getcwd(), "-")  # nbclient and in JupyterLite's kernel
        except OSError:
            session = ""
    return _from_environment(os.environ.get("MCP_LAB_LANG", ""), session)


@functools.lru_cache(maxsize=16)
def _from_environment(wanted: str, session: str) -> str:
    """The edition the environment says (steps 2 to 4 of the module's docstring), decided once per
    pair of values: every message asks, so this is a dict lookup after the first."""
    if wanted.strip():
        try:
            return _normalise(wanted)
        except ValueError:
            return "en"  # a wrong value must not break every message; set_language says why
    parts = {p.casefold() for p in Path(session).parts[:-1]}
    for tag in LANGUAGES:
        if tag != "en" and tag.casefold() in parts:
            return tag
    return "en"


def set_language(tag: str | None) -> str:
    """Speak `tag` ('en', 'pt-BR') in this kernel from now on; None goes back to the automatic
    choice. Returns the edition now in force."""
    global _chosen
    _chosen = None if tag is None else _normalise(tag)
    return language()


def catalog_path(tag: str) -> Path:
    """Where the package's catalog for an edition lives (the PO file translators edit)."""
    locale = LANGUAGES[_normalise(tag)]
    if locale is None:
        raise ValueError("the English edition is the source text: it has no catalog")
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path) -> tuple[Catalog, Callable[[int], int]]:
    """The translated entries of one PO file (msgid -> msgstr, (msgid, msgid_plural) -> forms)
    and its plural rule (the header's Plural-Forms, compiled by the standard library's gettext)."""
    import gettext

    import polib

    po = polib.pofile(str(path))
    rule = po.metadata.get("Plural-Forms", "")
    expr = rule.partition("plural=")[2].strip().rstrip(";") if "plural=" in rule else ""
    plural = gettext.c2py(expr) if expr else (lambda n: 0 if n == 1 else 1)
    table: dict[object, object] = {}
    for entry in po:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
            if all(forms):
                table[(entry.msgid, entry.msgid_plural)] = forms
        elif entry.msgstr:
            table[entry.msgid] = entry.msgstr
    return table, plural


def active_catalog() -> tuple[Catalog, Callable[[int], int]] | None:
    """(catalog, plural rule) of the edition in force, read at its first use; None for English."""
    tag = language()
    locale = LANGUAGES[tag]
    if locale is None:
        return None
    if tag not in _loaded:
        path = catalog_path(tag)
        english = ({}, lambda n: 0 if n == 1 else 1)
        try:
            _loaded[tag] = read_catalog(path) if path.exists() else english
        except (ImportError, OSError, ValueError) as e:  # never let a catalog break what it labels
            print(f"mcp_lab: the {tag} catalog could not be read ({e}); showing English", file=sys.stderr)
            _loaded[tag] = english
    return _loaded[tag]
