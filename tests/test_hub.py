"""The workshop hub (classroom/hub/, `make hub`) with five learners, end to end, and a hostile one.

The real JupyterHub with the project's config and the pinned configurable-http-proxy, started
once for the whole file (a module fixture; one restart, for the password change, at the end).
Five learners log in through the hub's REST API with the workshop password; their servers
start, each as the learner's own system user; the requests-by-hand lab's solution runs in every
learner's server (through the Jupyter server's kernel websocket, as JupyterLab runs it).  Then
one learner, ana, tries from her kernel what a hostile learner tried on the hub before it kept
learners apart (issue 24): each attempt must fail.  A submission goes through nbgrader's
exchange to the teacher, is autograded, and its feedback comes back to ana.  After the hub stops
no process it started is left, and the system users it made are removed.  Select with `-m hub`.

The hub runs as root (it switches to each learner's uid); elsewhere these tests say so and skip.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import pwd
import re
import shutil
import signal
import ssl
import stat
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from _support.hub import ADMIN_PASSWORD, HUB_CONFIG, PASSWORD, ROOT, WorkshopHub, run_notebook, text_of

pytestmark = pytest.mark.hub

LEARNERS = ["ana", "bruno", "chidi", "dara", "emil"]
LAB = "05-requests-by-hand"
NEW_PASSWORD = "next-group-2026"


def solution_notebook() -> Path:
    found = ROOT / "labs" / "solutions" / f"{LAB}.ipynb"
    if not found.is_file():
        pytest.fail(f"expected the {LAB} solution at {found}", pytrace=False)
    return found


@pytest.fixture(scope="module")
def room():
    """One hub for the file: five learners logged in, their servers ready; removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("the hub runs as root: it gives every learner a system user of their own")
    # Learners' accounts must pass through the folders above their homes (pytest's own tmp is 700).
    data = Path(tempfile.mkdtemp(prefix="mcp-lab-hub-"))
    data.chmod(0o711)
    hub = WorkshopHub(data / "hub", LEARNERS)
    try:
        hub.start()
        t0 = time.perf_counter()

        def arrive(name: str) -> None:  # as a room of browsers does: everyone at once
            hub.login(name, ADMIN_PASSWORD if name == "teacher" else PASSWORD)
            hub.start_server(name)  # the hub answers once the server is up or after 10 s
            hub.wait_ready(name)

        with ThreadPoolExecutor(len(LEARNERS) + 1) as pool:
            # the teacher (the submission test's grader) arrives with the room
            list(pool.map(arrive, [*LEARNERS, "teacher"]))
        hub.ready_seconds = time.perf_counter() - t0
        yield hub
    finally:
        left = hub.stop()
        removed = hub.remove_accounts()
        shutil.rmtree(data, ignore_errors=True)
    assert not left, f"processes left after the hub stopped: {left}"
    assert {hub.system_user(n) for n in LEARNERS} <= set(removed), removed


# -- five learners, each their own ------------------------------------------------------------


def _put(hub: WorkshopHub, name: str, path: str, model: dict) -> None:
    r = hub.http.put(f"{hub.server_url(name)}/api/contents/{path}", headers=hub.headers(name), json=model)
    assert r.status_code in (200, 201), f"saving {path} for {name}: {r.status_code} {r.text[:200]}"


def _home_listing(hub: WorkshopHub, name: str, path: str = "") -> set[str]:
    r = hub.http.get(f"{hub.server_url(name)}/api/contents/{path}", headers=hub.headers(name))
    assert r.status_code == 200, f"listing {path!r} for {name}: {r.status_code}"
    return {item["name"] for item in r.json()["content"]}


def _check_kernels(hub: WorkshopHub, name: str) -> None:
    r = hub.http.get(f"{hub.server_url(name)}/api/kernelspecs", headers=hub.headers(name))
    assert r.status_code == 200, f"kernelspecs for {name}: {r.status_code}"
    names = set(r.json()["kernelspecs"])
    assert {"python3", "mcp-wire"} <= names, f"{name}'s server lacks a course kernel: {sorted(names)}"


