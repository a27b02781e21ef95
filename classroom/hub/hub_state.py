"""The workshop hub's data folder and its secrets: who may read what.

Layout (the hub runs as root; every file the hub writes here is mode 600, root's):

  <data>/                     mode 711: learners may pass through to their home, not list it
    workshop-password         the generated password, when none was given (600)
    password-fingerprint      salted hash of the passwords in use: a change revokes every session
    jupyterhub_cookie_secret  JupyterHub's (600; a new one whenever the sessions are revoked)
    jupyterhub.sqlite         the hub's database (600)
    homes/                    mode 711; homes/<name>/ belongs to that learner, mode 700
    exchange/                 nbgrader's exchange root, mode 1777 like /tmp (nbgrader asks 777);
                              exchange/<course>/ belongs to the teacher's system user
    config/learner/, config/teacher/   JUPYTER_CONFIG_PATH of learners' and the teacher's servers
                              (mode 755: settings, no secrets)
    config/terminal.bashrc    a Lab terminal's start-up file (the course's tools on PATH)

The proxy's token is never written: JupyterHub makes a new one at each start and hands it to
the proxy in its environment, which only root can read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from pathlib import Path

import course_accounts

COURSE_ID = "mcp_lab"
# The teacher's extensions: learners submit and fetch feedback, they do not grade.
TEACHER_SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list")
TEACHER_LAB_PLUGINS = (
    "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:create-assignment",
    "@jupyter/nbgrader:course-list",
)


class SettingError(ValueError):
    """A setting the hub cannot start with; the message says which and what to do."""


def secret_file(path: str) -> str:
    """The secret kept in the file at `path` ("" for no path): the file must be root's, mode 600."""
    if not path:
        return ""
    try:
        info = os.stat(path)
        text = Path(path).read_text(encoding="utf-8").strip()
    except OSError as e:
        raise SettingError(f"{path!r} cannot be read: {e.strerror}") from None
    if info.st_mode & 0o077 or info.st_uid != 0:
        raise SettingError(f"{path!r} must be root's and mode 600 (it is mode {info.st_mode & 0o777:o}): chmod 600 it")
    return text


def _roster_lines(listed_file: str) -> list[tuple[str, str]]:
    """(name, the person's full name or "") for each line of a roster file: `ana` or `ana Ana Lima`."""
    if not listed_file:
        return []
    try:
        lines = Path(listed_file).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise SettingError(f"MCP_LAB_HUB_LEARNERS_FILE={listed_file!r} cannot be read: {e.strerror}") from None
    found = []
    for line in lines:
        words = line.split("#", 1)[0].split(None, 1)
        if words:
            found.append((words[0], words[1].strip() if len(words) > 1 else ""))
    return found


def roster(listed: str, listed_file: str) -> set[str]:
    """The learners' names from "ana,ben" and/or a file of one learner a line (the name, then
    optionally the person's full name; # starts a comment), normalised; a name that cannot be a
    learner's is an error naming it."""
    names = listed.split(",") + [name for name, _ in _roster_lines(listed_file)]
    kept = {course_accounts.normalise(n) for n in names if n.strip()}
    for name in sorted(kept):
        problem = course_accounts.name_problem(name)
        if problem or name == course_accounts.TEACHER:
            raise SettingError(f"the roster's name {name!r} cannot be a learner's: {problem or 'teacher is reserved'}")
    return kept


def roster_people(listed_file: str) -> dict[str, tuple[str, str]]:
    """{name: (first name, last name)} for the roster file's lines that give a person's name
    (`ana Ana Lima` -> ("Ana", "Lima"); `bo Maria da Silva` -> ("Maria", "da Silva"))."""
    people = {}
    for name, person in _roster_lines(listed_file):
        if person:
            first, _, last = person.partition(" ")
            people[course_accounts.normalise(name)] = (first, last.strip())
    return people


