"""Self-check questions as ipywidgets, with an explanation for every option.

    from mcp_lab.quiz import Question, Quiz
    q = Question("Which stream may a stdio server log to?",
                 ["stdout", "stderr"], answer=1,
                 explanations=["stdout carries MCP messages only.", "Yes: stderr is free-form."])
    Quiz([q])                    # renders; the learner picks an option and presses Check
    q.choose(1); q.correct       # True -- the same widgets, pressed from code

Theory of operation
-------------------
A Question owns three real widgets: the options (RadioButtons for one answer, one Checkbox per
option when the answer is a set), a Check button, and an HTML area for the feedback.  Pressing
Check grades the current selection and fills the feedback with a verdict plus *every* option's
explanation, the chosen ones marked: a wrong answer teaches as much as a right one, and a lucky
guess still shows why.  `choose()` sets the real widget's value and calls the real button's
`click()`, so code (tests, nbclient) runs exactly the handler a person's click runs; `correct`
and `feedback` read what that handler produced.  A learner may answer again; each press regrades.

Options are *shown* in a shuffled order, fixed per question (seeded by the prompt's text), so
the right answer does not sit in the same place question after question, while every index in
the API (`answer`, `choose()`, `check_all()`) keeps meaning the option's place in the list the
author wrote.

Prompts, situations and explanations are written in a small Markdown subset (`code`, **bold**,
*emphasis*) and shown rendered; option labels are plain text in a RadioButtons widget, so their
code spans are shown without the backticks.  A question may carry a `situation`: a short trace or
scene (shown as preformatted text above the prompt) that the learner reads to find what went
wrong or what comes next.

A Quiz registers each of its questions with `mcp_lab.notebook.interactions` as kind "quiz",
under `"<quiz key>/<n>"` (n from 1, as the questions are numbered on screen): running a notebook
never answers a learner's quiz, and a test answers it from outside through the same `choose()`.

Every text of a question (prompt, situation, options, explanations) is shown through the edition's
catalog (`mcp_lab.wire.words._`) at the moment it is shown, while every index keeps meaning the
author's English option: a Portuguese kernel and an English one grade the same answers alike.

Widgets are built on first display or first `choose()`, and `import mcp_lab.quiz` does not import
ipywidgets, so the questions of a notebook can be declared (and checked for consistency) cheaply.
"""

from __future__ import annotations

import html
import random
import re
import zlib
from collections.abc import Iterable, Sequence
from typing import Any

from mcp_lab.wire.words import _

__all__ = ["Question", "Quiz", "markdown_html", "plain_text"]

