"""Every command the README and docs/*.md show is run by the suite, in a quick, untimed form.

The commands are read from the fenced shell blocks (```sh, bash, shell or console) of README.md
and docs/*.md: one command per line (comments and lines that start with `#` left out, `&&`
splitting a line in two, `.venv/bin/python` read as `python`).  Each must have an entry in
COMMANDS below, which says how the suite exercises it:

  Run            run here, its quick form: the same command against bundled servers, `make bench`
                 with its quick mode, `make lab` and `make inspector` started, answered and
                 stopped, `make labs` and `make fmt` on a copy of the repository
  ElsewhereTest  a named test elsewhere in the suite runs it (asserted to exist)
  ThisSuite      `make test` itself: what runs this file

A documented command with no entry fails, so a newly documented command must be given a quick
form here; an entry no document shows any more fails too.  Every fenced block names its
language, so a block of commands cannot go unread.  No figure is asserted: speed is `make bench`'s.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from _support import ROOT, wait_for  # noqa: E402
from _support.hub import free_ports

DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
SHELL = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
PY = sys.executable
DEADLINE = 120  # seconds for any one command
MAKE_ENV = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS")}


# -- reading the documents ------------------------------------------------------------------------
def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced code block."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(text)]


def commands_in(body: str) -> list[str]:
    """The commands of one shell block, each as its words joined by one space (quotes and
    comments gone, `.venv/bin/python` read as `python`): the keys of COMMANDS."""
    found = []
    for line in body.replace("\\\n", " ").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        tokens = shlex.split(line, comments=True)
        part: list[str] = []
        for token in tokens + ["&&"]:
            if token in ("&&", ";"):
                if part:
                    found.append(" ".join("python" if t == ".venv/bin/python" else t for t in part))
                part = []
            else:
                part.append(token)
    return found


def documented_commands() -> dict[str, list[str]]:
    """{command: [documents that show it]} over README.md and docs/*.md."""
    out: dict[str, list[str]] = {}
    for doc in DOCS:
        for language, body in fenced_blocks(doc.read_text(encoding="utf-8")):
            if language in SHELL:
                for command in commands_in(body):
                    out.setdefault(command, []).append(doc.relative_to(ROOT).as_posix())
    return out


# -- the kinds of exercise -------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """Run here: `how` names the quick form, `run(tmp_path)` does it and asserts; `deliberate`
    holds the wire check's `wire_deliberate` reasons when the command is off-spec on purpose."""

    how: str
    run: Callable[[Path], None]
    deliberate: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ElsewhereTest:
    """A test elsewhere in the suite runs this command: `test` is its id, file::function."""

    test: str
    how: str


@dataclass(frozen=True)
class ThisSuite:
    how: str = "`make test` is what runs this test"


def _test_exists(test_id: str) -> bool:
    file, _, name = test_id.partition("::")
    tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in tree.body)


def _tests_running_make_target(file: str, target: str) -> list[str]:
    """Tests in `file` whose code holds both the string "make" and the target (as one string
    `make <target>` or as list items): those that start the documented make target."""
    path = ROOT / file
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            strings = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            if f"make {target}" in " ".join(strings) or {"make", target} <= strings:
                found.append(f"{file}::{node.name}")
    return found


# -- running a command -----------------------------------------------------------------------------
def run(
    argv: list[str], cwd: Path = ROOT, *, stdin: str | None = None, ok=(0,), env=None
) -> subprocess.CompletedProcess:
    done = subprocess.run(
        argv,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env=env or MAKE_ENV,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
    assert done.returncode in ok, (
        f"`{shlex.join(argv)}` exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )
    return done


def mcp_lab_cli(*args: str, cwd: Path = ROOT, **kw) -> subprocess.CompletedProcess:
    return run([PY, "-m", "mcp_lab", *args], cwd, **kw)


class Started:
    """A long-running command in its own process group, stopped as a person stops it (Ctrl-C),
    then SIGTERM and SIGKILL at deadlines; nothing is left behind."""

    def __init__(self, argv: list[str], cwd: Path = ROOT):
        self.argv = argv
        self.log: list[str] = []
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=MAKE_ENV,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

    def wait_for_line(self, pattern: str, deadline: float = 90) -> re.Match:
        import selectors

        end = time.monotonic() + deadline
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while time.monotonic() < end:
                if not sel.select(max(0.0, end - time.monotonic())):
                    break
                line = self.proc.stdout.readline()
                if not line:
                    break
                self.log.append(line.rstrip())
                found = re.search(pattern, line)
                if found:
                    return found
        self.stop()
        raise AssertionError(
            f"`{shlex.join(self.argv)}` printed no line like {pattern!r}:\n" + "\n".join(self.log[-30:])
        )

    def stop(self) -> int:
        for sig, grace in ((signal.SIGINT, 15), (signal.SIGINT, 10), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(grace)
                break
            except subprocess.TimeoutExpired:
                continue
        self.proc.stdout.close()
        try:  # the group is gone: no server, kernel or Node process of it is left
            os.killpg(self.proc.pid, 0)
            left = True
        except ProcessLookupError:
            left = False
        assert not left, f"processes of `{shlex.join(self.argv)}` are left after it stopped"
        return self.proc.returncode


def http_get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as reply:  # loopback only
        return reply.status


def _answers(url: str) -> bool:
    try:
        return http_get(url) == 200
    except OSError:
        return False


def once(exercise: Callable[[Path], None]) -> Callable[[Path], None]:
    """Run `exercise` once per test run for every row that names it (the same proof for each:
    `make lab` started once covers its three documented forms); later rows get its outcome."""
    outcome: dict[str, BaseException | None] = {}

    def shared(tmp: Path) -> None:
        if "done" not in outcome:
            try:
                exercise(tmp)
                outcome["done"] = None
            except BaseException as e:
                outcome["done"] = e
                raise
        elif outcome["done"] is not None:
            raise AssertionError(f"failed in an earlier row: {outcome['done']}") from outcome["done"]

    shared.__doc__ = exercise.__doc__
    return shared


def copy_of_the_repository(dest: Path) -> Path:
    """The checkout as git would commit it (tracked and untracked-but-not-ignored files, mtimes
    kept so `make` sees set-up as done), its installed node_modules linked, not copied."""
    names = run(["git", "ls-files", "-co", "--exclude-standard", "-z"]).stdout.split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    for modules in ROOT.glob("**/node_modules"):
        if ".venv" not in modules.parts and "node_modules" not in modules.parent.parts:
            link = dest / modules.relative_to(ROOT)
            if link.parent.is_dir() and not link.exists():
                link.symlink_to(modules, target_is_directory=True)
    return dest


