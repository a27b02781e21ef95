"""A horizontal bar chart of tokens per tool, as inline SVG (no plotting library).

It draws what it is given (`Bar`s and two lines of text) and knows nothing of a catalog:
`CatalogCost.chart()` (mcp_lab.tokens.catalog) builds the bars, so neither module imports
the other both ways.
"""

from __future__ import annotations

import html
from typing import NamedTuple, Protocol


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


class _Costed(Protocol):
    """What `before_after` reads of a catalog's cost (a CatalogCost has it): no import of the catalog."""

    encoding: str
    tools: tuple
    tools_total: int


def before_after(before: _Costed, after: _Costed, budget: int | None = None) -> Chart:  # one SVG, drawn in order
    """One chart of a trimmed catalog against its original, on one scale, with the budget line.

    The top pair of bars is the whole list (`tools_total`), with the budget drawn across it; below,
    one pair per tool (before in grey, after in blue), in the original's order, costliest first.
    Both share one scale, the larger of the original total and the budget, so a trimmed catalog
    looks as much smaller as it is.
    """
    e = html.escape
    after_of = {t.name: t.tokens for t in after.tools}
    rows = sorted(before.tools, key=lambda t: -t.tokens)
    bar_h, pair_gap, gap, label_w, bar_w, right = 11, 2, 8, 200, 420, 110
    top = 46
    pair = 2 * bar_h + pair_gap
    height = top + (len(rows) + 1) * (pair + gap) + 8 + gap
    width = label_w + bar_w + right
    peak = max(before.tools_total, after.tools_total, budget or 0, 1)
    scale = lambda n: max(1, round(bar_w * n / peak))
    colors = {"before": "#b3bac4", "after": "#2f6db5"}
    fits = budget is None or after.tools_total <= budget
    verdict = "" if budget is None else (" - within the budget" if fits else " - over the budget")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12" role="img">',
        f"<title>Tokens before and after trimming ({e(before.encoding)})</title>",
        f'<text x="0" y="16" font-weight="bold">{before.tools_total:,} -&gt; {after.tools_total:,} tokens'
        f"{'' if budget is None else f' (budget {budget:,})'}{verdict}</text>",
        f'<rect x="0" y="24" width="10" height="10" fill="{colors["before"]}"/>'
        f'<text x="14" y="33">before</text>'
        f'<rect x="70" y="24" width="10" height="10" fill="{colors["after"]}"/>'
        f'<text x="84" y="33">after</text>',
    ]

    def bars(y: int, label: str, old: int, new: int | None, cls: str, bold: bool = False) -> str:
        weight = ' font-weight="bold"' if bold else ""
        out = [f'<g class="{cls}" data-tool="{e(label)}">']
        out.append(f'<text x="{label_w - 6}" y="{y + bar_h + 1}" text-anchor="end"{weight}>{e(label)}</text>')
        out.append(
            f'<rect class="before" x="{label_w}" y="{y}" width="{scale(old)}" height="{bar_h}" '
            f'fill="{colors["before"]}"/>'
        )
        out.append(f'<text x="{label_w + scale(old) + 4}" y="{y + bar_h - 1}" font-size="10">{old:,}</text>')
        y2 = y + bar_h + pair_gap
        if new is None:
            out.append(f'<text x="{label_w + 2}" y="{y2 + bar_h - 1}" font-size="10">removed</text>')
        else:
            out.append(
                f'<rect class="after" x="{label_w}" y="{y2}" width="{scale(new)}" height="{bar_h}" '
                f'fill="{colors["after"]}"/>'
            )
            out.append(
                f'<text x="{label_w + scale(new) + 4}" y="{y2 + bar_h - 1}" font-size="10"{weight}>{new:,}</text>'
            )
        out.append("</g>")
        return "".join(out)

    parts.append(bars(top, "whole list", before.tools_total, after.tools_total, "total", bold=True))
    for i, t in enumerate(rows, 1):
        parts.append(bars(top + i * (pair + gap) + gap, t.name, t.tokens, after_of.get(t.name), "bar"))
    if budget is not None:
        x = label_w + scale(budget)
        parts.append(
            f'<g class="budget"><line x1="{x}" y1="{top - 4}" x2="{x}" y2="{height - 4}" stroke="#c0392b" '
            f'stroke-width="1.5" stroke-dasharray="5,3"/>'
            f'<text x="{x + 4}" y="{top - 6}" fill="#c0392b">budget {budget:,}</text></g>'
        )
    parts.append("</svg>")
    return Chart("".join(parts))
