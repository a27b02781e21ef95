"""Run All in a real Lab waits for the person: every lesson notebook, JupyterLab + Chromium.

One Lab server (over a copy of notebooks/ and labs/) and one browser page for the whole module.
For each lesson notebook under notebooks/ (parametrized) the test closes the one before and
opens it from the file browser (the first by URL, in a fresh workspace), runs Run > Run All
Cells from the menu, waits until every cell has run and the kernel
is idle, then asserts:

- no cell shows an error (read from the saved notebook: outputs of type "error"), except cells
  tagged `raises-exception`, whose failure is the lesson;
- every interaction is still pending: the page's `.mcp-lab-pending` count equals the number of
  pending interactions with a widget in the kernel's registry (read by a second, silent client of
  the same kernel: nothing is injected into the notebook), and is not zero where the notebook
  declares interactions; no prediction's verdict is shown, and each reveal says "Make your
  prediction above";
- predict, then see: each waiting prediction, scrolled to where a learner meets it, has its answer
  (the tests' TRUTH) nowhere on the screen: not in the cells above or below, not in an output.

Then, on the first notebook that has it, one interaction of each kind is answered by clicking as
a person would (a quiz option + Check, a prediction + Predict, a form's date-time + Accept, a
consent Allow), and its effect is seen on the page. Notebook 01's consent demo is played through
under Run All: Deny the poisoned add_note, Allow the create_event, and the check cell reports the
event booked. Screenshots at 1400x1000 go to test-output/ (01's consent, 02's prediction, 07's
booking form, 09 and 13 their first prediction, each after Run All).

Once 02, 06, 07, 09 and lab 10 have run, what they show is measured on the same page
(tests/browser/screen_checks.py: tables that fit, legible diagrams, legacy labels, a closed
connection's one sentence, 07's retry on the wire after its form is answered); screenshots in
test-output/browser/screen-*.png and elicitation-*.png.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from _support import ROOT
from _support.lab_pages import close_and_shut_down, fill_calendar_form, open_notebook, run_all_cells
from screen_checks import CHECKS as SCREEN_CHECKS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.wire_deliberate(
        server_id_null="the pinned reference server refuses a request before initialize with id null",
        server_legacy_answer="the pinned legacy reference server answers a modern request in its own era",
        server="notebook 15's exchange pasted from a bug report (abridged answers)",
    ),
]

LESSONS = sorted(p for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))
FIXTURES = ROOT / "tests" / "lessons" / "fixtures"  # the harness's small lesson: one of each kind
SHOTS = ROOT / "test-output"
SCREENS = SHOTS / "browser"  # screen_checks' views
OPEN_MS, RUN_S = 90_000, 420.0  # 14 runs the conformance suite; 09 starts servers several times
SCREENSHOT_OF = {"01": "consent", "02": "prediction", "07": "form", "09": "prediction", "13": "prediction"}
CLICKED: dict[str, str] = {}  # kind -> notebook where it was answered by clicking
PENDING_IN_KERNEL = "sum(1 for i in __import__('mcp_lab').interactions.pending() if i.widget is not None)"
KINDS_IN_KERNEL = "sorted({i.kind for i in __import__('mcp_lab').interactions.pending()})"


@pytest.fixture(scope="module")
def lab(jupyterlab_module):
    started = jupyterlab_module([], extra=[ROOT / "notebooks", ROOT / "labs", FIXTURES])
    yield started
    left = started.stop()
    assert not left, f"processes outlived JupyterLab (killed now): {sorted(left)}"


def kernel_says(lab, expression: str):
    """Evaluate `expression` in the notebook's kernel through a second, silent client (like a
    console attached to it): no cell is added, no cell-run event fires, nothing is printed."""
    from jupyter_client import BlockingKernelClient

    _, body = lab._api("/api/sessions")
    sessions = json.loads(body)
    assert len(sessions) == 1, f"expected the one notebook's kernel, found {len(sessions)} sessions"
    client = BlockingKernelClient(
        connection_file=str(lab.base / "runtime" / f"kernel-{sessions[0]['kernel']['id']}.json")
    )
    client.load_connection_file()
    client.start_channels()
    try:
        msg_id = client.execute("", silent=True, user_expressions={"x": expression})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            reply = client.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg_id:
                value = reply["content"]["user_expressions"]["x"]
                assert value["status"] == "ok", value
                return eval(value["data"]["text/plain"])  # a number or a list of strings
        raise AssertionError(f"the kernel did not evaluate {expression!r} within 30 s")
    finally:
        client.stop_channels()


def shut_down_kernels(lab) -> None:
    _, body = lab._api("/api/sessions")
    for session in json.loads(body):
        lab._api(f"/api/sessions/{session['id']}", "DELETE", timeout=15)


def open_alone(page, lab, name: str, folder: str = "notebooks"):
    """Close the notebook before (shutting its kernel down), then open `<folder>/<name>`: the
    page's first by URL, in a fresh workspace; the next from the file browser.  (panel, idle)"""
    close_and_shut_down(page)
    shut_down_kernels(lab)  # one kernel at a time, whatever the page did before
    url = f"{lab.url}/lab/workspaces/runall/tree/{folder}/{name}?reset&token={lab.token}"
    return open_notebook(page, url, f"{folder}/{name}", OPEN_MS)