def make_in_copy(copy: Path, *args: str) -> subprocess.CompletedProcess:
    """`make ARGS` in a copy, with this environment's VENV; refused if set-up would reinstall (it
    would point the editable install at the copy)."""
    argv = ["make", "--no-print-directory", *args, f"VENV={sys.prefix}"]
    plan = run([*argv[:2], "-n", *argv[2:]], copy).stdout
    assert "pip install" not in plan and "npm ci" not in plan, (
        "set-up is not up to date (pyproject.toml or a lock file changed since the last install): run "
        f"`make teach inspector-install` here first (make test does); in the copy it would install from the copy:\n{plan}"
    )
    return run(argv, copy)


# -- the quick forms -------------------------------------------------------------------------------
def _host_config(tmp: Path) -> None:
    config = json.loads(mcp_lab_cli("host-config", "calendar").stdout)
    assert config["mcpServers"]["calendar"]["args"][-1].endswith("calendar"), config


def _probe_everything(tmp: Path) -> None:
    out = mcp_lab_cli("probe", "everything").stdout
    assert "initialize" in out and "server/discover" in out, out  # the fallback, shown


def _probe_json(tmp: Path) -> None:
    # `node my-server.js` stands for any argv: a bundled server's here.
    verdict = json.loads(mcp_lab_cli("probe", "--json", "--", PY, "-m", "mcp_lab.servers.calendar").stdout)
    assert (verdict["era"], verdict["version"]) == ("modern", "2026-07-28"), verdict


