"""The labs from one source: `make labs` writes each lab's student version and its solution.

    python -m mcp_lab.course.generate            # write labs/<lab>.ipynb, labs/<lab>/, labs/solutions/...
    python -m mcp_lab.course.generate --check    # exit 1, naming the files, when what is committed differs
    python -m mcp_lab.course.generate --nbgrader-course DIR   # an nbgrader course folder for a teacher

Theory of operation.  Each lab is authored once, in nbgrader's course layout, under
`labs/source/<lab>/`: the notebook `<lab>.ipynb` and a folder `<lab>/` with the files the
notebook opens (a server, a catalog).  The answer is written inside solution regions, the
markers nbgrader uses (`### BEGIN SOLUTION` ... `### END SOLUTION`); the cells carry nbgrader's
own metadata (`metadata.nbgrader`, schema version 3: the learner's cells are solution cells, the
check cell is a locked, graded "autograder test" cell).  So a teacher can hand `labs/source/`
to `nbgrader generate_assignment` and `nbgrader autograde` unchanged, and this module gives the
self-paced learner the same two versions without a gradebook:

* the student version: nbgrader's own `ClearSolutions` (with the stub `# YOUR CODE HERE`, so
  the template still runs to its check) and `ClearOutput` on the notebook; for the files beside
  it, the same markers handled by `student_text()` below, since nbgrader only clears notebooks;
* the solution: the markers' lines removed, the check cell's `raises-exception` tag dropped (a
  solution's check must pass: tests/test_labs_rerun.py executes it).

A server file's template must still *run*, because the lab's first lesson is the failure its
check shows (lab 10's lost write), so a solution region in a file may be preceded by its
student code between `### BEGIN STUB` and `### END STUB`: that code replaces the region in the
student version and is dropped from the solution.  A region without a stub becomes nbgrader's
default stub, `# YOUR CODE HERE` and `raise NotImplementedError()`.

nbgrader copies the files beside a notebook into the release as they are, so a teacher's course
folder (`--nbgrader-course DIR`) gets each source notebook with the *student* version of those
files, and an `nbgrader_config.py` with the same notebook stub and a per-cell deadline long
enough for a check that starts real servers.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "LABS",
    "student_text",
    "solution_text",
    "student_notebook",
    "solution_notebook",
    "render",
    "stale",
    "nbgrader_course",
    "main",
]

LABS = Path(__file__).resolve().parents[2] / "labs"
NOTEBOOK_STUB = "# YOUR CODE HERE"
FILE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_STUB, END_STUB = "### BEGIN STUB", "### END STUB"
_MARKER = re.compile(r"^\s*###\s+(BEGIN|END)\s+(SOLUTION|STUB)\s*$")


class SourceError(ValueError):
    """A lab source whose markers do not pair up; the message names the file and line."""


def _regions(text: str, where: str) -> list[tuple[str, list[str], list[str]]]:
    """Split a text into ("text", lines) / ("region", stub_lines, solution_lines) pieces."""
    pieces: list[tuple[str, list[str], list[str]]] = []
    stub: list[str] | None = None
    state, buf = "text", []
    for n, line in enumerate(text.split("\n"), 1):
        marker = line.strip()
        if marker == BEGIN_STUB and state == "text":
            pieces.append(("text", buf, []))
            state, buf = "stub", []
        elif marker == END_STUB and state == "stub":
            stub, state, buf = buf, "between", []
        elif marker == BEGIN and state in ("text", "between"):
            if state == "text":
                pieces.append(("text", buf, []))
            state, buf = "solution", []
            indent = line[: len(line) - len(line.lstrip())]
            if stub is None:
                stub = [indent + s for s in FILE_STUB.split("\n")]
        elif marker == END and state == "solution":
            pieces.append(("region", stub or [], buf))
            stub, state, buf = None, "text", []
        elif _MARKER.match(line):
            raise SourceError(f"{where}:{n}: {marker!r} out of order (after {state})")
        elif state == "between":
            raise SourceError(f"{where}:{n}: a stub must be followed directly by {BEGIN!r}")
        else:
            buf.append(line)
    if state != "text":
        raise SourceError(f"{where}: the file ends inside a {state} region")
    pieces.append(("text", buf, []))
    return pieces


def student_text(text: str, where: str = "<text>") -> str:
    """The file a learner starts from: each solution region replaced by its stub."""
    out: list[str] = []
    for kind, a, b in _regions(text, where):
        out += a
    return "\n".join(out)


def solution_text(text: str, where: str = "<text>") -> str:
    """The solution file: the source without its markers and stubs."""
    out: list[str] = []
    for kind, a, b in _regions(text, where):
        out += b if kind == "region" else a
    return "\n".join(out)


def student_notebook(nb: Any) -> Any:
    """nbgrader's ClearSolutions (stub: `# YOUR CODE HERE`) and ClearOutput."""
    from nbgrader.preprocessors import ClearOutput, ClearSolutions

    nb = copy.deepcopy(nb)
    nb, _ = ClearSolutions(code_stub={"python": NOTEBOOK_STUB}).preprocess(nb, {})
    nb, _ = ClearOutput().preprocess(nb, {})
    return nb


