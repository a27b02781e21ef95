"""Put a lab back to its template in a learner's own copy of the course (the workshop hub's homes).

    python -m mcp_lab.course.reset 10-fix-the-calendar            # into ~/labs/
    python -m mcp_lab.course.reset 10-fix-the-calendar --into DIR  # into DIR/
    python -m mcp_lab.course.reset pt-BR/10-fix-the-calendar      # the Portuguese one, into ~/labs/pt-BR/

The templates are the student versions in the course's `labs/` (read-only on the hub); the lab's
notebook and the folder beside it are copied over the learner's, and what a run of the lab's
server left there (its database and key) is removed, so the next run starts from an empty store.
In a git checkout, `git checkout -- labs/<lab>.ipynb labs/<lab>/` does the same.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

__all__ = ["LABS", "reset", "main"]

LABS = Path(__file__).resolve().parents[2] / "labs"
LEFT_BY_A_RUN = ("*.sqlite3", "*.sqlite3-wal", "*.sqlite3-shm", "*.sqlite3-journal", "*.key", "__pycache__")


class ResetError(ValueError):
    """A lab that does not exist, or a target that is the templates themselves; says what to do."""


def reset(lab: str, into: Path, labs: Path = LABS) -> list[Path]:
    """Copy `lab`'s template (notebook and folder) into `into`; return what was written."""
    notebook = labs / f"{lab}.ipynb"
    if not notebook.is_file():
        known = sorted(p.stem for p in labs.glob("*.ipynb"))
        raise ResetError(f"no lab called {lab!r}; the labs are: {', '.join(known)}")
    if into.resolve() == labs.resolve():
        raise ResetError(
            f"{into} holds the templates themselves; in a git checkout use `git checkout -- labs/{lab}.ipynb`"
        )
    into.mkdir(parents=True, exist_ok=True)
    written = [into / f"{lab}.ipynb"]  # an edition's lab (pt-BR/<lab>) into that edition's folder
    written[0].parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(notebook, written[0])
    folder = labs / lab
    if folder.is_dir():
        shutil.rmtree(into / lab, ignore_errors=True)
        shutil.copytree(folder, into / lab, ignore=shutil.ignore_patterns(*LEFT_BY_A_RUN))
        written.append(into / lab)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcp_lab.course.reset", description=__doc__.split("\n")[0])
    parser.add_argument("lab", help="the lab's name, e.g. 10-fix-the-calendar (pt-BR/10-fix-the-calendar: Portuguese)")
    parser.add_argument("--into", type=Path, default=Path.home() / "labs", help="the labs folder (default ~/labs)")
    args = parser.parse_args(argv)
    try:
        for path in reset(args.lab, args.into):
            print(f"reset {path}")
    except ResetError as e:
        print(f"reset: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
