"""What a lesson asks the learner, kept out of the notebook: predictions, typed tasks, quizzes.

    guess = mcp_lab.predict("version-mismatch")        # the question and options come from here
    with guess.reveal():
        old = cal.request("tools/list", {"_meta": asked})
    guess.expect(old.code)                             # the verdict is what crossed the wire

    mcp_lab.your_turn("follow-the-cursor", my_cursor)  # a typed task: waits, judges, hints
    mcp_lab.self_check("06")                           # the notebook's quiz

Theory of operation
-------------------
Predict, then see: nothing on the learner's screen may answer a prediction or a quiz before the
learner commits.  A notebook cell that held `expect("-32022", why="...")` or a `Question(...)`
with its answer index showed the answer in its own source.  So the words of each question live
in one module per lesson (`n02.py` for notebook 02, `lab05.py` for lab 05):

- `ASKS = {key: Ask(prompt, options, why)}`: a prediction's question, its options (or
  `kind=int` / `kind=str` for a typed prediction) and the reason shown after the verdict.  The
  answer is not written anywhere in the package: the reveal cell computes it from the real
  exchange (`guess.expect(old.code)`), and the tests hold the truth it must equal
  (`TRUTH` in `tests/lessons/answers/<notebook>.py`).
- `TASKS = {key: Task(judge, hint)}`: something the learner types or changes.  `judge(value)`
  returns None when the value does the job, else one sentence saying what is still wrong.
- `QUESTIONS = [Question(...), ...]`: the self-check questions (`mcp_lab.notebook.quiz`), plain
  data; each showing gets fresh copies (`Question.fresh()`), so a quiz run again starts over.
  (A module may instead define `quiz()`, returning its Quiz.)

Keys are unique across the whole course (a test holds it), so `predict(key)` and
`your_turn(key, ...)` need no lesson number.  Lesson modules are plain data and small functions;
they are imported the first time a key is looked up.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_lab.wire.words import N_, _

__all__ = ["Ask", "Task", "asks", "predict", "self_check", "tasks", "your_turn"]


@dataclass(frozen=True)
class Ask:
    """A prediction's words: the question, the options (or a typed kind), and the reason."""

    prompt: str
    options: Sequence[str] | None = None
    why: str = ""
    kind: type | None = None


@dataclass(frozen=True)
class Task:
    """Something the learner types or changes: `judge(value)` -> None when right, else why not."""

    judge: Callable[[Any], str | None]
    hint: str
    prompt: str = ""
    done: str = N_("done.")
    extra: dict = field(default_factory=dict)


def _modules() -> list[Any]:
    here = importlib.import_module(__name__)
    return [
        importlib.import_module(f"{__name__}.{m.name}")
        for m in pkgutil.iter_modules(here.__path__)
        if not m.name.startswith("_")
    ]


def asks() -> dict[str, Ask]:
    """Every prediction of the course, by key."""
    return {k: v for mod in _modules() for k, v in getattr(mod, "ASKS", {}).items()}


def tasks() -> dict[str, Task]:
    """Every typed task of the course, by key."""
    return {k: v for mod in _modules() for k, v in getattr(mod, "TASKS", {}).items()}


def predict(key: str, prompt: str | None = None, options: Sequence[str] | None = None, *, kind: type | None = None):
    """The prediction `key`: its words from the lesson's module (or given here, as before)."""
    from mcp_lab.notebook.predict import Prediction

    if prompt is None:
        try:
            ask = asks()[key]
        except KeyError:
            raise KeyError(f"no prediction {key!r} in mcp_lab/course/lessons/ (give it an Ask there)") from None
        return Prediction(key, ask.prompt, ask.options, kind=ask.kind, why=ask.why)
    return Prediction(key, prompt, options, kind=kind)


def self_check(lesson: str):
    """The self-check quiz of notebook `lesson` ("02", "13", ...), shown as widgets."""
    try:
        module = importlib.import_module(f"{__name__}.n{lesson}")
    except ModuleNotFoundError:
        raise ValueError(f"notebook {lesson!r} has no self-check questions in mcp_lab/course/lessons/") from None
    if hasattr(module, "QUESTIONS"):
        from mcp_lab.notebook.quiz import Quiz

        return Quiz([q.fresh() for q in module.QUESTIONS], key="quiz")
    return module.quiz()


def your_turn(key: str, value: Any = ...) -> None:
    """Judge what the learner typed for task `key`.

    `...` (the cell as the lesson gives it) waits: one line says what to do, nothing fails, and
    Run All goes on.  A value that does the job prints one line; one that does not raises
    `NotYet`, shown as one sentence and a hint.  Registers the interaction `key` (kind "task"),
    which a test answers from outside with the value a learner would type.
    """
    from mcp_lab.course.challenges import NotYet
    from mcp_lab.notebook import interactions

    try:
        task = tasks()[key]
    except KeyError:
        raise KeyError(f"no task {key!r} in mcp_lab/course/lessons/") from None
    solved = _SOLVED.get(key, False)

    def act(answer: Any) -> None:
        reason = task.judge(answer)
        if reason is not None:
            raise NotYet(key, reason, task.hint)
        _SOLVED[key] = True

    interactions.register(key, "task", is_done=lambda: _SOLVED.get(key, False), act=act)
    if value is ...:
        if not solved:
            what = _(task.prompt) if task.prompt else _("Change the cell above, run it, then this one.")
            print(_("{key}: waiting for you. {what}").format(key=key, what=what))
        return
    act(value)
    print(f"{key}: {_(task.done)}")


_SOLVED: dict[str, bool] = {}
