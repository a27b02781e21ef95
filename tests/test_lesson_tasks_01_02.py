"""The typed tasks of notebooks 01 and 02, judged by the real servers they name.

- 02's `meta-for-the-form`: the learner's `_meta` goes, with `create_event` and no start, to a
  fresh calendar.  A `_meta` without the form capability is refused with the calendar's own
  -32021 sentence, one without the revision with its -32602 sentence, a value that is not a dict
  with one line; the right one is done (the calendar asks the person: input_required).
- 01's `note-that-names-it`: the learner's `tools/call` params go to a fresh notes server that
  logs what it receives.  A note that does not name the dentist, or not e3, or a call the
  server refuses, or the wrong tool, is not done; the right one is.
- `your_turn` itself: `...` waits without raising, a wrong value raises NotYet (one sentence and
  the hint, no traceback), a right one prints the task's done line.
- course-wide: no typed integer prediction has 0 for its answer (`Prediction`'s integer box
  starts at 0, so the answer would be on screen, and an untouched box would predict it).
"""

from __future__ import annotations

import pytest

import mcp_lab
from mcp_lab.course.challenges import NotYet
from mcp_lab.course.lessons import n01, n02

# Each of these starts real servers or a kernel (tests/_support/kinds.py cannot follow the route).
pytestmark = pytest.mark.system

REVISION = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
FORM = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}


def test_the_meta_task_is_judged_by_the_calendar():
    assert n02.judge_meta_for_the_form({**REVISION, **FORM}) is None
    assert n02.judge_meta_for_the_form({**REVISION, "io.modelcontextprotocol/clientCapabilities": {}}).startswith(
        "the calendar answered -32021"
    )
    assert "-32602" in n02.judge_meta_for_the_form(FORM), "no revision: the calendar's own -32602"
    assert n02.judge_meta_for_the_form("elicitation").startswith("type a dict")
    assert "not JSON" in n02.judge_meta_for_the_form({**REVISION, "x": {1, 2}})


def test_the_note_task_is_judged_by_the_notes_servers_log():
    def call(**arguments):
        return {"name": "add_note", "arguments": arguments}

    assert n01.judge_note_that_names_it(call(text="Dentist at 08:30", about="e3")) is None
    assert "dentist" in n01.judge_note_that_names_it(call(text="Bring the card", about="e3"))
    assert "(e3)" in n01.judge_note_that_names_it(call(text="Dentist"))
    assert "refused" in n01.judge_note_that_names_it(call(about="e3")), "no text: the server refuses"
    assert "stores nothing" in n01.judge_note_that_names_it({"name": "list_notes", "arguments": {}})
    assert n01.judge_note_that_names_it({"name": "add_note"}).startswith("type a dict")


def test_your_turn_waits_refuses_in_one_sentence_then_is_done(capsys):
    mcp_lab.your_turn("meta-for-the-form", ...)
    assert "meta-for-the-form: waiting for you." in capsys.readouterr().out
    with pytest.raises(NotYet) as refused:
        mcp_lab.your_turn("meta-for-the-form", {**REVISION, "io.modelcontextprotocol/clientCapabilities": {}})
    lines = refused.value._render_traceback_()
    assert len(lines) == 2 and "-32021" in lines[0] and lines[1].startswith("hint: two reserved keys")
    mcp_lab.your_turn("meta-for-the-form", {**REVISION, **FORM})
    assert "done: the calendar answered input_required" in capsys.readouterr().out


def test_both_tasks_are_judged_in_the_browser_edition_too(monkeypatch):
    """In a browser tab the servers run in the kernel's own process (mcp_lab.servers.inprocess)."""
    from mcp_lab.servers import inprocess

    monkeypatch.setattr(inprocess, "IN_BROWSER", True)
    assert n02.judge_meta_for_the_form({**REVISION, **FORM}) is None
    assert "-32021" in n02.judge_meta_for_the_form({**REVISION, "io.modelcontextprotocol/clientCapabilities": {}})
    note = {"name": "add_note", "arguments": {"text": "Dentist at 08:30", "about": "e3"}}
    assert n01.judge_note_that_names_it(note) is None
    note["arguments"]["text"] = "Bring the card"
    assert "dentist" in n01.judge_note_that_names_it(note)


def test_an_integer_prediction_starts_empty_so_no_number_is_on_screen():
    """An IntText box showed 0 before the learner typed, and 0 is the answer of some predictions
    (05b's after-restart): the box starts empty and the number is read when Predict is pressed."""
    from mcp_lab.notebook.predict import Prediction

    guess = Prediction("planted-int", "How many?", kind=int)
    assert guess.widget.children[1].value == ""
    guess.widget.children[2].click()  # Predict with nothing typed: it waits, and says so
    assert not guess.made and "whole number" in guess.widget.children[3].value
    guess.interaction.answer(0)
    assert guess.made and guess.value == 0
