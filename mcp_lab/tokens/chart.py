"""A horizontal bar chart of tokens per tool, as inline SVG (no plotting library).

It draws what it is given (`Bar`s and two lines of text) and knows nothing of a catalog:
`CatalogCost.chart()` (mcp_lab.tokens.catalog) builds the bars, so neither module imports
the other both ways.
"""

from __future__ import annotations

import html
from typing import NamedTuple


class Bar(NamedTuple):
    """One tool's bar: its name, tokens, bytes on the wire, and a mark ("costliest", "cheapest" or "")."""

    name: str
    tokens: int
    bytes: int
    mark: str = ""


class Chart:
    """An SVG document that notebooks display inline; ``str(chart)`` is the SVG text."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Chart svg {len(self.svg)} chars>"


def bar_svg(bars: list[Bar], *, title: str, heading: str) -> str:
    """The SVG of `bars`, costliest first; `title` is its tooltip, `heading` the line above."""
    e = html.escape
    rows = sorted(bars, key=lambda t: -t.tokens)
    bar_h, gap, label_w, bar_w, right = 18, 6, 260, 360, 150
    top = 28
    height = top + len(rows) * (bar_h + gap) + 10
    width = label_w + bar_w + right
    peak = max((t.tokens for t in rows), default=0) or 1
    colors = {"costliest": "#c0392b", "cheapest": "#2e8b57", "": "#8c96a3"}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12" role="img">',
        f"<title>{e(title)}</title>",
        f'<text x="0" y="16" font-weight="bold">{e(heading)}</text>',
    ]
    for i, t in enumerate(rows):
        y = top + i * (bar_h + gap)
        mark = t.mark
        w = max(1, round(bar_w * t.tokens / peak))
        label = f"{t.tokens:,}" + (f" {mark}" if mark else "")
        parts.append(
            f'<g class="bar{(" " + mark) if mark else ""}" data-tool="{e(t.name)}">'
            f"<title>{e(t.name)}: {t.tokens:,} tokens, {t.bytes:,} bytes</title>"
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{e(t.name)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_h}" fill="{colors[mark]}"/>'
            f'<text x="{label_w + w + 6}" y="{y + 13}"'
            f"{' font-weight=' + chr(34) + 'bold' + chr(34) if mark else ''}>{label}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)
