"""`python -m mcp_lab.course.reset <lab>`: a lab back to its template in a learner's own copy.

The hub's homes are not git checkouts, so the labs' reset instruction there is this command;
tests/test_hub.py runs it from a learner's kernel on the hub.  Here: what it copies, what it
removes, and its one-line refusals.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mcp_lab.course import reset

LAB = "10-fix-the-calendar"


def test_reset_brings_back_the_template_and_drops_a_runs_database(tmp_path: Path) -> None:
    labs = tmp_path / "labs"
    (labs / LAB).mkdir(parents=True)
    (labs / f"{LAB}.ipynb").write_text("{}", encoding="utf-8")
    (labs / LAB / "calendar_server.py").write_text("# my edits\n", encoding="utf-8")
    (labs / LAB / "calendar.sqlite3").write_bytes(b"rows")
    (labs / LAB / "calendar.sqlite3.key").write_bytes(b"key")
    written = reset.reset(LAB, labs)
    assert written == [labs / f"{LAB}.ipynb", labs / LAB]
    assert (labs / f"{LAB}.ipynb").read_bytes() == (reset.LABS / f"{LAB}.ipynb").read_bytes()
    template = reset.LABS / LAB / "calendar_server.py"
    assert (labs / LAB / "calendar_server.py").read_bytes() == template.read_bytes()
    assert sorted(p.name for p in (labs / LAB).iterdir()) == sorted(
        p.name for p in (reset.LABS / LAB).iterdir() if p.suffix not in (".sqlite3", ".key")
    )


def test_reset_refuses_in_one_line(tmp_path: Path) -> None:
    for args, says in (
        (["no-such-lab", "--into", str(tmp_path)], "no lab called 'no-such-lab'; the labs are: 05-requests-by-hand"),
        ([LAB, "--into", str(reset.LABS)], "holds the templates themselves; in a git checkout use `git checkout"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "mcp_lab.course.reset", *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_reset_of_a_portuguese_lab_stays_in_its_edition(tmp_path: Path) -> None:
    labs = tmp_path / "labs"
    written = reset.reset(f"pt-BR/{LAB}", labs)
    assert written == [labs / "pt-BR" / f"{LAB}.ipynb", labs / "pt-BR" / LAB]
    assert not (labs / f"{LAB}.ipynb").exists(), "the English lab is left alone"
    template = reset.LABS / "pt-BR" / LAB / "calendar_server.py"
    assert (labs / "pt-BR" / LAB / "calendar_server.py").read_bytes() == template.read_bytes()
