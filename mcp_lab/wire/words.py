"""The words the package shows a person, looked up in the edition's catalog: `_()` and `ngettext`.

Theory of operation
-------------------
Every layer that shows a learner a sentence (a lint finding here in the wire layer, a widget's
button in the notebook layer, a lab check's hint in the course layer) marks it with `_()`, or
`ngettext()` for a sentence that depends on a count, and formats its values in afterwards:

    _("{n} is not one of the options").format(n=value)

The English text is the message id, so with no catalog (the English edition, the CLI, the tests)
`_()` returns its argument untouched.  The wire layer stays sans-IO and stdlib-only: this module
reads no file and chooses no language.  It asks one function, installed from above through
`use_catalogs` (the facade installs `mcp_lab.notebook.i18n.active_catalog`, which reads the PO
catalog once, at the first lookup in a Portuguese kernel), for the mapping of the language now in
force, and looks the message up in it: a dict lookup per call.  A message the catalog lacks, or
holds untranslated, shows in English.

What never goes through here: the wire itself (method names, JSON fields, error codes, what a
server answers), rule names (`id-null`) and spec anchors.  Babel extracts the marked strings
(`babel.cfg`, `make translations`).
"""

from __future__ import annotations

from typing import Callable, Mapping

__all__ = ["_", "N_", "ngettext", "use_catalogs", "Catalog"]

# msgid -> msgstr for a plain message; (singular, plural) -> [form, ...] for a counted one.
Catalog = Mapping[object, object]
# plural form index for a count, per catalog; English's rule when the catalog does not say.
_ENGLISH_PLURAL: Callable[[int], int] = lambda n: 0 if n == 1 else 1

_active: Callable[[], tuple[Catalog, Callable[[int], int]] | None] = lambda: None


def use_catalogs(active: Callable[[], tuple[Catalog, Callable[[int], int]] | None]) -> None:
    """Install the function that returns (catalog, plural rule) of the language in force, or None
    for English. Called once, by the package's facade."""
    global _active
    _active = active


def _(message: str) -> str:
    """The message in the edition's language (the English itself when not translated)."""
    found = _active()
    if found is None:
        return message
    text = found[0].get(message)
    return text if isinstance(text, str) and text else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The sentence for a count `n`: `singular` or `plural` in English, the catalog's form else."""
    found = _active()
    if found is not None:
        forms = found[0].get((singular, plural))
        if isinstance(forms, (list, tuple)):
            index = found[1](n)
            if 0 <= index < len(forms) and forms[index]:
                return forms[index]
    return singular if _ENGLISH_PLURAL(n) == 0 else plural


def N_(message: str) -> str:
    """Mark a message for the catalog where it is defined (a module-level table) without looking
    it up: the code that shows it calls `_()` on it then, in the language in force at that time."""
    return message
