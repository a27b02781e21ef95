"""The Portuguese edition in a real Lab: Portuguese menus, file browser, form and Predict button.

One JupyterLab of its own (its user settings hold the translation setting `make lab-pt` installs,
locale pt_BR, and the news pop-up off) over a copy of notebooks/, one headless Chromium page at
1400x1000, and the real Portuguese notebooks: notebooks/pt-BR/00-start-here.ipynb, opened by URL,
then notebooks/pt-BR/07-elicitation.ipynb, opened from the file browser after 00 is closed and its
kernel shut down (File > "Fechar e Desligar o Notebook…").  Each runs with Run All from the
Portuguese menu ("Executar todas as células", as the official language pack words it) and nothing
is answered: every question, form and prediction waits for the person.  The kernel, started by the
server for a notebook under a pt-BR folder (JPY_SESSION_NAME), chose the edition by itself.

What the pack translates, and so what is asserted: the official pack (jupyterlab-language-pack-pt-BR
4.5.post3, 989 entries) covers part of the Lab.  The menu bar's own titles (File, Edit, View, Run,
Kernel, ...) stay English: it has no "menu" context entries for them ("&&File", "&&Run"), so the
test finds them by their English titles and asserts the items inside, most of which are Portuguese
("Executar todas as células", "Fechar e Desligar o Notebook…"; "Run Selected Cell" and its two
neighbours stay English).  In the file browser, the "Nome" column and the dates ("há 5 min.") are
Portuguese; the modified column's narrow label stays "Modified".  The package's own widgets are
wholly Portuguese: no English button (Predict, Accept, Decline, Check) is on the page.

Screenshots (1400x1000, test-output/browser/): pt-BR-00.png, 00 after Run All with the Run menu
open on its Portuguese items and the self-check quiz's "Verificar" buttons in view (00 has no
prediction); pt-BR-07.png, 07 after Run All with its calendar form in view ("Aceitar", "Recusar",
"Cancelar"); pt-BR-07-predict.png, 07's first prediction waiting ("Preveja:", "Prever").
"""

from __future__ import annotations

import json
import re
import time

import pytest
from _support import ROOT
from _support.lab_pages import RUN_DONE_JS, open_from_file_browser

pytestmark = pytest.mark.browser

SHOTS = ROOT / "test-output" / "browser"
OPEN_MS, RUN_MS = 90_000, 240_000  # 07 starts the SDK's showcase server several times
FIRST, SECOND = "notebooks/pt-BR/00-start-here.ipynb", "notebooks/pt-BR/07-elicitation.ipynb"
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# Items of the Run menu the pack translates (it leaves "Run Selected Cell" and its two neighbours English).
PORTUGUESE_RUN_ITEMS = (
    "Executar todas as células",
    "Executar todas as células acima da célula selecionada",
    "Renderizar todas as células de Markdown",
)
ENGLISH_BUTTONS = ("Predict", "Accept", "Decline", "Check")
# The page's text, cells out of view included (JupyterLab skips drawing those: innerText is empty).
PANEL_TEXT_JS = f"() => document.querySelector('{PANEL}').textContent"


def _idle_kernel(lab, path: str, deadline_s: float = 60) -> None:
    """Wait until the session of the notebook `path` has an idle kernel (the status bar's words are
    Portuguese here, so the server is asked instead)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        status, body = lab._api("/api/sessions")
        sessions = json.loads(body) if status == 200 else []
        if any(s.get("path") == path and s.get("kernel", {}).get("execution_state") == "idle" for s in sessions):
            return
        time.sleep(0.2)
    raise AssertionError(f"no idle kernel for {path} within {deadline_s:g} s; log:\n{lab.log_tail()}")


def _menu(page, title: str):
    """Open the menu bar's `title` menu (its title as the page shows it)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{title}$")).click()


def _run_all(page) -> None:
    """Run All from the Portuguese Run menu; wait until every code cell has run."""
    _menu(page, "Run")
    page.get_by_role("menuitem", name="Executar todas as células", exact=True).click()
    page.wait_for_function(RUN_DONE_JS, timeout=RUN_MS, polling=500)