def _check_course_copy(hub: WorkshopHub, name: str) -> None:
    top = _home_listing(hub, name)
    assert {"notebooks", "labs"} <= top, f"{name}'s home lacks the course: {sorted(top)}"
    labs = _home_listing(hub, name, "labs")
    assert not {"solutions", "source"} & labs, f"{name} was handed the solutions: {sorted(labs)}"
    assert f"{LAB}.ipynb" in labs, sorted(labs)


WHO_AM_I = (
    "import os; print(os.path.realpath(os.environ['HOME']), os.getuid(), os.getgid())",
    "print(open(os.path.expanduser('~/whoami.txt')).read())",
    # A bundled server starts from the learner's kernel, as the learner.
    "import mcp_lab\n_s = mcp_lab.connect('calendar')\nprint(len(_s.request('tools/list').unwrap()['tools']) > 0)\n_s.close()\n",
    # ... and the pinned Node reference server (the checkout's node_modules, read-only to learners).
    "_s = mcp_lab.connect('everything')\nprint(len(_s.request('tools/list').unwrap()['tools']) > 0)\n_s.close()\n",
)


def test_five_learners_each_run_the_lab_as_their_own_user(room: WorkshopHub) -> None:
    hub, data = room, room.data
    lab_path = f"labs/{LAB}.ipynb"
    content = json.loads(solution_notebook().read_text(encoding="utf-8"))
    for name in LEARNERS:
        _check_course_copy(hub, name)
        _check_kernels(hub, name)
        _put(hub, name, lab_path, {"type": "notebook", "format": "json", "content": content})
        _put(hub, name, "whoami.txt", {"type": "file", "format": "text", "content": name})

    async def everyone():
        return await asyncio.gather(
            *(run_notebook(hub.server_url(n), hub.tokens[n], lab_path, WHO_AM_I) for n in LEARNERS)
        )

    results = asyncio.run(everyone())
    hub.remember_processes()
    for name, result in zip(LEARNERS, results):
        assert not result["errors"], f"{name}'s run of {lab_path} failed: {result['errors']}"
        who, whoami, served, node = (text_of(o).strip().splitlines()[0] for o in result["outputs"])
        account = pwd.getpwnam(hub.system_user(name))
        home = (data / "homes" / name).resolve()
        assert who == f"{home} {account.pw_uid} {account.pw_gid}", f"{name}'s kernel: {who!r}"
        assert account.pw_uid != 0, f"{name} runs as root"
        assert whoami == name and served == node == "True", (whoami, served, node)
        info = home.stat()
        assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (account.pw_uid, 0o700), f"{name}'s home: {info}"
        server = hub.learner_process(name)
        assert server.uids().real == account.pw_uid, f"{name}'s server runs as uid {server.uids()}"
        assert "--ServerApp.allow_root=True" not in server.cmdline(), server.cmdline()
        other = LEARNERS[(LEARNERS.index(name) + 1) % len(LEARNERS)]
        r = hub.http.get(f"{hub.server_url(other)}/api/contents/", headers=hub.headers(name), follow_redirects=False)
        assert r.status_code == 403, f"{name}'s token opened {other}'s server: {r.status_code}"
    homes = sorted(p.name for p in (data / "homes").iterdir())
    assert homes == sorted([*LEARNERS, "teacher"]), f"one home per learner expected, found {homes}"
    assert "200 GET /hub/api/users?state=[secret] (idle-culler@127.0.0.1)" in hub.log_tail(10_000), (
        "the idle culler never listed the users:\n" + hub.log_tail()
    )
    runs = ", ".join(f"{r['seconds']:.1f}" for r in results)
    print(f"5 servers ready in {hub.ready_seconds:.1f} s; lab runs {runs} s")


# -- a hostile learner ------------------------------------------------------------------------

