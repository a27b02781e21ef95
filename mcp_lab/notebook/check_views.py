"""How a lab check's success looks in Jupyter: its headline, then each expectation met, marked ok.

`check_report_html(r)` is what `course._check.CheckReport._repr_html_` returns: the package
facade names it to `mcp_lab.wire.views` under "check-report".  The course layer sits above this
one, so the report is read by what it offers (`server`, `passed`, `headline()`), not imported.
"""

from __future__ import annotations

import html
from typing import Any

from mcp_lab.wire.words import _

__all__ = ["check_report_html"]


def check_report_html(r: Any) -> str:
    """The report's headline and its list of expectations met."""
    # A word, not an emoji: a machine without an emoji font would show a blank box.
    mark = "<b style='color:#2e7d32'>{}</b>".format(_("ok"))
    items = "".join(f"<li>{mark} {html.escape(p)}</li>" for p in r.passed)
    return f"<b>{r.headline(html.escape(r.server))}</b><ul>{items}</ul>"
