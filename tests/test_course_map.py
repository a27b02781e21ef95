"""The course map is one list in two places (README, notebook 00): they must agree with the disk."""

import json
import re

from support import ROOT


def _readme_map() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Course map", 1)[1]
    return re.findall(r"^\| \d+ \| `([^`]+\.ipynb)` \|", section, flags=re.M)


def _notebook_map() -> list[str]:
    nb = json.loads((ROOT / "notebooks" / "00-start-here.ipynb").read_text())
    src = next("".join(c["source"]) for c in nb["cells"] if "COURSE = [" in "".join(c["source"]))
    return re.findall(r'^\s*\("((?:notebooks|labs)/[^"]+\.ipynb)"', src, flags=re.M)


def test_readme_and_start_here_list_the_same_course_in_the_same_order():
    readme, notebook = _readme_map(), _notebook_map()
    assert readme, "README.md has no course map table"
    assert readme == notebook


def test_every_notebook_and_lab_on_disk_is_on_the_map_and_vice_versa():
    on_disk = {p.relative_to(ROOT).as_posix() for folder in ("notebooks", "labs")
               for p in (ROOT / folder).glob("*.ipynb")}
    assert set(_readme_map()) == on_disk


# The wire-kernel notebook runs no Python, so it cannot render quiz widgets; its last cells
# are messages whose answers the learner predicts and the tests check.  Labs end with their
# graded check cell instead of a quiz.
NO_QUIZ = {"notebooks/06b-wire-kernel.ipynb": "the MCP wire kernel has no Python to render widgets"}


def _notebooks():
    return sorted(p.relative_to(ROOT).as_posix() for folder in ("notebooks", "labs", "labs/solutions")
                  for p in (ROOT / folder).glob("*.ipynb"))


def test_every_notebook_opens_with_goals_prerequisites_and_time():
    for path in _notebooks():
        first = "".join(json.loads((ROOT / path).read_text())["cells"][0]["source"]).lower()
        missing = [w for w in ("goal", "prerequisite", "time") if w not in first]
        assert not missing, f"{path}: the first cell does not state its {', '.join(missing)}"


def test_every_lesson_ends_with_self_check_questions_answered_from_code():
    for path in _notebooks():
        if not path.startswith("notebooks/") or path in NO_QUIZ:
            continue
        cells = ["".join(c["source"]) for c in json.loads((ROOT / path).read_text())["cells"]]
        quiz_at = [i for i, src in enumerate(cells) if "from mcp_lab.quiz import" in src]
        assert quiz_at, f"{path}: no self-check questions (mcp_lab.quiz)"
        assert any("check_all(" in src for src in cells[quiz_at[-1]:]), \
            f"{path}: the quiz is not answered from code, so the tests cannot prove it grades right"
        assert len(cells) - quiz_at[-1] <= 6, f"{path}: the self-check should come at the end"