def run_all(page, lab, name: str, folder: str = "notebooks"):
    """Open `<folder>/<name>` alone in the page, Run All from the menu, wait until done."""
    panel, idle = open_alone(page, lab, name, folder)
    run_all_cells(page, RUN_S * 1000)
    idle.wait_for(timeout=OPEN_MS)
    return panel


def saved_errors(page, lab, name: str, folder: str = "notebooks") -> list[str]:
    """Save the notebook (Ctrl+S) and read the errors of its cells from the file on disk."""
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    path = lab.root / folder / name
    deadline = time.monotonic() + 30
    while True:
        try:
            nb = json.loads(path.read_text())
        except ValueError:  # read while the server was still writing it: read it again
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
            continue
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        if all(c.get("execution_count") for c in code) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    return [
        f"cell {i} (id {c.get('id')}): {o.get('ename')}: {o.get('evalue', '')[:300]}"
        for i, c in enumerate(nb["cells"])
        if c["cell_type"] == "code" and "raises-exception" not in c.get("metadata", {}).get("tags", [])
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ] + [
        f"cell {i} never ran"
        for i, c in enumerate(nb["cells"])
        if c["cell_type"] == "code" and not c.get("execution_count")
    ]


def shoot(page, locator, path) -> None:
    # Cells above render (and change height) as they come into view: scroll until it stays put.
    for _ in range(4):
        locator.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(400)
    locator.evaluate("e => e.closest('.jp-WindowedPanel-outer')?.scrollBy(0, -60)")  # its top in view
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))


# -- predict, then see: what the screen shows around a waiting prediction ---------------------------
# The text of every element in the notebook's viewport, except the waiting widgets themselves (their
# options are the question) and the cells' prompt numbers ("[12]:").
VISIBLE_TEXT = """(widget) => {
  const panel = widget.closest('.jp-NotebookPanel');
  const skip = el => el.closest('.mcp-lab-pending, .jp-InputPrompt, .jp-OutputPrompt');
  // The part of an element a person can see: its box cut by every scrolling or clipping box
  // around it, up to the notebook's scrolling area (the status bar covers the window's foot).
  const seen = el => {
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    let r = el.getBoundingClientRect();
    let top = r.top, bottom = r.bottom;
    if (r.width <= 0 || r.height <= 0) return false;
    for (let a = el.parentElement; a && a !== panel.parentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowY !== 'visible' || style.overflowX !== 'visible' || a.classList.contains('jp-WindowedPanel-outer')) {
        const b = a.getBoundingClientRect();
        top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom);
        if (bottom <= top) return false;
      }
    }
    return top < window.innerHeight && bottom > 0;
  };
  const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
  const out = [];
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (el && !skip(el) && seen(el)) out.push(walker.currentNode.textContent);
  }
  return out.join(' ');
}"""


