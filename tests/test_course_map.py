"""The course map is one list in two places (README, notebook 00): they must agree with the disk."""

import json
import re
from pathlib import Path

from _support import ROOT

from mcp_lab.course import lessons


def _readme_map() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Course map", 1)[1]
    return re.findall(r"^\| \d+ \| `([^`]+\.ipynb)` \|", section, flags=re.M)


def _notebook_map() -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    return re.findall(r'^\s*\("((?:notebooks|labs)/[^"]+\.ipynb)"', src, flags=re.M)


def test_the_portuguese_readme_maps_the_same_course_with_the_same_minutes():
    """README.pt-BR.md's map: the same steps in the same order, each the Portuguese copy, each
    with the English map's minutes."""
    row = re.compile(r"^\| \d+ \| `([^`]+\.ipynb)` \| .* \| (\d+) \|$", re.M)
    english = row.findall((ROOT / "README.md").read_text().split("## Course map", 1)[1])
    portuguese = row.findall((ROOT / "README.pt-BR.md").read_text())
    assert english and [(p.replace("/pt-BR/", "/", 1), m) for p, m in portuguese] == english
    assert all((ROOT / p).is_file() for p, _ in portuguese)


def test_readme_and_start_here_list_the_same_course_in_the_same_order():
    readme, notebook = _readme_map(), _notebook_map()
    assert readme, "README.md has no course map table"
    assert readme == notebook


# Reference pages sit beside the map, not in it: no place in the order, no time, no quiz. Each
# must be linked from notebook 00 and the README (tests/test_glossary.py checks the glossary's).
REFERENCE = {"notebooks/glossary.ipynb"}


def test_every_notebook_and_lab_on_disk_is_on_the_map_and_vice_versa():
    on_disk = {
        p.relative_to(ROOT).as_posix() for folder in ("notebooks", "labs") for p in (ROOT / folder).glob("*.ipynb")
    }
    assert set(_readme_map()) == on_disk - REFERENCE
    for page in REFERENCE:
        assert (ROOT / page).is_file(), f"the reference page {page} is missing"
        assert page not in _readme_map(), f"{page} is a reference page, not a step of the map"


# The wire-kernel notebook runs no Python, so it cannot render quiz widgets; its last cells
# are messages whose answers the learner predicts and the tests check.  Labs end with their
# graded check cell instead of a quiz.
NO_QUIZ = {"notebooks/04b-wire-kernel.ipynb": "the MCP wire kernel has no Python to render widgets"}


def _notebooks():
    return sorted(
        p.relative_to(ROOT).as_posix()
        for folder in ("notebooks", "labs", "labs/solutions")
        for p in (ROOT / folder).glob("*.ipynb")
        if p.relative_to(ROOT).as_posix() not in REFERENCE
    )


TIME = re.compile(r"\*\*Time\.\*\* About (\d+) minutes\.")

# The rule of thumb notebook 00 states lives in mcp_lab/course/times.py (which can also rewrite
# the headers, the README's map and notebook 00's list: `python -m mcp_lab.course.times --write`).
from mcp_lab.course.times import WORDS_PER_MINUTE, rule_of_thumb_minutes  # noqa: E402


def test_every_notebooks_time_follows_the_rule_of_thumb_stated_in_00():
    start = "".join(
        "".join(c["source"]) for c in json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())["cells"]
    )
    assert f"{WORDS_PER_MINUTE} words a minute" in start, "notebook 00 should state the rule of thumb for times"
    assert "half a minute per code cell" in start, "notebook 00 should state the minutes per code cell (times.py)"
    for path in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        nb = json.loads(path.read_text())
        stated = TIME.search("".join(nb["cells"][0]["source"]))
        assert stated, f"{path.name}: no '**Time.** About N minutes.' line in the first cell"
        assert int(stated.group(1)) == rule_of_thumb_minutes(nb), (
            f"{path.name} says {stated.group(1)} minutes; the rule of thumb gives {rule_of_thumb_minutes(nb)} "
            "(python -m mcp_lab.course.times --write updates every place that states it)"
        )


