"""Where each learner is, read from their home: the data of the teacher's room view.

For one learner's home (`<data>/homes/<name>/`, read by the room service as root):

  notebook   the notebook their newest live kernel runs (the kernel's status file,
             mcp_lab.notebook.room_status), else the notebook saved last (JupyterLab saves every
             two minutes and on Ctrl-S)
  progress   cells run / code cells of that notebook: from the kernel's status when it has one,
             else the saved notebook's executed code cells
  pending    the interactions (predictions, quizzes, forms...) still waiting in that kernel
  labs       each lab in ~/labs/: its check cell (nbgrader's graded cell) as last saved:
             "passed", "failed: <the check's sentence>", or "not run"

Only files are read: no learner's server is asked anything, and a learner's kernel writes only
into its own home.  A status file whose process has ended belongs to a closed kernel and is
skipped.  A file that cannot be read or parsed counts as absent (a learner mid-save), and so
does one that is not a plain file of the learner's (a link, a FIFO) or is too big: the
service runs as root.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

STATUS = Path(".mcp_lab") / "room"
WHERE = ("notebooks", "labs")


MAX_BYTES = 20_000_000  # a notebook bigger than this is not read (nor a status file)


def _json(path: Path) -> dict | None:
    """The JSON in a learner's regular file, or None.  The service runs as root and the files
    are the learner's: a symbolic link (to a file the learner may not read), a FIFO (which would
    block the page) or a huge file is not read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        try:
            value = json.loads(f.read(MAX_BYTES + 1))
        except (OSError, ValueError):
            return None
    return value if isinstance(value, dict) else None


def _alive(pid: str) -> bool:
    return pid.isdigit() and Path("/proc", pid).exists()


def live_statuses(home: Path) -> list[dict]:
    """The status files of the learner's running kernels, newest first."""
    found = []
    for path in (home / STATUS).glob("*.json"):
        status = _json(path) if _alive(path.stem) else None
        if status and status.get("notebook"):
            found.append(status)
    return sorted(found, key=lambda s: s.get("time", 0), reverse=True)


def _relative(home: Path, notebook: str) -> str:
    path = Path(notebook)
    if path.is_absolute():
        try:
            return path.relative_to(home).as_posix()
        except ValueError:
            return path.as_posix()
    return path.as_posix()


def last_saved(home: Path) -> str | None:
    saved = [p for part in WHERE for p in (home / part).glob("*.ipynb")]
    saved = [p for p in saved if p.is_file()]
    return max(saved, key=lambda p: p.stat().st_mtime).relative_to(home).as_posix() if saved else None


def code_cells(notebook: dict | None) -> list[dict]:
    return [c for c in (notebook or {}).get("cells", []) if c.get("cell_type") == "code"]


def check_result(notebook: dict | None) -> str:
    """The lab's check cell (nbgrader's graded cell) as saved."""
    graded = [c for c in code_cells(notebook) if c.get("metadata", {}).get("nbgrader", {}).get("grade")]
    if not graded or not graded[-1].get("outputs"):
        return "not run"
    for output in graded[-1]["outputs"]:
        if output.get("output_type") == "error":
            first = str(output.get("evalue", "")).strip().splitlines()
            return f"failed: {output.get('ename', 'error')}: {first[0] if first else ''}"[:200]
    return "passed"


def learner_report(home: Path) -> dict:
    """Everything the room view shows for one learner (besides the hub's last activity)."""
    statuses = live_statuses(home)
    report: dict = {"notebook": None, "progress": None, "pending": [], "labs": {}}
    if statuses:
        now = statuses[0]
        report["notebook"] = _relative(home, now["notebook"])
        report["pending"] = now.get("pending", [])
    else:
        report["notebook"] = last_saved(home)
    if report["notebook"]:
        cells = code_cells(_json(home / report["notebook"]))
        if statuses:
            ran = len(statuses[0].get("cells_run", []))
        else:
            ran = sum(1 for c in cells if c.get("execution_count"))
        report["progress"] = [min(ran, len(cells)), len(cells)]
    for lab in sorted((home / "labs").glob("*.ipynb")):
        report["labs"][lab.stem] = check_result(_json(lab))
    return report


def room(homes: Path, users: list[dict], teacher: str) -> list[dict]:
    """One row per learner known to the hub (`users`: the hub's user models), teacher left out."""
    rows = []
    for user in sorted(users, key=lambda u: u["name"]):
        if user["name"] == teacher:
            continue
        server = (user.get("servers") or {}).get("", {})
        home = homes / user["name"]
        row = {
            "name": user["name"],
            "last_activity": user.get("last_activity"),
            "server": "ready" if server.get("ready") else ("starting" if server else "stopped"),
        }
        row.update(learner_report(home) if os.path.isdir(home) else {"notebook": None, "labs": {}})
        rows.append(row)
    return rows