ATTACKS = r"""
import json, os
targets = json.loads(TARGETS)
def attempt(what, action):
    try:
        got = action()
    except OSError as e:
        return [what, "refused", type(e).__name__]
    return [what, "SUCCEEDED", repr(got)[:120]]
def read(path):
    with open(path, "rb") as f:
        return f.read(200)
def write(path):
    os.close(os.open(path, os.O_WRONLY))  # opened for writing: proof enough, nothing written
    return "opened for writing"
def create(folder):
    with open(os.path.join(folder, "check_always_passes.py"), "x") as f:
        f.write("# a learner's\n")
    return "created"
out = [attempt(f"read {k}'s environment", lambda p=p: read(f"/proc/{p}/environ")) for k, p in targets["pids"].items()]
out += [attempt(f"read {k}", lambda p=p: read(p)) for k, p in targets["files"].items()]
out += [attempt(f"list {k}", lambda p=p: os.listdir(p)) for k, p in targets["folders"].items()]
out += [attempt(f"write {k}", lambda p=p: write(p)) for k, p in targets["writable"].items()]
out += [attempt("add a module to the checkers' package", lambda: create(targets["package"]))]
print(json.dumps(out))
"""


def _attack_targets(hub: WorkshopHub) -> dict:
    import psutil

    hub_proc = psutil.Process(hub.proc.pid)
    proxy = next(p for p in hub_proc.children(recursive=True) if "configurable-http-proxy" in " ".join(p.cmdline()))
    checker = ROOT / "mcp_lab" / "course" / "check_requests.py"
    targets = {
        "pids": {"the hub": hub.proc.pid, "the proxy": proxy.pid, "bruno's server": hub.learner_process("bruno").pid},
        "files": {
            "the cookie secret": str(hub.data / "jupyterhub_cookie_secret"),
            "the hub's database": str(hub.data / "jupyterhub.sqlite"),
            "a solution": str(ROOT / "labs" / "solutions" / f"{LAB}.ipynb"),
            "a lab's source": str(ROOT / "labs" / "source" / LAB / f"{LAB}.ipynb"),
            "/etc/shadow": "/etc/shadow",
        },
        "folders": {
            "bruno's home": str(hub.data / "homes" / "bruno"),
            "the solutions": str(ROOT / "labs" / "solutions"),
            "the hub's data folder": str(hub.data),
        },
        "writable": {"a checker's source": str(checker), "the hub's config": str(HUB_CONFIG)},
        "package": str(checker.parent),
    }
    if (ROOT / ".git").is_dir():  # a clone's history holds the solutions (a worktree's is elsewhere)
        targets["files"]["git's history"] = str(ROOT / ".git" / "HEAD")
    return targets


def run_attacks(hub: WorkshopHub, name: str) -> list[list[str]]:
    """Every attempt of ATTACKS from `name`'s kernel: [what, "refused" | "SUCCEEDED", detail]."""
    scratch = "attack.ipynb"
    _put(hub, name, scratch, {"type": "notebook", "format": "json", "content": _empty_notebook()})
    cell = f"TARGETS = {json.dumps(json.dumps(_attack_targets(hub)))}\n" + ATTACKS
    result = asyncio.run(run_notebook(hub.server_url(name), hub.tokens[name], scratch, (cell,)))
    printed = text_of(result["outputs"][0]).strip()
    assert printed.startswith("["), f"the attack cell did not run: {printed[:500]}"
    return json.loads(printed)