def _scroll_to(page, locator) -> None:
    """Scroll `locator` to the top of the notebook (cells above render, and change height, as they
    come into view: scroll until it stays put), a little below the top edge."""
    for _ in range(4):
        locator.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
    locator.evaluate("e => e.closest('.jp-WindowedPanel-outer')?.scrollBy(0, -60)")
    page.wait_for_timeout(300)


def _button(panel, name: str):
    return panel.locator("button", has_text=re.compile(rf"^\s*{name}\s*$"))


def _no_english_buttons(page) -> None:
    for name in ENGLISH_BUTTONS:
        assert not page.get_by_role("button", name=name, exact=True).count(), f"an English {name!r} button"


def test_the_portuguese_edition_opens_in_portuguese(jupyterlab, chromium):
    lab = jupyterlab([], extra=[ROOT / "notebooks"], env={})  # a server of its own: its settings change here
    # What `make lab-pt` installs in its user-settings folder (the server reads its settings at each
    # request, so writing them before the page loads is enough).
    setting = lab.base / "settings" / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    setting.parent.mkdir(parents=True, exist_ok=True)
    setting.write_text((ROOT / "tools" / "lab-pt-BR-locale.json").read_text())
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = chromium
    page.set_viewport_size({"width": 1400, "height": 1000})

    # -- 00: Portuguese menus and file browser, the quiz waiting --------------------------------
    page.goto(f"{lab.url}/lab/tree/{FIRST}?token={lab.token}", timeout=OPEN_MS)
    panel = page.locator(PANEL)
    panel.locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    _idle_kernel(lab, FIRST)
    _run_all(page)
    _button(panel, "Verificar").first.wait_for(state="attached", timeout=30_000)
    _scroll_to(page, panel.locator(".mcp-lab-pending").filter(has=_button(page, "Verificar")).first)
    _menu(page, "Run")  # open, for the screenshot: the Run menu's items as the pack words them
    run_menu = page.locator(".lm-Menu").filter(has=page.get_by_role("menuitem", name="Executar todas as células"))
    run_menu.wait_for(timeout=10_000)
    page.screenshot(path=str(SHOTS / "pt-BR-00.png"))  # before the checks, so a failure can be looked at
    items = run_menu.locator(".lm-Menu-itemLabel").all_inner_texts()
    page.keyboard.press("Escape")
    for item in PORTUGUESE_RUN_ITEMS:
        assert item in items, items
    header = page.locator(".jp-FileBrowser .jp-DirListing-headerItemText").all_inner_texts()
    assert "Nome" in header, header
    dates = page.locator(".jp-FileBrowser .jp-DirListing-itemModified").all_inner_texts()
    assert dates and all(d.startswith("há ") for d in dates), dates  # "há 5 min.": the page's language
    text = page.evaluate(PANEL_TEXT_JS)
    assert "Q1." in text and "Verificar" in text, "00's self-check is not on the page"
    _no_english_buttons(page)

    # -- 07: File > Fechar e Desligar o Notebook…, then 07 from the file browser ----------------
    _menu(page, "File")
    page.get_by_role("menuitem", name=re.compile("^Fechar e Desligar o Notebook…")).click()
    page.locator(".jp-Dialog .jp-mod-accept").click(timeout=10_000)
    page.locator(".jp-Dialog").wait_for(state="detached", timeout=10_000)
    open_from_file_browser(page, SECOND, OPEN_MS)
    panel.locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    _idle_kernel(lab, SECOND)
    _run_all(page)
    form = panel.locator(".mcp-lab-pending").filter(has=page.locator('input[type="datetime-local"]')).first
    form.wait_for(state="attached", timeout=30_000)
    _scroll_to(page, form)
    page.screenshot(path=str(SHOTS / "pt-BR-07.png"))
    for name in ("Aceitar", "Recusar", "Cancelar"):
        assert _button(form, name).count() == 1, f"07's calendar form has no {name!r} button"
    predict = panel.locator(".mcp-lab-pending").filter(has=_button(page, "Prever"))
    assert predict.count() >= 2, "07's predictions show no 'Prever' button"
    _scroll_to(page, predict.first)
    page.screenshot(path=str(SHOTS / "pt-BR-07-predict.png"))
    _no_english_buttons(page)
    text = page.evaluate(PANEL_TEXT_JS)
    # Nothing answered: the cells after the form say it is still waiting for the person.
    assert "Responda ao formulário acima e execute esta célula de novo." in text
    assert "Preveja:" in text
