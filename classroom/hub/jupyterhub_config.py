# JupyterHub configuration for one workshop room on one machine: `make hub` (run as root).
#
# Read by `jupyterhub -f classroom/hub/jupyterhub_config.py` (JupyterHub 6.1, the `teach`
# extra).  Everything a teacher may want to change comes from environment variables:
#
#   MCP_LAB_HUB_PORT            public port (default 8000)
#   MCP_LAB_HUB_PASSWORD        the workshop password, 8+ characters (default: one generated
#                               on the first start and kept in <data>/workshop-password, root's only)
#   MCP_LAB_HUB_PASSWORD_FILE   or: a file holding it (keep it mode 600, root's)
#   MCP_LAB_HUB_LEARNERS        optional roster "ana,ben,...": only these names may log in
#   MCP_LAB_HUB_LEARNERS_FILE   or: a file with one learner a line, the name then optionally the
#                               person's name for the gradebook: `ana Ana Lima` (# starts a comment)
#   MCP_LAB_HUB_ADMIN_PASSWORD  optional, 32+ characters: the user `teacher` logs in with it
#                               as the hub's admin and grader; without it nobody is `teacher`
#   MCP_LAB_HUB_NEW_GROUP       set to 1 for a new group: every earlier session is revoked
#                               (changing a password does the same)
#   MCP_LAB_HUB_DATA            data folder: database, secrets, learners' homes, the exchange
#                               (default .hub/ in the checkout)
#   MCP_LAB_HUB_USER_PREFIX     prefix of the learners' system users (default mcpl-)
#   MCP_LAB_HUB_IDLE_MINUTES    an idle learner's server is stopped after this (default 180:
#                               a learner listening for an hour keeps their kernels)
#   MCP_LAB_HUB_KERNEL_IDLE_MINUTES
#                               an idle kernel inside a server is shut down after this, even
#                               with its notebook open (default 40; a busy kernel is kept)
#   MCP_LAB_HUB_MAX_LEARNERS    most learners' servers running at once (default 20; the
#                               teacher's server comes on top; see docs capacity)
#   MCP_LAB_HUB_SSL_CERT, MCP_LAB_HUB_SSL_KEY
#                               the teacher's certificate and key: the hub serves HTTPS
#   MCP_LAB_HUB_IP              the address it listens on (default 127.0.0.1; 0.0.0.0 for a
#                               room, with the two TLS settings above or a TLS proxy in front)
#   MCP_LAB_HUB_API_PORT, MCP_LAB_HUB_PROXY_API_PORT, MCP_LAB_HUB_ROOM_PORT
#                               the hub's, the proxy's and the room view's internal ports on
#                               127.0.0.1 (default: the public port + 1, + 2 and + 3)
#
# What it trusts: docs/teaching.md, "What this trusts".  Each learner is a system user of their
# own; the hub's secrets and the course's sources are root's.

import os
import signal
import stat
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parents[1]
sys.path.insert(0, str(HERE))

# The hub's own process runs tools of this environment by name (nbgrader's Gradebook runs `alembic`
# when the teacher's server starts): put this interpreter's scripts first on its PATH, whoever
# started it (make hub puts them there; a test or a service manager may not).
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])

import course_accounts  # noqa: E402
import hub_state  # noqa: E402
import learner_runtime  # noqa: E402
from course_auth import CourseAuthenticator  # noqa: E402
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


def _secret_file(name):
    """The text of the file named by the environment variable `name`, or "" when it is unset."""
    try:
        return hub_state.secret_file(os.environ.get(name, ""))
    except hub_state.SettingError as e:
        _fail(f"{name}={e}")


def _workshop_password(data):
    """(password, where a person finds it): never the password itself in a log."""
    password = os.environ.pop("MCP_LAB_HUB_PASSWORD", "")
    where = "MCP_LAB_HUB_PASSWORD"
    if not password and os.environ.get("MCP_LAB_HUB_PASSWORD_FILE"):
        password, where = _secret_file("MCP_LAB_HUB_PASSWORD_FILE"), os.environ["MCP_LAB_HUB_PASSWORD_FILE"]
    if password:
        if len(password) < 8:
            _fail("MCP_LAB_HUB_PASSWORD must have at least 8 characters")
        return password, f"as given in {where}"
    return hub_state.generated_password(data), f"in {data / 'workshop-password'} (root only: sudo cat it)"


def _roster():
    try:
        return hub_state.roster(
            os.environ.get("MCP_LAB_HUB_LEARNERS", ""), os.environ.get("MCP_LAB_HUB_LEARNERS_FILE", "")
        )
    except hub_state.SettingError as e:
        _fail(str(e))


def _reachable(path, what, fix):
    """Learners' accounts must pass through every folder above `path` (their homes, the package)."""
    for folder in [path, *path.parents]:
        if not os.stat(folder).st_mode & 0o001:
            _fail(f"learners' accounts cannot reach {what}: {folder} is not passable by others (chmod o+x it, {fix})")


