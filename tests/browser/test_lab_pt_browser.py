"""The Portuguese edition in a real Lab: Portuguese menus, Portuguese widget buttons.

A JupyterLab of its own (its user settings hold the translation setting `make lab-pt` installs,
locale pt_BR, and the news pop-up off), a notebook in `notebooks/pt-BR/`, and headless Chromium
at 1400x1000. The notebook is opened by URL; Run All goes through the Portuguese menu (Executar >
Executar todas as células, a Portuguese menu item: the official language pack); then the page shows
the file browser in Portuguese and the package's widgets in Portuguese: the kernel, started by the server for a
notebook under a pt-BR folder (JPY_SESSION_NAME), chose the edition by itself. A screenshot goes
to test-output/browser/pt-BR-lab.png.
"""

from __future__ import annotations

import json
import re
import time

import nbformat
import pytest
from _support import ROOT
from _support.lab_pages import RUN_DONE_JS

pytestmark = pytest.mark.browser

SHOT = ROOT / "test-output" / "browser" / "pt-BR-lab.png"
OPEN_MS, RUN_MS = 90_000, 120_000
CELLS = [
    "import mcp_lab\n"
    "from mcp_lab.notebook.predict import Prediction\n"
    'Prediction("pt-browser", "Que código volta?", ["-32602", "-32601"])',
    "from mcp_lab.notebook.form import ElicitationForm\n"
    'schema = {"type": "object", "properties": {"startsAt": {"type": "string", "format": "date-time"}}}\n'
    'ElicitationForm({"mode": "form", "message": "Quando?", "requestedSchema": schema})',
]


def _idle_kernel(lab, deadline_s: float = 60) -> None:
    """Wait until the notebook's session has a kernel that is idle (the status bar's words are
    Portuguese here, so the server is asked instead)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        status, body = lab._api("/api/sessions")
        sessions = json.loads(body) if status == 200 else []
        if any(s.get("kernel", {}).get("execution_state") == "idle" for s in sessions):
            return
        time.sleep(0.2)
    raise AssertionError(f"no idle kernel within {deadline_s:g} s; log:\n{lab.log_tail()}")


def test_the_portuguese_edition_opens_in_portuguese(jupyterlab, chromium):
    lab = jupyterlab([], env={})  # a server of its own (not the shared one): its settings change here
    # What `make lab-pt` installs in its user-settings folder: the translation setting, locale pt_BR
    # (the server reads its settings at each request, so writing them before the page loads is enough).
    setting = lab.base / "settings" / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    setting.parent.mkdir(parents=True, exist_ok=True)
    setting.write_text((ROOT / "tools" / "lab-pt-BR-locale.json").read_text())
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    (lab.root / "notebooks" / "pt-BR").mkdir(parents=True)
    nbformat.write(nb, lab.root / "notebooks" / "pt-BR" / "00-teste.ipynb")

    page = chromium
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{lab.url}/lab/tree/notebooks/pt-BR/00-teste.ipynb?token={lab.token}", timeout=OPEN_MS)
    # The official pack (4.5.post3) leaves the menu bar's own titles in English (it has no "menu"
    # context entries for them); what the menus hold, the file browser and the dialogs are Portuguese.
    menu = page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^(Run|Executar)$"))
    menu.wait_for(timeout=OPEN_MS)
    page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=OPEN_MS)
    _idle_kernel(lab)
    menu.click()
    page.get_by_role("menuitem", name="Executar todas as células", exact=True).click()
    page.wait_for_function(RUN_DONE_JS, timeout=RUN_MS, polling=500)
    page.get_by_role("button", name="Prever", exact=True).first.wait_for(timeout=30_000)
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOT))  # taken before the checks below, so a failure can be looked at

    browser_header = page.locator(".jp-FileBrowser .jp-DirListing-headerItemText").all_inner_texts()
    assert "Nome" in browser_header, browser_header
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    for name in ("Prever", "Aceitar", "Recusar", "Cancelar"):
        panel.locator("button", has_text=re.compile(rf"^\s*{name}\s*$")).first.wait_for(timeout=30_000)
    assert not page.get_by_role("button", name="Predict", exact=True).count()
    assert "Preveja:" in panel.inner_text()
