"""The course's quizzes cannot be passed without reading them.

Every quiz cell in `notebooks/` is executed (which declares its Questions; no widget is shown
outside a kernel) and the questions are checked as a whole:

- every single-answer question has at least four options;
- at least a third of all questions give a situation (a short trace or scene) to reason about;
- no question-blind strategy -- always the longest option, the shortest, the first shown, the last
  shown -- scores more than 10 points above chance over the single-answer questions, computed in
  the order the quiz SHOWS the options (the learner never sees the author's order);
- the cell that answers a quiz from code does so only under the harness switch, so a learner's
  Run All never answers for them;
- quiz prompts and explanations render their Markdown (no literal backtick reaches the page).

Multi-select questions are left out of the strategy scores: a strategy that ticks one option
always fails them, which would flatter the result.
"""

from __future__ import annotations

import json

from _support import ROOT

from mcp_lab.quiz import Question, markdown_html, plain_text

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
MARGIN = 0.10


def course_questions() -> list[tuple[str, Question]]:
    found = []
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] != "code" or "Question(" not in src:
                continue
            ns: dict = {}
            exec(src, ns)  # declares the questions; nothing is displayed outside a kernel
            found += [(path.name, q) for q in ns["quiz"]]
    return found


QUESTIONS = course_questions()
SINGLE = [(nb, q) for nb, q in QUESTIONS if not q.multi]


def _shown(q: Question) -> list[str]:
    return [plain_text(q.options[i]) for i in q.order]


STRATEGIES = {
    "always the longest option": lambda shown: max(range(len(shown)), key=lambda k: len(shown[k])),
    "always the shortest option": lambda shown: min(range(len(shown)), key=lambda k: len(shown[k])),
    "always the first option shown": lambda shown: 0,
    "always the last option shown": lambda shown: len(shown) - 1,
}


def strategy_scores() -> tuple[float, dict[str, float]]:
    chance = sum(1 / len(q.options) for _, q in SINGLE) / len(SINGLE)
    scores = {}
    for name, pick in STRATEGIES.items():
        right = sum(1 for _, q in SINGLE if q.order[pick(_shown(q))] in q.answer)
        scores[name] = right / len(SINGLE)
    return chance, scores


def test_the_course_has_enough_questions():
    assert len(SINGLE) >= 30, f"only {len(SINGLE)} single-answer questions in the course"


def test_every_single_answer_question_has_at_least_four_options():
    few = [f"{nb}: {q.prompt[:70]!r} has {len(q.options)}" for nb, q in SINGLE if len(q.options) < 4]
    assert not few, "single-answer questions with fewer than 4 options:\n" + "\n".join(few)


def test_at_least_a_third_of_the_questions_give_a_situation():
    with_scene = [q for _, q in QUESTIONS if q.situation]
    assert len(with_scene) * 3 >= len(QUESTIONS), (
        f"{len(with_scene)} of {len(QUESTIONS)} questions show a trace or situation; at least a third should"
    )


def test_no_question_blind_strategy_beats_chance_by_more_than_ten_points():
    chance, scores = strategy_scores()
    report = ", ".join(f"{k}: {v:.0%}" for k, v in scores.items())
    for name, score in scores.items():
        assert score <= chance + MARGIN, f"{name} scores {score:.0%} where chance is {chance:.0%} ({report})"


def test_quizzes_are_answered_from_code_only_under_the_harness_switch():
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and "check_all(" in src and "Question(" not in src:
                assert src.lstrip().startswith("if answer_from_code():") or "if not answer_from_code():" in src, (
                    f"{path.name}: a cell answers the quiz without `if answer_from_code():`; "
                    f"Run All would overwrite the learner's answers"
                )


def test_quiz_text_renders_without_literal_backticks():
    for nb, q in QUESTIONS:
        texts = (
            [markdown_html(q.prompt)] + [markdown_html(e) for e in q.explanations] + [plain_text(o) for o in q.options]
        )
        for t in texts:
            assert "`" not in t, f"{nb}: a literal backtick would reach the page: {t[:80]!r}"


def test_the_harness_switch_is_off_unless_set(monkeypatch):
    from mcp_lab.quiz import HARNESS_VARIABLE, answer_from_code

    monkeypatch.delenv(HARNESS_VARIABLE, raising=False)
    assert answer_from_code() is False
    monkeypatch.setenv(HARNESS_VARIABLE, "1")
    assert answer_from_code() is True


if __name__ == "__main__":  # print the numbers for a report
    c, s = strategy_scores()
    print(f"{len(SINGLE)} single-answer questions, chance {c:.1%}")
    for k, v in s.items():
        print(f"  {k}: {v:.1%}")
