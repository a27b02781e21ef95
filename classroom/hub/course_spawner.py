"""The spawner of the workshop hub: one server per learner, as that learner's own system user.

JupyterHub's `LocalProcessSpawner` (the hub runs as root; it switches to the learner's uid
before the server starts) with three additions: the learner's system user `<prefix><name>` is
created on their first login (`course_accounts`); their home is a folder of the hub's data
folder, owned by them and mode 700; and on the first start the course (`notebooks/` and the
student versions in `labs/`; never `labs/solutions/`, `labs/pt-BR/solutions/` or the labs' sources in `labs/source/`) is
copied into that home, later starts keeping the learner's edits.  The servers run this
checkout's virtual environment, root's and read-only to learners, so the bundled servers, the
pinned Node reference server and the "MCP wire" kernel are ready without any per-learner
install, and a learner cannot change the package (or the checkers the grader imports).

The learner's Jupyter configuration path points at a folder the hub writes (`learner_config`):
nbgrader's exchange and course id, and the teacher's extensions (formgrader, course list,
create assignment) switched off.  The teacher's server (user `teacher`) gets the grading
configuration instead, and an nbgrader course folder in its home.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import course_accounts
from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from traitlets import Dict, List, Unicode

# Never handed to a learner: the worked solutions and the labs' one-source versions (nbgrader
# sources hold the solutions too; the teacher keeps both; the Portuguese edition's solutions
# too), and editor litter anywhere.
NOT_COPIED_PATHS = {"labs/solutions", "labs/source", "labs/pt-BR/solutions"}
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


class CourseSpawner(LocalProcessSpawner):
    """LocalProcessSpawner with a system user per learner, a private home and the course in it."""

    course_root = Unicode(config=True, help="The checkout whose course is copied to learners.")
    course_parts = List(
        Unicode(), list(COURSE_PARTS), config=True, help="Folders of the checkout copied into each learner's home."
    )
    homes = Unicode(config=True, help="The folder holding one home per learner, <homes>/<name>.")
    system_prefix = Unicode(course_accounts.DEFAULT_PREFIX, config=True, help="Prefix of the learners' system users.")
    learner_config = Unicode(config=True, help="JUPYTER_CONFIG_PATH of a learner's server.")
    teacher_config = Unicode(config=True, help="JUPYTER_CONFIG_PATH of the teacher's server.")
    people = Dict(
        config=True, help="{learner name: [first name, last name]} from the roster, for the teacher's gradebook."
    )

    @property
    def home_dir(self) -> str:
        return str(Path(self.homes) / self.user.name)

    @property
    def system_user(self) -> str:
        return course_accounts.system_name(self.user.name, self.system_prefix)

    def _prepare(self) -> bool:
        """The system user, the home (the course copied in once), everything owned by the learner."""
        home = Path(self.home_dir)
        entry = course_accounts.ensure_system_user(self.system_user, home)
        copied = copy_course(Path(self.course_root), home, list(self.course_parts))
        if self.user.name == course_accounts.TEACHER and not (home / "course").exists():
            from mcp_lab.course.generate import nbgrader_course

            nbgrader_course(home / "course")
            copied = True
        if self.user.name == course_accounts.TEACHER and self.people:
            self._gradebook_names(home / "course" / "gradebook.db", entry)
        course_accounts.own_home(home, entry, everything=copied)
        return copied

    def _gradebook_names(self, db: Path, entry) -> None:
        """The roster's names in the teacher's gradebook (nbgrader knows a learner by their system
        user, `mcpl-ana`; without this its pages and exports say "None, None")."""
        from hub_state import COURSE_ID
        from nbgrader.api import Gradebook

        with Gradebook(f"sqlite:///{db}", course_id=COURSE_ID) as gradebook:
            for name, (first, last) in sorted(self.people.items()):
                student = course_accounts.system_name(name, self.system_prefix)
                gradebook.update_or_create_student(student, first_name=first, last_name=last)
        os.chown(db, entry.pw_uid, entry.pw_gid)

    async def start(self):
        copied = await asyncio.to_thread(self._prepare)
        if copied:
            self.log.info("copied the course into %s for %s", self.home_dir, self.user.name)
        return await super().start()

    def make_preexec_fn(self, name):
        """Become the learner's system user (uid, gid, groups) and start in their home."""
        become = set_user_setuid(self.system_user, chdir=False)
        home = self.home_dir

        def preexec():
            become()
            os.umask(0o022)
            os.chdir(home)

        return preexec

    def user_env(self, env):
        teacher = self.user.name == course_accounts.TEACHER
        env.update(
            USER=self.system_user,
            LOGNAME=self.system_user,
            HOME=self.home_dir,
            SHELL="/bin/bash",
            JUPYTER_CONFIG_PATH=self.teacher_config if teacher else self.learner_config,
            # nbgrader runs `alembic` as a program; the venv's tools come first
            PATH=os.pathsep.join([str(Path(self.cmd[0]).parent), env.get("PATH", os.defpath)]),
        )
        return env

    async def move_certs(self, paths):  # internal TLS is not used; nothing to move
        return paths


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
