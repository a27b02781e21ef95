"""Drive the workshop hub (classroom/hub/) from outside, as learners' browsers would.

Used by tests/test_hub.py and bench/bench_hub.py.  `WorkshopHub` starts the real JupyterHub with
the project's config on free 127.0.0.1 ports and a throw-away data folder, logs learners in
through the hub's REST API (a token requested with the workshop password), starts their
servers, and on exit stops the hub and reports any process that outlived it.  `run_notebook`
executes a notebook cell by cell in a learner's server through the Jupyter server's REST and
kernel websocket APIs (what JupyterLab does), so nothing runs outside the learner's server.

Every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import psutil

from _support import ROOT

HUB_CONFIG = ROOT / "classroom" / "hub" / "jupyterhub_config.py"
PROXY = ROOT / "classroom" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "workshop-2026"
ADMIN_PASSWORD = "teacher-" + "x" * 32  # the config asks 32+ characters
START_DEADLINE = 60.0
SPAWN_DEADLINE = 120.0
CELL_DEADLINE = 60.0
STOP_DEADLINE = 60.0


class HubError(RuntimeError):
    """The hub did not do what a learner's browser would have needed, within its deadline."""


# Ports for servers a test starts later (the hub takes seconds to bind): drawn below Linux's
# ephemeral range (32768-60999), where the kernel hands out ports for outgoing connections and
# `bind(0)`, so that neither another worker's connection nor its `bind(0)` takes one meanwhile.
# (A port from `bind(0)` once failed to bind 4 s later under four workers.)
QUIET_PORTS = range(20000, 32000)


def free_ports(count: int) -> list[int]:
    """`count` distinct ports on 127.0.0.1, each free when drawn (random, outside the ephemeral range)."""
    import random

    socks: list[socket.socket] = []
    try:
        for port in random.sample(QUIET_PORTS, len(QUIET_PORTS)):
            s = socket.socket()
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                s.close()
                continue
            socks.append(s)
            if len(socks) == count:
                return [s.getsockname()[1] for s in socks]
        raise RuntimeError(f"no {count} free ports in {QUIET_PORTS.start}-{QUIET_PORTS.stop - 1}")
    finally:
        for s in socks:
            s.close()


def tree_rss(proc: psutil.Process) -> int:
    """Resident memory of a process and all its descendants, in bytes (gone ones count 0)."""
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def tree_pss(proc: psutil.Process) -> int:
    """Proportional set size of a process tree, in bytes (shared pages split among users)."""
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_full_info().pss
        except (psutil.Error, AttributeError):
            pass
    return total


