"""What the course's own notebooks show, measured in a real browser (JupyterLab + Debian
Chromium at 1400x1000): the checks tests/browser/test_run_all_browser.py makes once Run All has
run 02, 06, 07, 09 and lab 10 (one Lab, one page, no second run of those notebooks).

Each check asserts on what a person can see: no table wider than its output area (no horizontal
scrollbar), the stderr column of an `isolated()` table wide enough for words, diagram labels
drawn at 11 px or more and notes not cut with "…", a legacy answer labelled as legacy, the
probe comparison left-aligned with its versions on one line, a closed connection answered by one
sentence, no id used twice in a trace, and no literal backtick in a rendered quiz. Screenshots
of each view go to test-output/browser/screen-*.png (git-ignored).

07 is played on as a learner reads it: an empty form's Accept waits, the Dentist form gets a start
time and Accept (when Run-All's clicking has not answered it already), the event is booked, and
the "retry on the wire" cell, run again, shows the new request with the answer
under `inputResponses` and `requestState` echoed (screenshots test-output/browser/elicitation-*.png).
"""

from __future__ import annotations

import re
from pathlib import Path

from _support.lab_pages import fill_calendar_form

WAIT_MS = 90_000  # the longest a diagram or a re-run cell may take to show
MIN_LABEL_PX = 11.0
CREATED = "Created e3: Dentist at 2026-09-10T08:30:00Z"

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


def check_09(page, panel, shots: Path, click_prediction) -> None:
    """09: the isolated() tables fit and keep a readable stderr column; its diagrams are legible."""
    # The isolated table is the answer to a prediction: make every prediction first, as a learner
    # does, so the reveal areas (and the tables in them) are shown.
    while click_prediction(page):
        pass
    toy = output_of(panel, 'toy = isolated("calendar"')
    shoot(toy, shots / "screen-09-isolated-table.png")
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
    shoot(diagram, shots / "screen-09-diagram-four-lifelines.png")
    assert_diagrams_legible(diagram.evaluate(MERMAID_JS), "09 toy.mermaid()")
    assert_diagrams_legible(panel.evaluate(MERMAID_JS), "09 (every diagram)")


def check_lab10(page, panel, shots: Path, click_prediction=None) -> None:
    """Lab 10: the by-hand isolated() table fits its output area."""
    by_hand = output_of(panel, "by_hand = mcp_lab.isolated")
    shoot(by_hand, shots / "screen-lab10-isolated-table.png")
    assert_tables_fit(by_hand.evaluate(TABLES_JS), "lab 10 by_hand")


def check_06(page, panel, shots: Path, click_prediction=None) -> None:
    """06: the probe comparison left-aligned, versions on one line; legacy answers labelled legacy."""
    table = output_of(panel, "side_by_side(verdicts)")
    shoot(table, shots / "screen-06-side-by-side.png")
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
    shoot(trace_table, shots / "screen-06-trace-table.png")
    assert_tables_fit(trace_table.evaluate(TABLES_JS), "06 ref.trace")
    labels = trace_table.inner_text()
    assert "legacy result (id 2)" in labels and "[no resultType]" not in labels, labels[:800]

    text_view = output_of(panel, "print(ref.trace.text(width=100))")
    shoot(text_view, shots / "screen-06-trace-text-width.png")
    shown = text_view.inner_text()
    # The legacy initialize answer carries no warning (a modern answer without resultType would).
    assert '"protocolVersion":"2025-11-25"' in shown.replace("\n", "").replace(" ", ""), shown[:600]
    assert "no resultType" not in shown, shown[:900]
    assert all(len(line) <= 100 for line in shown.splitlines()), "trace.text(width=100) has a longer line"
    assert "2025-11-25" in shown, "a version split across lines"

    diagram = output_of(panel, "ref.trace.mermaid()")
    diagram.locator(".jp-RenderedMermaid img").first.wait_for(timeout=WAIT_MS)
    shoot(diagram, shots / "screen-06-probe-diagram.png")
    measured = diagram.evaluate(MERMAID_JS)
    assert_diagrams_legible(measured, "06 probe diagram")
    labels = " | ".join(m for d in measured for m in d["messages"])
    assert "legacy result" in labels and "no resultType" not in labels, labels


