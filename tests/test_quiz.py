"""mcp_lab.quiz: the real widgets are pressed from code, and every option explains itself."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mcp_lab.notebook.quiz import Question, Quiz


def stdio_question() -> Question:
    return Question(
        "Where may a stdio server write its log?",
        ["stdout", "stderr", "nowhere"],
        1,
        ["stdout carries MCP messages only.", "Right: stderr is free-form.", "Logging is allowed, on stderr."],
    )


def test_right_answer_is_judged_right_through_the_real_button():
    q = stdio_question()
    assert q.correct is None and q.feedback == ""
    assert q.choose(1) is True
    assert q.correct is True and q.attempts == 1
    assert q._ui["picker"].value == 1  # the RadioButtons really hold it
    assert q.feedback.startswith("Right.")
    assert "Right." in q._ui["out"].value  # and the HTML area shows it


def test_wrong_answer_shows_every_explanation_and_the_right_one():
    q = stdio_question()
    assert q.choose(0) is False
    fb = q.feedback
    assert fb.startswith("Not quite.") and "The right answer is: stderr." in fb
    for why in q.explanations:  # every option explains itself
        assert why in fb
    assert "[wrong] stdout (your answer)" in fb and "[right] stderr:" in fb
    assert q.choose(1) is True and q.attempts == 2  # answering again regrades


def test_a_click_by_a_person_runs_the_same_handler():
    q = stdio_question()
    q.widget  # what the notebook displays
    q._ui["picker"].value = 2
    q._ui["button"].click()
    assert q.correct is False and "(your answer)" in q.feedback


def test_check_with_nothing_selected_is_a_hint_not_a_wrong_answer():
    q = stdio_question()
    q.widget
    q._ui["button"].click()
    assert q.correct is None and q.feedback == "Pick an option first." and q.attempts == 0


def test_multi_select_needs_exactly_the_right_set():
    q = Question(
        "Which did SEP-2577 deprecate?",
        ["sampling", "tools", "roots", "logging"],
        {0, 2, 3},
        ["yes", "no: tools are the core primitive", "yes", "yes"],
    )
    assert q.multi
    assert q.choose([0, 2]) is False  # a subset is not enough
    assert q.choose([0, 2, 3]) is True
    assert [b.value for b in q._ui["boxes"]] == [True, False, True, True]
    assert q.choose([0, 1, 2, 3]) is False  # nor is a superset


def test_quiz_check_all_score_and_reset():
    qs = [stdio_question(), Question("2 + 2?", ["3", "4"], 1, ["no", "yes"])]
    quiz = Quiz(qs)
    assert quiz.check_all([1, 1]) == [True, True] and quiz.score == 2
    assert quiz.check_all([0, 1]) == [False, True] and quiz.score == 1
    quiz.reset()
    assert [q.correct for q in qs] == [None, None] and qs[0]._ui["picker"].value is None
    assert "application/vnd.jupyter.widget-view+json" in quiz._repr_mimebundle_()
    with pytest.raises(ValueError, match="2 questions need 2 answers"):
        quiz.check_all([1])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(options=["a"], answer=0, explanations=["x"]), "at least two options"),
        (dict(options=["a", "b"], answer=0, explanations=["x"]), "every option needs an explanation"),
        (dict(options=["a", "b"], answer=2, explanations=["x", "y"]), "answer must be an option index"),
        (dict(options=["a", "b"], answer=True, explanations=["x", "y"]), "answer must be an option index"),
        (dict(options=["a", "b"], answer=0, explanations=["x", " "]), "non-empty"),
    ],
)
def test_malformed_questions_fail_with_one_clear_line(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Question("?", **kwargs)


def test_choose_out_of_range_is_a_clear_error():
    with pytest.raises(ValueError, match="out of range 0..2"):
        stdio_question().choose(5)
    with pytest.raises(ValueError, match="takes one answer"):
        stdio_question().choose([0, 1])


def test_importing_the_module_does_not_import_ipywidgets():
    code = (
        "import sys, mcp_lab.quiz; q = mcp_lab.quiz.Question('?', ['a','b'], 0, ['x','y']); "
        "assert 'ipywidgets' not in sys.modules, 'imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_options_are_shown_shuffled_but_graded_by_the_authors_index():
    q = Question("Shuffled question?", ["a", "b", "c", "d"], 1, ["no a", "yes b", "no c", "no d"])
    assert sorted(q.order) == [0, 1, 2, 3]
    again = Question("Shuffled question?", ["a", "b", "c", "d"], 1, ["no a", "yes b", "no c", "no d"])
    assert again.order == q.order  # the same on every run
    shown = [label for label, _ in q.widget.children[1].options]
    assert shown == [q.options[i] for i in q.order]  # the widget shows the display order
    assert q.choose(1) is True and q.choose(q.order[0] if q.order[0] != 1 else q.order[1]) is False


def test_across_the_course_the_right_answer_is_not_always_in_the_same_place():
    from collections import Counter

    from test_quiz_course import SINGLE  # every single-choice question, read from the registry

    slots = Counter(q.order.index(next(iter(q.answer))) for _, q in SINGLE)
    total = sum(slots.values())
    assert total >= 20, f"only {total} single-choice questions found in the course"
    assert max(slots.values()) <= 0.5 * total, f"right answers shown in the same slot too often: {dict(slots)}"
