"""nbgrader's Fetch and Submit for a learner on the workshop hub: one copy of each lab, in ~/labs/.

A learner's home holds the course's labs in `~/labs/` (the course map opens them there, and
`python -m mcp_lab.course.reset` resets them there).  nbgrader's own Fetch would copy a
released lab into a second place, `~/<lab>/`, and Submit would send that second copy: a learner
who solved the lab in `~/labs/` and submitted got 0 of 10 without a word.

Here Fetch makes `~/<lab>/` a *view* of `~/labs/`: for each file or folder the teacher released
(`<lab>.ipynb`, and for some labs the folder beside it), a symbolic link to the learner's own
`~/labs/<name>`, copying the released one there only when the learner has none (a lab that was
not in the course when their home was made).  Submit copies through the links, so what it sends
is what the course map, the file browser and the reset all point at.  A `~/<lab>/<name>` that
is not such a link is another copy (fetched by hand, or copied there); Submit then refuses, in
one line saying where the work must be.  Feedback is fetched into `~/<lab>/feedback/`, as usual.

The hub's learner configuration (hub_state.write_server_configs) selects both classes.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
from pathlib import Path

from nbgrader.exchange.default.fetch_assignment import ExchangeFetchAssignment
from nbgrader.exchange.default.submit import ExchangeSubmit

NOT_LAB_PARTS = ("feedback",)  # what nbgrader itself keeps in ~/<lab>/ beside the lab


def labs_folder() -> Path:
    return Path(os.path.expanduser("~")) / "labs"


def _ignored(name: str, patterns: list[str]) -> bool:
    return name in NOT_LAB_PARTS or any(fnmatch.fnmatch(name, p) for p in patterns)


class LabsFetch(ExchangeFetchAssignment):
    """Fetch that links `~/<lab>/<name>` to `~/labs/<name>` instead of making a second copy."""

    def do_copy(self, src, dest):
        labs, view = labs_folder(), Path(dest)
        labs.mkdir(exist_ok=True)
        view.mkdir(parents=True, exist_ok=True)
        for name in sorted(os.listdir(src)):
            if _ignored(name, list(self.coursedir.ignore)):
                continue
            mine, link = labs / name, view / name
            if not os.path.lexists(mine):
                copy = shutil.copytree if os.path.isdir(os.path.join(src, name)) else shutil.copyfile
                copy(os.path.join(src, name), mine)
                self.log.info("the released %s was not in ~/labs: copied it there", name)
            if link.is_symlink() and link.resolve() == mine.resolve():
                continue
            if os.path.lexists(link):
                self.log.warning("%s is another copy of the lab: work in ~/labs/%s, which Submit sends", link, name)
                continue
            link.symlink_to(mine)
        self.log.info("%s shows your ~/labs copy: work there (the course map opens it)", view)


class LabsSubmit(ExchangeSubmit):
    """Submit that sends `~/labs/` through the fetched view, and refuses any other copy."""

    def init_src(self):
        super().init_src()
        labs = labs_folder().resolve()
        for name in sorted(os.listdir(self.src_path)):
            path = Path(self.src_path) / name
            if _ignored(name, list(self.coursedir.ignore)):
                continue
            if not (path.is_symlink() and path.resolve().is_relative_to(labs)):
                self.fail(
                    f"not submitted: {path} is a second copy of the lab; Submit sends ~/labs/{name} "
                    f"(the one the course map opens): move your work there and delete {path}"
                )