_RIGHT, _WRONG = "#e6f4ea", "#fce8e6"
PENDING_CLASS = "mcp-lab-pending"  # the same name as interactions.PENDING_CLASS
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_EMPH = re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\((https://[^)\s]+)\)")


def markdown_html(text: str) -> str:
    """The quiz's Markdown subset as HTML: `code`, **bold**, *emphasis*, [links](https://...);
    everything else escaped."""
    parts = _CODE.split(text)  # even indexes: prose; odd: code spans
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(part)}</code>")
        else:
            prose = html.escape(part)
            prose = _BOLD.sub(r"<b>\1</b>", prose)
            prose = _LINK.sub(r'<a href="\2" target="_blank" rel="noopener">\1</a>', prose)
            out.append(_EMPH.sub(r"<i>\1</i>", prose))
    return "".join(out)


def plain_text(text: str) -> str:
    """The same subset as plain text (for option labels, which a RadioButtons shows verbatim)."""
    return _EMPH.sub(r"\1", _BOLD.sub(r"\1", _CODE.sub(r"\1", text)))


def _ipywidgets():
    try:
        import ipywidgets
    except ImportError:  # pragma: no cover - the dev extra installs it
        raise ImportError("mcp_lab.quiz needs ipywidgets: run `make setup` (or pip install ipywidgets)") from None
    return ipywidgets


class Question:
    """One self-check question.

    `answer` is the index of the right option (single choice), or a collection of indexes
    (multi-select: the answer is right only when exactly those options are ticked).
    `explanations[i]` says why option i is right or wrong; every option needs one.
    """

    def __init__(
        self,
        prompt: str,
        options: Sequence[str],
        answer: int | Iterable[int],
        explanations: Sequence[str],
        situation: str | None = None,
    ):
        options = list(options)
        explanations = list(explanations)
        if len(options) < 2:
            raise ValueError(f"a question needs at least two options, got {len(options)}")
        if len(explanations) != len(options):
            raise ValueError(
                f"every option needs an explanation: {len(options)} options, {len(explanations)} explanations"
            )
        if any(not isinstance(e, str) or not e.strip() for e in explanations):
            raise ValueError("an explanation must be a non-empty string")
        self.multi = not isinstance(answer, int)
        right = frozenset([answer] if not self.multi else answer)
        if (
            isinstance(answer, bool)
            or not right
            or any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(options) for i in right)
        ):
            raise ValueError(f"answer must be an option index (0..{len(options) - 1}) or a set of them, got {answer!r}")
        self.prompt = prompt
        self.situation = situation
        self.options = options
        self.explanations = explanations
        self.answer: frozenset[int] = right
        # The order options are shown in: a permutation of the author's indexes, the same on
        # every run (a learner's second visit sees the question as it was).
        self.order: list[int] = list(range(len(options)))
        random.Random(zlib.crc32(prompt.encode("utf-8"))).shuffle(self.order)
        self.chosen: frozenset[int] | None = None  # what was graded last
        self.attempts = 0
        self._feedback = ""
        self._ui = None
        self.interaction = None  # set when a Quiz registers this question

    def fresh(self) -> "Question":
        """The same question, unanswered and with no widget yet (a quiz shown again starts over)."""
        return Question(
            self.prompt,
            self.options,
            sorted(self.answer) if self.multi else min(self.answer),
            self.explanations,
            self.situation,
        )

    # -- grading (no widgets involved) ----------------------------------------------------
    @property
    def correct(self) -> bool | None:
        """None before the first Check; then whether the last graded selection was right."""
        return None if self.chosen is None else self.chosen == self.answer

    @property
    def feedback(self) -> str:
        """The feedback shown under the question, as plain text ('' before answering)."""
        return self._feedback

    def _grade(self, chosen: frozenset[int]) -> None:
        if not chosen:  # Check pressed with nothing selected: a hint, not a wrong answer
            self.chosen, self._feedback = None, _("Pick an option first.")
            self._show(self._feedback, [])
            return
        self.chosen = chosen
        self.attempts += 1
        if self.interaction is not None:
            self.interaction.settle()
        verdict = (
            _("Right.")
            if chosen == self.answer
            else _("Not quite. The right answer is: {answer}.").format(
                answer="; ".join(plain_text(_(self.options[i])) for i in sorted(self.answer))
            )
        )
        lines = []
        for i in self.order:
            opt, why = _(self.options[i]), _(self.explanations[i])
            mark = _("right") if i in self.answer else _("wrong")
            picked = " " + _("(your answer)") if i in chosen else ""
            lines.append((i, f"[{mark}] {plain_text(opt)}{picked}: {plain_text(why)}"))
        self._feedback = "\n".join([verdict] + [t for _i, t in lines])
        self._show(verdict, lines)

    # -- widgets -------------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets box (built on first use)."""
        if self._ui is None:
            self._build()
        return self._ui["box"]

    def _build(self) -> None:
        w = _ipywidgets()
        scene = (
            "<pre style='margin:2px 0;white-space:pre-wrap;word-break:normal;overflow-wrap:break-word'>"
            + html.escape(_(self.situation))
            + "</pre>"
            if self.situation
            else ""
        )
        title = w.HTML(
            scene
            + f"<b>{markdown_html(_(self.prompt))}</b>"
            + (" <i>{}</i>".format(_("(tick every right option)")) if self.multi else "")
        )
        if self.multi:
            # boxes[i] is option i (author's order); the VBox shows them in display order.
            boxes = [
                w.Checkbox(value=False, description=plain_text(_(o)), indent=False, layout=w.Layout(width="auto"))
                for o in self.options
            ]
            picker = w.VBox([boxes[i] for i in self.order])
            read = lambda: frozenset(i for i, b in enumerate(boxes) if b.value)  # noqa: E731
        else:
            boxes = []
            picker = w.RadioButtons(
                options=[(plain_text(_(self.options[i])), i) for i in self.order],
                value=None,
                layout=w.Layout(width="auto"),
            )
            read = lambda: frozenset() if picker.value is None else frozenset([picker.value])  # noqa: E731
        button = w.Button(description=_("Check"), button_style="primary")
        out = w.HTML("")
        button.on_click(lambda _b: self._grade(read()))
        box = w.VBox([title, picker, button, out])
        if self.interaction is not None and self.interaction.widget is None:
            self.interaction.widget = box
            if not self.attempts:
                box.add_class(PENDING_CLASS)
        self._ui = {
            "box": box,
            "picker": picker,
            "boxes": boxes,
            "button": button,
            "out": out,
        }

    def _show(self, verdict: str, lines: list[tuple[int, str]]) -> None:
        if self._ui is None:
            return
        colour = _RIGHT if self.correct else _WRONG
        items = "".join(
            f"<li style='margin:0;padding:1px 2px;line-height:1.35;"
            f"background:{_RIGHT if i in self.answer else '#fff'}'>{self._explained(i)}</li>"
            for i, _text in lines
        )
        self._ui["out"].value = (
            f"<div style='background:{colour};padding:4px'><b>{html.escape(verdict)}</b>"
            f"<ul style='margin:2px 0;padding-left:1.2em'>{items}</ul></div>"
        )

    def _explained(self, i: int) -> str:
        mark = _("right") if i in self.answer else _("wrong")
        picked = " <i>{}</i>".format(_("(your answer)")) if self.chosen and i in self.chosen else ""
        return f"[{mark}] {markdown_html(_(self.options[i]))}{picked}: {markdown_html(_(self.explanations[i]))}"

    def choose(self, choice: int | Iterable[int]) -> bool | None:
        """Select option(s) on the real widget and press its real Check button; returns `correct`."""
        self.widget  # build
        ui = self._ui
        if isinstance(choice, str):
            choice = self._index_of(choice)
        picked = (
            [choice] if isinstance(choice, int) else [self._index_of(c) if isinstance(c, str) else c for c in choice]
        )
        for i in picked:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(self.options):
                raise ValueError(f"option index {i!r} is out of range 0..{len(self.options) - 1}")
        if self.multi:
            for i, box in enumerate(ui["boxes"]):
                box.value = i in picked
        else:
            if len(picked) != 1:
                raise ValueError("this question takes one answer: pass one option index")
            ui["picker"].value = picked[0]
        ui["button"].click()
        return self.correct

    def _index_of(self, text: str) -> int:
        for i, option in enumerate(self.options):
            if text in (option, plain_text(option), _(option), plain_text(_(option))):
                return i
        raise ValueError(f"no option {text!r}; options: {[plain_text(o) for o in self.options]}")

    def reset(self) -> None:
        """Clear the selection and the feedback, as if never answered."""
        self.chosen, self.attempts, self._feedback = None, 0, ""
        if self.interaction is not None and self.interaction.widget is not None:
            self.interaction.widget.add_class(PENDING_CLASS)
        if self._ui is not None:
            if self.multi:
                for box in self._ui["boxes"]:
                    box.value = False
            else:
                self._ui["picker"].value = None
            self._ui["out"].value = ""

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.widget._repr_mimebundle_(include=include, exclude=exclude)

    def __repr__(self) -> str:
        state = "unanswered" if self.correct is None else ("right" if self.correct else "wrong")
        return f"<Question {self.prompt[:40]!r} {len(self.options)} options, {state}>"


