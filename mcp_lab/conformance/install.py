"""The pinned suite where a pip user can have it: `mcp-lab conformance --install` / `--uninstall`.

Theory of operation.  The suite is an npm package with a Node 22 of its own (the `node` npm
package), pinned by the lock file that ships inside mcp_lab (`suite/package-lock.json`).  A
checkout installs it beside that lock (`make setup`); a pip install must not: site-packages is
not the user's to write, and `pip uninstall` would leave 240 MB behind.  So `install()` runs
`npm ci` of the shipped lock in a per-user cache folder,
`$XDG_CACHE_HOME/mcp_lab/conformance-<version>` (default `~/.cache/...`), and `uninstall()`
removes every such folder.  The runner looks in the checkout first, then in that folder
(`locations()`), and says `mcp-lab conformance --install` when neither has it.

The install is made in a `.partial` folder beside the final one and renamed into place only
once Node 22 answers, so an interrupted install leaves nothing that looks installed; a stamp
holds a digest of the lock, so a later mcp_lab with another pin installs again.  npm is asked
to prefer its own cache (`--prefer-offline`: no network at all when the packages are already
there), with bounded fetch retries, and the whole `npm ci` runs under a deadline.  Every
failure is one line: npm not on PATH, the registry unreachable, the deadline, a Node that did
not install.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["InstallError", "cache_dir", "locations", "find", "install", "uninstall", "in_checkout", "VERSION"]

SUITE_SRC = Path(__file__).resolve().parent / "suite"  # the lock that ships with mcp_lab; make setup's place
VERSION = "0.2.0-alpha.12"
NPM_TIMEOUT = 600.0  # seconds for the whole `npm ci` (about 6 s from npm's cache, 15-20 s from the registry)
STAMP = ".mcp_lab-suite"
_NETWORK = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "ENETUNREACH", "EHOSTUNREACH")


class InstallError(RuntimeError):
    """The install could not be made; the message is one line saying why and what to do."""


def in_checkout() -> bool:
    """True when this mcp_lab is a source checkout (make setup's place), not a pip install."""
    root = SUITE_SRC.parents[2]
    return (root / "Makefile").exists() and (root / "pyproject.toml").exists()


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mcp_lab"


def cache_dir() -> Path:
    """The per-user folder `install()` fills: $XDG_CACHE_HOME/mcp_lab/conformance-<version>."""
    return cache_root() / f"conformance-{VERSION}"


def _lock_digest() -> str:
    return hashlib.sha256((SUITE_SRC / "package-lock.json").read_bytes()).hexdigest()[:16]


def parts(folder: Path) -> tuple[Path, Path]:
    """(node 22 binary, the suite's CLI script) inside an install folder."""
    node = folder / "node_modules" / "node" / "bin" / "node"
    cli = folder / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    return node, cli


def _complete(folder: Path, *, stamped: bool) -> bool:
    node, cli = parts(folder)
    if not (node.exists() and cli.exists()):
        return False
    if not stamped:
        return True
    try:
        return (folder / STAMP).read_text(encoding="utf-8").strip() == _lock_digest()
    except OSError:
        return False


def locations() -> list[tuple[Path, bool]]:
    """Where the runner looks, in order: (folder, needs our stamp).  The checkout's folder (make
    setup's `npm ci` beside the lock) first, then the per-user cache."""
    return [(SUITE_SRC, False), (cache_dir(), True)]


def find() -> Path | None:
    """The first folder that holds the pinned suite and its Node, or None."""
    for folder, stamped in locations():
        if _complete(folder, stamped=stamped):
            return folder
    return None


def not_installed_message() -> str:
    where = cache_dir()
    howto = f"`mcp-lab conformance --install` (npm ci of the pinned suite and Node 22 into {where}, about 240 MB)"
    if in_checkout():
        return f"the conformance suite {VERSION} is not installed: run `make setup`, or {howto}"
    return f"the conformance suite {VERSION} is not installed: run {howto}"


def _size(folder: Path) -> int:
    """Bytes on disk under `folder`, each file once (npm hard-links the Node binary)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for dirpath, _, files in os.walk(folder):
        for f in files:
            try:
                st = os.lstat(os.path.join(dirpath, f))
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def _npm_failure(output: str, code: int) -> str:
    codes = re.findall(r"npm (?:error|ERR!) code (\S+)", output)
    errno = next((c for c in codes if c in _NETWORK), None) or next((n for n in _NETWORK if n in output), None)
    if errno:
        return (
            f"npm could not reach its registry ({errno}) and the packages are not in npm's cache: "
            "connect to the network (or set npm's registry/proxy), then run `mcp-lab conformance --install` again"
        )
    lines = [ln.strip() for ln in output.splitlines() if re.match(r"npm (error|ERR!)", ln.strip())]
    said = " | ".join(ln for ln in lines if " code " not in ln)[:300] or output.strip()[-300:]
    return f"npm ci failed with exit code {code}" + (f": {said}" if said else "")


# Long on purpose: one install read top to bottom: locate, npm ci, verify Node, move in place
def install(*, progress: Callable[[str], None] = print, timeout: float = NPM_TIMEOUT, force: bool = False) -> Path:
    """Install the pinned suite and Node 22 into `cache_dir()`; return the folder the runner
    will use.  Nothing is done when one is already there (unless `force`)."""
    have = find()
    if have is not None and not force:
        progress(f"the conformance suite {VERSION} is already installed in {have}")
        return have
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(
            "npm is not on PATH: install Node.js 20 or later (it brings npm), then run "
            "`mcp-lab conformance --install` again"
        )
    final = cache_dir()
    partial = final.with_name(final.name + f".partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    started = time.monotonic()
    try:
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(SUITE_SRC / name, partial / name)
        progress(
            f"installing the conformance suite {VERSION} and its Node 22 into {final} "
            f"(npm ci, about 240 MB; at most {timeout:g} s) ..."
        )
        env = {
            **os.environ,
            "npm_config_fetch_retries": os.environ.get("npm_config_fetch_retries", "2"),
            "npm_config_fetch_timeout": os.environ.get("npm_config_fetch_timeout", "30000"),
            "npm_config_fetch_retry_mintimeout": os.environ.get("npm_config_fetch_retry_mintimeout", "2000"),
            "npm_config_fetch_retry_maxtimeout": os.environ.get("npm_config_fetch_retry_maxtimeout", "10000"),
            "npm_config_update_notifier": "false",
        }
        try:
            done = subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"],
                cwd=partial,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=timeout,
                start_new_session=True,
            )
        except subprocess.TimeoutExpired:
            raise InstallError(
                f"npm ci did not finish within {timeout:g} s (a slow or unreachable registry?); nothing was installed"
            ) from None
        if done.returncode != 0:
            raise InstallError(_npm_failure(done.stdout + "\n" + done.stderr, done.returncode))
        node, cli = parts(partial)
        if not cli.exists():
            raise InstallError(f"npm ci finished but {cli.relative_to(partial)} is missing; nothing was installed")
        try:
            ver = subprocess.run(
                [str(node), "-p", "process.versions.node"], capture_output=True, text=True, timeout=30
            ).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            ver = ""
        if not ver or int(ver.split(".")[0]) < 22:
            raise InstallError(
                "the pinned Node 22 did not install (the `node` package fetches its binary from the npm "
                "registry during npm ci); nothing was installed"
            )
        (partial / STAMP).write_text(_lock_digest() + "\n", encoding="utf-8")
        shutil.rmtree(final, ignore_errors=True)
        partial.rename(final)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    seconds = time.monotonic() - started
    progress(
        f"installed the conformance suite {VERSION} (Node {ver}) in {final}: "
        f"{_size(final) / 1e6:.0f} MB in {seconds:.0f} s; `mcp-lab conformance --uninstall` removes it"
    )
    return final


def uninstall(*, progress: Callable[[str], None] = print) -> list[Path]:
    """Remove every per-user install of the suite (any version, and leftovers of an interrupted
    install); never the checkout's own.  Returns what was removed."""
    root = cache_root()
    gone = sorted(p for p in root.glob("conformance-*") if p.is_dir()) if root.is_dir() else []
    for p in gone:
        shutil.rmtree(p, ignore_errors=True)
    if gone:
        progress(f"removed {', '.join(str(p) for p in gone)}")
    else:
        progress(f"no per-user install of the conformance suite in {root}: nothing to remove")
    if root.is_dir() and not any(root.iterdir()):
        root.rmdir()
    if in_checkout() and _complete(SUITE_SRC, stamped=False):
        progress(f"the checkout's own suite in {SUITE_SRC} (make setup's) stays")
    return gone
