"""The typed tasks of notebooks 09 and 11, each judge shown passing and failing on real input.

- 09's `forge-your-own` sends the learner's `requestState` to a fresh toy calendar process: it
  accepts ANY title the state carries (issue 36: the lesson used to hard-code "Mallory", and a
  learner who wrote another title was told the opposite of what happened), and refuses, with
  one sentence, a state that is not base64 JSON, has no title, or says what the arguments say.
- 11's `grow-the-catalog` counts the reference server's catalog under the learner's declaration:
  one the server has a tool for passes and names the tool; one that changes nothing, or is not a
  capabilities object, is one sentence; in the browser edition (a recording), a declaration the
  recording does not hold is said to be so, never reported as adding nothing.
"""

from __future__ import annotations

import base64
import json

import pytest

from mcp_lab.course.lessons import n09, n11


def _state(obj) -> str:
    return base64.b64encode(json.dumps(obj).encode()).decode()


@pytest.mark.parametrize("title", ["Lunch with Eve", "Wire the money to Mallory", "Réunion à 9h"])
def test_09_any_forged_title_is_believed_by_the_toy(title, capsys):
    assert n09.judge_forged_state(_state({"title": title})) is None
    assert f": {title} at " in capsys.readouterr().out  # what the toy answered, shown to the learner


@pytest.mark.parametrize(
    "state, says",
    [
        ("not base64!", "base64 text of a JSON object"),
        (_state(["a list"]), 'give it a "title"'),
        (_state({"title": "  "}), 'give it a "title"'),
        (_state({"title": "Dentist"}), "as the arguments do"),
        (42, "it must be a string"),
    ],
)
def test_09_a_state_that_forges_nothing_is_one_sentence(state, says):
    reason = n09.judge_forged_state(state)
    assert reason and says in reason and "\n" not in reason


@pytest.mark.parametrize("declared, tool", [({"roots": {}}, "get-roots-list"), ({"elicitation": {}}, None)])
def test_11_a_declaration_that_grows_the_catalog_passes(declared, tool, capsys):
    assert n11.judge_capabilities(declared) is None
    shown = capsys.readouterr().out
    assert "added [" in shown and (tool is None or tool in shown)


@pytest.mark.parametrize(
    "declared, says",
    [
        ({}, "the same 13 tools"),
        ({"nonsense": {}}, "the same 13 tools"),
        ({"roots": 1}, "each an object"),
        ("roots", "a dict"),
    ],
)
def test_11_a_declaration_that_adds_nothing_is_one_sentence(declared, says):
    reason = n11.judge_capabilities(declared)
    assert reason and says in reason and "\n" not in reason


def test_11_in_the_browser_edition_a_declaration_the_recording_lacks_is_said_so(monkeypatch):
    """The browser edition plays a recording: it must not claim roots adds nothing (it adds a tool)."""
    from _support import ROOT

    from mcp_lab.servers import inprocess

    monkeypatch.setattr(inprocess, "IN_BROWSER", True)
    monkeypatch.setattr(inprocess, "RECORDINGS", ROOT / "notebooks" / "cassettes")
    monkeypatch.setattr(n11, "_BASELINE", {})
    assert "plays a recording" in n11.judge_capabilities({"roots": {}})
    assert n11.judge_capabilities({"elicitation": {"form": {}}}) is None
