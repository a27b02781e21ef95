"""The course's quizzes cannot be passed without reading them.

Every lesson's quiz (`mcp_lab/course/lessons/nNN.py`, shown by `mcp_lab.self_check("NN")`) is
built (which declares its Questions; no widget is shown outside a kernel) and the questions are
checked as a whole:

- every single-answer question has at least four options;
- at least a third of all questions give a situation (a short trace or scene) to reason about;
- no question-blind strategy -- always the longest option, the shortest, the first shown, the last
  shown -- scores more than 10 points above chance over the single-answer questions, computed in
  the order the quiz SHOWS the options (the learner never sees the author's order);
- in no quiz is the longest option the right one in more than half of its questions;
- quiz prompts and explanations render their Markdown (no literal backtick reaches the page);
- no prompt, in any lesson's quiz, says "(tick all)" or the like: the widget adds "(tick every
  right option)" to a multi-select question itself, so the page would say it twice.

Multi-select questions are left out of the strategy scores: a strategy that ticks one option
always fails them, which would flatter the result.
"""

from __future__ import annotations

import json
import re

from _support import ROOT

from mcp_lab.quiz import Question, markdown_html, plain_text

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
MARGIN = 0.10


def course_questions() -> list[tuple[str, Question]]:
    """Every question of every quiz, read from the interactions registry: a Quiz registers its
    questions whether or not the cell binds it to a name."""
    from mcp_lab.course import lessons
    from mcp_lab.notebook import interactions

    found = []
    for path in NOTEBOOKS:
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] != "code" or "self_check(" not in src:
                continue
            interactions.clear()
            lesson = src.split("self_check(", 1)[1].split(")", 1)[0].strip("\"' ")
            lessons.self_check(lesson)  # declares the questions; shows nothing
            found += [
                (f"{path.name} {i.key.rsplit('/', 1)[0]}", i.owner)
                for i in interactions.all_interactions()
                if i.kind == "quiz"
            ]
    interactions.clear()
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


def longest_is_right(q: Question) -> bool:
    """True when the right option is the one longest option (ties give nothing away)."""
    lengths = [len(plain_text(o)) for o in q.options]
    longest = max(lengths)
    return lengths.count(longest) == 1 and lengths.index(longest) in q.answer


def test_the_longest_option_is_right_in_at_most_half_of_each_quiz():
    by_quiz: dict[str, list[Question]] = {}
    for quiz, q in SINGLE:
        by_quiz.setdefault(quiz, []).append(q)
    tells = {
        quiz: sum(map(longest_is_right, qs))
        for quiz, qs in by_quiz.items()
        if 2 * sum(map(longest_is_right, qs)) > len(qs)
    }
    assert not tells, "quizzes whose longest option is the right one in more than half of the questions: " + ", ".join(
        f"{quiz} ({n} of {len(by_quiz[quiz])})" for quiz, n in tells.items()
    )


def test_the_longest_option_counter_sees_a_tell():
    tell = Question("?", ["a", "b", "the long and careful right answer"], answer=2, explanations=["x", "y", "z"])
    tie = Question("?", ["same", "four", "b"], answer=0, explanations=["x", "y", "z"])
    assert longest_is_right(tell) and not longest_is_right(tie)


def test_quiz_text_renders_without_literal_backticks():
    for nb, q in QUESTIONS:
        texts = (
            [markdown_html(q.prompt)] + [markdown_html(e) for e in q.explanations] + [plain_text(o) for o in q.options]
        )
        for t in texts:
            assert "`" not in t, f"{nb}: a literal backtick would reach the page: {t[:80]!r}"


# What the widget itself says under a multi-select prompt; a prompt that says it too repeats it.
MULTI_SAID = re.compile(
    r"\((?:tick|select|check|choose|pick|mark)\b[^)]*\)|\b(?:tick|select|choose|mark) (?:all|every)\b|all that apply",
    re.I,
)


def every_lesson_question() -> list[tuple[str, Question]]:
    """Every question of every lesson module's quiz (notebooks and labs alike)."""
    from mcp_lab.course import lessons
    from mcp_lab.notebook import interactions

    found = []
    for module in lessons._modules():
        if not hasattr(module, "quiz"):
            continue
        interactions.clear()
        module.quiz()
        found += [(module.__name__, i.owner) for i in interactions.all_interactions() if i.kind == "quiz"]
    interactions.clear()
    return found


def repeats_the_multi_instruction(q: Question) -> bool:
    return bool(MULTI_SAID.search(q.prompt))


def test_no_quiz_prompt_repeats_the_widgets_instruction():
    said = [f"{name}: {q.prompt!r}" for name, q in every_lesson_question() if repeats_the_multi_instruction(q)]
    assert not said, "the widget adds '(tick every right option)' itself; drop it from:\n" + "\n".join(said)


def test_the_instruction_reader_sees_a_repeat():
    twice = Question("What does MCP add? (tick all)", ["a", "b", "c"], answer={0, 1}, explanations=["x", "y", "z"])
    also = Question("Select all that apply: what?", ["a", "b", "c"], answer={0, 1}, explanations=["x", "y", "z"])
    once = Question("Which checks did it pass?", ["a", "b", "c"], answer={0, 1}, explanations=["x", "y", "z"])
    assert repeats_the_multi_instruction(twice) and repeats_the_multi_instruction(also)
    assert not repeats_the_multi_instruction(once)


if __name__ == "__main__":  # print the numbers for a report
    c, s = strategy_scores()
    print(f"{len(SINGLE)} single-answer questions, chance {c:.1%}")
    for k, v in s.items():
        print(f"  {k}: {v:.1%}")
