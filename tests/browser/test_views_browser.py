"""What a person sees, measured in a real browser (JupyterLab + Debian Chromium, 1400x1000).

A small notebook shows the three views the course leans on -- an `isolated()` table (whose
stderr column used to shrink to a few characters), a connection's trace table, and a quiz with
Markdown in its prompt, situation and explanations -- and the test asserts on the page itself:
no table is wider than its output area (no horizontal scrollbar), and no literal backtick
reaches the rendered quiz. Screenshots of each view are kept in test-output/browser/views-*.png.
"""

from __future__ import annotations

import re
import shutil
import time

import nbformat
import pytest
from _support import ROOT

pytestmark = pytest.mark.browser

REPORT_DIR = ROOT / "test-output" / "browser"
WAIT_MS = 60_000

CELLS = [
    'import mcp_lab\niso = mcp_lab.isolated("calendar", [("tools/list", {}), '
    '("tools/call", {"name": "create_event", "arguments": {"title": "Dentist"}})])\niso',
    'cal = mcp_lab.connect("calendar")\ncal.request("tools/list")\ncal.trace',
    "from mcp_lab.quiz import Question, Quiz\n"
    'quiz = Quiz([Question("What does `server/discover` return to a **modern** client?",\n'
    '    ["a `DiscoverResult`", "error `-32601`", "an `InitializeResult`", "nothing"], 0,\n'
    '    ["Right: `supportedVersions` and more.", "That is a legacy answer.", "Legacy again.", "No: it answers."],\n'
    '    situation="-> server/discover")])\nquiz.questions[0].choose(1)\nquiz',
]


def _notebook(path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_tables_fit_and_quiz_markdown_renders(jupyterlab, chromium, tmp_path, capsys):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    nb = _notebook(tmp_path / "views.ipynb")
    lab = jupyterlab([nb], env={"MCP_LAB_ANSWER_FROM_CODE": "0"})
    page = chromium
    page.set_viewport_size({"width": 1400, "height": 1000})
    shots = tmp_path / "screenshots"
    shots.mkdir()
    t0 = time.monotonic()
    try:
        page.goto(lab.notebook_url(nb.name), timeout=WAIT_MS)
        page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$")).wait_for(
            timeout=WAIT_MS
        )
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        page.locator(".jp-OutputArea-output .widget-radio-box").wait_for(timeout=WAIT_MS)
        page.locator(".jp-OutputArea-output table").nth(1).wait_for(timeout=WAIT_MS)
    except PlaywrightTimeout:
        page.screenshot(path=str(shots / "failure.png"))
        pytest.fail(f"the views never rendered; screenshot {shots / 'failure.png'}\n{lab.log_tail()}", pytrace=False)

    cells = page.locator(".jp-CodeCell")
    for i, name in enumerate(("isolated", "trace", "quiz")):
        cells.nth(i).scroll_into_view_if_needed()
        cells.nth(i).screenshot(path=str(shots / f"{name}.png"))

    widths = page.evaluate(
        """() => [...document.querySelectorAll('.jp-OutputArea-output table')].map(t => {
               const area = t.closest('.jp-OutputArea-output');
               return [t.scrollWidth, area.clientWidth, t.rows.length];
           })"""
    )
    assert len(widths) >= 2, f"expected the isolated() and trace tables, found {widths}"
    wide = [w for w in widths if w[0] > w[1] + 1]
    assert not wide, f"tables wider than their output area (a horizontal scrollbar): {wide}"

    quiz_text = cells.nth(2).locator(".jp-OutputArea-output").inner_text()
    assert "server/discover" in quiz_text and "DiscoverResult" in quiz_text, quiz_text[:300]
    assert "`" not in quiz_text, f"a literal backtick reached the rendered quiz: {quiz_text[:300]!r}"
    assert quiz_text.count("Check") == 1, "one Check button, and no second 'Check yourself' title"

    left = lab.stop()
    assert not left, f"processes outlived JupyterLab (killed now): {sorted(left)}"
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    for shot in shots.glob("*.png"):
        shutil.copy2(shot, REPORT_DIR / f"views-{shot.name}")
    with capsys.disabled():
        print(f"\nviews browser test: {time.monotonic() - t0:.1f} s; screenshots in {REPORT_DIR}/views-*.png")