def _readme_minutes() -> dict[str, int]:
    section = (ROOT / "README.md").read_text().split("## Course map", 1)[1]
    return {p: int(m) for p, m in re.findall(r"^\| \d+ \| `([^`]+\.ipynb)` \|.*\| (\d+) \|$", section, flags=re.M)}


def test_every_notebook_opens_with_goals_prerequisites_and_the_time_the_map_gives():
    minutes = _readme_minutes()
    assert minutes, "no minutes column found in the README course map"
    for path in _notebooks():
        first = "".join(json.loads((ROOT / path).read_text())["cells"][0]["source"])
        assert "**Goal" in first and "**Prerequisite" in first, f"{path}: no goals or prerequisites in the first cell"
        m = TIME.search(first)
        assert m, f"{path}: the first cell has no '**Time.** About N minutes.' line"
        mapped = path.replace("labs/solutions/", "labs/")  # a solution takes its lab's time
        assert int(m.group(1)) == minutes[mapped], f"{path} says {m.group(1)} minutes, the course map {minutes[mapped]}"


def test_the_readme_total_is_the_sum_of_the_map():
    total = sum(_readme_minutes().values())
    section = (ROOT / "README.md").read_text().split("## Course map", 1)[1]
    assert f"({total} minutes)" in section, f"the README's total should say {total} minutes"


def test_every_lesson_ends_with_self_check_questions_the_harness_answers():
    """The quiz waits for the learner: it is keyed, so the lesson harness (tests/lessons/)
    answers it from outside, and no cell of the lesson answers it from code."""
    for path in _notebooks():
        if not path.startswith("notebooks/") or path in NO_QUIZ:
            continue
        cells = ["".join(c["source"]) for c in json.loads((ROOT / path).read_text())["cells"]]
        stem = Path(path).stem.split("-")[0]
        quiz_at = [i for i, src in enumerate(cells) if f'self_check("{stem}")' in src]
        assert quiz_at, f"{path}: no self-check questions (mcp_lab.self_check({stem!r}))"
        shown = lessons.self_check(stem)  # keyed, so the harness answers it from outside
        assert shown.key == "quiz" and len(shown) >= 3, (
            f"{path}: the quiz is keyed 'quiz' and asks three questions or more"
        )
        assert not any("check_all(" in src for src in cells), (
            f"{path}: a cell answers the quiz from code; the tests answer it from outside the notebook"
        )
        assert len(cells) - quiz_at[-1] <= 6, f"{path}: the self-check should come at the end"


def test_start_here_gives_the_same_minutes_as_the_readme():
    nb = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    in_00 = {
        p: int(m)
        for p, m in re.findall(r'^\s*\("((?:notebooks|labs)/[^"]+\.ipynb)",\s*"[^"]*",\s*(\d+)\)', src, flags=re.M)
    }
    assert in_00 == _readme_minutes()


# Each step's closing "Next:" names the step after it on the map (the last step names none); a
# lab's solution says the same as its template.
NEXT_CHECKED = ("notebooks", "labs")
NEXT = re.compile(r"Next: \*\*[^*]+\*\* \(`([^`]+\.ipynb)`\)")


def test_every_next_pointer_names_the_next_step_on_the_map():
    order = _readme_map()
    wrong = []
    for i, path in enumerate(order):
        for folder in NEXT_CHECKED:
            if not path.startswith(folder + "/"):
                continue
            copies = [ROOT / path] + ([ROOT / path.replace("labs/", "labs/solutions/", 1)] if folder == "labs" else [])
            cells = [c for copy in copies if copy.is_file() for c in json.loads(copy.read_text())["cells"]]
            pointers = sorted({m.group(1) for c in cells for m in NEXT.finditer("".join(c["source"]))})
            expected = order[i + 1] if i + 1 < len(order) else None
            if expected is None:
                if pointers:
                    wrong.append(f"{path}: the last step points to {pointers}")
            elif pointers != [expected]:
                wrong.append(f"{path}: 'Next:' should name {expected}, names {pointers or 'nothing'}")
    assert not wrong, "\n".join(wrong)