class WorkshopHub:
    """The real hub on free ports; a context manager that leaves no process behind."""

    def __init__(self, data: Path, learners: list[str], **settings: str):
        self.data = Path(data)
        self.learners = list(learners)
        # System users of this hub only (tests on one machine may run hubs side by side).
        self.prefix = f"mct{secrets.token_hex(2)}-"
        self.port, api_port, proxy_api_port, room_port = free_ports(4)
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(
            os.environ,
            MCP_LAB_HUB_PORT=str(self.port),
            MCP_LAB_HUB_API_PORT=str(api_port),
            MCP_LAB_HUB_PROXY_API_PORT=str(proxy_api_port),
            MCP_LAB_HUB_ROOM_PORT=str(room_port),
            MCP_LAB_HUB_PASSWORD=PASSWORD,
            MCP_LAB_HUB_DATA=str(self.data),
            MCP_LAB_HUB_LEARNERS=",".join(self.learners),
            MCP_LAB_HUB_ADMIN_PASSWORD=ADMIN_PASSWORD,
            MCP_LAB_HUB_USER_PREFIX=self.prefix,
        )
        self.env.update(settings)
        self.log_path = self.data / "hub.log"
        self.proc: subprocess.Popen | None = None
        self.seen: dict[int, psutil.Process] = {}
        self.http = httpx.Client(timeout=30.0)
        self.tokens: dict[str, str] = {}

    # -- lifetime ------------------------------------------------------------------------------
    def __enter__(self) -> "WorkshopHub":
        self.start()
        return self

    def start(self) -> None:
        """Start (or, after `stop`, start again) the hub on the same ports and data folder."""
        self.data.mkdir(parents=True, exist_ok=True)
        if not PROXY.exists():
            raise HubError(f"{PROXY} is missing: run `make teach` (npm ci in classroom/hub)")
        if self.http.is_closed:
            self.http = httpx.Client(timeout=30.0)
        with open(self.log_path, "ab") as log:
            self.log_path.chmod(0o600)  # the hub's own log, like its other files: root's only
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(HUB_CONFIG)],
                cwd=self.data,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            self._wait(lambda: self._get_ok("/hub/api/"), START_DEADLINE, "the hub to answer")
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()
        self.remove_accounts()

    def system_user(self, name: str) -> str:
        return self.prefix + name

    def remove_accounts(self) -> list[str]:
        """`userdel` every system user this hub made (they all carry its prefix)."""
        made = [e.pw_name for e in pwd.getpwall() if e.pw_name.startswith(self.prefix)]
        for user in made:
            subprocess.run(["userdel", "-r", user], capture_output=True, timeout=60, check=False)
        left = [e.pw_name for e in pwd.getpwall() if e.pw_name.startswith(self.prefix)]
        if left:
            raise HubError(f"system users left after userdel: {left}")
        return made

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no hub log)"
        return "\n".join(text.splitlines()[-lines:])

    def remember_processes(self) -> list[psutil.Process]:
        """Every process the hub has started so far (itself, proxy, culler, servers, kernels...)."""
        if self.proc is None:
            return []
        try:
            hub = psutil.Process(self.proc.pid)
            found = [hub, *hub.children(recursive=True)]
        except psutil.Error:
            found = []
        for p in found:
            self.seen.setdefault(p.pid, p)
        return found

    def stop(self) -> list[str]:
        """Stop the hub politely (it stops the servers, the proxy and the culler), then return
        a description of every process seen during the run that is still alive (and kill it)."""
        self.remember_processes()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_DEADLINE)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.http.close()
        gone, alive = psutil.wait_procs(list(self.seen.values()), timeout=10)
        left = []
        for p in alive:
            try:
                left.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
                p.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(alive, timeout=10)
        return left

    # -- what a learner does -------------------------------------------------------------------
    def login(self, name: str, password: str = PASSWORD) -> str:
        """A token for `name`, requested with the workshop password (the hub's REST login)."""
        r = self.http.post(
            f"{self.url}/hub/api/users/{name}/tokens",
            json={"auth": {"username": name, "password": password}, "note": "test login"},
        )
        if r.status_code != 201:
            raise HubError(f"login of {name} answered {r.status_code}: {r.text[:200]}")
        self.tokens[name] = r.json()["token"]
        return self.tokens[name]

    def headers(self, name: str) -> dict:
        return {"Authorization": f"token {self.tokens[name]}"}

    def start_server(self, name: str) -> None:
        r = self.http.post(f"{self.url}/hub/api/users/{name}/server", headers=self.headers(name))
        if r.status_code not in (201, 202):
            raise HubError(f"starting {name}'s server answered {r.status_code}: {r.text[:200]}")

    def wait_ready(self, name: str, deadline: float = SPAWN_DEADLINE) -> None:
        def ready() -> bool:
            r = self.http.get(f"{self.url}/hub/api/users/{name}", headers=self.headers(name))
            return r.status_code == 200 and bool(r.json().get("servers", {}).get("", {}).get("ready"))

        self._wait(ready, deadline, f"{name}'s server to be ready")

    def server_url(self, name: str) -> str:
        return f"{self.url}/user/{name}"

    def learner_process(self, name: str) -> psutil.Process:
        """The learner's single-user server process (its tree holds the kernels and servers)."""
        for p in self.remember_processes():
            try:
                if p.environ().get("JUPYTERHUB_USER") == name and "jupyterhub.singleuser" in p.cmdline():
                    return p
            except psutil.Error:
                continue
        raise HubError(f"no running server process for {name}")

    # -- helpers -------------------------------------------------------------------------------
    def _get_ok(self, path: str) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise HubError(f"the hub exited with {self.proc.returncode}:\n{self.log_tail()}")
        try:
            return self.http.get(self.url + path).status_code == 200
        except httpx.TransportError:
            return False

    def _wait(self, predicate, deadline: float, what: str) -> None:
        end = time.monotonic() + deadline
        while not predicate():
            if time.monotonic() > end:
                raise HubError(f"waited {deadline:.0f} s for {what}; hub log:\n{self.log_tail()}")
            time.sleep(0.2)


# -- running a notebook in a learner's server --------------------------------------------------


def _message(code: str, session: str) -> dict:
    msg_id = uuid.uuid4().hex
    return {
        "header": {
            "msg_id": msg_id,
            "msg_type": "execute_request",
            "session": session,
            "username": "",
            "version": "5.3",
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        },
        "parent_header": {},
        "metadata": {},
        "channel": "shell",
        "buffers": [],
        "content": {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        },
    }