def _cost_everything(tmp: Path) -> None:
    out = mcp_lab_cli("cost", "everything").stdout
    assert re.search(r"one server, connected, before it is used: [\d,]+ tokens", out), out


def _conformance(name: str) -> Callable[[Path], None]:
    def quick(tmp: Path) -> None:
        out = mcp_lab_cli("conformance", name, "--scenario", "tools-list").stdout
        assert "tools-list" in out and "FAIL " not in out, out

    return quick


def _conformance_client(tmp: Path) -> None:
    out = mcp_lab_cli("conformance", "--client", "--scenario", "tools_call").stdout
    assert "SUCCESS  tools_call" in out, out


def _recording(tmp: Path) -> Path:
    """`record out.jsonl calendar < script.txt`, with a script of two requests."""
    cassette = tmp / "out.jsonl"
    script = 'tools/list {}\nresources/read {"uri": "calendar://week"}\n'
    done = mcp_lab_cli("record", str(cassette), "calendar", stdin=script)
    assert cassette.is_file() and "saved" in done.stdout + done.stderr, done.stdout + done.stderr
    return cassette


def _record(tmp: Path) -> None:
    lines = _recording(tmp).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["cassette"] == "mcp_lab" and any("calendar://week" in line for line in lines)


def _replay_verdict(done: subprocess.CompletedProcess) -> None:
    """The exit status says what the headline says: 0 when SAME, 1 when DIFFERENT."""
    headline = done.stdout.splitlines()[0]
    assert headline.endswith("-> SAME") == (done.returncode == 0), (done.returncode, headline)


def _replay_sdk(tmp: Path) -> None:
    _replay_verdict(mcp_lab_cli("replay", str(_recording(tmp)), "sdk_calendar", ok=(0, 1)))


def _replay_legacy_as_modern(tmp: Path) -> None:
    cassette = "notebooks/cassettes/probe-everything.jsonl"
    done = mcp_lab_cli("replay", cassette, "everything", "--era", "modern", ok=(0, 1))
    _replay_verdict(done)
    assert "converted a legacy recording for a modern server" in done.stdout, done.stdout


def _diff(tmp: Path) -> None:
    a = _recording(tmp)
    b = a.with_name("b.jsonl")
    shutil.copy(a, b)
    done = mcp_lab_cli("diff", str(a), str(b))
    assert done.stdout.splitlines()[0].endswith("-> SAME"), done.stdout


def _cassette_server(tmp: Path) -> None:
    cassette = _recording(tmp)
    recorded = [json.loads(line) for line in cassette.read_text(encoding="utf-8").splitlines()[1:]]
    ask = next(e["line"] for e in recorded if e["kind"] == "send" and '"tools/list"' in e["line"])
    done = run([PY, "-m", "mcp_lab.servers.cassette", str(cassette)], stdin=ask + "\n")
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["result"]["tools"][0]["name"] == "create_event", answer
    port = free_ports(1)[0]
    served = Started([PY, "-m", "mcp_lab.servers.cassette", str(cassette), "--http", str(port)])
    try:
        served.wait_for_line(str(port))
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/mcp",
            data=ask.encode(),
            headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28",
                "Mcp-Method": "tools/list",
            },
        )
        with urllib.request.urlopen(req, timeout=10) as reply:
            assert "create_event" in reply.read().decode()
    finally:
        served.stop()


def _make_lab(tmp: Path) -> None:
    """`make lab` with LAB_ARGS and VENV given (the conda path is VENV= another environment):
    the Lab answers, opens on the start notebook, and Ctrl-C stops it and its kernels."""
    port = free_ports(1)[0]
    token = "documented-commands"
    lab_args = f"--no-browser --port {port} --ServerApp.token={token}"
    lab = Started(["make", "--no-print-directory", "lab", f"VENV={sys.prefix}", f"LAB_ARGS={lab_args}"])
    try:
        lab.wait_for_line(rf"http://127\.0\.0\.1:{port}/")
        assert wait_for(lambda: _answers(f"http://127.0.0.1:{port}/api/status?token={token}"), timeout=60)
        assert http_get(f"http://127.0.0.1:{port}/lab/tree/notebooks/00-start-here.ipynb?token={token}") == 200
    finally:
        lab.stop()


