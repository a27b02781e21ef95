"""Predict, then see; cells shaped like a lesson (issue 36, points 1 to 3).

What a learner sees before committing to a prediction is the notebook's own text: the Goals,
the section the prediction sits in, the prediction's question, and the source of the cells that
reveal it.  None of them may state the answer.  The answers are the facts the tests hold
(`TRUTH` in `tests/lessons/answers/<notebook>.py`; the harness proves at run time that each
prediction's revealed value equals its TRUTH, so a TRUTH cannot rot).

- `test_no_prediction_is_answered_on_screen`: the TRUTH of every prediction appears nowhere in
  that visible text, nor in the two cells right under the reveal (they share the screen with
  the waiting widget; what a cell there prints is held by the Run-All browser test) (as a token: `-32022` is found in "answer -32022." but not in "-320221");
  the question's words (mcp_lab/course/lessons/) are read too, its options aside.
  The MCP wire kernel's `%predict` cells (04b) are read the same way, keyed by cell id, with the
  kernel's own waiting text and help as part of the screen.
- `test_reveal_cells_compute_the_answer`: `.expect(...)` takes a value computed from the
  exchange, never a literal, and no visible cell passes `why=` (the reason lives with the
  question and shows after the verdict).
- `test_no_quiz_key_on_screen`: no visible code cell builds a `Question(...)` (its answer index
  and its "Right: ..." explanations would sit above the widget); quizzes are in the package.
- `test_each_lesson_predicts_and_asks_for_typing`: every lesson 01-17 with a live exchange has a
  prediction and something the learner types or changes that is checked.
- `test_cells_are_shaped_like_a_lesson`: the course's median code cell has at most 5 non-blank
  lines, and no markdown cell holds more than 220 words.
"""

from __future__ import annotations

import ast
import json
import re
import runpy
import statistics
from pathlib import Path

import pytest
from _support import ROOT

from mcp_lab.course import lessons
from mcp_lab.notebook.wire_kernel import _HELP as WIRE_HELP
from mcp_lab.notebook.wire_kernel import PREDICT_FIRST

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
LABS = sorted((ROOT / "labs").glob("*.ipynb"))
ANSWERS = ROOT / "tests" / "lessons" / "answers"
PREDICT = re.compile(r"""predict\(\s*["']([^"']+)["']""")
MAX_WORDS, MAX_MEDIAN = 220, 5
BELOW = 2  # cells under the reveal that share the screen with the waiting prediction
# Lessons with no live exchange (the map, the neighbours) and the glossary; 04b runs on the MCP wire
# kernel, whose predictions are its own `%predict` directive (checked below).
NO_LIVE_EXCHANGE = {"00-start-here", "18-mcp-and-its-neighbours", "glossary"}
WIRE_PREDICT = re.compile(r"^%predict\b", re.M)
TYPING = re.compile(r"your_turn\(|%%rpc|\bcheck\(\d|%predict|check_primitives\(")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def _visible(cell: dict) -> bool:
    return not cell.get("metadata", {}).get("jupyter", {}).get("source_hidden")


def _truth(path: Path) -> dict:
    answers = ANSWERS / f"{path.stem}.py"
    return dict(runpy.run_path(str(answers)).get("TRUTH", {})) if answers.exists() else {}


def _contains(text: str, token: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(token)}(?![\w])", text, re.I) is not None


def _section_start(cells: list[dict], index: int) -> int:
    for i in range(index, -1, -1):
        if cells[i]["cell_type"] == "markdown" and _src(cells[i]).lstrip().startswith("#"):
            return i
    return 0


def _reveal_cells(cells: list[dict], index: int, name: str | None) -> list[dict]:
    """The cells after the prediction, up to the one that calls `<name>.expect(`."""
    found = []
    for cell in cells[index + 1 : index + 8]:
        found.append(cell)
        if name and f"{name}.expect(" in _src(cell):
            break
    return found


