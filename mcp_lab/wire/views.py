"""Where an object of a lower layer finds its HTML view for Jupyter, which the notebook layer draws.

An object (a probe's `Verdict`, a `TraceDiff`, an `Isolation`, an HTTP `Exchange`, a lab check's
report) answers Jupyter's `_repr_html_` with `html(kind, self)` and nothing else
(tests/test_views_in_notebook.py holds every `_repr_html_` outside `notebook/` to that).  The view
itself lives in `notebook/`, which no layer below it imports: the package facade
(`mcp_lab/__init__.py`) names each view here with `use_html_view(kind, provider)`, and
`provider()` is called, loading the notebook module, only at the first drawing.  With no view
named (this module imported outside the package), `html` returns None and Jupyter shows the
object's text.  It sits in the lowest layer so that every layer can reach it; stdlib only, no I/O.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["use_html_view", "html", "named_kinds"]

_PROVIDERS: dict[str, Callable[[], Callable[[Any], str]]] = {}


def use_html_view(kind: str, provider: Callable[[], Callable[[Any], str]]) -> None:
    """Name the view of the objects of `kind` ("verdict"): `provider()` returns the function
    that draws one."""
    _PROVIDERS[kind] = provider


def html(kind: str, obj: Any) -> str | None:
    """`obj` drawn by the view named for `kind`, or None when none was named."""
    provider = _PROVIDERS.get(kind)
    return provider()(obj) if provider is not None else None


def named_kinds() -> tuple[str, ...]:
    """The kinds a view has been named for, in naming order."""
    return tuple(_PROVIDERS)