def _make_inspector(tmp: Path) -> None:
    from mcp_lab.course import inspector

    if not inspector.installed():
        why = "the MCP Inspector is not installed: run `make inspector-install` (make test does it)"
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    web = Started(["make", "--no-print-directory", "inspector", f"VENV={sys.prefix}"])
    try:
        url = web.wait_for_line(r"(http://127\.0\.0\.1:\d+/\S+)").group(1)
        assert http_get(url) == 200
    finally:
        web.stop()


def _make_labs(tmp: Path) -> None:
    """`make labs` on a copy regenerates a deleted solution, byte for byte."""
    copy = copy_of_the_repository(tmp / "repo")
    solutions = sorted((copy / "labs" / "solutions").glob("*.ipynb"))
    assert solutions, "no lab solutions in the copy"
    solutions[0].unlink()
    make_in_copy(copy, "labs")
    original = ROOT / solutions[0].relative_to(copy)
    assert solutions[0].read_bytes() == original.read_bytes()


def _make_fmt(tmp: Path) -> None:
    """`make fmt` on a copy formats what it is given to format."""
    copy = copy_of_the_repository(tmp / "repo")
    planted = copy / "mcp_lab" / "_planted_unformatted.py"
    planted.write_text("x=[1,2 ,3]\n", encoding="utf-8")
    make_in_copy(copy, "fmt")
    assert planted.read_text(encoding="utf-8") == "x = [1, 2, 3]\n"


def _environment_yml(tmp: Path) -> None:
    """conda is not run here (no conda on the test machines, and it would reach the network):
    the file both conda commands read is checked instead: the name `conda activate` takes, and
    the three things it must bring (Python, Node.js, pip installing this checkout)."""
    import yaml

    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert env["name"] == "mcp-lab"
    deps = env["dependencies"]
    assert any(str(d).startswith("python") for d in deps) and any(str(d).startswith("nodejs") for d in deps)
    assert {"pip": ["-e .[dev]"]} in deps


HUB_TEST_FILE = "tests/test_hub.py"
_make_lab_once = once(_make_lab)

COMMANDS: dict[str, Run | ElsewhereTest | ThisSuite] = {
    "make lab": Run("start-and-stop, with LAB_ARGS and VENV", _make_lab_once),
    "make test": ThisSuite(),
    "make bench": ElsewhereTest(
        "tests/test_bench.py::test_make_bench_quick_prints_every_row_with_its_ratio", "make bench QUICK=1"
    ),
    "make bench QUICK=1": ElsewhereTest(
        "tests/test_bench.py::test_make_bench_quick_prints_every_row_with_its_ratio", "as shown"
    ),
    "make lint": ThisSuite("`make test` runs `make lint` before pytest"),
    "make fmt": Run("on a copy, with an unformatted file planted", _make_fmt),
    "make labs": Run("on a copy, a deleted solution regenerated", _make_labs),
    "make inspector": Run("start, the printed URL answers, Ctrl-C", _make_inspector),
    "make lab LAB_ARGS=--no-browser --port 8890": Run("LAB_ARGS on a free port", _make_lab_once),
    "conda env create -f environment.yml": Run("environment.yml checked (conda not run)", _environment_yml),
    "conda activate mcp-lab": Run("the environment's name checked", _environment_yml),
    "make lab VENV=$CONDA_PREFIX": Run("VENV= this environment", _make_lab_once),
    "python -m mcp_lab host-config calendar": Run("as shown", _host_config),
    "python -m mcp_lab probe everything": Run("as shown", _probe_everything),
    "python -m mcp_lab probe --json -- node my-server.js": Run("a bundled server's argv", _probe_json),
    "python -m mcp_lab cost everything": Run("as shown", _cost_everything),
    "python -m mcp_lab conformance showcase": Run("one scenario", _conformance("showcase")),
    "python -m mcp_lab conformance calendar": Run("one scenario", _conformance("calendar")),
    "python -m mcp_lab conformance sdk_calendar": Run("one scenario", _conformance("sdk_calendar")),
    "python -m mcp_lab conformance --client": Run("one scenario", _conformance_client),
    "python -m mcp_lab record out.jsonl calendar < script.txt": Run("a two-request script", _record),
    "python -m mcp_lab replay out.jsonl sdk_calendar": Run("a fresh recording", _replay_sdk),
    "python -m mcp_lab replay notebooks/cassettes/probe-everything.jsonl everything --era modern": Run(
        "as shown",
        _replay_legacy_as_modern,
        (("server_legacy_answer", "the pinned legacy reference server answers the modern replay in its own era"),),
    ),
    "python -m mcp_lab diff a.jsonl b.jsonl": Run("a recording and its copy", _diff),
    "python -m mcp_lab.servers.cassette out.jsonl [--http PORT]": Run(
        "stdio, then --http on a free port", _cassette_server
    ),
    # `make hub` start-and-stop is tests/test_hub.py's (the hub's own tests): the row finds the test.
    "MCP_LAB_HUB_PASSWORD=pick-a-phrase MCP_LAB_HUB_PORT=8000 make hub": ElsewhereTest(
        f"{HUB_TEST_FILE}::<a test running make hub>", "start-and-stop"
    ),
    "make wheelhouse": ElsewhereTest(
        "tests/test_offline_install.py::test_a_fresh_checkout_installs_from_the_bundle_offline", "builds the bundle"
    ),
    "make setup OFFLINE=/path/to/classroom-bundle": ElsewhereTest(
        "tests/test_offline_install.py::test_a_fresh_checkout_installs_from_the_bundle_offline",
        "installs a copy from the bundle, offline",
    ),
}

