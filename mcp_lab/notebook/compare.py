"""Several probe verdicts side by side: one row per server, read left to right.

    mcp_lab.side_by_side({"reference (everything)": ref, "bundled calendar": cal})

The HTML table is left-aligned (JupyterLab right-aligns table cells by default), keeps short
tokens such as a version or a date on one line ("2025-11-25", never "2025-11-/25"), and wraps
the long cells (capabilities, the first lines sent) between items only. `text()` gives the
same rows for a terminal.
"""

from __future__ import annotations

import html
import json
from typing import Mapping

from mcp_lab.session.verdict import Verdict
from mcp_lab.wire.trace_views import CELL_STYLE, TABLE_STYLE

__all__ = ["SideBySide", "side_by_side"]

COLUMNS = ("server", "era", "version", "identity", "capabilities", "first lines sent", "probe ms")
# Columns whose values are short tokens: never broken inside (a version, a date, a name).
NOWRAP = {"era", "version", "identity", "probe ms"}


def _first_methods(v: Verdict, n: int = 3) -> str:
    methods = []
    for line in v.trace.sent[:n] if v.trace is not None else []:
        try:
            methods.append(json.loads(line).get("method", "?"))
        except (ValueError, AttributeError):
            methods.append("(raw text)")
    return ", ".join(methods)


def _row(label: str, v: Verdict) -> dict[str, str]:
    info = v.server_info or {}
    return {
        "server": label,
        "era": v.era or "none",
        "version": v.version or "none mutual",
        "identity": f"{info.get('name', '?')} {info.get('version', '')}".strip(),
        "capabilities": ", ".join(sorted(v.capabilities or {})),
        "first lines sent": _first_methods(v),
        "probe ms": f"{v.elapsed_ms:.0f}",
    }


class SideBySide:
    """The rows of a comparison; `_repr_html_()` for a notebook, `text()` for a terminal."""

    def __init__(self, rows: list[dict[str, str]]):
        self.rows = rows

    def _cell(self, column: str, value: str, tag: str = "td") -> str:
        align = "text-align:right;vertical-align:top" if column == "probe ms" else CELL_STYLE
        nowrap = ";white-space:nowrap" if column in NOWRAP else ""
        # Long lists break after ", " only: <wbr> is not needed, the space is the break.
        return f"<{tag} style='{align}{nowrap}'>{html.escape(value)}</{tag}>"

    def _repr_html_(self) -> str:
        head = "<tr>" + "".join(self._cell(c, c, "th") for c in COLUMNS) + "</tr>"
        body = "".join("<tr>" + "".join(self._cell(c, r[c]) for c in COLUMNS) + "</tr>" for r in self.rows)
        return f"<table style='{TABLE_STYLE}'>{head}{body}</table>"

    def text(self) -> str:
        widths = {c: max(len(c), *(len(r[c]) for r in self.rows)) for c in COLUMNS}
        lines = ["  ".join(c.ljust(widths[c]) for c in COLUMNS)]
        lines += ["  ".join(r[c].ljust(widths[c]) for c in COLUMNS) for r in self.rows]
        return "\n".join(line.rstrip() for line in lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<SideBySide {len(self.rows)} server(s): {', '.join(r['server'] for r in self.rows)}>"


def side_by_side(verdicts: Mapping[str, Verdict]) -> SideBySide:
    """One row per labelled verdict, in the order given."""
    if not verdicts:
        raise ValueError("side_by_side needs at least one verdict, e.g. {'calendar': probe('calendar')}")
    return SideBySide([_row(label, v) for label, v in verdicts.items()])
