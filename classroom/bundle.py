"""Write the classroom bundle: `make wheelhouse` (BUNDLE=path, default build/classroom-bundle).

One folder that lets `make setup OFFLINE=path` install this checkout with no network at all:

  wheels/         every Python wheel of the set-up (`.[course,dev,teach,lite]`, exactly the versions in
                  this checkout's .venv, plus the build back-end setuptools), for this platform and
                  Python only; the Makefile then adds the browser edition's wheels for Pyodide
                  (lite/wheels.in), so `make lite OFFLINE=path` builds its site offline too
  npm-cache/      an npm cache holding every package of every pinned Node part (each folder of
                  the checkout with a package-lock.json: the reference server, the hub's
                  configurable-http-proxy, and any other the project pins, e.g. the
                  conformance suite with its Node 22 binary), read by `npm ci` with
                  npm_config_offline=true and npm_config_cache=<bundle>/npm-cache
  requirements.txt  the pins the wheels were collected from
  INSTALL.txt     what the bundle is for, what it needs, how to use it
  PLATFORM        the Python and platform the wheels fit (make setup OFFLINE= checks it)

Run with the checkout's .venv Python (the Makefile does); it needs the network once, here.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {"node_modules", ".venv", ".git", "build", ".hub"}
BUILD_BACKEND = ["setuptools>=68", "wheel"]  # pyproject.toml's [build-system] requires
DEADLINE = 900  # seconds for one pip or npm step
PARALLEL = 4  # pip downloads at once: each pin costs an index round trip, not CPU


def fail(message: str) -> None:
    raise SystemExit(f"make wheelhouse: {message}")


def run(argv: list[str], cwd: Path | None = None, env: dict | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=DEADLINE)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        fail(f"`{' '.join(argv[:4])} ...` failed: " + " | ".join(tail))
    return done.stdout


def node_parts() -> list[Path]:
    """Every pinned Node part: folders holding a package.json and its package-lock.json."""
    found = []
    for lock in sorted(CHECKOUT.rglob("package-lock.json")):
        rel = lock.relative_to(CHECKOUT)
        if SKIPPED_DIRS.intersection(rel.parts):
            continue
        if (lock.parent / "package.json").exists():
            found.append(lock.parent)
    return found


def collect_wheels(bundle: Path) -> int:
    pins = [
        line
        for line in run([sys.executable, "-m", "pip", "freeze", "--exclude-editable"]).splitlines()
        if line and not line.startswith("#") and "mcp_lab" not in line.lower()
    ]
    if not any(p.lower().startswith("jupyterhub==") for p in pins):
        fail("the teach extra is not installed in this .venv (run `make teach` first)")
    (bundle / "requirements.txt").write_text("\n".join(pins) + "\n", encoding="utf-8")
    wheels = bundle / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    wanted = pins + BUILD_BACKEND
    chunks = [wanted[i::PARALLEL] for i in range(PARALLEL)]
    with ThreadPoolExecutor(PARALLEL) as pool:
        list(pool.map(lambda chunk: fetch_wheels(chunk, wheels), chunks))
    return len(list(wheels.glob("*.whl")))


def fetch_wheels(requirements: list[str], wheels: Path) -> None:
    """Published wheels of exactly these pins; a pin published only as an sdist is built."""
    if not requirements:
        return
    base = [sys.executable, "-m", "pip"]
    try:
        run([*base, "download", "--no-deps", "-q", "--only-binary=:all:", "-d", str(wheels), *requirements])
    except SystemExit:
        run([*base, "wheel", "--no-deps", "-q", "-w", str(wheels), *requirements])


def collect_npm(bundle: Path, parts: list[Path]) -> None:
    """Fill bundle/npm-cache with every package of `parts`: one `npm ci` per part, side by side
    (npm's cache takes concurrent writers; the Makefile's node-parts run the same way)."""
    cache = bundle / "npm-cache"

    def fill(part: Path) -> None:
        with tempfile.TemporaryDirectory(prefix="mcp-lab-npm-") as tmp:
            for name in ("package.json", "package-lock.json"):
                shutil.copy2(part / name, Path(tmp) / name)
            # A throw-away install whose only lasting effect is the filled cache.  Install scripts
            # run, with the cache in the environment: a nested npm they start (the `node`
            # package fetching its platform binary) fills the same cache.
            run(
                ["npm", "ci", "--no-audit", "--no-fund"],
                cwd=Path(tmp),
                env={**os.environ, "npm_config_cache": str(cache)},
            )

    with ThreadPoolExecutor(len(parts) or 1) as pool:
        list(pool.map(fill, parts))


def platform_tag() -> str:
    """What the wheels fit, e.g. cp311-linux-x86_64 (the Makefile computes the same string)."""
    return f"cp{sys.version_info[0]}{sys.version_info[1]}-{sysconfig.get_platform()}"


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def write_install(bundle: Path, wheel_count: int, parts: list[Path]) -> None:
    tag = platform_tag()
    (bundle / "PLATFORM").write_text(tag + "\n", encoding="utf-8")  # checked by make setup OFFLINE=
    node = run(["node", "--version"]).strip()
    listed = "\n".join(f"  - {p.relative_to(CHECKOUT).as_posix()}" for p in parts)
    (bundle / "INSTALL.txt").write_text(
        f"""\
