"""How one HTTP exchange of the Streamable HTTP transport looks in Jupyter: its one-line summary
in bold, then the request and the response as sent and received, wrapped between words.

`exchange_html(x)` is what `transport.http.Exchange._repr_html_` returns: the package facade
names it to `mcp_lab.wire.views` under "http-exchange"; the transport layer imports nothing from here.
"""

from __future__ import annotations

import html

from mcp_lab.transport.http import Exchange

__all__ = ["exchange_html"]

PRE_STYLE = "white-space:pre-wrap;word-break:normal;overflow-wrap:break-word"


def exchange_html(x: Exchange) -> str:
    """The exchange's summary and its raw text (see the module's docstring)."""
    return f"<b>{html.escape(x.summary)}</b><pre style='{PRE_STYLE}'>{html.escape(x.raw)}</pre>"
