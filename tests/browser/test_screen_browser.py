"""What the course's own notebooks show, measured in a real browser (JupyterLab + Debian
Chromium at 1400x1000, Run All), one Lab server and one browser for the whole module.

Each test opens one notebook, runs all its cells from the Run menu, waits until every cell has
run, then asserts on what a person can see: no table wider than its output area (no horizontal
scrollbar), the stderr column of an `isolated()` table wide enough for words, diagram labels
drawn at 11 px or more and notes not cut with "…", a legacy answer labelled as legacy, the
probe comparison left-aligned with its versions on one line, a closed connection answered by one
sentence, no id used twice in a trace, and no literal backtick in a rendered quiz. Screenshots
of each view are kept in test-output/browser/screen-*.png (git-ignored).
"""

from __future__ import annotations

import re
import shutil
import time

import pytest
from _support import ROOT
from _support.lab_pages import run_all_cells

pytestmark = [
    pytest.mark.browser,
    # 06 and 09 show the pinned legacy reference server meeting modern requests (as tests/test_rerun.py
    # marks the same lessons): it answers in its own era and refuses some requests with "id": null.
    pytest.mark.wire_deliberate(
        server_id_null="the pinned reference server refuses a request before initialize with id null",
        server_legacy_answer="the pinned legacy reference server answers a modern request in its own era",
    ),
]

REPORT_DIR = ROOT / "test-output" / "browser"
WAIT_MS = 90_000  # the longest a notebook may take to run (09 starts the SDK's server several times)
NB = {
    "02": ROOT / "notebooks" / "02-json-rpc-by-hand.ipynb",
    "06": ROOT / "notebooks" / "06-probe-then-fallback.ipynb",
    "09": ROOT / "notebooks" / "09-statelessness.ipynb",
    "lab10": ROOT / "labs" / "10-fix-the-calendar.ipynb",
}
LAB10_FOLDER = ROOT / "labs" / "10-fix-the-calendar"
MIN_LABEL_PX = 11.0

# In-page measurements (JavaScript), one per kind of view.
TABLES_JS = """(panel) => [...panel.querySelectorAll('.jp-OutputArea-output table')].map(t => {
    const area = t.closest('.jp-OutputArea-output');
    const heads = [...t.querySelectorAll('tr:first-child th, tr:first-child td')].map(h => h.innerText.trim());
    const col = heads.indexOf('stderr');
    const stderrWidths = col < 0 ? [] : [...t.rows].slice(1).map(r => r.cells[col].getBoundingClientRect().width);
    return {table: t.getBoundingClientRect().width, area: area.clientWidth, scroll: area.scrollWidth,
            heads, stderrWidths, rowHeights: [...t.rows].map(r => r.getBoundingClientRect().height)};
})"""
# JupyterLab draws a Mermaid diagram as an <img> of SVG, scaled down to the output's width
# (max-width:100%). The font size a person sees is the SVG's own size times that scale; the
# SVG is parsed off-screen to read the sizes its stylesheet gives each label.
MERMAID_JS = """(area) => [...area.querySelectorAll('.jp-RenderedMermaid img')].map(img => {
    const src = decodeURIComponent(img.src.split(',').slice(1).join(','));
    const svgText = img.src.includes(';base64,') ? atob(img.src.split(',')[1]) : src;
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute;left:-20000px;top:0';
    holder.innerHTML = svgText;
    document.body.appendChild(holder);
    const svg = holder.querySelector('svg');
    const scale = img.getBoundingClientRect().width / img.naturalWidth;
    const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim());
    const out = {scale, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
                 sizes: texts.map(t => parseFloat(getComputedStyle(t).fontSize) * scale),
                 notes: [...svg.querySelectorAll('.noteText')].map(t => t.textContent),
                 messages: [...svg.querySelectorAll('.messageText')].map(t => t.textContent)};
    holder.remove();
    return out;
})"""


@pytest.fixture(scope="module")
def lab(jupyterlab_module):
    started = jupyterlab_module(list(NB.values()), extra=[LAB10_FOLDER])
    yield started
    left = started.stop()
    assert not left, f"processes outlived JupyterLab (killed now): {sorted(left)}"


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("screenshots")
    yield folder
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    for shot in folder.glob("*.png"):
        shutil.copy2(shot, REPORT_DIR / f"screen-{shot.name}")


