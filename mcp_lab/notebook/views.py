"""Outputs sized for a page: a long list shows its first items, the rest one click away.

    from mcp_lab.notebook.views import folded
    folded(tools["tools"], "the reference server's tools", keep=5)

`folded(items, summary, keep=5)` renders the summary line, the first `keep` items, and the rest
in a collapsed `<details>` block ("N more, click to open").  An item is shown by its own
`_repr_html_` when it has one, as pretty JSON when it is a dict or a list, else as text.  A
mapping is folded by its items (`key: value`).  The plain-text form (a terminal, a test) is the
same cut: the first items, then "... N more".
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Folded", "folded", "OUTPUT_WRAP_STYLE"]

# JupyterLab's outputs use `word-break: break-all` for text, so a printed error message wraps in
# the middle of a word ("2026-07-2" / "8"). `%load_ext mcp_lab` puts this style on the page:
# text wraps between words, and only a word longer than the line is broken.
OUTPUT_WRAP_STYLE = (
    "<style>.jp-OutputArea-output pre, .jp-RenderedText pre {word-break: normal; overflow-wrap: break-word;}</style>"
)


def _item_html(item: Any) -> str:
    if hasattr(item, "_repr_html_"):
        rendered = item._repr_html_()
        if rendered:
            return rendered
    if isinstance(item, (dict, list)):
        text = json.dumps(item, indent=2, ensure_ascii=False)
    else:
        text = str(item)
    return f"<pre style='margin:2px 0;white-space:pre-wrap;word-break:normal;overflow-wrap:break-word'>{html.escape(text)}</pre>"


def _item_text(item: Any) -> str:
    if isinstance(item, (dict, list)):
        return json.dumps(item, ensure_ascii=False)
    return str(item)


class Folded:
    """The first `keep` items shown, the rest collapsed (see the module's docstring)."""

    def __init__(self, items: Iterable[Any] | Mapping, summary: str, keep: int = 5):
        if keep < 0:
            raise ValueError(f"keep must be 0 or more, got {keep}")
        if isinstance(items, Mapping):
            items = [f"{k}: {_item_text(v)}" for k, v in items.items()]
        self.items = list(items)
        self.summary, self.keep = summary, keep

    @property
    def hidden(self) -> int:
        return max(0, len(self.items) - self.keep)

    def _repr_html_(self) -> str:
        shown = "".join(f"<li>{_item_html(i)}</li>" for i in self.items[: self.keep])
        parts = [f"<div><b>{html.escape(self.summary)}</b> ({len(self.items)})<ol>{shown}</ol>"]
        if self.hidden:
            rest = "".join(f"<li>{_item_html(i)}</li>" for i in self.items[self.keep :])
            parts.append(
                f"<details><summary>{self.hidden} more, click to open</summary>"
                f"<ol start='{self.keep + 1}'>{rest}</ol></details>"
            )
        return "".join(parts) + "</div>"

    def __repr__(self) -> str:
        lines = [f"{self.summary} ({len(self.items)})"]
        lines += [f"  {n}. {_item_text(i)[:200]}" for n, i in enumerate(self.items[: self.keep], 1)]
        if self.hidden:
            lines.append(f"  ... {self.hidden} more")
        return "\n".join(lines)


def folded(obj: Iterable[Any] | Mapping, summary: str, keep: int = 5) -> Folded:
    """Show the first `keep` items of `obj` under `summary`; the rest behind one click."""
    return Folded(obj, summary, keep)