def _just_below(cells: list[dict], start: int, window: int = BELOW) -> list[dict]:
    """The cells right under the reveal: on the same screen as the waiting prediction (a 1000-pixel
    window shows the widget and the next few cells), up to the next heading."""
    below = []
    for cell in cells[start : start + window]:
        if cell["cell_type"] == "markdown" and _src(cell).lstrip().startswith("#"):
            break
        below.append(cell)
    return below


def seen_before_commit(path: Path) -> list[tuple[str, str, str]]:
    """(key, truth, text a learner sees before committing) for every prediction in `path`."""
    cells, truth, asks, out = _cells(path), _truth(path), lessons.asks(), []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        for key in PREDICT.findall(_src(cell)):
            name = re.search(rf"(\w+)\s*=\s*(?:mcp_lab\.)?predict\(\s*[\"']{re.escape(key)}", _src(cell))
            shown = [cells[0]] + cells[_section_start(cells, i) : i + 1]
            reveal = _reveal_cells(cells, i, name.group(1) if name else None)
            shown += reveal + _just_below(cells, i + len(reveal) + 1)
            text = "\n".join(_src(c) for c in shown if _visible(c))
            if key in asks:
                text = text.replace(_src(cell), "") + "\n" + asks[key].prompt
            out.append((key, str(truth.get(key, "")), text))
        if WIRE_PREDICT.search(_src(cell)):
            # The MCP wire kernel's own `%predict` (04b): the cell is its own reveal, keyed by its id;
            # before the learner writes a prediction the kernel shows its waiting text and its help.
            # Its two kinds of answer are its options, read aside as an Ask's are: `result` where
            # the text names the choice (in backticks, and in the kernel's own words).
            shown = [cells[0]] + cells[_section_start(cells, i) : i + 1]
            text = "\n".join([*(_src(c) for c in shown if _visible(c)), PREDICT_FIRST, WIRE_HELP])
            text = text.replace("`result`", "").replace("write result", "write").replace("(result,", "(")
            out.append((cell.get("id"), str(truth.get(cell.get("id"), "")), text))
    return out


@pytest.mark.parametrize("path", NOTEBOOKS + LABS, ids=lambda p: p.stem)
def test_no_prediction_is_answered_on_screen(path):
    problems = []
    for key, truth, text in seen_before_commit(path):
        if not truth:
            problems.append(f"{key}: no TRUTH in tests/lessons/answers/{path.stem}.py")
        elif len(truth) >= 2 and _contains(text, truth):
            problems.append(f"{key}: its answer {truth!r} is on screen before the learner commits")
    assert not problems, "\n".join(problems)


def _calls(source: str) -> list[ast.Call]:
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    try:
        tree = ast.parse(python)
    except SyntaxError:
        return []
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


@pytest.mark.parametrize("path", NOTEBOOKS + LABS, ids=lambda p: p.stem)
def test_reveal_cells_compute_the_answer(path):
    problems = []
    for cell in _cells(path):
        if cell["cell_type"] != "code" or not _visible(cell):
            continue
        for call in _calls(_src(cell)):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "expect":
                if call.args and isinstance(call.args[0], ast.Constant):
                    problems.append(f"cell {cell.get('id')}: expect({call.args[0].value!r}) states the answer")
                if any(k.arg == "why" for k in call.keywords):
                    problems.append(f"cell {cell.get('id')}: why= on screen (put the reason in the Ask)")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS + LABS, ids=lambda p: p.stem)
def test_no_quiz_key_on_screen(path):
    shown = [c.get("id") for c in _cells(path) if c["cell_type"] == "code" and "Question(" in _src(c)]
    assert not shown, f"cells {shown} build Question(...) on screen: move them to mcp_lab/course/lessons/"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem not in NO_LIVE_EXCHANGE], ids=lambda p: p.stem)