def run_all(page, lab, key: str, shots):
    """Open one notebook in its own fresh workspace, Run All, wait until every cell has run."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    name = NB[key].name
    url = f"{lab.url}/lab/workspaces/screen-{key}/tree/{name}?reset&token={lab.token}"
    try:
        run_all_cells(page, url, WAIT_MS, WAIT_MS, polling=250)
    except PlaywrightTimeout:
        page.screenshot(path=str(shots / f"{key}-failure.png"))
        pytest.fail(f"{name} did not open and run; screenshot {shots / f'{key}-failure.png'}\n{lab.log_tail()}")
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def output_of(panel, contains):
    """The output area of the first code cell whose source contains `contains` (text or regex)."""
    editor = panel.page.locator(".jp-InputArea-editor", has_text=contains)
    cell = panel.locator(".jp-CodeCell").filter(has=editor).first
    return cell.locator(".jp-OutputArea").first


def shoot(locator, path) -> None:
    """A screenshot of a view as a person sees it: scrolled to its top, clipped to the window
    (JupyterLab scrolls inside its own panel, so a tall output is shown one screen at a time)."""
    page = locator.page
    locator.evaluate("e => e.scrollIntoView({block: 'start'})")
    box = locator.bounding_box()
    view = page.viewport_size
    top = max(box["y"], 0)
    clip = {
        "x": max(box["x"], 0),
        "y": top,
        "width": min(box["width"], view["width"] - max(box["x"], 0)),
        "height": max(1, min(box["y"] + box["height"], view["height"]) - top),
    }
    if box["y"] >= view["height"] or box["y"] + box["height"] <= 0:
        locator.scroll_into_view_if_needed()  # not where scrollIntoView put it: let Playwright place it
        locator.screenshot(path=str(path))
        return
    page.screenshot(path=str(path), clip=clip)


def assert_tables_fit(measured: list[dict], where: str) -> None:
    assert measured, f"{where}: no table was rendered"
    for m in measured:
        assert m["scroll"] <= m["area"] + 1 and m["table"] <= m["area"] + 1, (
            f"{where}: a table is wider than its output area (a horizontal scrollbar): {m}"
        )


def assert_diagrams_legible(measured: list[dict], where: str) -> None:
    assert measured, f"{where}: no sequence diagram was drawn"
    print(where, [(round(d["scale"], 2), d["natural"], round(min(d["sizes"]), 1)) for d in measured])
    for d in measured:
        small = min(d["sizes"])
        assert small >= MIN_LABEL_PX, f"{where}: diagram labels drawn at {small:.1f} px (scale {d['scale']:.2f})"
        cut = [n for n in d["notes"] if "…" in n]
        assert not cut, f"{where}: notes cut with '…': {cut}"


def test_statelessness_tables_and_diagrams(lab, chromium_module, shots):
    t0 = time.monotonic()
    panel = run_all(chromium_module, lab, "09", shots)
    # The isolated table is the answer to a prediction: make every prediction first, as a learner
    # does, so the reveal areas (and the tables in them) are shown.
    from test_run_all_browser import click_prediction

    while click_prediction(chromium_module):
        pass
    toy = output_of(panel, 'toy = isolated("calendar"')
    shoot(toy, shots / "09-isolated-table.png")
    tables = toy.evaluate(TABLES_JS.replace("(panel) =>", "(panel) =>"))
    assert_tables_fit(tables, "09 isolated(calendar)")
    for t in tables:
        # The stderr column keeps room for words: never the six-characters-a-line column of before.
        assert all(w >= 150 for w in t["stderrWidths"]), f"09: stderr column squeezed: {t['stderrWidths']}"
        assert max(t["rowHeights"]) < 240, f"09: a row {max(t['rowHeights']):.0f} px tall"
    all_tables = panel.evaluate(TABLES_JS)
    assert_tables_fit(all_tables, "09 (every table)")
    diagram = output_of(panel, "toy.mermaid()")
    diagram.locator(".jp-RenderedMermaid img").first.wait_for(timeout=WAIT_MS)
    shoot(diagram, shots / "09-diagram-four-lifelines.png")
    assert_diagrams_legible(diagram.evaluate(MERMAID_JS), "09 toy.mermaid()")
    assert_diagrams_legible(panel.evaluate(MERMAID_JS), "09 (every diagram)")
    print(f"09: {time.monotonic() - t0:.1f} s")


def test_lab_10_isolated_table_fits(lab, chromium_module, shots):
    panel = run_all(chromium_module, lab, "lab10", shots)
    by_hand = output_of(panel, "by_hand = mcp_lab.isolated")
    shoot(by_hand, shots / "lab10-isolated-table.png")
    assert_tables_fit(by_hand.evaluate(TABLES_JS), "lab 10 by_hand")


def test_probe_comparison_and_legacy_labels(lab, chromium_module, shots):
    panel = run_all(chromium_module, lab, "06", shots)
    table = output_of(panel, "side_by_side(verdicts)")
    shoot(table, shots / "06-side-by-side.png")
    assert_tables_fit(table.evaluate(TABLES_JS), "06 side by side")
    cells = table.evaluate(
        """(area) => [...area.querySelectorAll('td')].map(td => {
               const range = document.createRange();
               range.selectNodeContents(td);
               const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
               return {text: td.innerText, align: getComputedStyle(td).textAlign, lines: tops.size};
           })"""
    )
    versions = [c for c in cells if re.fullmatch(r"\d{4}-\d{2}-\d{2}", c["text"])]
    assert len(versions) == 3, f"06: expected three version cells, got {[c['text'] for c in cells]}"
    assert all(c["lines"] == 1 for c in versions), f"06: a version wraps across lines: {versions}"
    words = [c for c in cells if not re.fullmatch(r"[\d.]+", c["text"])]
    assert all(c["align"] in ("left", "start") for c in words), f"06: text cells not left-aligned: {words}"

    trace_table = output_of(panel, re.compile(r"\bref\.trace\s*$"))
    shoot(trace_table, shots / "06-trace-table.png")
    assert_tables_fit(trace_table.evaluate(TABLES_JS), "06 ref.trace")
    labels = trace_table.inner_text()
    assert "legacy result (id 2)" in labels and "[no resultType]" not in labels, labels[:800]

    text_view = output_of(panel, "print(ref.trace.text(width=100))")
    shoot(text_view, shots / "06-trace-text-width.png")
    shown = text_view.inner_text()
    # The legacy initialize answer carries no warning (a modern answer without resultType would).
    assert '"protocolVersion":"2025-11-25"' in shown.replace("\n", "").replace(" ", ""), shown[:600]
    assert "no resultType" not in shown, shown[:900]
    assert all(len(line) <= 100 for line in shown.splitlines()), "trace.text(width=100) has a longer line"
    assert "2025-11-25" in shown, "a version split across lines"

    diagram = output_of(panel, "ref.trace.mermaid()")
    diagram.locator(".jp-RenderedMermaid img").first.wait_for(timeout=WAIT_MS)
    shoot(diagram, shots / "06-probe-diagram.png")
    measured = diagram.evaluate(MERMAID_JS)
    assert_diagrams_legible(measured, "06 probe diagram")
    labels = " | ".join(m for d in measured for m in d["messages"])
    assert "legacy result" in labels and "no resultType" not in labels, labels


def test_ids_closed_connection_and_quiz(lab, chromium_module, shots):
    page = chromium_module
    panel = run_all(page, lab, "02", shots)
    diagram = output_of(panel, "cal.trace.mermaid(limit=12)")  # bounded: the last 12 events
    diagram.locator(".jp-RenderedMermaid img").first.wait_for(timeout=WAIT_MS)
    shoot(diagram, shots / "02-ids-diagram.png")
    measured = diagram.evaluate(MERMAID_JS)
    assert_diagrams_legible(measured, "02 trace diagram")
    requests = [
        m
        for d in measured
        for m in d["messages"]
        if re.search(r"\(id \d+\)", m) and not m.startswith(("result", "error"))
    ]
    ids = [re.search(r"\(id (\d+)\)", m).group(1) for m in requests]
    assert len(ids) >= 5 and len(ids) == len(set(ids)), f"02: an id is used twice in the trace: {requests}"
    notes = [n for d in measured for n in d["notes"]]
    assert any("earlier events left out" in n for n in notes), f"02: the diagram is not bounded: {notes}"

    # The quiz cell's output (the predictions above it are radio boxes too).
    quiz = panel.locator(".jp-OutputArea-output").filter(has=panel.page.get_by_text("Q1.", exact=True)).first
    shoot(quiz, shots / "02-quiz.png")
    quiz_text = quiz.inner_text()
    assert "calendar://week" in quiz_text, quiz_text[:300]
    assert "`" not in quiz_text, f"02: a literal backtick in the rendered quiz: {quiz_text[:300]!r}"
    assert quiz_text.count("Check yourself") <= 1, "02: the quiz title appears twice"

    trace_table = output_of(panel, re.compile(r"\bcal\.trace\s*$"))
    shoot(trace_table, shots / "02-trace-table.png")
    assert_tables_fit(trace_table.evaluate(TABLES_JS), "02 cal.trace")

    # Re-run a cell that talks to the server after the notebook's final close(): one sentence.
    cell = (
        panel.locator(".jp-CodeCell")
        .filter(has=page.locator(".jp-InputArea", has_text="[refused] = cal.send_raw"))
        .first
    )
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    error = cell.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    error.wait_for(timeout=WAIT_MS)
    shoot(cell.locator(".jp-OutputArea"), shots / "02-closed-connection.png")
    said = error.inner_text()
    assert "this connection is closed: run the connect cell again" in said, said[-600:]
    assert "I/O operation on closed file" not in said, said[-600:]
    assert "Traceback" not in said and len(said.strip().splitlines()) == 1, f"02: more than the one sentence: {said!r}"
