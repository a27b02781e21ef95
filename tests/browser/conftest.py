"""A throw-away JupyterLab server and a headless Debian Chromium, for the `browser` tests.

Theory of operation
-------------------
`JupyterLabServer` runs `python -m jupyterlab` (the interpreter running pytest, so the kernel
sees the same packages) on 127.0.0.1, on a free port, behind a random token, in its own
process group, with its log in a file (a pipe nobody reads could fill and stall it). Its
Jupyter config, data and runtime folders, its user settings and its workspaces are fresh
folders under the test's tmp_path, so nothing the developer configured leaks in and nothing
the test does leaks out. What must stay visible stays visible: the environment's kernelspecs
and lab extensions (ipywidgets' `@jupyter-widgets/jupyterlab-manager`) live under
`sys.prefix/share/jupyter`, which Jupyter always searches, and the user's own data folder is
put on JUPYTER_PATH. The settings folder turns the "news" pop-up off (`fetchNews: "false"`),
which would otherwise cover part of the page.

The notebook under test is copied into a fresh root folder first: JupyterLab autosaves, and
the course's notebooks must stay without outputs.

Shutdown: `POST /api/shutdown` asks the server to stop its kernels and exit; if it does not,
its process group gets SIGTERM, then SIGKILL. Kernels run in their own sessions (jupyter_client
starts them with start_new_session), and MCP servers started by a kernel in theirs, so a
process group kill alone could orphan them: every descendant is recorded before shutdown
and `stop()` returns the ones still alive after a deadline (and kills them, by pid).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from _support import ROOT

CHROMIUM = "/usr/bin/chromium"
# Measured to work with Debian's Chromium in a container (JUPYTER-NOTES.md, "Real browser").
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDGETS_EXTENSION = "@jupyter-widgets/jupyterlab-manager"
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (ppid, start time) for every process, read from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "(comm)", which may hold spaces
        table[int(entry)] = (int(fields[1]), fields[19])
    return table


def descendants(pid: int) -> dict[int, str]:
    """Every live descendant of `pid`: pid -> start time (to tell a reused pid apart)."""
    table = _proc_table()
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, started) in table.items():
            if ppid == parent and child not in found:
                found[child] = started
                frontier.append(child)
    return found


def _alive(procs: dict[int, str]) -> dict[int, str]:
    table = _proc_table()
    return {p: s for p, s in procs.items() if p in table and table[p][1] == s}


def _environment_check() -> None:
    """One line when a prerequisite of a real-browser test is missing.

    No Chromium: a skip that says why on a machine where it cannot be had (not root, not Debian),
    so everything else in `make test` still runs; under CI (CI=true) a failure, since CI installs it.
    Anything else missing is a failure: it comes with `make setup`.
    """
    if not os.path.exists(CHROMIUM):
        reason = (
            f"{CHROMIUM} not found: the browser test needs Debian's Chromium; install it with "
            "`apt-get install chromium` (or run tools/ensure_chromium.sh as root). "
            "Playwright never downloads a browser here."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail(
            "Playwright for Python is not installed: pip install 'playwright==1.65.*' "
            "(the browser itself comes from apt, never `playwright install`)",
            pytrace=False,
        )
    from jupyter_core.paths import jupyter_path

    if not any((Path(d) / "labextensions" / WIDGETS_EXTENSION).is_dir() for d in jupyter_path()):
        pytest.fail(
            f"the ipywidgets JupyterLab extension ({WIDGETS_EXTENSION}) is not installed in this "
            "environment, so no widget would render: pip install 'ipywidgets==8.1.*'",
            pytrace=False,
        )


class JupyterLabServer:
    def __init__(self, base: Path, notebooks: list[Path], env: dict[str, str] | None = None, args: list[str] = ()):
        from jupyter_core.paths import jupyter_data_dir

        self.base = base
        self.root = base / "root"
        self.root.mkdir(parents=True)
        for nb in notebooks:
            shutil.copy2(nb, self.root / nb.name)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = base / "jupyterlab.log"
        self._procs: dict[int, str] = {}

        settings = base / "settings"
        news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
        news.parent.mkdir(parents=True)
        news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))

        e = dict(os.environ)
        for var, sub in (
            ("JUPYTER_CONFIG_DIR", "config"),
            ("JUPYTER_DATA_DIR", "data"),
            ("JUPYTER_RUNTIME_DIR", "runtime"),
        ):
            (base / sub).mkdir()
            e[var] = str(base / sub)
        # Keep the user's kernelspecs and extensions visible, as a read-only search path.
        e["JUPYTER_PATH"] = os.pathsep.join(p for p in (jupyter_data_dir(), os.environ.get("JUPYTER_PATH")) if p)
        e["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        e.update(env or {})
        argv = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={self.token}",
            "--KernelManager.transport_encryption=auto",
            f"--ServerApp.root_dir={self.root}",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={base / 'workspaces'}",
        ]
        argv += list(args)
        if os.geteuid() == 0:
            argv.append("--ServerApp.allow_root=True")  # Jupyter refuses root otherwise
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            argv,
            env=e,
            cwd=self.root,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def _api(self, path: str, method: str = "GET", timeout: float = 2.0):
        req = urllib.request.Request(
            self.url + path,
            method=method,
            data=b"" if method == "POST" else None,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"JupyterLab exited with code {self.proc.returncode} before it served a page; "
                    f"log:\n{self.log_tail()}"
                )
            try:
                if self._api("/api/status")[0] == 200:
                    return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"JupyterLab did not answer on {self.url} within {timeout:g} s; log:\n{self.log_tail()}"
                )
            time.sleep(0.1)

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}"

    def snapshot_processes(self) -> None:
        """Remember every process the server started so far (kernels and what they spawned)."""
        if self.proc.poll() is None:
            self._procs.update(descendants(self.proc.pid))

    def stop(self, timeout: float = 15.0) -> dict[int, str]:
        """Stop the server and everything it started; return the processes that outlived it."""
        self.snapshot_processes()
        if self.proc.poll() is None:
            try:
                self._api("/api/shutdown", "POST")
            except (OSError, urllib.error.URLError):
                pass
            try:
                self.proc.wait(timeout / 2)
            except subprocess.TimeoutExpired:
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(self.proc.pid, sig)
                    except ProcessLookupError:
                        break
                    try:
                        self.proc.wait(3)
                        break
                    except subprocess.TimeoutExpired:
                        continue
        self._log.close()
        # Kernels and MCP servers get EOF or a shutdown request; give them until the deadline.
        deadline = time.monotonic() + timeout / 2
        left = _alive(self._procs)
        while left and time.monotonic() < deadline:
            time.sleep(0.05)
            left = _alive(self._procs)
        for pid in left:  # ours (recorded descendants), killed one by one
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._procs = {}
        return left


# What a learner's kernel has: nothing added to the environment (no switch answers for a learner).
LEARNER_ENV = None


class SharedLabView:
    """The shared JupyterLab as one test (or one module) uses it: its notebooks (and folders)
    copied into the server's root, each opened in a workspace of its own, and `stop()` ending the
    kernels its notebooks started and returning the processes that outlived them, as
    `JupyterLabServer.stop()` does for a server of its own."""

    _count = 0

    def __init__(self, lab: JupyterLabServer, notebooks: list[Path], extra: list[Path] = ()):
        SharedLabView._count += 1
        self.lab = lab
        self.workspace = f"view{SharedLabView._count}"
        self.names = {nb.name for nb in notebooks} | {p.name for f in extra for p in Path(f).rglob("*.ipynb")}
        for nb in notebooks:
            shutil.copy2(nb, lab.root / nb.name)
        for folder in extra:
            shutil.copytree(folder, lab.root / folder.name, dirs_exist_ok=True)
        self._before = descendants(lab.proc.pid)
        self.url, self.token, self.root, self.log_path = lab.url, lab.token, lab.root, lab.log_path

    def log_tail(self, lines: int = 15) -> str:
        return self.lab.log_tail(lines)

    def _api(self, *args, **kw):
        return self.lab._api(*args, **kw)

    def __getattr__(self, name: str):
        # Everything else (its folders, its kernels' runtime directory, ...) is the server's own.
        return getattr(self.lab, name)

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/workspaces/{self.workspace}/tree/{name}?reset&token={self.token}"

    def snapshot_processes(self) -> None:
        self.lab.snapshot_processes()

    def stop(self, timeout: float = 15.0) -> dict[int, str]:
        """Shut down the sessions of this view's notebooks; return what outlived them (killed)."""
        started = {p: t for p, t in descendants(self.lab.proc.pid).items() if self._before.get(p) != t}
        try:
            _, body = self.lab._api("/api/sessions")
            for session in json.loads(body):
                if Path(session.get("path", "")).name in self.names:
                    self.lab._api(f"/api/sessions/{session['id']}", "DELETE", timeout=timeout / 2)
        except (OSError, urllib.error.URLError, ValueError):
            pass  # the server is gone: what it started is checked below all the same
        deadline = time.monotonic() + timeout / 2
        left = _alive(started)
        while left and time.monotonic() < deadline:
            time.sleep(0.05)
            left = _alive(started)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return left


