"""How a probe's Verdict looks in Jupyter: the era as a coloured badge, a table of what the server
said, the steps as a numbered list, and the full trace one click away.

`verdict_html(v)` is what `Verdict._repr_html_` returns: the package facade names it to the
registry `mcp_lab.wire.views` under "verdict"; the session layer imports nothing from here.
"""

from __future__ import annotations

import html
import json

from mcp_lab.session.verdict import Verdict, identity
from mcp_lab.wire.revisions import Era
from mcp_lab.wire.words import _, ngettext

__all__ = ["verdict_html", "ERA_COLOURS", "UNKNOWN_COLOUR"]

# The badge's background per era; white text on each keeps a contrast ratio above 4.5:1.
ERA_COLOURS = {Era.MODERN: "#1e8e3e", Era.LEGACY: "#b06000"}
UNKNOWN_COLOUR = "#c5221f"
BADGE_STYLE = "background:{colour};color:#fff;padding:1px 6px;border-radius:3px"
CELL_STYLE = "text-align:left"


def _badge(era: Era | None) -> str:
    colour = ERA_COLOURS.get(era, UNKNOWN_COLOUR) if era is not None else UNKNOWN_COLOUR
    word = str(era) if era is not None else _("unknown")
    return f"<span style='{BADGE_STYLE.format(colour=colour)}'>{html.escape(word)}</span>"


def _rows(v: Verdict) -> list[tuple[str, str]]:
    caps = html.escape(json.dumps(v.capabilities, ensure_ascii=False))
    cached = " " + _("(cached verdict)") if v.cached else ""
    rows = [
        (_("era"), _badge(v.era)),
        (_("version"), html.escape(v.version or _("none mutual"))),
        (_("server"), html.escape(identity(v.server_info) or _("(not stated)"))),
        (_("capabilities"), f"<code>{caps}</code>"),
        (_("probe time"), f"{v.elapsed_ms:.0f} ms" + cached),
    ]
    if v.supported_versions:
        rows.insert(2, (_("supported"), html.escape(", ".join(v.supported_versions))))
    if v.instructions:
        size = ngettext("{n} character", "{n} characters", len(v.instructions)).format(n=len(v.instructions))
        rows.append(
            (
                _("instructions"),
                f"<details><summary>{size}</summary><pre style='white-space:pre-wrap'>"
                f"{html.escape(v.instructions)}</pre></details>",
            )
        )
    return rows


def verdict_html(v: Verdict) -> str:
    """The Verdict as one HTML block (see the module's docstring)."""
    table = "".join(
        f"<tr><th style='{CELL_STYLE}'>{k}</th><td style='{CELL_STYLE}'>{val}</td></tr>" for k, val in _rows(v)
    )
    steps = "".join(f"<li>{html.escape(s)}</li>" for s in v.steps)
    trace = (
        "<details><summary>{}</summary>".format(_("trace: every line")) + v.trace.html() + "</details>"
        if v.trace is not None
        else ""
    )
    return f"<div><b>probe {html.escape(v.server)}</b><table>{table}</table><ol>{steps}</ol>{trace}</div>"