def _checkout_reachable():
    """Learners' servers import this checkout's package; no learner may be able to change it."""
    _reachable(CHECKOUT, "the checkout", "or clone the course under /opt or /srv")
    for folder, dirs, files in os.walk(CHECKOUT / "mcp_lab"):
        for n in [".", *dirs, *files]:
            mode = os.lstat(os.path.join(folder, n)).st_mode
            if mode & 0o002 and not stat.S_ISLNK(mode):
                _fail(f"{os.path.join(folder, n)} is writable by everyone: learners could change it (chmod o-w)")


if os.getuid() != 0:
    _fail("the hub gives every learner a system user of their own, so it runs as root: sudo make hub")
if not course_accounts.useradd_available():
    _fail("useradd is not on this machine (package passwd); the hub makes a system user per learner with it")
if 0 < len(os.environ.get("MCP_LAB_HUB_PASSWORD", "")) < 8:
    _fail("MCP_LAB_HUB_PASSWORD must have at least 8 characters")
os.umask(0o077)  # whatever the hub writes (database, pid files, secrets) is root's only
PORT = _port("MCP_LAB_HUB_PORT", 8000)
DATA = Path(os.environ.get("MCP_LAB_HUB_DATA") or CHECKOUT / ".hub").resolve()
_reachable(DATA.parent, "their homes", "or set MCP_LAB_HUB_DATA to a folder under /srv")
hub_state.prepare(DATA)
PASSWORD, PASSWORD_WHERE = _workshop_password(DATA)
ADMIN_PASSWORD = os.environ.pop("MCP_LAB_HUB_ADMIN_PASSWORD", "")
if ADMIN_PASSWORD and (len(ADMIN_PASSWORD) < 32 or ADMIN_PASSWORD == PASSWORD):
    _fail("MCP_LAB_HUB_ADMIN_PASSWORD must have 32+ characters and differ from the password")
NEW_GROUP = os.environ.get("MCP_LAB_HUB_NEW_GROUP", "") not in ("", "0")
if hub_state.passwords_changed(DATA, [PASSWORD, ADMIN_PASSWORD]) or NEW_GROUP:
    revoked = hub_state.revoke_sessions(DATA)
    print(f"mcp_lab hub: every earlier session revoked ({revoked} tokens, new cookie secret)", file=sys.stderr)
IDLE_MINUTES = _positive("MCP_LAB_HUB_IDLE_MINUTES", 180)
KERNEL_IDLE_MINUTES = _positive("MCP_LAB_HUB_KERNEL_IDLE_MINUTES", 40)
MAX_LEARNERS = _positive("MCP_LAB_HUB_MAX_LEARNERS", 20)
PREFIX = os.environ.get("MCP_LAB_HUB_USER_PREFIX", course_accounts.DEFAULT_PREFIX)
if course_accounts.prefix_problem(PREFIX):
    _fail(f"MCP_LAB_HUB_USER_PREFIX={course_accounts.prefix_problem(PREFIX)}")
SSL_CERT, SSL_KEY = os.environ.get("MCP_LAB_HUB_SSL_CERT", ""), os.environ.get("MCP_LAB_HUB_SSL_KEY", "")
if bool(SSL_CERT) != bool(SSL_KEY):
    _fail("set both MCP_LAB_HUB_SSL_CERT and MCP_LAB_HUB_SSL_KEY (the certificate and its key), or neither")
PROXY = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if not PROXY.exists():
    _fail(f"configurable-http-proxy is not installed in {HERE}; run `make hub` (it runs npm ci)")
_checkout_reachable()
# The teacher's sources and the worked solutions are root's (git's history holds them too).
for private in ("labs/solutions", "labs/pt-BR/solutions", "labs/source", ".git"):
    if (CHECKOUT / private).is_dir():
        (CHECKOUT / private).chmod(0o700)
if (CHECKOUT / ".git").is_file():
    print(
        "mcp_lab hub: this checkout is a git worktree; its repository (named in .git) holds the "
        "solutions in its history: keep that folder unreadable by others (chmod 700)",
        file=sys.stderr,
    )
LEARNER_PYTHON, LEARNER_ENV = learner_runtime.build(DATA / "runtime", Path(sys.prefix))
LEARNER_CONFIG, TEACHER_CONFIG = hub_state.write_server_configs(
    DATA,
    DATA / "homes" / course_accounts.TEACHER,
    LEARNER_PYTHON.parent,
    KERNEL_IDLE_MINUTES,
    HERE / "learner_exchange.py",
)
if ADMIN_PASSWORD:
    _teacher = course_accounts.system_name(course_accounts.TEACHER, PREFIX)
    _entry = course_accounts.ensure_system_user(_teacher, DATA / "homes" / course_accounts.TEACHER, "mcp_lab teacher")
    hub_state.prepare_exchange_course(DATA, _entry.pw_uid, _entry.pw_gid)

