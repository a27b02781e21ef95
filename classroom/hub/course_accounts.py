"""Who a learner is on the workshop hub: the name they type, and the system account behind it.

A name typed on the login page is normalised (Unicode NFKC, lower case) and must then be 1 to
32 letters or digits (any script) or `.`, `_`, `-`: no spaces, no invisible or control
characters (`ana` followed by a zero-width space would look like `ana` on the admin page), so
that every name shows as what it is.  `teacher` is reserved for the course's teacher.

Each learner runs as an operating-system user of their own, `<prefix><name>` (the prefix,
`mcpl-` by default, keeps clear of the machine's real accounts), created with `useradd` the
first time they log in and kept: a later start of the hub reuses it.  A name that is not plain
ASCII, or too long for a system user name, gets `<prefix>u<hash>` instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import threading
import time
import unicodedata
from pathlib import Path

MAX_NAME = 32
TEACHER = "teacher"
DEFAULT_PREFIX = "mcpl-"
SYSTEM_NAME_MAX = 32  # Linux's limit on a user name
_PLAIN = re.compile(r"[a-z0-9][a-z0-9_-]*")
_useradd_lock = threading.Lock()  # useradd locks /etc/passwd; concurrent calls fail instead of waiting
# ... and so do two hubs on one machine (a workshop hub beside the tests' own, or two test hubs at
# once): a lock file serialises the account changes of every process, with a deadline.
_ACCOUNTS_LOCK = Path(tempfile.gettempdir()) / "mcp_lab-accounts.lock"
_ACCOUNTS_DEADLINE = 60.0


@contextlib.contextmanager
def _accounts_lock():
    """This process's threads, then every process on the machine, one at a time."""
    with _useradd_lock, open(_ACCOUNTS_LOCK, "a") as handle:
        give_up = time.monotonic() + _ACCOUNTS_DEADLINE
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > give_up:
                    raise RuntimeError(
                        f"another process held {_ACCOUNTS_LOCK} for {_ACCOUNTS_DEADLINE:.0f} s"
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def normalise(raw: str) -> str:
    """The name as the hub keeps it: NFKC (full-width and compatibility forms folded), lower case."""
    return unicodedata.normalize("NFKC", raw).strip().lower()


def name_problem(name: str) -> str | None:
    """Why `name` (already normalised) cannot be a learner's name, in one sentence; None if it can."""
    rule = f"A name is 1 to {MAX_NAME} letters or digits, '.', '_' or '-'"
    if not name:
        return f"{rule}; type one."
    if len(name) > MAX_NAME:
        return f"{rule}; this one has {len(name)} characters."
    for ch in name:
        if unicodedata.category(ch)[0] in "CZ":  # control, format (zero-width...), unassigned; spaces
            return f"{rule}, with no spaces or invisible characters; this one holds U+{ord(ch):04X}."
        if not (ch.isalnum() or ch in "._-"):
            return f"{rule}; {ch!r} is not allowed."
    if not name[0].isalnum():
        return f"{rule}, starting with a letter or digit."
    return None


def prefix_problem(prefix: str) -> str | None:
    """Why `prefix` cannot start the learners' system user names; None if it can."""
    if _PLAIN.fullmatch(prefix) and len(prefix) <= 12:
        return None
    return f"{prefix!r}: use up to 12 lower-case letters, digits, '_' or '-', starting with a letter or digit"


def system_name(name: str, prefix: str = DEFAULT_PREFIX) -> str:
    """The operating-system user a learner runs as: `<prefix><name>`, or `<prefix>u<hash>` for a
    name that is not plain lower-case ASCII or would be too long."""
    plain = prefix + name
    if _PLAIN.fullmatch(name) and len(plain) <= SYSTEM_NAME_MAX:
        return plain
    return prefix + "u" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]


def ensure_system_user(user: str, home: Path, comment: str = "mcp_lab hub learner") -> pwd.struct_passwd:
    """The system user `user`, created (no password, its own group, home `home`) if missing.

    An existing user of that name is reused (a second start of the hub, or an account made by
    hand), unless it is root's uid: a learner is never root."""
    with _accounts_lock():
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            entry = None
        if entry is None:
            done = subprocess.run(
                ["useradd", "--no-create-home", "--no-log-init", "--home-dir", str(home), "--shell", "/bin/bash"]
                + ["--user-group", "--comment", comment, user],
                capture_output=True,
                text=True,
                timeout=60,
            )
            if done.returncode != 0:
                raise RuntimeError(f"useradd {user} failed ({done.returncode}): {done.stderr.strip()}")
            entry = pwd.getpwnam(user)
    if entry.pw_uid == 0:
        raise RuntimeError(f"the system user {user} has uid 0; a learner must never be root")
    return entry


def own_home(home: Path, entry: pwd.struct_passwd, everything: bool) -> None:
    """`home` belongs to the learner, mode 700 (no one else reads it); with `everything`, every
    file under it too (right after the course was copied in by root)."""
    home.mkdir(parents=True, exist_ok=True)
    if everything:
        for folder, dirs, files in os.walk(home):
            for n in dirs + files:
                os.lchown(os.path.join(folder, n), entry.pw_uid, entry.pw_gid)
    os.chown(home, entry.pw_uid, entry.pw_gid)
    home.chmod(0o700)


def remove_system_user(user: str) -> None:
    """`userdel` (the home is the hub's to keep or delete, not userdel's); missing is fine."""
    try:
        pwd.getpwnam(user)
    except KeyError:
        return
    with _accounts_lock():
        done = subprocess.run(["userdel", user], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"userdel {user} failed ({done.returncode}): {done.stderr.strip()}")


def useradd_available() -> bool:
    return shutil.which("useradd") is not None