@pytest.fixture(scope="session")
def shared_jupyterlab(tmp_path_factory):
    """One JupyterLab per test process for every browser test that opens notebooks as a learner
    does (LEARNER_ENV): started on first use, stopped at the end with everything it started."""
    _environment_check()
    lab = JupyterLabServer(tmp_path_factory.mktemp("shared-lab"), [], LEARNER_ENV)
    try:
        lab.wait_ready()
    except RuntimeError as e:
        lab.stop()
        pytest.fail(str(e), pytrace=False)
    yield lab
    left = lab.stop()
    assert not left, f"processes outlived the shared JupyterLab (killed now): {sorted(left)}"


def _lab_starter(new_root, shared=None):
    """start(notebooks, extra, env) -> a ready JupyterLabServer in `new_root()`, and the list of
    started servers for the fixture to stop (no orphans) when it ends.  With `shared` (a callable
    returning the shared JupyterLab), a learner's environment gets a view of that one server
    instead of a server of its own: a JupyterLab start saved per test."""
    started: list = []

    def start(notebooks: list[Path], extra: list[Path] = (), env: dict[str, str] | None = None, args: list[str] = ()):
        if shared is not None and env == LEARNER_ENV and not args:
            view = SharedLabView(shared(), notebooks, list(extra))
            started.append(view)
            return view
        lab = JupyterLabServer(new_root(), notebooks, env, args)
        for folder in extra:  # a lab's own folder, copied beside its notebook
            shutil.copytree(folder, lab.root / folder.name)
        started.append(lab)
        try:
            lab.wait_ready()
        except RuntimeError as e:
            pytest.fail(str(e), pytrace=False)
        return lab

    return start, started