def private_file(path: Path, text: str) -> None:
    """Write `text` to `path`, readable and writable by its owner only, from the first byte."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    path.chmod(0o600)


def folder(path: Path, mode: int) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(mode)
    return path


def prepare(data: Path) -> None:
    """The data folder and its fixed parts, with the modes above (also fixing an older layout's)."""
    folder(data, 0o711)
    folder(data / "homes", 0o711)
    folder(data / "exchange", 0o1777)
    for name in ("workshop-password", "password-fingerprint", "jupyterhub_cookie_secret", "jupyterhub.sqlite"):
        if (data / name).exists():
            (data / name).chmod(0o600)


def generated_password(data: Path) -> str:
    """The password kept in <data>/workshop-password (made on the first start), root's only."""
    kept = data / "workshop-password"
    if not kept.exists():
        private_file(kept, secrets.token_urlsafe(9) + "\n")
    return kept.read_text(encoding="utf-8").strip()


def passwords_changed(data: Path, passwords: list[str]) -> bool:
    """True when the passwords differ from those of the last start (recorded as a salted hash),
    or when sessions exist from a start that recorded none (a data folder of an older hub)."""
    kept = data / "password-fingerprint"
    salt, before = secrets.token_hex(16), None
    if kept.exists():
        salt, _, before = kept.read_text(encoding="utf-8").strip().partition(":")
    now = hmac.new(salt.encode(), "\0".join(passwords).encode("utf-8"), hashlib.sha256).hexdigest()
    if before is None:
        changed = (data / "jupyterhub_cookie_secret").exists()
    else:
        changed = not hmac.compare_digest(before, now)
    private_file(kept, f"{salt}:{now}\n")
    return changed


def revoke_sessions(data: Path) -> int:
    """Every session made before now stops working: a new cookie secret (JupyterHub writes it on
    start) and every user's API token deleted (REST logins and servers' tokens); returns how many."""
    (data / "jupyterhub_cookie_secret").unlink(missing_ok=True)
    db = data / "jupyterhub.sqlite"
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        try:
            gone = conn.execute("DELETE FROM api_tokens WHERE user_id IS NOT NULL").rowcount
            conn.execute("DELETE FROM oauth_codes")
        except sqlite3.OperationalError:  # a database JupyterHub has not initialised yet
            return 0
    return gone


def server_settings(terminal_rc: Path, kernel_idle_minutes: int) -> dict:
    """The Jupyter server settings every server of the room shares (learners' and the teacher's).

    - Terminals run `bash --rcfile <terminal_rc> -i`: without a shell command of its own a
      server started by a spawner runs a *login* shell, whose /etc/profile resets PATH, so the
      course's `python`, `nbgrader` and `mcp-lab` would be "command not found" there.
    - Kernels idle for `kernel_idle_minutes` are shut down, even with their notebook open (five
      notebooks opened in a morning do not hold five kernels all day); a busy kernel is kept.
    - New notebooks get the Python kernel, not the "MCP wire" one.
    """
    return {
        "ServerApp": {"terminado_settings": {"shell_command": ["/bin/bash", "--rcfile", str(terminal_rc), "-i"]}},
        "MappingKernelManager": {
            "default_kernel_name": "python3",
            "cull_idle_timeout": kernel_idle_minutes * 60,
            "cull_interval": 60,
            "cull_connected": True,
            "cull_busy": False,
        },
    }


def terminal_rc(tools: Path) -> str:
    """The rc file of a Lab terminal: the usual start-up files, then the course's tools first on PATH."""
    return (
        "# Written by the mcp_lab hub: a Lab terminal's start-up (bash --rcfile this -i).\n"
        "[ -f /etc/bash.bashrc ] && . /etc/bash.bashrc\n"
        '[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"\n'
        f'export PATH="{tools}:$PATH"\n'
    )


def write_server_configs(
    data: Path, teacher_home: Path, tools: Path, kernel_idle_minutes: int, learner_exchange: Path
) -> tuple[Path, Path]:
    """The Jupyter configuration folders of learners' and the teacher's servers.

    `tools` is the folder of the learners' `python`, `nbgrader`, `mcp-lab` (learner_runtime);
    `learner_exchange` the module whose fetch and submit keep one copy of each lab."""
    exchange = {"Exchange": {"root": str(data / "exchange")}, "CourseDirectory": {"course_id": COURSE_ID}}
    folder(data / "config", 0o755)
    learner = folder(data / "config" / "learner", 0o755)
    teacher = folder(data / "config" / "teacher", 0o755)
    rc = data / "config" / "terminal.bashrc"
    rc.write_text(terminal_rc(tools), encoding="utf-8")
    rc.chmod(0o644)
    shared = server_settings(rc, kernel_idle_minutes)
    off = {"jpserver_extensions": dict.fromkeys(TEACHER_SERVER_EXTENSIONS, False)}
    _json(learner / "jupyter_server_config.json", {**shared, "ServerApp": {**shared["ServerApp"], **off}})
    _json(teacher / "jupyter_server_config.json", shared)
    folder(learner / "labconfig", 0o755)
    _json(learner / "labconfig" / "page_config.json", {"disabledExtensions": dict.fromkeys(TEACHER_LAB_PLUGINS, True)})
    _json(learner / "nbgrader_config.json", exchange)
    # Fetch and Submit work on ~/labs/, the copy the course map opens (learner_exchange.py).
    _python_config(
        learner / "nbgrader_config.py",
        learner_exchange.parent,
        f"from {learner_exchange.stem} import LabsFetch, LabsSubmit",
        "c.ExchangeFactory.fetch_assignment = LabsFetch\nc.ExchangeFactory.submit = LabsSubmit\n",
    )
    grading = {**exchange, "CourseDirectory": {"course_id": COURSE_ID, "root": str(teacher_home / "course")}}
    _json(teacher / "nbgrader_config.json", grading)
    # The collect step keeps only submissions made by the account they name (hub_exchange.py).
    here = Path(__file__).resolve().parent
    _python_config(
        teacher / "nbgrader_config.py",
        here,
        "from hub_exchange import OwnerCheckedCollect",
        "c.ExchangeFactory.collect = OwnerCheckedCollect\n",
    )
    return learner, teacher


def _python_config(path: Path, module_folder: Path, imports: str, settings: str) -> None:
    path.write_text(
        f"import sys\nsys.path.insert(0, {str(module_folder)!r})\n{imports}\n"
        f"c = get_config()  # noqa: F821\n{settings}",
        encoding="utf-8",
    )
    path.chmod(0o644)


def _json(path: Path, value: dict) -> None:
    path.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")
    path.chmod(0o644)


def prepare_exchange_course(data: Path, uid: int, gid: int) -> Path:
    """<data>/exchange/<course>/, the teacher's (nbgrader's release makes inbound/outbound in it).

    Made by the hub before any learner can log in, so no learner can claim the name first."""
    course = data / "exchange" / COURSE_ID
    course.mkdir(exist_ok=True)
    os.chown(course, uid, gid)
    course.chmod(0o755)
    return course
