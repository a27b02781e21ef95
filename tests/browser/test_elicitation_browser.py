"""Notebook 04 in a real browser: JupyterLab + headless Debian Chromium, driven by Playwright.

As a learner opens it, the notebook renders
the Dentist form and leaves it for a person.
This test is that person: it runs all cells from the menu, waits for the form, types the
start time into the date-time input ipywidgets renders, presses Accept, and finds the
created event in the output. It then re-runs the notebook's "retry on the wire" cell to see
the retry line with inputResponses and the echoed requestState, as a reader would.

Screenshots go to the test's tmp_path; the final one is also copied to
test-output/browser/, and the path is printed.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "07-elicitation.ipynb"
CREATED = "Created e3: Dentist at 2026-09-10T08:30:00Z"
REPORT_DIR = ROOT / "test-output" / "browser"
WAIT_MS = 60_000  # the longest any single step may take (first page load included)


def test_dentist_form_filled_in_chromium(jupyterlab, chromium, tmp_path, capsys):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    t0 = time.monotonic()
    lab = jupyterlab([NOTEBOOK])  # as a learner opens it
    page = chromium
    shots = tmp_path / "screenshots"
    shots.mkdir()

    def step(why: str, action) -> None:
        """Run one bounded browser step; on a timeout fail with `why`, a screenshot and the log."""
        try:
            action()
            return
        except (PlaywrightTimeout, AssertionError):
            pass
        # Failing outside the except block keeps pytest's report to this one message.
        page.screenshot(path=str(shots / "failure.png"))
        if page.get_by_text(re.compile(r"^VBox\(children=")).count():
            why += " (a widget was printed as text: the ipywidgets lab extension is not active)"
        pytest.fail(
            f"{why}; screenshot: {shots / 'failure.png'}; JupyterLab log tail:\n{lab.log_tail()}", pytrace=False
        )

    def open_and_run_all():
        page.goto(lab.notebook_url(NOTEBOOK.name), timeout=WAIT_MS)
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=WAIT_MS)
        # Run All before the kernel is connected makes Lab ask for a kernel (or start a second
        # one): wait until the status bar names the notebook's kernel as idle. (The toolbar's
        # execution indicator says "idle" already while the status bar says "No Kernel".)
        page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$")).wait_for(
            timeout=WAIT_MS
        )
        # Run > Run All Cells, through the menu a reader would use.
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()

    step("the notebook did not open and run in JupyterLab", open_and_run_all)

    # DatetimePicker renders an <input type="datetime-local">; it exists only if the widget
    # really rendered (without the ipywidgets extension the output is a text repr instead).
    picker = 'input[type="datetime-local"]'
    when = page.locator(f".jp-OutputArea-output {picker}").first  # the Dentist form (Decline's is second)
    step("the Dentist form never appeared in the output", lambda: when.wait_for(state="visible", timeout=WAIT_MS))
    # Run All goes on past the form (later sections start more servers); the kernel handles the
    # form's value change only once it is idle again, so wait for that before typing.
    idle = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$"))
    step("Run All did not finish (the kernel stayed busy)", lambda: idle.wait_for(timeout=WAIT_MS * 3))
    accept = (
        page.locator(".jp-OutputArea-output")
        .filter(has=page.locator(picker))
        .first.get_by_role("button", name="Accept")
    )

    def type_the_time():
        expect(accept).to_be_disabled()  # required and empty: the form blocks Accept
        when.scroll_into_view_if_needed()
        when.fill("2026-09-10T08:30")  # the browser's local time, which is UTC here
        when.press("Tab")
        # The kernel validated the value it received: a round trip through a busy kernel (the suite
        # runs more workers than cores), so up to 30 s.
        expect(accept).to_be_enabled(timeout=30_000)

    step("typing the start time did not enable Accept", type_the_time)
    page.screenshot(path=str(shots / "1-form-filled.png"))
    accept.click()

    created = page.locator(".jp-OutputArea-output").get_by_text(CREATED, exact=True)
    step(f"no {CREATED!r} after pressing Accept", lambda: created.wait_for(state="visible", timeout=15_000))

    # The reader's next step: run the "retry on the wire" cell again, now that the form is answered.
    # (Found by a phrase of its source: keep it in sync with notebook 07, section 3.)
    retry_cell = page.locator(".jp-CodeCell").filter(has_text="exactly as written to the server's stdin")
    retry_out = retry_cell.locator(".jp-OutputArea-output")

    def rerun_retry_cell():
        retry_cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        expect(retry_out).to_contain_text(f"result: {CREATED}", timeout=15_000)

    step("the retry cell did not show the created event", rerun_retry_cell)
    text = retry_out.inner_text()
    assert '"inputResponses":{"when":{"action":"accept","content":{"startsAt":"2026-09-10T08:30:00Z"}}}' in text
    assert '"requestState":"eyJ0aXRsZSI6IkRlbnRpc3QifQ=="' in text
    created.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "2-created.png"))
    retry_cell.screenshot(path=str(shots / "3-retry-cell.png"))

    left = lab.stop()
    took = time.monotonic() - t0
    assert not left, f"processes outlived JupyterLab (killed now): {sorted(left)}"

    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    for shot in shots.glob("*.png"):
        shutil.copy2(shot, REPORT_DIR / f"elicitation-{shot.name}")
    with capsys.disabled():
        print(f"\nbrowser test: {took:.1f} s; screenshots: {shots} (copied to {REPORT_DIR}/elicitation-*.png)")
