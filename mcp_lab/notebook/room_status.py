"""What a learner's kernel tells the teacher's room view on the workshop hub: a small status file.

Theory of operation
-------------------
On the workshop hub (a kernel whose environment names a `JUPYTERHUB_USER`), after each cell run
and each answered interaction, the kernel writes `~/.mcp_lab/room/<pid>.json`:

    {"notebook": "notebooks/04-....ipynb", "cells_run": ["cell:<id>", ...],
     "pending": [["dentist", "form"], ...], "time": 1764900000.0}

`notebook` is the path jupyter_server gives the kernel (`JPY_SESSION_NAME`), `cells_run` the
distinct cells this kernel has run (JupyterLab sends each cell's id), `pending` the interactions
(`mcp_lab.notebook.interactions`) still waiting.  The room service (classroom/hub/room_service.py,
root on the hub) reads these files; a file whose process is gone is an old kernel's and ignored.
The file is the learner's own, in their private home: nothing crosses to another learner.
Anywhere else (a laptop's `make lab`) nothing is written.  A write that fails (a full disk) is
skipped silently: the room view is a convenience, never a reason for a learner's cell to fail.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

__all__ = ["enabled", "publish", "status_folder"]


def enabled() -> bool:
    return bool(os.environ.get("JUPYTERHUB_USER"))


def status_folder() -> Path:
    return Path(os.path.expanduser("~")) / ".mcp_lab" / "room"


def publish(cells_run: list[str], pending: list[tuple[str, str]]) -> None:
    """Write this kernel's status file (on the hub only)."""
    if not enabled():
        return
    status = {
        "notebook": os.environ.get("JPY_SESSION_NAME", ""),
        "cells_run": sorted(cells_run),
        "pending": [list(p) for p in pending],
        "time": time.time(),
    }
    folder = status_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{os.getpid()}.json.partial"
        partial.write_text(json.dumps(status), encoding="utf-8")
        os.replace(partial, folder / f"{os.getpid()}.json")
    except OSError:
        pass


def load_ipython_extension(shell) -> None:
    """`--IPKernelApp.extensions=mcp_lab.notebook.room_status` (the hub's Python kernel): follow
    cell runs from the first cell, so every notebook reports, not only those with interactions."""
    from mcp_lab.notebook import interactions

    interactions.add_listener(publish)
    interactions.watch_cells(shell)
