"""Kernel side of the lessons' harness: the test-learner's hand on the widgets.

The runner (tests/lessons/harness.py) executes, after every code cell of a lesson, one hidden
cell that loads this file by path and calls `answer_pending(answers_file, where)`.  It answers
each pending interaction of `mcp_lab.notebook.interactions` through the interaction's own
widget handlers (as a click would): from `ANSWERS[key]` in the answers file, or, for a quiz
question without an entry, with its right answer.  Answering can make new interactions appear
(the next round's form, the next consent prompt), so it goes on until nothing answerable is left.
A pending interaction with no answer fails the cell, naming its key and the file to add it to.
With `final=True` it only checks that nothing is left pending.
"""

from __future__ import annotations

import runpy
from pathlib import Path


def _where_to_add(answers_file: str, name: str = "ANSWERS") -> str:
    path = Path(answers_file)
    return f"add it to {name} in tests/lessons/{path.parent.name}/{path.name}"


def answer_pending(answers_file: str, where: str, final: bool = False) -> list[str]:
    from mcp_lab.notebook import interactions

    loaded = runpy.run_path(answers_file) if Path(answers_file).exists() else {}
    answers = loaded.get("ANSWERS", {})
    if final:
        _check_truths(loaded.get("TRUTH", {}), answers_file, where)
        twice = sorted(set(interactions.conflicts()))
        if twice:
            raise AssertionError(f"{where}: two cells registered the key(s) {', '.join(twice)}: give each its own key")
        left = [f"{i.key} ({i.kind})" for i in interactions.pending()]
        if left:
            raise AssertionError(f"{where}: still pending at the end: {', '.join(left)}; {_where_to_add(answers_file)}")
        return []
    tried: set[int] = set()
    answered: list[str] = []
    while True:
        todo = [i for i in interactions.pending() if id(i) not in tried]
        missing = [i for i in todo if i.key not in answers and i.kind != "quiz"]
        if missing:
            keys = ", ".join(f"{i.key!r} ({i.kind})" for i in missing)
            raise AssertionError(f"{where}: no answer for {keys}; {_where_to_add(answers_file)}")
        if not todo:
            return answered
        for item in todo:
            tried.add(id(item))
            item.answer(answers[item.key] if item.key in answers else item.solution)
            if not item.done:
                raise AssertionError(f"{where}: answering {item.key!r} with {answers.get(item.key)!r} left it pending")
            answered.append(item.key)


def _check_truths(truth: dict, answers_file: str, where: str) -> None:
    """Every prediction's real answer (what its reveal cell computed from the exchange) equals the
    fact the tests hold in TRUTH: the lesson checks its facts, after the reveal, off screen."""
    from mcp_lab.notebook import interactions

    for item in interactions.all_interactions():
        if item.kind != "prediction":
            continue
        if item.key not in truth:
            raise AssertionError(
                f"{where}: prediction {item.key!r} has no TRUTH entry; {_where_to_add(answers_file, 'TRUTH')}"
            )
        actual = getattr(item.owner, "actual", None)
        if str(actual).strip().casefold() != str(truth[item.key]).strip().casefold():
            raise AssertionError(
                f"{where}: prediction {item.key!r} revealed {actual!r}, the fact is {truth[item.key]!r}"
            )