class Quiz:
    """A few Questions rendered together, each registered as the interaction `"<key>/<n>"`."""

    def __init__(self, questions: Sequence[Question], title: str = "", *, key: str = "quiz"):
        from mcp_lab.notebook import interactions

        self.questions = list(questions)
        if not self.questions or not all(isinstance(q, Question) for q in self.questions):
            raise TypeError("Quiz takes a non-empty list of mcp_lab.quiz.Question")
        self.title = title
        self.key = key
        self._box = None
        for n, q in enumerate(self.questions, 1):
            q.interaction = interactions.register(
                f"{key}/{n}",
                "quiz",
                is_done=lambda q=q: q.attempts > 0,
                act=q.choose,
                widget=q._ui["box"] if q._ui is not None else None,  # else marked when built
                owner=q,
                solution=next(iter(q.answer)) if not q.multi else set(q.answer),
            )

    def __len__(self) -> int:
        return len(self.questions)

    def __getitem__(self, i: int) -> Question:
        return self.questions[i]

    @property
    def widget(self):
        if self._box is None:
            w = _ipywidgets()
            # The notebook's own heading says "Check yourself"; a title here is only for a quiz
            # shown without one.
            parts: list[Any] = [w.HTML(f"<h3>{html.escape(self.title)}</h3>")] if self.title else []
            for n, q in enumerate(self.questions, 1):
                parts += [w.HTML(f"<b>Q{n}.</b>"), q.widget]
            self._box = w.VBox(parts)
        return self._box

    def check_all(self, answers: Sequence[int | Iterable[int]]) -> list[bool]:
        """Answer every question (one choice per question, in order); a list of verdicts."""
        if len(answers) != len(self.questions):
            raise ValueError(f"{len(self.questions)} questions need {len(self.questions)} answers, got {len(answers)}")
        return [bool(q.choose(a)) for q, a in zip(self.questions, answers)]

    @property
    def score(self) -> int:
        return sum(1 for q in self.questions if q.correct)

    def reset(self) -> None:
        for q in self.questions:
            q.reset()

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.widget._repr_mimebundle_(include=include, exclude=exclude)

    def __repr__(self) -> str:
        return f"<Quiz {self.title!r}: {len(self)} questions, {self.score} right>"
