"""A teacher grades the labs with nbgrader: full marks for the solution, zero for the untouched lab.

The teacher's steps (README, "Grading the labs with nbgrader"), run for real with the `teach`
extra's nbgrader 0.9.6 in a temporary course folder:

1. `python -m mcp_lab.course.generate --nbgrader-course DIR` writes DIR/source/<lab>/ and
   DIR/nbgrader_config.py;
2. `nbgrader generate_assignment "*"` (every lab; a teacher may name one) writes DIR/release/<lab>/
   (nbgrader's own ClearSolutions, checksums and locked cells) and records each lab in DIR/gradebook.db;
3. two learners hand in: "untouched" hands back the release as it is; "solved" hands in the
   lab's solution (labs/solutions/<lab>.ipynb and the files beside it), under
   DIR/submitted/<learner>/<lab>/;
4. `nbgrader autograde "*" --create` executes each submission and scores its graded cell
   (the lab's check), and the gradebook must say: solved = max score, untouched = 0.

nbgrader runs `alembic` (its database migrations) as a program, so the venv's bin folder goes
first on PATH, as it is for a teacher with the venv activated.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _support import ROOT

from mcp_lab.course import generate

SOLUTIONS = ROOT / "labs" / "solutions"
BIN = Path(sys.executable).parent

try:
    import nbgrader  # noqa: F401 - the teach extra
except ImportError:  # pragma: no cover - `make test` installs the teach extra
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        "nbgrader is not installed: `pip install -e '.[teach]'` (make test installs it)", allow_module_level=True
    )


def nbgrader(course: Path, *args: str, timeout: float = 600) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"nbgrader {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}"
    return done.stderr


def test_autograde_gives_the_solution_full_marks_and_the_untouched_lab_zero(tmp_path):
    from nbgrader.api import Gradebook

    course = tmp_path / "course"
    labs = generate.nbgrader_course(course)
    assert labs == ["05-requests-by-hand", "08-ask-the-person", "10-fix-the-calendar", "12-token-budget"], labs
    nbgrader(course, "generate_assignment", "*")  # every lab at once: one nbgrader start, not one per lab
    for lab in labs:
        release = course / "release" / lab
        release_text = "\n".join(
            p.read_text(encoding="utf-8") for p in release.rglob("*") if p.suffix in (".py", ".ipynb")
        )
        assert f"{lab}.ipynb" in {p.name for p in release.iterdir()}, f"{lab}: no release written"
        assert "### BEGIN SOLUTION" not in release_text and "### BEGIN STUB" not in release_text, (
            f"{lab}: the release must hold the student version only"
        )
        shutil.copytree(release, course / "submitted" / "untouched" / lab)
        solved = course / "submitted" / "solved" / lab
        solved.mkdir(parents=True)
        shutil.copy(SOLUTIONS / f"{lab}.ipynb", solved / f"{lab}.ipynb")
        if (SOLUTIONS / lab).is_dir():
            shutil.copytree(SOLUTIONS / lab, solved / lab, ignore=shutil.ignore_patterns("*.sqlite3*", "__pycache__"))
    graded = nbgrader(course, "autograde", "*", "--create")
    assert "cannot be converted to" not in graded, "nbgrader read a check's output as a score"
    nbgrader(course, "generate_feedback", "*")
    left = [p.name for p in (course / "feedback").rglob("*") if p.suffix in (".sqlite3", ".key")]
    assert not left, f"the feedback carries files the grading run made: {left}"

    scores = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for lab in labs:
            for learner in ("solved", "untouched"):
                sub = gb.find_submission(lab, learner)
                scores[(lab, learner)] = (sub.score, sub.max_score)
    for lab in labs:
        score, top = scores[(lab, "solved")]
        assert top > 0 and score == top, f"{lab}: the solution scored {score} of {top}; every check should pass"
        score, top = scores[(lab, "untouched")]
        assert score == 0, f"{lab}: the untouched lab scored {score} of {top}; its check should fail"
