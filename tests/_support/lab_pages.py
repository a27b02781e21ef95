"""JupyterLab pages as a learner drives them: open a notebook and Run All from the menu (the
browser tests' one way to do it)."""

from __future__ import annotations

import re

# Every code cell shows a number, or the run stopped at a failing cell ("[ ]" after it).
RUN_DONE_JS = """() => {
    const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    const prompts = [...p.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(x => x.textContent);
    return prompts.length && !prompts.some(t => t.includes('*')) && /\\d/.test(prompts[0]);
}"""


def run_all_cells(page, url: str, open_ms: float, run_ms: float, polling: int = 500):
    """Open the notebook at `url`, wait for its kernel, Run All from the menu as a person does,
    and wait until every cell has run (or the run stopped); the visible notebook panel."""
    page.goto(url, timeout=open_ms)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    panel.locator(".jp-Cell").first.wait_for(timeout=open_ms)
    idle = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$"))
    idle.wait_for(timeout=open_ms)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(RUN_DONE_JS, timeout=run_ms, polling=polling)
    return panel, idle


def fill_calendar_form(page, timeout_ms: float = 15_000):
    """Fill the first pending calendar form of the visible notebook as a person does (a start time, then Tab) and wait
    for the kernel to enable its Accept button; that button, or None when no form is pending."""
    from playwright.sync_api import expect

    form = (
        page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .mcp-lab-pending")
        .filter(has=page.locator('input[type="datetime-local"]'))
        .filter(has=page.get_by_role("button", name="Accept"))
    )
    if not form.count():
        return None
    first = form.first
    first.scroll_into_view_if_needed()
    when = first.locator('input[type="datetime-local"]').first
    when.fill("2026-09-10T08:30")
    when.press("Tab")
    accept = first.get_by_role("button", name="Accept")
    expect(accept).to_be_enabled(timeout=timeout_ms)
    return accept