def test_each_lesson_predicts_and_asks_for_typing(path):
    code = [_src(c) for c in _cells(path) if c["cell_type"] == "code"]
    predictions = sum(len(PREDICT.findall(s)) + s.count("%predict") for s in code)
    assert predictions >= 1, "no prediction: put one where a learner could plausibly guess wrong"
    assert any(TYPING.search(s) for s in code), "nothing for the learner to type or change, and check"


def code_lines(path: Path) -> list[int]:
    return [sum(1 for line in _src(c).splitlines() if line.strip()) for c in _cells(path) if c["cell_type"] == "code"]


def test_cells_are_shaped_like_a_lesson():
    lines = [n for path in NOTEBOOKS + LABS for n in code_lines(path)]
    median = statistics.median(lines)
    per = {p.stem: statistics.median(code_lines(p)) for p in NOTEBOOKS + LABS if code_lines(p)}
    worst = sorted(per.items(), key=lambda kv: -kv[1])[:5]
    assert median <= MAX_MEDIAN, f"median code cell {median} lines (at most {MAX_MEDIAN}); longest medians: {worst}"


@pytest.mark.parametrize("path", NOTEBOOKS + LABS, ids=lambda p: p.stem)
def test_no_markdown_cell_over_220_words(path):
    long = [
        f"cell {c.get('id')}: {len(_src(c).split())} words"
        for c in _cells(path)
        if c["cell_type"] == "markdown" and len(_src(c).split()) > MAX_WORDS
    ]
    assert not long, "split at the natural joints, with evidence between:\n" + "\n".join(long)


def test_prediction_and_task_keys_are_unique_across_the_course():
    seen: dict[str, str] = {}
    twice = []
    for module in lessons._modules():
        for key in [*getattr(module, "ASKS", {}), *getattr(module, "TASKS", {})]:
            if key in seen:
                twice.append(f"{key} ({seen[key]} and {module.__name__})")
            seen[key] = module.__name__
    assert not twice, "keys used twice: " + ", ".join(twice)


def test_the_spoiler_reader_catches_a_spoiled_prediction(tmp_path):
    """The checker is shown catching the defect it exists for: a reveal cell that states the answer."""
    nb = {
        "cells": [
            {"cell_type": "markdown", "id": "g", "metadata": {}, "source": ["# Goals"]},
            {"cell_type": "markdown", "id": "h", "metadata": {}, "source": ["## A section\nIt MUST answer -32022."]},
            {
                "cell_type": "code",
                "id": "p",
                "metadata": {},
                "source": ['guess = mcp_lab.predict("k", "?", ["a", "b"])'],
            },
            {"cell_type": "code", "id": "r", "metadata": {}, "source": ['guess.expect("-32022", why="x")']},
        ]
    }
    path = tmp_path / "99-fixture.ipynb"
    path.write_text(json.dumps(nb))
    [(key, _, text)] = seen_before_commit(path)
    assert key == "k" and _contains(text, "-32022") and not _contains(text, "-3202")
    with pytest.raises(AssertionError, match="states the answer"):
        test_reveal_cells_compute_the_answer(path)


def test_the_spoiler_reader_catches_a_wire_kernel_prediction_answered_above(tmp_path):
    """A `%predict` cell whose section says the answer (04b's intro once gave `%predict -32602` as
    its example, prediction 3's answer) is caught; so is the kernel's waiting text."""
    nb = {
        "cells": [
            {"cell_type": "markdown", "id": "g", "metadata": {}, "source": ["# Goals"]},
            {"cell_type": "markdown", "id": "h", "metadata": {}, "source": ["## Predict\n(e.g. `%predict -32602`)"]},
            {"cell_type": "code", "id": "p", "metadata": {}, "source": ['%predict\n{"jsonrpc": "2.0"}']},
        ]
    }
    path = tmp_path / "99-fixture.ipynb"
    path.write_text(json.dumps(nb))
    [(key, _, text)] = seen_before_commit(path)
    assert key == "p" and _contains(text, "-32602") and "Predict first" in text
