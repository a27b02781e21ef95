"""The MCP Inspector in a real browser: it connects to the bundled calendar and lists create_event.

`make test` installs the pinned Inspector (tools/inspector/, `npm ci`, a stamp file) before the
tests run. Started by hand without it, this test skips and says how to install it -- except
under CI=true, where a missing Inspector fails the run.

What a person does, step by step: open the URL the Inspector printed (it carries the API
token), find the `calendar` card, flip its connect switch, wait for "Connected" and the
2026-07-28 badge (the `auto` era probed with server/discover), open Tools, and read
`create_event` in the list. Screenshots go to test-output/browser/.
"""

from __future__ import annotations

import os
import shutil

import pytest
from _support import ROOT

from mcp_lab.course import inspector

pytestmark = pytest.mark.browser

REPORT_DIR = ROOT / "test-output" / "browser"
WAIT_MS = 30_000


@pytest.fixture
def web_inspector(tmp_path):
    if not inspector.installed():
        why = "the MCP Inspector is not installed: run `make inspector-install` (make test does it)"
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    web = inspector.WebInspector(("calendar",), folder=tmp_path / "inspector")
    try:
        yield web.wait_ready()
    finally:
        web.stop()


def test_inspector_connects_to_the_calendar_and_lists_create_event(web_inspector, chromium, tmp_path):
    from playwright.sync_api import expect

    page = chromium
    assert web_inspector.url.startswith("http://127.0.0.1:"), "the Inspector must be reachable on loopback only"
    page.goto(web_inspector.url)
    card = page.get_by_text("calendar", exact=True)
    expect(card).to_be_visible(timeout=WAIT_MS)
    # The switch's input is covered by its drawn track; a person clicks the track.
    page.get_by_label('Connect or disconnect "calendar"').locator("xpath=..").locator(".mantine-Switch-track").click()
    expect(page.get_by_text("Connected", exact=True)).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("MCP 2026-07-28")).to_be_visible(timeout=WAIT_MS)
    page.get_by_text("Tools", exact=True).first.click()
    expect(page.get_by_text("create_event", exact=True)).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("Tools (1)")).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_text("Read-only session")).to_be_hidden(timeout=WAIT_MS)  # the page change has finished
    shot = tmp_path / "inspector-tools.png"
    page.screenshot(path=str(shot))
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    shutil.copy(shot, REPORT_DIR / shot.name)
    log = web_inspector.log_path.read_text()
    assert "127.0.0.1" in log and "0.0.0.0" not in log, f"the Inspector must bind loopback only: {log[-300:]}"
