"""The spawner of the workshop hub: one server per learner, each with its own copy of the course.

Every learner's server runs as the hub's own operating-system user (JupyterHub's
`SimpleLocalProcessSpawner`), with a home folder of its own under the hub's data folder.  On a
learner's first start the course (`notebooks/` and the student versions in `labs/`; never
`labs/solutions/` or the labs' sources in `labs/source/`) is copied into that home; later
starts keep the learner's edits.  The servers use this checkout's virtual environment, so the
bundled servers (`mcp_lab.connect`), the pinned Node reference server and the "MCP wire" kernel
(registered in the environment by `make setup`) are ready without any per-learner install.

What this does not do: separate learners from each other.  They share one user id, so one
learner's code can read another's files.  That is acceptable for a workshop of people who
trust each other; for anything else use Zero to JupyterHub (classroom/z2jh/) or a spawner that
gives each learner a system user or a container (SystemdSpawner, DockerSpawner).
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from jupyterhub.spawner import SimpleLocalProcessSpawner
from traitlets import List, Unicode

# Never handed to a learner: the worked solutions and the labs' one-source versions (nbgrader
# sources hold the solutions too; the teacher keeps both), and editor litter anywhere.
NOT_COPIED_PATHS = {"labs/solutions", "labs/source"}
LITTER = {".ipynb_checkpoints", "__pycache__"}
COPIED_MARK = ".mcp_lab-course-copied"
COURSE_PARTS = ("notebooks", "labs")


def copy_course(course_root: Path, home: Path, parts: list[str]) -> bool:
    """Copy the course `parts` from `course_root` into `home`, once.

    Returns True when it copied, False when this home already has its copy (a learner's edits
    are never overwritten by a restart).  A part missing from the checkout is an error that
    names it, not a half-made home.
    """
    mark = home / COPIED_MARK
    if mark.exists():
        return False
    missing = [p for p in parts if not (course_root / p).is_dir()]
    if missing:
        raise FileNotFoundError(f"course folder(s) {missing} not found under {course_root}")
    home.mkdir(parents=True, exist_ok=True)

    def not_for_learners(folder: str, names: list[str]) -> set[str]:
        rel = Path(folder).resolve().relative_to(course_root.resolve())
        return {n for n in names if n in LITTER or (rel / n).as_posix() in NOT_COPIED_PATHS}

    for part in parts:
        shutil.copytree(course_root / part, home / part, dirs_exist_ok=True, ignore=not_for_learners)
    mark.write_text("The course was copied here on this learner's first start.\n", encoding="utf-8")
    return True


class CourseSpawner(SimpleLocalProcessSpawner):
    """SimpleLocalProcessSpawner that copies the course into the learner's home first."""

    course_root = Unicode(config=True, help="The checkout whose course is copied to learners.")
    course_parts = List(
        Unicode(), list(COURSE_PARTS), config=True, help="Folders of the checkout copied into each learner's home."
    )

    async def start(self):
        copied = await asyncio.to_thread(
            copy_course, Path(self.course_root), Path(self.home_dir), list(self.course_parts)
        )
        if copied:
            self.log.info("copied the course into %s for %s", self.home_dir, self.user.name)
        return await super().start()


def main(argv: list[str]) -> int:
    """`python course_spawner.py --copy-into HOME`: the copy made by the course image's start."""
    if len(argv) != 2 or argv[0] != "--copy-into":
        raise SystemExit("usage: course_spawner.py --copy-into HOME")
    course_root = Path(__file__).resolve().parents[2]
    copied = copy_course(course_root, Path(argv[1]), list(COURSE_PARTS))
    print(f"course {'copied into' if copied else 'already in'} {argv[1]}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