def solution_notebook(nb: Any) -> Any:
    """The source without its markers; the check cell must pass here, so it loses raises-exception."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = "\n".join(line for line in cell.source.split("\n") if not _MARKER.match(line))
            cell.outputs, cell.execution_count = [], None
        tags = cell.metadata.get("tags")
        if tags and "raises-exception" in tags:
            cell.metadata.tags = [t for t in tags if t != "raises-exception"]
    return nb


def render(labs: Path = LABS) -> dict[Path, bytes]:
    """Every generated file, by path, from labs/source/."""
    import nbformat

    out: dict[Path, bytes] = {}
    for src in sorted(p for p in (labs / "source").iterdir() if p.is_dir()):
        lab = src.name
        nb = nbformat.read(src / f"{lab}.ipynb", as_version=4)
        for target, version in ((labs, student_notebook(nb)), (labs / "solutions", solution_notebook(nb))):
            out[target / f"{lab}.ipynb"] = (nbformat.writes(version) + "\n").encode()
        for f in sorted(p for p in (src / lab).rglob("*") if p.is_file()) if (src / lab).is_dir() else []:
            rel = f.relative_to(src)
            if f.suffix == ".py":
                text = f.read_text(encoding="utf-8")
                out[labs / rel] = student_text(text, str(f)).encode()
                out[labs / "solutions" / rel] = solution_text(text, str(f)).encode()
            else:
                out[labs / rel] = out[labs / "solutions" / rel] = f.read_bytes()
    return out


NBGRADER_CONFIG = """\
# nbgrader configuration for the mcp_lab labs (written by `python -m mcp_lab.course.generate --nbgrader-course`).
c = get_config()  # noqa: F821 - provided by nbgrader when it reads this file
c.CourseDirectory.course_id = "mcp_lab"
# The learner's cells keep running to the check: the stub is a comment, not a raise.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE"}
# A check starts real server processes; give each cell room (seconds).
c.Execute.timeout = 180
# The learner's work includes the server files beside the notebook: grade the learner's copy,
# not the release's (autograde otherwise restores every non-notebook file from source/).
c.Autograde.exclude_overwriting = {exclude!r}
# What a check's run leaves beside the notebook (the calendar's database and its key) is the
# grading run's, not the learner's: never copied into feedback or between folders.
c.CourseDirectory.ignore = [
    ".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback",
    "*.sqlite3", "*.sqlite3-wal", "*.sqlite3-shm", "*.sqlite3-journal", "*.key",
]
"""


def nbgrader_course(course: Path, labs: Path = LABS) -> list[str]:
    """Write an nbgrader course folder (source/<lab>/ and nbgrader_config.py); return the lab names."""
    names: list[str] = []
    edited: dict[str, list[str]] = {}
    for src in sorted(p for p in (labs / "source").iterdir() if p.is_dir()):
        lab = src.name
        dest = course / "source" / lab
        dest.mkdir(parents=True, exist_ok=True)
        (dest / f"{lab}.ipynb").write_bytes((src / f"{lab}.ipynb").read_bytes())
        for f in sorted(p for p in (src / lab).rglob("*") if p.is_file()) if (src / lab).is_dir() else []:
            out = dest / f.relative_to(src)
            out.parent.mkdir(parents=True, exist_ok=True)
            if f.suffix == ".py":
                out.write_text(student_text(f.read_text(encoding="utf-8"), str(f)), encoding="utf-8")
                edited.setdefault(lab, []).append(f.relative_to(src).as_posix())
            else:
                out.write_bytes(f.read_bytes())
        names.append(lab)
    config = NBGRADER_CONFIG.replace("{exclude!r}", repr(edited))
    (course / "nbgrader_config.py").write_text(config, encoding="utf-8")
    return names


def stale(labs: Path = LABS) -> list[Path]:
    """The generated files whose committed copy differs from what the source gives."""
    return [p for p, data in render(labs).items() if not p.is_file() or p.read_bytes() != data]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcp_lab.course.generate", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when a file differs")
    parser.add_argument("--labs", type=Path, default=LABS, help="the labs folder (default: the repository's)")
    parser.add_argument(
        "--nbgrader-course",
        type=Path,
        metavar="DIR",
        help="write an nbgrader course folder (source/, nbgrader_config.py) into DIR",
    )
    args = parser.parse_args(argv)
    try:
        if args.nbgrader_course:
            for lab in nbgrader_course(args.nbgrader_course, args.labs):
                print(f"wrote {args.nbgrader_course / 'source' / lab}")
            return 0
        if args.check:
            differ = stale(args.labs)
            for p in differ:
                print(f"out of date: {p.relative_to(args.labs.parent)} (run `make labs`)", file=sys.stderr)
            return 1 if differ else 0
        for path, data in render(args.labs).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.is_file() or path.read_bytes() != data:
                path.write_bytes(data)
                print(f"wrote {path.relative_to(args.labs.parent)}")
    except SourceError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