@contextlib.contextmanager
def _chromium_context(profile: Path):
    """A headless Debian Chromium through Playwright (which never downloads a browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            # The browser's local time is UTC, so a time typed into a datetime-local input is the
            # UTC instant the form sends (DatetimePicker converts local time to UTC).
            timezone_id="UTC",
            viewport={"width": 1280, "height": 1000},
        )
        try:
            yield context
        finally:
            context.close()


# Module scope, not session: Playwright's sync API keeps an event loop running in this thread
# while it is started, and the next test file on the same worker (a notebook runner calling
# asyncio.run) must not find one. One browser start per browser module costs about a second.
@pytest.fixture(scope="module")
def chromium_context(tmp_path_factory):
    """One headless Chromium per test process; each test or module gets a page of its own."""
    _environment_check()
    with _chromium_context(tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context


@contextlib.contextmanager
def _page(context, width: int):
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 1000})
    try:
        yield page
    finally:
        page.close()


@pytest.fixture
def jupyterlab(tmp_path, request):
    """jupyterlab(notebooks, extra, env) -> a started JupyterLab (the shared one for LEARNER_ENV);
    stopped (no orphans) at the end."""
    _environment_check()
    start, started = _lab_starter(
        lambda: tmp_path / f"lab{len(started)}", lambda: request.getfixturevalue("shared_jupyterlab")
    )
    yield start
    for lab in started:
        lab.stop()


@pytest.fixture
def chromium(chromium_context):
    """A headless Chromium page at 1280x1000 (a new page of the process's one browser)."""
    with _page(chromium_context, 1280) as page:
        yield page


# -- one page and one JupyterLab (view) for a whole test module (the screen tests open several notebooks)
@pytest.fixture(scope="module")
def jupyterlab_module(tmp_path_factory, request):
    """Like `jupyterlab`, but one server (or one view of the shared one) for every test of the module."""
    _environment_check()
    start, started = _lab_starter(
        lambda: tmp_path_factory.mktemp("lab"), lambda: request.getfixturevalue("shared_jupyterlab")
    )
    yield start
    for lab in started:
        lab.stop()


@pytest.fixture(scope="module")
def chromium_module(chromium_context):
    """One headless Chromium page at 1400x1000 (the size the course is checked at) for the module."""
    with _page(chromium_context, 1400) as page:
        yield page


@pytest.fixture
def jupyter_server(tmp_path):
    """Like `jupyterlab`, for a test that asks the server's API only (no Chromium needed)."""
    start, started = _lab_starter(lambda: tmp_path / f"server{len(started)}")
    yield start
    for lab in started:
        assert not lab.stop(), "processes outlived the server"
