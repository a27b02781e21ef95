"""The Python the learners' servers and kernels run: this checkout's venv, seen read-only.

A learner's processes run as their own system user, so they can only use an interpreter every
user may run.  A venv made from a Python under a private folder (pyenv under /root, for one)
cannot be run by them: its `bin/python` points into that folder.  So the hub writes a small
venv of its own, `<data>/runtime/`, root's and read-only to everyone else:

  pyvenv.cfg, bin/python     the checkout venv's own base interpreter when others can run it,
                             else `base/`: that interpreter's standard library mirrored with hard
                             links (a copy across file systems; tests and IDLE left out), run
                             with LD_LIBRARY_PATH at its libpython (a system Python of the same
                             minor version is not the same: 3.11.2's `re` fails soupsieve's CSS)
  lib/pythonX.Y/site-packages  a link to the checkout venv's: the same packages, mcp_lab included
  share/jupyter/kernels/     the venv's kernels (python3, "MCP wire"), started with bin/python;
                             python3 loads mcp_lab.notebook.room_status (the room view's status)
  share/jupyter/<the rest>, etc/jupyter   links to the venv's (JupyterLab, server extensions)
  bin/nbgrader, bin/jupyter, bin/alembic, bin/mcp-lab   `python -m ...` for the Lab's terminals
                             and nbgrader (a terminal puts bin/ first on PATH: hub_state)

Hard links make the mirror cost well under a second; a later start reuses it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

TOOLS = {"nbgrader": "nbgrader", "jupyter": "jupyter", "alembic": "alembic", "mcp-lab": "mcp_lab"}


def runnable_by_others(path: Path) -> bool:
    """Can a user who is neither owner nor in the group execute `path` (every folder above it too)?"""
    real = path.resolve()
    if not os.stat(real).st_mode & 0o001:
        return False
    return all(os.stat(p).st_mode & 0o001 for p in real.parents)


ROOM_EXTENSION = "--IPKernelApp.extensions=mcp_lab.notebook.room_status"
LEFT_OUT = {"site-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3"}


def base_interpreter(runtime: Path) -> tuple[Path, dict[str, str]]:
    """The interpreter the runtime venv is made over, and the environment it needs."""
    own = Path(sys._base_executable if hasattr(sys, "_base_executable") else sys.executable).resolve()
    if runnable_by_others(own):
        return own, {}
    base, version = runtime / "base", f"python{sys.version_info[0]}.{sys.version_info[1]}"
    prefix = Path(sys.base_prefix)
    if not (base / "lib" / version / "os.py").exists():
        (base / "bin").mkdir(parents=True, exist_ok=True)
        _mirror_file(own, base / "bin" / version)
        for lib in (prefix / "lib").glob("libpython*"):
            _mirror_file(lib, base / "lib" / lib.name)
        shutil.copytree(
            prefix / "lib" / version,
            base / "lib" / version,
            ignore=lambda folder, names: [n for n in names if n in LEFT_OUT or n.startswith("config-")],
            copy_function=_mirror_file,
            dirs_exist_ok=True,
        )
    return base / "bin" / version, {"LD_LIBRARY_PATH": str(base / "lib")}


def _mirror_file(src, dst) -> None:
    """A hard link (same inode, same root-owned read-only mode), or a copy across file systems."""
    src, dst = Path(src), Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_symlink():
        dst.symlink_to(os.readlink(src))
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _link(target: Path, link: Path) -> None:
    if link.is_symlink() or link.exists():
        if link.is_symlink() and os.readlink(link) == str(target):
            return
        shutil.rmtree(link) if link.is_dir() and not link.is_symlink() else link.unlink()
    link.symlink_to(target)


def build(runtime: Path, venv: Path) -> tuple[Path, dict[str, str]]:
    """Write (or refresh) the runtime venv at `runtime` over the checkout's `venv`; return its
    python and the environment variables a process running it needs."""
    runtime.mkdir(parents=True, exist_ok=True)
    base, env = base_interpreter(runtime)
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    for sub in ("bin", f"lib/python{version}", "share/jupyter/kernels", "etc"):
        (runtime / sub).mkdir(parents=True, exist_ok=True)
    (runtime / "pyvenv.cfg").write_text(
        f"home = {base.parent}\ninclude-system-site-packages = false\nversion = {sysconfig.get_python_version()}\n",
        encoding="utf-8",
    )
    python = runtime / "bin" / "python"
    _link(base, python)
    _link(venv / "lib" / f"python{version}" / "site-packages", runtime / "lib" / f"python{version}" / "site-packages")
    for tool, module in TOOLS.items():
        script = runtime / "bin" / tool
        script.write_text(f'#!/bin/sh\nexec "{python}" -m {module} "$@"\n', encoding="utf-8")
        script.chmod(0o755)
    shared = venv / "share" / "jupyter"
    for part in sorted(p for p in shared.iterdir() if p.name != "kernels"):
        _link(part, runtime / "share" / "jupyter" / part.name)
    _link(venv / "etc" / "jupyter", runtime / "etc" / "jupyter")
    kernels = runtime / "share" / "jupyter" / "kernels"
    for spec in sorted((shared / "kernels").glob("*/kernel.json")):
        dest = kernels / spec.parent.name
        shutil.copytree(spec.parent, dest, dirs_exist_ok=True)
        kernel = json.loads(spec.read_text(encoding="utf-8"))
        kernel["argv"][0] = str(python)
        if spec.parent.name == "python3" and ROOM_EXTENSION not in kernel["argv"]:
            kernel["argv"].append(ROOM_EXTENSION)  # the kernel reports to the teacher's room view
        (dest / "kernel.json").write_text(json.dumps(kernel, indent=1) + "\n", encoding="utf-8")
    for folder, dirs, files in os.walk(runtime):
        if Path(folder).is_relative_to(runtime / "base"):
            os.chmod(folder, 0o755)  # a mirror's files keep their own (shared inode) modes
            continue
        for n in dirs + files:
            p = Path(folder) / n
            if not p.is_symlink():
                p.chmod(0o755 if p.is_dir() or p.parent.name == "bin" else 0o644)
    runtime.chmod(0o755)
    return python, env