def answers_on_screen(page, path) -> list[str]:
    """For each prediction still waiting after Run All: scrolled into view as a learner meets it,
    is its answer (the tests' TRUTH) anywhere on the screen, outputs and cells below included?"""
    import runpy

    from mcp_lab.course import lessons

    answers = ROOT / "tests" / "lessons" / "answers" / f"{path.stem}.py"
    truth = runpy.run_path(str(answers)).get("TRUTH", {}) if answers.exists() else {}
    asks, found = lessons.asks(), []
    for key, value in truth.items():
        value = str(value)
        if key not in asks or len(value) < 2:
            continue
        widget = pending(page).filter(has_text=asks[key].prompt[:60])
        if not widget.count():
            continue
        shoot_position(page, widget.first)
        text = widget.first.evaluate(VISIBLE_TEXT)
        hit = re.search(rf"(?<![\w.-]){re.escape(value)}(?![\w])", text, re.I)
        if hit:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"spoiled-{path.stem}-{key}.png"))
            around = " ".join(text[max(0, hit.start() - 80) : hit.end() + 40].split())
            found.append(f"{key}: its answer {value!r} in ...{around}... (test-output/spoiled-{path.stem}-{key}.png)")
    return found


def shoot_position(page, locator) -> None:
    """Scroll as `shoot` does: the widget near the top of the window, as a learner reaches it."""
    for _ in range(3):
        locator.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
    locator.evaluate("e => e.closest('.jp-WindowedPanel-outer')?.scrollBy(0, -60)")
    page.wait_for_timeout(200)


# -- answering one of each kind by clicking --------------------------------------------------------
def pending(page):
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .mcp-lab-pending")


def click_quiz(page) -> bool:
    quiz = (
        pending(page)
        .filter(has=page.locator("input[type=radio]"))
        .filter(has=page.get_by_role("button", name="Check", exact=True))
    )
    if not quiz.count():
        return False
    first = quiz.first
    first.scroll_into_view_if_needed()
    first.locator("input[type=radio]").first.check()
    first.get_by_role("button", name="Check", exact=True).click()
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").get_by_text(
        re.compile(r"^(Right\.|Not quite\.)")
    ).first.wait_for(timeout=15_000)
    return True


def click_prediction(page) -> bool:
    guess = pending(page).filter(has=page.get_by_role("button", name="Predict", exact=True))
    if not guess.count():
        return False
    first = guess.first
    first.scroll_into_view_if_needed()
    radios = first.locator("input[type=radio]")
    if radios.count():
        radios.first.check()
    else:
        box = first.locator("input").first
        box.fill("1")
        box.press("Tab")
    waiting = page.get_by_text("Make your prediction above to see what came back.").filter(visible=True)
    before = waiting.count()
    first.get_by_role("button", name="Predict", exact=True).click()
    page.get_by_text(re.compile(r"^You predicted ")).first.wait_for(timeout=15_000)
    if before:  # its reveal opens: one waiting line fewer, and a verdict shows where expect() ran
        deadline = time.monotonic() + 15
        while waiting.count() >= before and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert waiting.count() < before, "the reveal stayed hidden after the prediction was made"
    return True


def click_form(page) -> bool:
    accept = fill_calendar_form(page)
    if accept is None:
        return False
    from playwright.sync_api import expect

    before = pending(page).count()
    accept.click()
    expect(pending(page)).not_to_have_count(before, timeout=15_000)  # answered: no longer pending
    return True


def click_consent(page) -> bool:
    prompt = pending(page).filter(has=page.get_by_role("button", name="Allow"))
    if not prompt.count():
        return False
    first = prompt.first
    first.scroll_into_view_if_needed()
    first.get_by_role("button", name="Allow").click()
    page.get_by_text("Allowed").first.wait_for(timeout=15_000)
    assert not page.get_by_text(re.compile("The call failed")).count(), "the call after Allow failed"
    return True


CLICKERS = {"quiz": click_quiz, "prediction": click_prediction, "form": click_form, "consent": click_consent}