def check_02(page, panel, shots: Path, click_prediction=None) -> None:
    """02: no id used twice in the bounded diagram, a quiz without backticks, and a closed
    connection answered by one sentence."""
    diagram = output_of(panel, "cal.trace.mermaid(limit=12)")  # bounded: the last 12 events
    diagram.locator(".jp-RenderedMermaid img").first.wait_for(timeout=WAIT_MS)
    shoot(diagram, shots / "screen-02-ids-diagram.png")
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
    shoot(quiz, shots / "screen-02-quiz.png")
    quiz_text = quiz.inner_text()
    assert "calendar://week" in quiz_text, quiz_text[:300]
    assert "`" not in quiz_text, f"02: a literal backtick in the rendered quiz: {quiz_text[:300]!r}"
    assert quiz_text.count("Check yourself") <= 1, "02: the quiz title appears twice"

    trace_table = output_of(panel, re.compile(r"\bcal\.trace\s*$"))
    shoot(trace_table, shots / "screen-02-trace-table.png")
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
    shoot(cell.locator(".jp-OutputArea"), shots / "screen-02-closed-connection.png")
    said = error.inner_text()
    assert "this connection is closed: run the connect cell again" in said, said[-600:]
    assert "I/O operation on closed file" not in said, said[-600:]
    assert "Traceback" not in said and len(said.strip().splitlines()) == 1, f"02: more than the one sentence: {said!r}"


def check_07(page, panel, shots: Path, click_prediction=None) -> None:
    """07: an empty form keeps Accept disabled; the Dentist form answered (unless Run-All's
    clicking already did), the event booked; then the retry cell run again shows the retry on the
    wire."""
    from playwright.sync_api import expect

    # Whatever was clicked, the "Pressing Decline instead" form is still pending, its date empty.
    forms = panel.locator(".mcp-lab-pending").filter(has=page.locator('input[type="datetime-local"]'))
    expect(forms.first.get_by_role("button", name="Accept")).to_be_disabled()  # required and empty
    created = panel.locator(".jp-OutputArea-output").get_by_text(CREATED, exact=True).first
    if not created.count():  # the Dentist form, the notebook's first, still waits: answer it
        accept = fill_calendar_form(page, timeout_ms=30_000)  # a round trip through a busy kernel
        assert accept is not None, "07: the Dentist form is neither answered nor pending"
        page.screenshot(path=str(shots / "elicitation-1-form-filled.png"))
        accept.click()
    expect(created).to_be_visible(timeout=15_000)
    page.screenshot(path=str(shots / "elicitation-2-created.png"))
    # The reader's next step: run the retry cell again, now that the form is answered.  (Found by
    # a phrase of its source: keep it in sync with notebook 07, section 3.)
    retry_cell = panel.locator(".jp-CodeCell").filter(has_text="exactly as written to the server's stdin")
    retry_out = retry_cell.locator(".jp-OutputArea-output")
    retry_cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    expect(retry_out).to_contain_text(f"result: {CREATED}", timeout=15_000)
    text = retry_out.inner_text()
    assert '"inputResponses":{"when":{"action":"accept","content":{"startsAt":"2026-09-10T08:30:00Z"}}}' in text, text
    assert '"requestState":"eyJ0aXRsZSI6IkRlbnRpc3QifQ=="' in text, text
    retry_cell.screenshot(path=str(shots / "elicitation-3-retry-cell.png"))


# Run-All's notebook key (its first two characters, or "lab10") -> its check.
CHECKS = {"02": check_02, "06": check_06, "07": check_07, "09": check_09, "lab10": check_lab10}