DOCUMENTED = documented_commands()


def test_every_fenced_block_names_its_language():
    untagged = [
        doc.relative_to(ROOT).as_posix()
        for doc in DOCS
        for language, _ in fenced_blocks(doc.read_text(encoding="utf-8"))
        if not language
    ]
    assert not untagged, f"fenced blocks with no language (```sh, ```python, ```text ...) in {untagged}"


def test_every_documented_command_has_a_quick_form_and_every_quick_form_a_document():
    assert DOCUMENTED, "no shell commands found in README.md and docs/*.md"
    missing = {c: where for c, where in DOCUMENTED.items() if c not in COMMANDS}
    assert not missing, f"documented commands the suite does not run (add each to COMMANDS): {missing}"
    stale = sorted(set(COMMANDS) - set(DOCUMENTED))
    assert not stale, f"COMMANDS entries no document shows any more (remove them): {stale}"


def test_the_reader_finds_commands_as_a_person_types_them():
    body = "# a comment line\nmake a   # what it does\nX='a b' make b && make c\n.venv/bin/python -m x \\\n  --y\n"
    assert commands_in(body) == ["make a", "X=a b make b", "make c", "python -m x --y"]
    assert fenced_blocks("```sh\nmake a\n```\n\n```\nplain\n```\n") == [("sh", "make a\n"), ("", "plain\n")]


def _param(command: str):
    exercise = COMMANDS[command]
    marks = [pytest.mark.wire_deliberate(**dict(exercise.deliberate))] if getattr(exercise, "deliberate", ()) else []
    return pytest.param(command, marks=marks, id=command)


@pytest.mark.parametrize("command", [_param(c) for c in sorted(COMMANDS)])
def test_documented_command_runs(command, tmp_path):
    exercise = COMMANDS[command]
    if isinstance(exercise, Run):
        exercise.run(tmp_path)
    elif isinstance(exercise, ElsewhereTest) and exercise.test.startswith(f"{HUB_TEST_FILE}::<"):
        found = _tests_running_make_target(HUB_TEST_FILE, "hub")
        if not found:
            pytest.xfail(f"no test in {HUB_TEST_FILE} starts `make hub` yet (issue 24 adds its start-and-stop)")
    elif isinstance(exercise, ElsewhereTest):
        assert _test_exists(exercise.test), f"{command!r} is exercised by {exercise.test}, which does not exist"
    else:
        assert isinstance(exercise, ThisSuite)
