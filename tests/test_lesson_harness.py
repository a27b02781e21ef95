"""The lessons' harness proven on a small fixture notebook (a prediction, a form against the
bundled calendar, a consent gate, a quiz), in a real kernel through the same runner as
tests/test_rerun.py: with every answer given the notebook passes both passes (each cell twice,
then the whole notebook again) and its AFTER checks see the answers' effects; with the form's
answer missing the run fails naming the key and the file to add it to."""

from __future__ import annotations

import asyncio

from lessons.harness import HERE
from test_rerun import _rerun

FIXTURE = HERE / "fixtures" / "harness-fixture.ipynb"


def test_an_answered_lesson_passes_both_passes():
    failures = asyncio.run(asyncio.wait_for(_rerun(FIXTURE, answers_dir=HERE / "fixtures" / "answers"), 300))
    assert failures == []


def test_a_missing_answer_fails_naming_the_key_and_the_file():
    failures = asyncio.run(asyncio.wait_for(_rerun(FIXTURE, answers_dir=HERE / "fixtures" / "missing"), 300))
    assert len(failures) == 1, failures
    assert (
        "no answer for 'dentist' (form); add it to ANSWERS in tests/lessons/missing/harness-fixture.py" in (failures[0])
    ), failures[0]
