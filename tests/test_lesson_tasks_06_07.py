"""The typed tasks of notebooks 06 and 07 judge what a learner types, both ways.

- 06 `read-the-era`: the learner reads the era off five first answers to `server/discover`.  The
  judge is `mcp_lab.wire.era.decide`, the function `probe()` uses, so the right reading is what
  the probe concludes; a reading that calls an error "legacy" because it is an error (A: a
  -32022 naming only a newer version) or a result "modern" because it is a result (C: `{}`) is
  refused, in one sentence that does not say which letter is wrong.
- 07 `finish-on-a-fresh-process`: the learner writes the retry of the calendar's interim answer;
  the judge sends it to a fresh calendar process.  A right retry creates the event; one that
  edits the state, drops it, answers under another key, or changes the original arguments does
  not, and the sentence says what is wrong.

Each is driven through `mcp_lab.your_turn`, as the notebook calls it: a right value prints its
done line, a wrong one raises NotYet, `...` waits.
"""

from __future__ import annotations

import pytest

import mcp_lab
from mcp_lab.course.challenges import NotYet
from mcp_lab.course.lessons import n06, n07

RIGHT_ERAS = {"A": "modern", "B": "legacy", "C": "legacy", "D": "modern", "E": "legacy"}


def test_the_right_reading_is_what_probe_concludes(capsys):
    assert {k: n06.era_concluded_from(v) for k, v in n06.FIRST_ANSWERS.items()} == RIGHT_ERAS
    mcp_lab.your_turn("read-the-era", {k: v.upper() for k, v in RIGHT_ERAS.items()})  # case does not matter
    assert "read-the-era: all five read right" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ({**RIGHT_ERAS, "A": "legacy"}, "1 of the 5 are not read right yet"),  # an error, yet modern
        ({**RIGHT_ERAS, "C": "modern"}, "1 of the 5 are not read right yet"),  # a result, yet legacy
        ({k: v for k, v in RIGHT_ERAS.items() if k != "E"}, "still missing: E"),
        ({**RIGHT_ERAS, "B": "old"}, 'B: type "modern" or "legacy"'),
        ("modern", "type a dict"),
    ],
)
def test_a_wrong_reading_is_refused_in_one_sentence(typed, said):
    with pytest.raises(NotYet) as info:
        mcp_lab.your_turn("read-the-era", typed)
    assert said in str(info.value), str(info.value)


def test_waiting_prints_one_line(capsys):
    from mcp_lab.course import lessons

    lessons._SOLVED.pop("finish-on-a-fresh-process", None)  # as in a fresh kernel
    mcp_lab.your_turn("finish-on-a-fresh-process")
    assert capsys.readouterr().out.count("\n") == 1


@pytest.fixture(scope="module")
def interim() -> dict:
    with mcp_lab.connect("calendar", capabilities=n07.FORM) as cal:
        return cal.request("tools/call", n07.DENTIST).unwrap()


def retry_of(interim: dict, **change) -> dict:
    answer = {"when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}}
    return {**n07.DENTIST, "inputResponses": answer, "requestState": interim["requestState"], **change}


def test_a_fresh_process_finishes_the_learners_retry(interim, capsys):
    mcp_lab.your_turn("finish-on-a-fresh-process", retry_of(interim))
    assert "a fresh calendar process, which never saw the question, created the event" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"requestState": "not-a-state!"}, "a fresh calendar refused it: -32602"),
        ({"requestState": "eyJ0aXRsZSI6ICJNYWxsb3J5In0="}, "created 'Mallory', not 'Dentist'"),  # forged
        (
            {"inputResponses": {"when": {"action": "accept", "content": {"startsAt": "2026-09-11T08:30:00Z"}}}},
            "not 10 September 2026, 08:30 UTC",
        ),
        ({"inputResponses": {"start": {"action": "accept"}}}, 'under the server\'s own key, "when"'),
        ({"arguments": {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}}, "keep the original params"),
        ({"inputResponses": {"when": {"action": "decline"}}}, "a fresh calendar answered a tool error"),
    ],
)
def test_a_retry_that_would_not_finish_the_call_is_refused(interim, change, said):
    with pytest.raises(NotYet) as info:
        mcp_lab.your_turn("finish-on-a-fresh-process", retry_of(interim, **change))
    assert said in str(info.value), str(info.value)


def test_a_retry_without_its_state_is_refused(interim):
    retry = retry_of(interim)
    del retry["requestState"]
    with pytest.raises(NotYet, match="no requestState"):
        mcp_lab.your_turn("finish-on-a-fresh-process", retry)
