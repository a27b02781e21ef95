# JupyterHub configuration for one workshop room on one machine: `make hub`.
#
# Read by `jupyterhub -f classroom/hub/jupyterhub_config.py` (JupyterHub 6.1, the `teach`
# extra).  Everything a teacher may want to change comes from environment variables:
#
#   MCP_LAB_HUB_PORT            public port on 127.0.0.1 (default 8000)
#   MCP_LAB_HUB_PASSWORD        the workshop password, 8+ characters (default: one generated
#                               on the first start and kept in the data folder)
#   MCP_LAB_HUB_LEARNERS        optional roster "ana,ben,...": only these names may log in
#                               (default: any name, with the password)
#   MCP_LAB_HUB_ADMIN_PASSWORD  optional, 32+ characters: the user `teacher` logs in with it
#                               as the hub's admin (sees and stops every learner's server)
#   MCP_LAB_HUB_DATA            data folder: database, cookie secret, learners' homes
#                               (default .hub/ in the checkout)
#   MCP_LAB_HUB_IDLE_MINUTES    an idle learner's server is stopped after this (default 60)
#   MCP_LAB_HUB_MAX_LEARNERS    most servers running at once (default 20; see README capacity)
#   MCP_LAB_HUB_API_PORT, MCP_LAB_HUB_PROXY_API_PORT
#                               the hub's and the proxy's internal ports on 127.0.0.1
#                               (default: the public port + 1 and + 2)
#
# What it trusts: every learner's server runs as the hub's own user on this machine, so learners
# can read each other's files.  Fine for a workshop of people who trust each other; not for an
# open class (README, "A workshop on one machine").

import os
import secrets
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from course_spawner import CourseSpawner  # noqa: E402


def _fail(message):
    """One line saying what is wrong and what to do, instead of a traceback."""
    raise SystemExit(f"mcp_lab hub: {message}")


def _port(name, default):
    raw = os.environ.get(name, str(default))
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        _fail(f"{name}={raw!r} is not a port number (1-65535)")
    return int(raw)


def _positive(name, default):
    raw = os.environ.get(name, str(default))
    if not raw.isdigit() or int(raw) < 1:
        _fail(f"{name}={raw!r} must be a whole number of at least 1")
    return int(raw)


def _workshop_password(data):
    password = os.environ.get("MCP_LAB_HUB_PASSWORD", "")
    if password:
        if len(password) < 8:
            _fail("MCP_LAB_HUB_PASSWORD must have at least 8 characters")
        return password
    kept = data / "workshop-password"
    if not kept.exists():
        kept.write_text(secrets.token_urlsafe(9) + "\n", encoding="utf-8")
        kept.chmod(0o600)
    return kept.read_text(encoding="utf-8").strip()


PORT = _port("MCP_LAB_HUB_PORT", 8000)
DATA = Path(os.environ.get("MCP_LAB_HUB_DATA") or CHECKOUT / ".hub").resolve()
DATA.mkdir(parents=True, exist_ok=True)
PASSWORD = _workshop_password(DATA)
IDLE_MINUTES = _positive("MCP_LAB_HUB_IDLE_MINUTES", 60)
PROXY = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if not PROXY.exists():
    _fail(f"configurable-http-proxy is not installed in {HERE}; run `make hub` (it runs npm ci)")

# A hub started in the background by a non-interactive shell inherits SIGINT as "ignored", and
# so would every process it starts: the idle culler then survives the hub's polite stop for
# half a minute.  Give the hub and its children the ordinary Ctrl-C behaviour back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

c = get_config()  # noqa: F821 (provided by JupyterHub when it reads this file)

# -- where it listens and keeps its state ------------------------------------------------------
c.JupyterHub.bind_url = f"http://127.0.0.1:{PORT}/"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = _port("MCP_LAB_HUB_API_PORT", PORT + 1)
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{_port('MCP_LAB_HUB_PROXY_API_PORT', PORT + 2)}"
c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.ConfigurableHTTPProxy.pid_file = str(DATA / "proxy.pid")
c.JupyterHub.pid_file = str(DATA / "hub.pid")
c.JupyterHub.db_url = f"sqlite:///{DATA / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(DATA / "jupyterhub_cookie_secret")
# Stopping the hub stops every learner's server and the proxy: nothing is left running.
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# -- who may log in ----------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = PASSWORD
ROSTER = [n.strip() for n in os.environ.get("MCP_LAB_HUB_LEARNERS", "").split(",") if n.strip()]
if ROSTER:
    c.Authenticator.allowed_users = set(ROSTER)
else:
    c.Authenticator.allow_all = True
ADMIN_PASSWORD = os.environ.get("MCP_LAB_HUB_ADMIN_PASSWORD", "")
if ADMIN_PASSWORD:
    if len(ADMIN_PASSWORD) < 32 or ADMIN_PASSWORD == PASSWORD:
        _fail("MCP_LAB_HUB_ADMIN_PASSWORD must have 32+ characters and differ from the password")
    c.SharedPasswordAuthenticator.admin_password = ADMIN_PASSWORD
    c.Authenticator.admin_users = {"teacher"}

# -- one server per learner, each with its own copy of the course ------------------------------
c.JupyterHub.spawner_class = CourseSpawner
c.CourseSpawner.course_root = str(CHECKOUT)
c.CourseSpawner.home_dir_template = str(DATA / "homes" / "{username}")
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = ["--KernelManager.transport_encryption=auto"]
if os.getuid() == 0:
    c.Spawner.args.append("--ServerApp.allow_root=True")  # Jupyter refuses root otherwise
c.Spawner.default_url = "/lab/tree/notebooks/00-start-here.ipynb"
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60

# -- resource limits ---------------------------------------------------------------------------
# Enforced by the hub: how many servers run at once, how many start at once, idle culling.
c.JupyterHub.active_server_limit = _positive("MCP_LAB_HUB_MAX_LEARNERS", 20)
c.JupyterHub.concurrent_spawn_limit = 10
# Stated, not enforced: a local-process spawner only passes these to the server as MEM_LIMIT and
# CPU_LIMIT.  1 GB is about four times a measured learner (server + kernel + one bundled server,
# `make bench-hub`); Zero to JupyterHub or SystemdSpawner enforce such limits.
c.Spawner.mem_limit = "1G"
c.Spawner.cpu_limit = 1.0

# -- the idle culler (jupyterhub-idle-culler, a hub-managed service) ---------------------------
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={IDLE_MINUTES * 60}",
            "--cull-every=60",
        ],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]

print(
    f"mcp_lab workshop hub: http://127.0.0.1:{PORT}/  password: {PASSWORD}  "
    f"(learners' homes in {DATA / 'homes'}; idle servers stop after {IDLE_MINUTES} min)",
    file=sys.stderr,
    flush=True,
)
