"""JupyterLab pages as a learner drives them, in a served Lab or the browser edition's site: open
a notebook (by URL first, then from the file browser), Run All from the menu, close it and shut
its kernel down (the browser tests' one way to do each)."""

from __future__ import annotations

import re

# Every code cell shows a number, or the run stopped at a failing cell ("[ ]" after it).
RUN_DONE_JS = """() => {
    const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    const prompts = [...p.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(x => x.textContent);
    return prompts.length && !prompts.some(t => t.includes('*')) && /\\d/.test(prompts[0]);
}"""


IDLE = re.compile(r"^(?!No Kernel).+ \| Idle$")  # the status bar names the kernel, and it is idle


def listed(page, name: str):
    """The file browser's entry called exactly `name`."""
    text = page.locator(".jp-DirListing-itemText", has_text=re.compile(f"^{re.escape(name)}$"))
    return page.locator(".jp-DirListing-item").filter(has=text).first


def open_from_file_browser(page, path: str, timeout_ms: float) -> str:
    """Open `path` as a learner does: the file browser's home, each folder, then the file (a
    double-click each); waits for its tab.  The file's name."""
    *folders, name = path.split("/")
    page.locator(".jp-FileBrowser .jp-BreadCrumbs-home").click()
    for folder in folders:
        listed(page, folder).dblclick(timeout=timeout_ms)
        page.locator(".jp-FileBrowser .jp-BreadCrumbs", has_text=folder).wait_for(timeout=timeout_ms)
    listed(page, name).dblclick(timeout=timeout_ms)
    page.locator(".lm-TabBar-tab.lm-mod-current", has_text=name).wait_for(timeout=timeout_ms)
    return name


def open_notebook(page, url: str, path: str, open_ms: float):
    """The notebook `path` in the page's Lab, its kernel idle; (panel, idle-status locator).

    The page's first notebook is opened by `url`, which loads Lab; the next ones from the file
    browser, as a learner opens them, in the same page (a page load per notebook would cost
    Lab's start each time, and restore the tabs closed before, starting their kernels again).
    """
    if not page.locator(".jp-FileBrowser").count():
        page.goto(url, timeout=open_ms)
    else:
        open_from_file_browser(page, path, open_ms)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    panel.locator(".jp-Cell").first.wait_for(timeout=open_ms)
    # Run All before the kernel is connected makes Lab ask for a kernel: wait until the status
    # bar names the notebook's kernel as idle.
    idle = page.locator(".jp-StatusBar-TextItem", has_text=IDLE)
    idle.wait_for(timeout=open_ms)
    return panel, idle


def run_all_cells(page, run_ms: float, polling: int = 500) -> None:
    """Run > Run All Cells from the menu, as a person does, and wait until every cell of the
    visible notebook has run (or the run stopped)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(RUN_DONE_JS, timeout=run_ms, polling=polling)


def close_and_shut_down(page) -> None:
    """File > Close and Shut Down Notebook, then Ok: the visible notebook's kernel stops and its
    tab closes (nothing to restore).  Nothing happens when no notebook is open."""
    if not page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").count():
        return
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).click()
    page.get_by_role("menuitem", name=re.compile(r"^Close and Shut Down Notebook")).click()
    page.locator(".jp-Dialog button", has_text=re.compile(r"^Ok$")).click(timeout=10_000)
    page.locator(".jp-Dialog").wait_for(state="detached", timeout=10_000)


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