def play_01_consent(page, panel) -> None:
    """01's demo under Run All: Deny the poisoned add_note, Allow the create_event, see it booked."""
    allowed = False
    deadline = time.monotonic() + 45
    while not allowed and time.monotonic() < deadline:
        prompt = pending(page).filter(has=page.get_by_role("button", name="Allow"))
        count = prompt.count()
        if not count:  # after a Deny the model's next step (the next prompt) may still be coming
            page.wait_for_timeout(200)
            continue
        first = prompt.first
        first.scroll_into_view_if_needed()
        button = "Deny" if "add_note" in first.inner_text() else "Allow"
        first.get_by_role("button", name=button).click()
        allowed = button == "Allow"
        settle = time.monotonic() + 15
        while time.monotonic() < settle and prompt.count() >= count:
            page.wait_for_timeout(200)  # the answered prompt stops waiting before the next is read
    assert allowed, "01 never offered the create_event call for the person to Allow"
    assert not page.get_by_text(re.compile("The call failed")).count(), "the call after Allow failed"
    check = panel.locator(".jp-CodeCell").filter(
        has=page.locator(".jp-InputArea-editor", has_text="consenting.replies")
    )
    check.first.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    from playwright.sync_api import expect

    expect(check.first.locator(".jp-OutputArea")).to_contain_text("Booked", timeout=20_000)
    CLICKED.setdefault("consent", "01-host-client-server")


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_run_all_leaves_every_interaction_pending(lab, chromium_module, path):
    page = chromium_module
    started = time.monotonic()
    try:
        panel = run_all(page, lab, path.name)
    except Exception as e:  # a timeout: one line, a screenshot, the log
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"run-all-{path.stem}-failure.png"))
        pytest.fail(f"{path.name}: Run All did not finish: {str(e)[:300]}\n{lab.log_tail()}", pytrace=False)
    errors = saved_errors(page, lab, path.name)
    assert not errors, f"{path.name} under Run All:\n" + "\n".join(errors)

    language = json.loads(path.read_text())["metadata"].get("kernelspec", {}).get("language", "python")
    if language != "python":
        # 04b's MCP wire kernel has no Python and no registry: its predictions wait in the cells
        # (`%predict` with nothing written sends nothing), which the page shows.
        assert page.get_by_text(re.compile(r"^Predict first")).count(), f"{path.name}: a prediction did not wait"
        in_kernel, kinds = 0, []
    else:
        in_kernel = kernel_says(lab, PENDING_IN_KERNEL)
        kinds = kernel_says(lab, KINDS_IN_KERNEL)
    on_page = pending(page).count()
    assert on_page == in_kernel, f"{on_page} .mcp-lab-pending on the page, {in_kernel} pending in the kernel"
    assert not page.get_by_text(re.compile(r"^(Your prediction held|Not quite: you predicted)")).count(), (
        "a prediction's verdict is shown before the learner predicted"
    )
    if "prediction" in kinds:
        assert page.get_by_text("Make your prediction above to see what came back.").filter(visible=True).count(), (
            "no reveal waits"
        )

    spoiled = answers_on_screen(page, path)
    assert not spoiled, f"{path.name}: on screen while a prediction waits:\n" + "\n".join(spoiled)

    key = path.name[:2]
    kind = SCREENSHOT_OF.get(key)
    if kind in kinds:
        SHOTS.mkdir(exist_ok=True)
        button = {"consent": "Allow", "prediction": "Predict", "form": "Accept"}[kind]
        shown = pending(page).filter(has=page.get_by_role("button", name=button))
        booking = shown.filter(has_text=re.compile("seating|party", re.I))  # 07: the table booking
        shoot(page, (booking if booking.count() else shown).first, SHOTS / f"{key}-{kind}.png")
    if key == "01" and "consent" in kinds:
        play_01_consent(page, panel)
    for kind, click in CLICKERS.items():
        if kind in kinds and kind not in CLICKED and click(page):
            CLICKED[kind] = path.stem
    if key in SCREEN_CHECKS:
        SCREENS.mkdir(parents=True, exist_ok=True)
        SCREEN_CHECKS[key](page, panel, SCREENS, click_prediction)
    print(f"{path.name}: Run All {time.monotonic() - started:.0f} s, {in_kernel} pending ({', '.join(kinds)})")