async def _execute(ws, code: str, session: str, deadline: float) -> tuple[str, list[dict]]:
    """Send one cell; return (reply status, iopub outputs) once the kernel is idle again."""
    msg = _message(code, session)
    await ws.write_message(json.dumps(msg))
    outputs, status, idle = [], None, False
    end = time.monotonic() + deadline
    while status is None or not idle:
        left = end - time.monotonic()
        if left <= 0:
            raise HubError(f"no reply within {deadline:.0f} s to cell:\n{code[:300]}")
        raw = await asyncio.wait_for(ws.read_message(), timeout=left)
        if raw is None:
            raise HubError("the kernel websocket closed mid-cell")
        reply = json.loads(raw)
        if reply.get("parent_header", {}).get("msg_id") != msg["header"]["msg_id"]:
            continue
        kind = reply["header"]["msg_type"]
        if kind == "execute_reply":
            status = reply["content"]["status"]
        elif kind == "status":
            idle = reply["content"]["execution_state"] == "idle"
        elif kind in ("stream", "error", "execute_result", "display_data"):
            outputs.append({"type": kind, **reply["content"]})
    return status, outputs


async def run_notebook(
    server_url: str, token: str, path: str, extra_cells: tuple[str, ...] = (), keep_kernel: bool = False
) -> dict:
    """Execute the notebook at `path` (relative to the learner's home) in a new kernel of the
    learner's server, cell by cell, stopping at the first unexpected error.

    Returns {"seconds", "errors": [..], "outputs": [outputs of extra_cells], "session"}.
    A cell tagged `raises-exception` may fail, as in nbclient.  With keep_kernel the session
    (and its kernel) stays up for the caller to measure, and must be deleted by it.
    """
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    headers = {"Authorization": f"token {token}"}
    t0 = time.perf_counter()
    async with httpx.AsyncClient(timeout=30.0, headers=headers) as http:
        r = await http.get(f"{server_url}/api/contents/{path}")
        if r.status_code != 200:
            raise HubError(f"{path} not readable in {server_url}: {r.status_code}")
        cells = [c for c in r.json()["content"]["cells"] if c["cell_type"] == "code"]
        r = await http.post(
            f"{server_url}/api/sessions",
            json={"path": path, "type": "notebook", "name": path.rsplit("/", 1)[-1], "kernel": {"name": "python3"}},
        )
        if r.status_code != 201:
            raise HubError(f"could not start a kernel for {path}: {r.status_code} {r.text[:200]}")
        sess = r.json()
        ws_url = server_url.replace("http://", "ws://") + f"/api/kernels/{sess['kernel']['id']}/channels"
        result = {"errors": [], "outputs": [], "session": sess["id"]}
        ws = None
        try:
            ws = await asyncio.wait_for(websocket_connect(HTTPRequest(ws_url, headers=headers)), CELL_DEADLINE)
            await _run_cells(ws, cells, extra_cells, result)
        finally:
            if ws is not None:
                ws.close()
            result["seconds"] = time.perf_counter() - t0
            if not keep_kernel:
                await http.delete(f"{server_url}/api/sessions/{sess['id']}")
    return result


async def _run_cells(ws, cells: list[dict], extra_cells: tuple[str, ...], result: dict) -> None:
    """The notebook's code cells in order (stop at the first unexpected error), then the extras."""
    session = uuid.uuid4().hex
    for index, cell in enumerate(cells):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        status, outputs = await _execute(ws, source, session, CELL_DEADLINE)
        if status != "ok" and "raises-exception" not in cell["metadata"].get("tags", []):
            err = next((o for o in outputs if o["type"] == "error"), {})
            result["errors"].append(f"code cell {index}: {err.get('ename')}: {err.get('evalue')}\n{source[:300]}")
            return
    for code in extra_cells:
        _, outputs = await _execute(ws, code, session, CELL_DEADLINE)
        result["outputs"].append(outputs)


def text_of(outputs: list[dict]) -> str:
    """The plain text a cell printed or returned."""
    parts = []
    for o in outputs:
        if o["type"] == "stream":
            parts.append(o["text"])
        elif o["type"] in ("execute_result", "display_data"):
            parts.append(o["data"].get("text/plain", ""))
        elif o["type"] == "error":
            parts.append(f"{o['ename']}: {o['evalue']}")
    return "".join(parts)