mcp_lab classroom bundle (written {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())})

For: Python {platform.python_version()} on {tag} ({platform.system()} {platform.machine()}),
with Node.js {node} (any Node.js 20 or newer works).  The wheels are for this Python minor
version and platform only: a machine with another Python or platform needs its own bundle.

Holds: {wheel_count} Python wheels (the set-up with the `course`, `dev`, `teach` and `lite` extras: the
course, its tests, JupyterHub, nbgrader and the browser edition's build tools; `make wheelhouse`
then adds the browser edition's Pyodide wheels of lite/wheels.in) and an npm cache with every
package of these pinned Node parts (lite: the Pyodide core):
{listed}

Install a checkout of mcp_lab on a machine without internet:
  1. copy this folder and the mcp_lab checkout (the same commit) to the machine;
  2. cd into the checkout and run:   make setup OFFLINE=/path/to/this/folder
     (pip installs with --no-index from wheels/, npm ci runs --offline from npm-cache/);
  3. then as usual: make lab, make hub (the workshop hub), make test;
  4. the browser edition's site, for a static host:   make lite OFFLINE=/path/to/this/folder

Prerequisites not in the bundle: Python {sys.version_info.major}.{sys.version_info.minor} with venv,
Node.js 20+ with npm, make.  Size: {size_mb(bundle):.0f} MB.
""",
        encoding="utf-8",
    )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        fail("usage: python classroom/bundle.py BUNDLE_FOLDER")
    bundle = Path(argv[0]).resolve()
    if bundle.exists() and any(bundle.iterdir()) and not (bundle / "INSTALL.txt").exists():
        fail(f"{bundle} exists and is not a classroom bundle; name an empty or new folder")
    if shutil.which("npm") is None:
        fail("npm not found; install Node.js 20+ with npm")
    t0 = time.perf_counter()
    shutil.rmtree(bundle, ignore_errors=True)
    bundle.mkdir(parents=True)
    parts = node_parts()
    # The wheels and the npm cache are fetched at the same time: both mostly wait on the network.
    with ThreadPoolExecutor(2) as pool:
        wheels = pool.submit(collect_wheels, bundle)
        npm = pool.submit(collect_npm, bundle, parts)
        count = wheels.result()
        npm.result()
    write_install(bundle, count, parts)
    print(
        f"classroom bundle: {bundle} ({count} wheels, {len(parts)} Node parts, "
        f"{size_mb(bundle):.0f} MB) in {time.perf_counter() - t0:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
