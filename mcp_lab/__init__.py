"""mcp_lab: drive real MCP servers from notebook cells and see the real wire.

    import mcp_lab
    cal = mcp_lab.connect("calendar")          # a known short name, or an argv list
    cal.request("tools/list")                  # _meta of 2026-07-28 added for you
    cal.trace                                  # every line, both ways, with stderr beside it

This module is the public facade and nothing else: every name below lives in a layer of the
package (``wire/`` sans-IO, ``transport/``, ``session/``, ``notebook/``, ``tokens/``, ``course/``,
``servers/``) and is re-exported here. No module inside the package imports this one.

`import mcp_lab` is cheap: only the sans-IO wire layer (stdlib only) and the session layer's
registry of notebook views (``wire/views.py``, a dict) are imported eagerly; the rest of the
session layer, tiktoken, ipywidgets, httpx and the official SDK are loaded on first attribute
access (PEP 562).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire import trace as _trace
from mcp_lab.wire import views as _views
from mcp_lab.wire import words as _words
from mcp_lab.wire.errors import (
    DeadlineExceeded,
    HttpError,
    LocalError,
    McpError,
    ProtocolError,
    RemoteError,
    RoundsExceeded,
    TransportClosed,
)
from mcp_lab.wire.revisions import LATEST, LEGACY_VERSION, Era, meta
from mcp_lab.wire.trace import Event, Trace

__version__ = "0.1.0"

# The old name of LEGACY_VERSION (a version, not an era), kept for notebook 06's import; the
# package itself says LEGACY_VERSION, and Era.LEGACY is the era.
LEGACY = LEGACY_VERSION

__all__ = [
    "connect", "probe", "probe_http", "isolated", "cost", "serve_http", "replay", "diff", "cassette", "check",
    "Verdict", "Client", "Trace", "Event",
    "McpError", "RemoteError", "LocalError", "ProtocolError", "TransportClosed", "DeadlineExceeded",
    "HttpError", "RoundsExceeded",
    "LATEST", "LEGACY_VERSION", "LEGACY", "Era", "meta", "jsonrpc", "revisions", "mrtr", "widgets", "tokens", "course",
    "flip_one_character", "side_by_side", "predict", "self_check", "your_turn", "interactions",
]  # fmt: skip

# Public names that live in heavier modules, loaded on first attribute access (PEP 562).
_LAZY = {
    "connect": ("mcp_lab.session.connect", "connect"),
    "Client": ("mcp_lab.session.client", "Client"),
    "probe": ("mcp_lab.session.probe", "probe"),
    "Verdict": ("mcp_lab.session.verdict", "Verdict"),
    "probe_http": ("mcp_lab.session.probe_http", "probe_http"),
    "isolated": ("mcp_lab.session.isolate", "isolated"),
    "flip_one_character": ("mcp_lab.session.isolate", "flip_one_character"),
    "serve_http": ("mcp_lab.session.serve", "serve_http"),
    "http_servers": ("mcp_lab.session.serve", None),
    "mrtr": ("mcp_lab.mrtr", None),
    "cost": ("mcp_lab.tokens", "cost"),
    "tokens": ("mcp_lab.tokens", None),
    "widgets": ("mcp_lab.notebook.widgets", None),
    "course": ("mcp_lab.course", None),
    "side_by_side": ("mcp_lab.notebook.compare", "side_by_side"),
    "predict": ("mcp_lab.course.lessons", "predict"),
    "self_check": ("mcp_lab.course.lessons", "self_check"),
    "your_turn": ("mcp_lab.course.lessons", "your_turn"),
    "interactions": ("mcp_lab.notebook.interactions", None),
    "replay": ("mcp_lab.session.replay", "replay"),
    "diff": ("mcp_lab.session.diff", "diff"),
    "cassette": ("mcp_lab.session.cassette", None),
    "check": ("mcp_lab.session.check", "check"),
}


# Trace.save / Trace.load hand the Trace to the cassette module (session/: the file format and its
# I/O), loaded on the first save or load. The facade names it: the wire layer names no layer above.
_trace.use_cassette_files(lambda: importlib.import_module("mcp_lab.session.cassette"))
# A Trace built without its own listener reports to the session layer's, which owns the run's
# listeners (the pytest plugin's wire check) and the MCP_LAB_WIRE_LOG file; the wire layer does
# no I/O and names no layer above it.
_trace.use_default_listener(importlib.import_module("mcp_lab.session.trace_listeners").announce)
# The words every layer shows a learner come from the edition's catalog (mcp_lab.wire.words): the
# notebook layer chooses the language and reads the catalog, at the first lookup; the wire layer
# only looks up. An English kernel never imports more than the choice itself.
_words.use_catalogs(lambda: importlib.import_module("mcp_lab.notebook.i18n").active_catalog())
# The objects of the lower layers are drawn for Jupyter by the notebook layer, each view module
# loaded at its first drawing; no layer below notebook/ names it (tests/test_views_in_notebook.py).
_HTML_VIEWS = {
    "verdict": ("mcp_lab.notebook.probe_views", "verdict_html"),
    "diff": ("mcp_lab.notebook.diff_views", "diff_html"),
    "isolation": ("mcp_lab.notebook.isolate_views", "isolation_html"),
    "http-exchange": ("mcp_lab.notebook.http_views", "exchange_html"),
    "check-report": ("mcp_lab.notebook.check_views", "check_report_html"),
}


def _view_in(module: str, name: str) -> Callable[[], Callable[[Any], str]]:
    """The provider of a view: `name` in `module`, imported when first called."""
    return lambda: getattr(importlib.import_module(module), name)


for _kind, (_module, _name) in _HTML_VIEWS.items():
    _views.use_html_view(_kind, _view_in(_module, _name))
del _kind, _module, _name


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'mcp_lab' has no attribute {name!r}") from None
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def load_ipython_extension(ipython) -> None:
    """`%load_ext mcp_lab`: the `%mcp` / `%%rpc` magics, pytest's assertion rewriting, and the
    interactions registry following cell runs (see mcp_lab.notebook.magics, .interactions).

    A failing `assert cond, "reason"` then shows the reason and the compared values, as pytest
    does; ipytest installs pytest's own rewriter as an IPython AST transformer, nothing else.
    In JupyterLab it also adds one page style (`views.OUTPUT_WRAP_STYLE`): printed text wraps
    between words, where JupyterLab's own style breaks a message anywhere, mid-word.
    """
    import ipytest

    from mcp_lab.notebook import edition, interactions
    from mcp_lab.notebook.magics import load_ipython_extension as _load

    _load(ipython)
    edition.install(ipython)  # the browser edition: a cell that needs a process says so in one line
    interactions.watch_cells(ipython)
    ipytest.config(rewrite_asserts=True)
    from IPython.display import display

    from mcp_lab.notebook.views import OUTPUT_WRAP_STYLE

    display({"text/html": OUTPUT_WRAP_STYLE}, raw=True)  # nothing to read: a page style, no text
