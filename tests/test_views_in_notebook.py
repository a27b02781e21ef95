"""A rendering for Jupyter lives in `mcp_lab/notebook/`: outside it, `_repr_html_` only asks.

Outside `notebook/`, a `_repr_html_` has one statement (a docstring aside):
`return views.html("<kind>", self)`, the registry `mcp_lab.wire.views` that the facade fills with
the notebook layer's view functions.  `NOT_YET_MOVED` names the modules whose view still sits
beside its class, each with what keeps it there; the list can only shrink (an entry whose module
no longer draws fails too).  `test_a_planted_rendering_is_caught` shows the rule bites.
"""

from __future__ import annotations

import ast
import importlib

from _support import ROOT

import mcp_lab
from mcp_lab.wire import views

PACKAGE = ROOT / "mcp_lab"

# Module -> why its `_repr_html_` still draws in place (issue 39, point 9's rendering rule).
NOT_YET_MOVED = {
    "mcp_lab/wire/trace.py": "Trace.html() is public and drawn inside other views (the probe's, isolated())",
    "mcp_lab/wire/findings.py": "the lint's render_html is public API (mcp_lab.wire.lint exports it)",
    "mcp_lab/tokens/catalog.py": "the view reads the catalog's private marks (_mark, _who)",
    "mcp_lab/tokens/fleets.py": "two views built from private rows (_rows); moves with catalog.py",
    "mcp_lab/conformance/results.py": "Result.html(all_checks=) is public, called by the course",
}


def _asks_the_registry(fn: ast.FunctionDef) -> str | None:
    """The kind a `_repr_html_` asks `views.html` for, or None when it draws (or does anything else)."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return None
    call = body[0].value
    func = call.func
    named = isinstance(func, ast.Attribute) and func.attr == "html" and getattr(func.value, "id", None) == "views"
    args_ok = (
        len(call.args) == 2
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
        and isinstance(call.args[1], ast.Name)
        and call.args[1].id == "self"
    )
    return call.args[0].value if named and args_ok and not call.keywords else None


def drawing_outside_notebook(source: str, where: str) -> tuple[list[str], list[str]]:
    """(`_repr_html_`s in `source` that draw instead of asking, the kinds asked for)."""
    drawing, kinds = [], []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "_repr_html_":
            kind = _asks_the_registry(node)
            if kind is None:
                drawing.append(f"{where}:{node.lineno}")
            else:
                kinds.append(kind)
    return drawing, kinds


def _outside_notebook() -> dict[str, str]:
    return {
        p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(PACKAGE.rglob("*.py"))
        if "node_modules" not in p.parts and p.relative_to(PACKAGE).parts[0] != "notebook"
    }


def test_no_rendering_outside_notebook_but_the_named_ones():
    drawing: list[str] = []
    drawing_modules: set[str] = set()
    for rel, source in _outside_notebook().items():
        found, _ = drawing_outside_notebook(source, rel)
        if found:
            drawing_modules.add(rel)
            if rel not in NOT_YET_MOVED:
                drawing += found
    assert drawing == [], f"a _repr_html_ that draws outside notebook/ (move it, see wire/views.py): {drawing}"
    stale = sorted(set(NOT_YET_MOVED) - drawing_modules)
    assert stale == [], f"no longer drawing in place, take them off NOT_YET_MOVED: {stale}"


def test_every_kind_asked_for_is_drawn_by_a_notebook_module():
    asked = set()
    for rel, source in _outside_notebook().items():
        asked.update(drawing_outside_notebook(source, rel)[1])
    assert asked == {"verdict", "diff", "isolation", "http-exchange", "check-report"}, asked
    assert asked <= set(views.named_kinds()), f"kinds the facade names no view for: {asked - set(views.named_kinds())}"
    for kind, (module, name) in mcp_lab._HTML_VIEWS.items():
        assert module.startswith("mcp_lab.notebook."), (kind, module)
        assert callable(getattr(importlib.import_module(module), name)), (kind, module, name)


def test_a_planted_rendering_is_caught():
    planted = (
        "class Report:\n"
        "    def _repr_html_(self):\n"
        "        return f'<b>{self.name}</b>'\n"
        "class Asked:\n"
        "    def _repr_html_(self):\n"
        '        """Drawn by notebook/."""\n'
        "        return views.html('report', self)\n"
        "class Sneaky:\n"
        "    def _repr_html_(self):\n"
        "        print('drawing')\n"
        "        return views.html('report', self)\n"
    )
    drawing, kinds = drawing_outside_notebook(planted, "mcp_lab/session/planted.py")
    assert drawing == ["mcp_lab/session/planted.py:2", "mcp_lab/session/planted.py:9"]
    assert kinds == ["report"]


def test_a_moved_view_still_draws_through_the_registry():
    from mcp_lab.transport.http import Exchange

    x = Exchange(method="POST", url="http://127.0.0.1:1/mcp", request_headers=[], request_body="{}")
    page = x._repr_html_()
    assert page is not None and page.startswith("<b>HTTP POST /mcp -&gt; no response") and "<pre " in page
