"""The glossary in a real Lab: a link from a lesson lands on its entry, on the first open too.

JupyterLab + Chromium over a copy of notebooks/. Notebook 02 is opened and the glossary link in
its first cell (`glossary.ipynb#cell-id=stdio`) is clicked as a person would. Asserted: the
glossary opens scrolled to the entry, not at its top; the entry's explicit `<a id>` survived the
sanitizer (as `data-jupyter-id`); with the glossary open, a second link (`#cell-id=primitives`)
lands on that entry too.

Measured while writing it (JupyterLab 4.6): a plain `glossary.ipynb#stdio` lands only when the
glossary is already open (on the first open the fragment is applied before the Markdown cells
render), which is why the links use `#cell-id=` (each entry's cell id is its anchor); and a
glossary without a kernelspec makes JupyterLab ask which kernel to start, where "No Kernel"
scrolls the page back to its top, which is why the glossary keeps its kernelspec.
"""

from __future__ import annotations

import re

import pytest
from _support import ROOT

pytestmark = pytest.mark.browser
OPEN_MS = 90_000
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


@pytest.fixture(scope="module")
def lab(jupyterlab_module):
    started = jupyterlab_module([], extra=[ROOT / "notebooks"])
    yield started
    left = started.stop()
    assert not left, f"processes outlived JupyterLab (killed now): {sorted(left)}"


def in_view(page, anchor: str) -> bool:
    box = page.locator(f"{PANEL} h3[data-jupyter-id='{anchor}']").bounding_box()
    return box is not None and 0 <= box["y"] <= page.viewport_size["height"] - 40


def click_glossary_link(page, anchor: str) -> None:
    page.locator(f"{PANEL} a[href*='glossary.ipynb'][href$='#cell-id={anchor}']").first.click()


def test_a_glossary_link_lands_on_its_entry(lab, chromium_module):
    page = chromium_module
    url = f"{lab.url}/lab/workspaces/glossary/tree/notebooks/02-json-rpc-by-hand.ipynb?reset&token={lab.token}"
    page.goto(url, timeout=OPEN_MS)
    page.locator(PANEL).locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    idle = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$"))
    idle.wait_for(timeout=OPEN_MS)

    click_glossary_link(page, "stdio")
    page.locator(f"{PANEL} h3[data-jupyter-id='stdio']").wait_for(timeout=OPEN_MS)
    idle.wait_for(timeout=OPEN_MS)  # the glossary's kernel is up: nothing asks or scrolls after this
    page.wait_for_timeout(1500)
    assert not page.get_by_role("dialog").count(), "opening the glossary asked a question"
    assert in_view(page, "stdio"), "the glossary opened at its top, not at the stdio entry"
    assert page.locator(f"{PANEL} a[data-jupyter-id='stdio']").count() == 1, "the <a id> was dropped"

    page.get_by_role("tab", name=re.compile("02-json-rpc")).click()
    page.locator(PANEL).locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    click_glossary_link(page, "primitives")
    page.wait_for_timeout(1500)
    assert in_view(page, "primitives"), "with the glossary open, a second link did not land on its entry"