# A hub started in the background by a non-interactive shell inherits SIGINT as "ignored", and
# so would every process it starts: the idle culler then survives the hub's polite stop for
# half a minute.  Give the hub and its children the ordinary Ctrl-C behaviour back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

c = get_config()  # noqa: F821 (provided by JupyterHub when it reads this file)

# -- where it listens and keeps its state ------------------------------------------------------
SCHEME = "https" if SSL_CERT else "http"
IP = os.environ.get("MCP_LAB_HUB_IP", "127.0.0.1")
if IP not in ("127.0.0.1", "localhost", "::1") and not SSL_CERT:
    print(
        f"mcp_lab hub: serving plain HTTP on {IP}: passwords cross the network readable; give the hub "
        "MCP_LAB_HUB_SSL_CERT and MCP_LAB_HUB_SSL_KEY, or a TLS proxy in front (docs/teaching.md, HTTPS)",
        file=sys.stderr,
    )
c.JupyterHub.bind_url = f"{SCHEME}://{IP}:{PORT}/"
if SSL_CERT:
    c.JupyterHub.ssl_cert = SSL_CERT
    c.JupyterHub.ssl_key = SSL_KEY
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
c.JupyterHub.authenticator_class = CourseAuthenticator
c.CourseAuthenticator.user_password = PASSWORD
ROSTER = _roster()
c.CourseAuthenticator.roster = ROSTER  # its names are made users at start (the admin page lists them)
if ROSTER:
    c.Authenticator.allowed_users = ROSTER
else:
    c.Authenticator.allow_all = True
# `teacher` is an admin name from the first start: the workshop password never opens it, and
# without an admin password nobody logs in as `teacher`.
c.Authenticator.admin_users = {course_accounts.TEACHER}
if ADMIN_PASSWORD:
    c.CourseAuthenticator.admin_password = ADMIN_PASSWORD

# -- one server per learner, as their own system user, with their own copy of the course -------
c.JupyterHub.spawner_class = CourseSpawner
c.CourseSpawner.course_root = str(CHECKOUT)
c.CourseSpawner.homes = str(DATA / "homes")
c.CourseSpawner.system_prefix = PREFIX
c.CourseSpawner.learner_config = str(LEARNER_CONFIG)
c.CourseSpawner.teacher_config = str(TEACHER_CONFIG)
c.CourseSpawner.people = hub_state.roster_people(os.environ.get("MCP_LAB_HUB_LEARNERS_FILE", ""))
c.Spawner.environment = LEARNER_ENV
c.Spawner.cmd = [str(LEARNER_PYTHON), "-m", "jupyterhub.singleuser"]
c.Spawner.args = ["--KernelManager.transport_encryption=auto"]
c.Spawner.default_url = "/lab/tree/notebooks/00-start-here.ipynb"
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60
# -- resource limits ---------------------------------------------------------------------------
# Enforced by the hub: how many servers run at once, how many start at once, idle culling.
# The limit counts every running server; the teacher's is the one that is not a learner's.
c.JupyterHub.active_server_limit = MAX_LEARNERS + 1
c.JupyterHub.concurrent_spawn_limit = 10
# Stated, not enforced: a local-process spawner only passes these to the server as MEM_LIMIT and
# CPU_LIMIT.  1 GB is about twice a measured learner with five notebooks open (553 MB RSS,
# `make bench-hub`); the capacity rule in docs/teaching.md keeps headroom for their absence.
# Zero to JupyterHub or SystemdSpawner enforce such limits.
c.Spawner.mem_limit = "1G"
c.Spawner.cpu_limit = 1.0

# -- hub-managed services: the idle culler (jupyterhub-idle-culler) and the teacher's room view --
ROOM_PORT = _port("MCP_LAB_HUB_ROOM_PORT", PORT + 3)
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
    },
    {
        # /services/room/: each learner's notebook, progress, waiting interactions, lab checks.
        # Users need access:services!service=room, which only admins (the teacher) have.
        "name": "room",
        "url": f"http://127.0.0.1:{ROOM_PORT}",
        "command": [sys.executable, str(HERE / "room_service.py")],
        "oauth_no_confirm": True,
        "environment": {"MCP_LAB_ROOM_HOMES": str(DATA / "homes"), "MCP_LAB_ROOM_TEACHER": course_accounts.TEACHER},
    },
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    },
    {"name": "room", "scopes": ["list:users", "read:users:activity", "read:servers"], "services": ["room"]},
]

print(
    f"mcp_lab workshop hub: {SCHEME}://{IP}:{PORT}/  the workshop password is {PASSWORD_WHERE}  "
    f"(learners' homes in {DATA / 'homes'}; up to {MAX_LEARNERS} learners; idle servers stop after "
    f"{IDLE_MINUTES} min, idle kernels after {KERNEL_IDLE_MINUTES} min)",
    file=sys.stderr,
    flush=True,
)