def test_the_harness_fixture_waits_then_answers_each_kind_by_clicking(lab, chromium_module):
    """The machinery itself, on the small lesson of tests/lessons/fixtures (a prediction with its
    reveal, the calendar's form, a consent gate, a quiz): all four pending after Run All, each
    answered by a click, and the prediction's hidden output shown once it is made."""
    page = chromium_module
    run_all(page, lab, "harness-fixture.ipynb", folder=FIXTURES.name)
    assert not saved_errors(page, lab, "harness-fixture.ipynb", folder=FIXTURES.name)
    assert pending(page).count() == kernel_says(lab, PENDING_IN_KERNEL) == 4
    hidden = page.get_by_text("['create_event']")
    assert not hidden.is_visible(), "the reveal's output shows before the prediction"
    for kind, click in CLICKERS.items():
        assert click(page), f"no {kind} to click in the fixture"
    assert hidden.is_visible() and page.get_by_text(re.compile(r"^(Your prediction held|Not quite)")).count()
    assert page.get_by_text(re.compile(r"^Created e\d+: Dentist")).is_visible(), "the form booked the event"
    # `%load_ext mcp_lab`'s page style: printed text wraps between words, not mid-word.
    wrapping = page.locator(".jp-OutputArea-output pre", has_text="create_event").first.evaluate(
        "e => [getComputedStyle(e).wordBreak, getComputedStyle(e).overflowWrap]"
    )
    assert wrapping == ["normal", "break-word"], wrapping
    assert pending(page).count() == kernel_says(lab, PENDING_IN_KERNEL) == 0


def test_lab_10_isolated_table_fits(lab, chromium_module):
    """Lab 10 (the template a learner opens) under Run All: its by-hand isolated() table fits."""
    page = chromium_module
    panel = run_all(page, lab, "10-fix-the-calendar.ipynb", folder="labs")
    SCREENS.mkdir(parents=True, exist_ok=True)
    SCREEN_CHECKS["lab10"](page, panel, SCREENS)


def test_a_glossary_link_lands_on_its_entry(lab, chromium_module):
    """The glossary opened from a lesson lands on its entry, on its first open too.

    Notebook 02's first glossary link (`glossary.ipynb#cell-id=stdio`) is clicked as a person
    would: the glossary opens scrolled to the entry, not at its top, and the entry's explicit
    `<a id>` survived the sanitizer (as `data-jupyter-id`); with the glossary open, a second link
    (`#cell-id=primitives`) lands on that entry too.  Measured while writing it (JupyterLab 4.6):
    a plain `glossary.ipynb#stdio` lands only when the glossary is already open (on the first
    open the fragment is applied before the Markdown cells render), which is why the links use
    `#cell-id=`; and a glossary without a kernelspec makes Lab ask which kernel to start, where
    "No Kernel" scrolls back to the top, which is why the glossary keeps its kernelspec.
    """
    page = chromium_module
    _, idle = open_alone(page, lab, "02-json-rpc-by-hand.ipynb")
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"

    def click_link(anchor: str) -> None:
        page.locator(f"{panel} a[href*='glossary.ipynb'][href$='#cell-id={anchor}']").first.click()

    def in_view(anchor: str) -> bool:
        box = page.locator(f"{panel} h3[data-jupyter-id='{anchor}']").bounding_box()
        return box is not None and 0 <= box["y"] <= page.viewport_size["height"] - 40

    click_link("stdio")
    page.locator(f"{panel} h3[data-jupyter-id='stdio']").wait_for(timeout=OPEN_MS)
    idle.wait_for(timeout=OPEN_MS)  # the glossary's kernel is up: nothing asks or scrolls after this
    page.wait_for_timeout(1500)
    assert not page.get_by_role("dialog").count(), "opening the glossary asked a question"
    assert in_view("stdio"), "the glossary opened at its top, not at the stdio entry"
    assert page.locator(f"{panel} a[data-jupyter-id='stdio']").count() == 1, "the <a id> was dropped"

    page.get_by_role("tab", name=re.compile("02-json-rpc")).click()
    page.locator(panel).locator(".jp-Cell").first.wait_for(timeout=OPEN_MS)
    click_link("primitives")
    page.wait_for_timeout(1500)
    assert in_view("primitives"), "with the glossary open, a second link did not land on its entry"


def test_one_of_each_kind_was_answered_by_clicking():
    missing = sorted(set(CLICKERS) - set(CLICKED))
    assert not missing, f"no notebook offered a {', '.join(missing)} to click (answered: {CLICKED})"