def _empty_notebook() -> dict:
    return {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_a_learner_cannot_become_the_teacher_or_another_learner(room: WorkshopHub) -> None:
    hub = room
    outcomes = run_attacks(hub, "ana")
    print("\n".join(f"  {what}: {verdict} ({detail})" for what, verdict, detail in outcomes))
    succeeded = [o for o in outcomes if o[1] != "refused"]
    assert len(outcomes) >= 14 and not succeeded, f"attacks that worked from ana's kernel: {succeeded}"
    # The workshop password never opens the teacher's name (reserved from the first start).
    r = hub.http.post(
        f"{hub.url}/hub/api/users/teacher/tokens", json={"auth": {"username": "teacher", "password": PASSWORD}}
    )
    assert r.status_code == 403, f"teacher with the workshop password: {r.status_code}"
    # Secrets on disk: root's only, and the banner names where the password is, never the password.
    for secret in ("jupyterhub_cookie_secret", "jupyterhub.sqlite", "password-fingerprint"):
        assert stat.S_IMODE((hub.data / secret).stat().st_mode) == 0o600, secret
    assert stat.S_IMODE(hub.data.stat().st_mode) == 0o711
    log = hub.log_path.read_text(encoding="utf-8", errors="replace")
    assert PASSWORD not in log and ADMIN_PASSWORD not in log, "a password was written into the hub's log"
    assert "the workshop password is as given in MCP_LAB_HUB_PASSWORD" in log, log[:600]


def _login_form(hub: WorkshopHub, name: str, password: str) -> tuple[int, str]:
    """The login page as a browser posts it: (status, the page's error sentence or '')."""
    import httpx

    with httpx.Client(timeout=30.0) as browser:
        browser.get(f"{hub.url}/hub/login")
        r = browser.post(
            f"{hub.url}/hub/login",
            data={"username": name, "password": password, "_xsrf": browser.cookies.get("_xsrf", "")},
            headers={"Sec-Fetch-Mode": "navigate"},
        )
    found = re.search(r'<p class="login_error">\s*(.*?)\s*</p>', r.text, re.S)
    return r.status_code, html.unescape(found.group(1)) if found else ""


@pytest.mark.parametrize(
    "typed, says",
    [
        ("ana\u200b", "U+200B"),
        ("x" * 300, "this one has 300 characters"),
        ("teacher", "reserved for the course's teacher"),
        ("zoe", "not on this workshop's list of learners"),
        ("ana/../bruno", "'/' is not allowed"),
    ],
)
def test_a_name_that_is_not_plain_gets_one_sentence(room: WorkshopHub, typed: str, says: str) -> None:
    status, error = _login_form(room, typed, PASSWORD)
    assert status == 403 and says in error, f"{typed[:20]!r}: {status} {error!r}"


def test_names_are_normalised(room: WorkshopHub) -> None:
    """Full-width and upper-case forms of a roster name are that name (NFKC, lower case)."""
    r = room.http.post(
        f"{room.url}/hub/api/users/ana/tokens", json={"auth": {"username": "ＡＮＡ", "password": PASSWORD}}
    )
    assert r.status_code == 201, f"'ＡＮＡ' should log in as ana: {r.status_code} {r.text[:200]}"


# -- submission, grading, feedback ------------------------------------------------------------

# What the formgrader's buttons call (nbgrader's NbGraderAPI), in one process of the teacher's
# kernel; the same steps as the commands in docs/teaching.md.
TEACHER_API = r"""
import json, os
from jupyter_core.paths import jupyter_config_path
from nbgrader.apps import NbGrader, NbGraderAPI
course = os.path.expanduser("~/course")
os.chdir(course)
app = NbGrader()
app.config_file_paths.extend([*jupyter_config_path(), course])
app.load_config_file()
api = NbGraderAPI(config=app.config)
def step(name, *args):
    done = getattr(api, name)(*args)
    return [name, done["success"], done.get("log", "")[-3000:] + done.get("error", "")[-3000:]]
def cli(*args):  # the command a teacher types in her Lab's terminal
    import subprocess
    done = subprocess.run(["nbgrader", *args], cwd=course, capture_output=True, text=True, timeout=300)
    return [" ".join(args), done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]]
"""


def _teacher_runs(hub: WorkshopHub, steps: str) -> list:
    """Run `steps` (a list expression of step(...) calls) in the teacher's kernel; all must succeed."""
    scratch = "grading.ipynb"
    _put(hub, "teacher", scratch, {"type": "notebook", "format": "json", "content": _empty_notebook()})
    code = TEACHER_API + f"print(json.dumps([{steps}]))"
    result = asyncio.run(run_notebook(hub.server_url("teacher"), hub.tokens["teacher"], scratch, (code,)))
    outputs = result["outputs"][0]
    printed = "".join(o["text"] for o in outputs if o["type"] == "stream" and o["name"] == "stdout").strip()
    printed = printed or text_of(outputs)  # an error's own text, for the message below
    assert printed.startswith("["), f"the teacher's cell failed: {printed[-1500:]}"
    done = json.loads(printed)
    for name, success, log in done:
        assert success, f"nbgrader {name} failed:\n{log}"
    return done


def _assignments(hub: WorkshopHub, name: str, action: str = "") -> list:
    """nbgrader's assignment list in `name`'s Lab (the Assignments tab's own requests)."""
    url = f"{hub.server_url(name)}/assignments" + (f"/{action}" if action else "")
    args = {"course_id": "mcp_lab", "assignment_id": LAB}
    if action:
        r = hub.http.post(url, headers=hub.headers(name), data=args, timeout=300)
    else:
        r = hub.http.get(url, headers=hub.headers(name), params=args, timeout=300)
    assert r.status_code == 200, f"{name}: assignments/{action} answered {r.status_code}: {r.text[:300]}"
    answer = r.json()
    assert answer.get("success", True), f"{name}: assignments/{action}: {str(answer)[:800]}"
    return answer["value"]


def test_a_submission_is_graded_and_its_feedback_returned(room: WorkshopHub) -> None:
    hub = room
    hub.wait_ready("teacher")
    # Grading is the teacher's: learners' servers have no formgrader.
    assert (
        hub.http.get(
            f"{hub.server_url('teacher')}/formgrader/api/assignments", headers=hub.headers("teacher")
        ).status_code
        == 200
    )
    r = hub.http.get(f"{hub.server_url('ana')}/formgrader/api/assignments", headers=hub.headers("ana"))
    assert r.status_code == 404, f"ana's server serves the formgrader: {r.status_code}"
    _teacher_runs(hub, f'step("generate_assignment", "{LAB}"), step("release_assignment", "{LAB}")')

    _assignments(hub, "ana", "fetch")
    solved = json.loads(solution_notebook().read_text(encoding="utf-8"))
    _put(hub, "ana", f"{LAB}/{LAB}.ipynb", {"type": "notebook", "format": "json", "content": solved})
    _assignments(hub, "ana", "submit")
    # ... and hands in the same work as bruno, straight into the exchange's inbound folder.
    bruno, inbound = hub.system_user("bruno"), hub.data / "exchange" / "mcp_lab" / "inbound"
    forge = (
        "import datetime, os, shutil\n"
        "stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S.%f UTC')\n"
        f"shutil.copytree(os.path.expanduser('~/{LAB}'), '{inbound}/{bruno}+{LAB}+' + stamp + '+forged')\n"
        "print('forged')"
    )
    _put(hub, "ana", "forge.ipynb", {"type": "notebook", "format": "json", "content": _empty_notebook()})
    forged = asyncio.run(run_notebook(hub.server_url("ana"), hub.tokens["ana"], "forge.ipynb", (forge,)))
    assert text_of(forged["outputs"][0]).strip() == "forged", text_of(forged["outputs"][0])

    ana = hub.system_user("ana")  # nbgrader's student id: the account that submitted
    steps = _teacher_runs(
        hub,
        f'step("collect", "{LAB}"), step("autograde", "{LAB}", "{ana}"), '
        f'step("generate_feedback", "{LAB}", "{ana}"), step("release_feedback", "{LAB}", "{ana}"), '
        'cli("db", "student", "list")',
    )
    assert f"it names {bruno} but was made by {ana}" in steps[0][2], steps[0][2]
    assert ana in steps[-1][2], f"the CLI's gradebook does not list {ana}: {steps[-1][2]}"
    submitted = sorted(p.name for p in (hub.data / "homes" / "teacher" / "course" / "submitted").iterdir())
    assert submitted == [ana], f"collected for {submitted}: a forged submission counted"
    autograde = steps[1][2]
    assert "cannot be converted to" not in autograde and "cheating attempt" not in autograde, autograde

    _assignments(hub, "ana", "fetch_feedback")
    feedback = hub.data / "homes" / "ana" / LAB / "feedback"
    pages = list(feedback.rglob(f"{LAB}.html"))
    assert len(pages) == 1, f"ana's feedback folder: {sorted(p.name for p in feedback.rglob('*'))}"
    assert re.search(r"Score: 10(\.0)? / 10", pages[0].read_text(encoding="utf-8")), "the solution's score"
    assert stat.S_IMODE(hub.data.joinpath("exchange").stat().st_mode) == 0o1777


def test_a_learner_resets_a_lab_in_her_home(room: WorkshopHub) -> None:
    """The lab's reset instruction works in a hub home (no git there): the template is back."""
    hub, mine = room, room.data / "homes" / "ana" / "labs" / f"{LAB}.ipynb"
    template = (ROOT / "labs" / f"{LAB}.ipynb").read_bytes()
    assert mine.read_bytes() != template, "ana's copy should hold her (solved) edits before the reset"
    cell = (
        "import subprocess, sys\n"
        f"done = subprocess.run([sys.executable, '-m', 'mcp_lab.course.reset', '{LAB}'], capture_output=True, text=True)\n"
        "print(done.returncode, done.stdout, done.stderr)"
    )
    _put(hub, "ana", "reset.ipynb", {"type": "notebook", "format": "json", "content": _empty_notebook()})
    result = asyncio.run(run_notebook(hub.server_url("ana"), hub.tokens["ana"], "reset.ipynb", (cell,)))
    printed = text_of(result["outputs"][0])
    assert printed.startswith("0 reset "), printed
    assert mine.read_bytes() == template, "the reset did not bring the template back"
    assert mine.stat().st_uid == pwd.getpwnam(hub.system_user("ana")).pw_uid


# -- a new password revokes every session (the one restart of the file) -----------------------


def test_a_new_password_revokes_every_session(room: WorkshopHub) -> None:
    import httpx

    hub = room
    browser = httpx.Client(timeout=30.0)
    browser.get(f"{hub.url}/hub/login")
    r = browser.post(
        f"{hub.url}/hub/login",
        data={"username": "bruno", "password": PASSWORD, "_xsrf": browser.cookies.get("_xsrf", "")},
        follow_redirects=False,
    )
    assert r.status_code == 302, f"bruno's form login: {r.status_code}"
    assert browser.get(f"{hub.url}/hub/home", follow_redirects=False).status_code == 200
    old_token = hub.tokens["bruno"]
    assert hub.stop() == []
    hub.env["MCP_LAB_HUB_PASSWORD"] = NEW_PASSWORD
    hub.start()
    try:
        r = browser.get(f"{hub.url}/hub/home", follow_redirects=False)
        assert r.status_code == 302 and "/hub/login" in r.headers["location"], f"old cookie: {r.status_code}"
        r = hub.http.get(f"{hub.url}/hub/api/user", headers={"Authorization": f"token {old_token}"})
        assert r.status_code == 403, f"an old token after the new password: {r.status_code}"
        assert "every earlier session revoked" in hub.log_tail(200)
        hub.login("bruno", NEW_PASSWORD)
        with pytest.raises(Exception, match="403"):
            hub.login("bruno", PASSWORD)
    finally:
        browser.close()


def test_wrong_settings_fail_in_one_line(tmp_path: Path) -> None:
    """A wrong setting stops the hub with one line that says what to do (the settings' own
    checks, case by case, are in tests/test_hub_accounts.py)."""
    settings, says = {"MCP_LAB_HUB_PASSWORD": "short"}, "MCP_LAB_HUB_PASSWORD must have at least 8 characters"
    if os.geteuid() != 0:
        says = "runs as root: sudo make hub"
    data = Path(tempfile.mkdtemp(prefix="mcp-lab-hub-"))
    data.chmod(0o711)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_LAB_HUB_")}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "jupyterhub", "-f", str(HUB_CONFIG)],
            cwd=tmp_path,
            env={**env, "MCP_LAB_HUB_DATA": str(data / "hub"), **settings},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        shutil.rmtree(data, ignore_errors=True)
    assert done.returncode != 0
    assert says in done.stderr, done.stderr[-500:]
    assert "Traceback" not in done.stderr, done.stderr[-800:]


# -- `make hub` itself, over HTTPS with the teacher's certificate -----------------------------


def _self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "hub.crt", folder / "hub.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    key.chmod(0o600)
    return cert, key


def _check_make_hub_plan() -> None:
    """`make hub` would not install the conformance suite (even with its lock changed), and
    passes NEW_GROUP=1 on to the hub."""
    plan = subprocess.run(
        ["make", "-n", "hub", "-W", "mcp_lab/conformance/suite/package-lock.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert plan.returncode == 0 and "conformance/suite" not in plan.stdout, plan.stdout[-800:]
    plan = subprocess.run(["make", "-n", "hub", "NEW_GROUP=1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "MCP_LAB_HUB_NEW_GROUP=1 " in plan.stdout, plan.stdout[-800:]


def test_make_hub_starts_over_https_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    """`make hub` as documented: it installs no conformance suite, serves the login page over
    HTTPS with the given certificate, and Ctrl-C (SIGINT to its process group) stops everything."""
    import httpx
    import psutil

    if os.geteuid() != 0:
        pytest.skip("the hub runs as root: it gives every learner a system user of their own")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the test's certificate")
    _check_make_hub_plan()
    data = Path(tempfile.mkdtemp(prefix="mcp-lab-make-hub-"))
    data.chmod(0o711)
    cert, key = _self_signed(tmp_path)
    probe = WorkshopHub(data / "hub", [])  # only for its free ports and settings
    env = {
        **probe.env,
        "MCP_LAB_HUB_SSL_CERT": str(cert),
        "MCP_LAB_HUB_SSL_KEY": str(key),
        "MCP_LAB_HUB_LEARNERS": "",
    }
    env.pop("MCP_LAB_HUB_ADMIN_PASSWORD")
    probe.http.close()
    log = tmp_path / "make-hub.log"
    with open(log, "wb") as out:
        make = subprocess.Popen(
            ["make", "hub"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    seen: dict[int, psutil.Process] = {}
    trust = ssl.create_default_context(cafile=str(cert))
    try:
        end, page = time.monotonic() + 90, None
        while time.monotonic() < end and make.poll() is None:
            for p in psutil.Process(make.pid).children(recursive=True):
                seen.setdefault(p.pid, p)
            try:
                page = httpx.get(f"https://127.0.0.1:{probe.port}/hub/login", verify=trust, timeout=5)
                if page.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        assert page is not None and page.status_code == 200, log.read_text(errors="replace")[-2000:]
        assert 'name="password"' in page.text
        for p in psutil.Process(make.pid).children(recursive=True):
            seen.setdefault(p.pid, p)
        os.killpg(make.pid, signal.SIGINT)
        make.wait(timeout=60)
        _, alive = psutil.wait_procs(list(seen.values()), timeout=15)
        assert not alive, f"left after Ctrl-C: {[p.pid for p in alive]}"
        text = log.read_text(errors="replace")
        assert f"https://127.0.0.1:{probe.port}/" in text and PASSWORD not in text, text[-1500:]
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGKILL)
            make.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)
