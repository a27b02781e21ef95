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
from _support import ROOT, wait_for
from _support.hub import free_ports
from _support.lite_site import site_lock

DOCS = (ROOT / "README.md", ROOT / "README.pt-BR.md", *sorted((ROOT / "docs").glob("*.md")))
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
    starts: str = ""  # a make target the test must start itself (`make hub`): checked in its code


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

    def _group_gone_within(self, seconds: float) -> bool:
        """Reap the leader and poll the process group until it is empty, for at most `seconds`."""
        end = time.monotonic() + seconds
        while True:
            self.proc.poll()
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                self.proc.wait(5)
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.1)

    def stop(self) -> int:
        # Ctrl-C reaches the whole group; `make` may exit at once while the server it started is
        # still shutting its kernels down, so each step waits for the GROUP to be gone, not the
        # leader, before the next, harder signal.
        needed = None
        for sig, grace in ((signal.SIGINT, 15), (signal.SIGINT, 10), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            needed = sig
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            if self._group_gone_within(grace):
                break
        self.proc.stdout.close()
        left = not self._group_gone_within(0)
        assert not left, f"processes of `{shlex.join(self.argv)}` are left after it stopped"
        assert needed == signal.SIGINT, f"`{shlex.join(self.argv)}` did not stop on Ctrl-C: it took {needed.name}"
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
MCP_LAB = Path(sys.executable).parent / "mcp-lab"  # the console script `make setup` installs
SCRIPT_LINE = """printf 'tools/list\\nresources/read {"uri": "calendar://week"}\\n' > script.txt"""


def mcp_lab(*args: str, cwd: Path, ok=(0,), **kw) -> subprocess.CompletedProcess:
    """`.venv/bin/mcp-lab ARGS` in `cwd` (a tmp_path: some commands write files there)."""
    assert MCP_LAB.is_file(), f"no console script {MCP_LAB}: run `make setup` (it installs the package)"
    return run([str(MCP_LAB), *args], cwd, ok=ok, **kw)


def _host_config(tmp: Path) -> None:
    config = json.loads(mcp_lab_cli("host-config", "calendar").stdout)
    assert config["mcpServers"]["calendar"]["args"][-1].endswith("calendar"), config


def _probe_everything(tmp: Path) -> None:
    out = mcp_lab("probe", "everything", cwd=tmp).stdout
    assert "legacy era, 2025-11-25" in out and "fall back to initialize" in out, out  # the fallback, shown


def _probe_json(tmp: Path) -> None:
    verdict = json.loads(mcp_lab("probe", "--json", "--", PY, "-m", "mcp_lab.servers.calendar", cwd=tmp).stdout)
    assert (verdict["era"], verdict["version"], verdict["findings"]) == ("modern", "2026-07-28", []), verdict


def _probe_require(tmp: Path) -> None:
    """Exit 0 when the required revision is negotiated, and 1 (a `require` finding) when not."""
    out = mcp_lab("probe", "--require", "2026-07-28", "calendar", cwd=tmp).stdout
    assert "calendar: modern era, 2026-07-28" in out, out
    other = mcp_lab("probe", "--json", "--require", "2025-11-25", "calendar", cwd=tmp, ok=(1,)).stdout
    assert [f["kind"] for f in json.loads(other)["findings"]] == ["require"], other


def _probe_noisy(tmp: Path) -> None:
    out = mcp_lab("probe", "noisy", cwd=tmp, ok=(1,)).stdout  # documented: exit 1
    assert "a framing violation" in out and "Calendar server ready" in out, out


def _probe_http(tmp: Path) -> None:
    out = mcp_lab("probe", "--http", "calendar", cwd=tmp).stdout
    assert "modern era, 2026-07-28" in out and "HTTP POST /mcp -> 200 OK" in out, out


def _cost_everything(tmp: Path) -> None:
    out = mcp_lab("cost", "everything", cwd=tmp).stdout
    assert re.search(r"one server, connected, before it is used: [\d,]+ tokens", out), out


def _cost_json(tmp: Path) -> None:
    cost = json.loads(mcp_lab("cost", "--json", "--", PY, "-m", "mcp_lab.servers.sdk_calendar", cwd=tmp).stdout)
    assert cost["server"] == "mcp-lab-sdk-calendar" and "create_event" in [t["name"] for t in cost["tools"]], cost
    assert cost["total"] >= cost["tools_total"] > 0, cost


def _check_calendar(tmp: Path) -> None:
    out = mcp_lab("check", "calendar", cwd=tmp).stdout
    assert out.startswith("PASS  calendar: modern era, 2026-07-28") and "0 defect(s)" in out, out


def _check_json_http(tmp: Path) -> None:
    argv = ["check", "--json", "--http", "--", PY, "-m", "mcp_lab.servers.sdk_calendar"]
    report = json.loads(mcp_lab(*argv, cwd=tmp).stdout)
    assert report["ok"] and report["server"].startswith("127.0.0.1:") and report["served"]["tools"] == 2, report


def _conformance(*args: str) -> Callable[[Path], None]:
    """`conformance ARGS`, restricted to one scenario (the whole suite is `make test`'s)."""

    def quick(tmp: Path) -> None:
        out = mcp_lab("conformance", *args, "--scenario", "tools-list", cwd=tmp).stdout
        assert out.startswith("PASS ") and "SUCCESS  tools-list :: tools-list" in out and "FAIL" not in out, out
        if "--stdio" in args:
            assert "a stdio server, run through a bridge" in out, out

    return quick


FIXTURE_SCENARIO = "tools-call-simple-text"  # calls a suite fixture the calendar lacks: one failing check


def _write_baseline(tmp: Path) -> Path:
    """The skeleton and JUnit XML of one scenario with a failing check (a missing fixture)."""
    argv = ["--no-baseline", "--write-baseline", "skeleton.yaml", "--junit", "conformance.xml", "calendar"]
    mcp_lab("conformance", *argv, "--scenario", FIXTURE_SCENARIO, cwd=tmp)
    import xml.etree.ElementTree as ET

    import yaml

    entries = yaml.safe_load((tmp / "skeleton.yaml").read_text(encoding="utf-8"))["server"]
    assert [e["check"] for e in entries] == [f"{FIXTURE_SCENARIO}:{FIXTURE_SCENARIO}"], entries
    assert entries[0]["reason"].startswith("fixture: "), entries
    skipped = ET.parse(tmp / "conformance.xml").getroot().findall(".//testcase/skipped")
    messages = [s.get("message") for s in skipped]
    # The baselined fixture failure, and passes the suite saw without their fixture ("not observed").
    assert entries[0]["reason"] in messages, ET.tostring(ET.parse(tmp / "conformance.xml").getroot())
    assert all(m == entries[0]["reason"] or m.startswith("not observed") for m in messages), messages
    return tmp / "skeleton.yaml"


def _expected_failures(tmp: Path) -> None:
    _write_baseline(tmp)
    argv = ["--expected-failures", "skeleton.yaml", "--failures-only", "calendar"]
    out = mcp_lab("conformance", *argv, "--scenario", FIXTURE_SCENARIO, cwd=tmp).stdout
    assert "baseline skeleton: 1 expected" in out and "FAILURE" not in out, out  # the failure is baselined


def _conformance_client(tmp: Path) -> None:
    out = mcp_lab("conformance", "--client", "--scenario", "tools_call", cwd=tmp).stdout
    assert "SUCCESS  tools_call" in out, out


def _script(tmp: Path) -> Path:
    """The documented `printf ... > script.txt` line itself, run by the shell in `tmp`."""
    assert SCRIPT_LINE in (ROOT / "docs" / "engineers.md").read_text(encoding="utf-8")
    run(["bash", "-c", SCRIPT_LINE], tmp)
    return tmp / "script.txt"


def _printf_script(tmp: Path) -> None:
    lines = _script(tmp).read_text(encoding="utf-8").splitlines()
    assert lines == ["tools/list", 'resources/read {"uri": "calendar://week"}'], lines


def _recording(tmp: Path) -> Path:
    """`record out.jsonl calendar --script script.txt`, the script of two requests above."""
    _script(tmp)
    done = mcp_lab("record", "out.jsonl", "calendar", "--script", "script.txt", cwd=tmp)
    assert re.search(r"saved \d+ events to out\.jsonl", done.stderr), done.stderr
    return tmp / "out.jsonl"


def _record(tmp: Path) -> None:
    lines = _recording(tmp).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["cassette"] == "mcp_lab" and any("calendar://week" in line for line in lines)


def _recording_over_http(tmp: Path) -> Path:
    _script(tmp)
    argv = ["out-http.jsonl", "--http", "calendar", "--script", "script.txt", "--redact", "result.contents[*].text"]
    done = mcp_lab("record", *argv, cwd=tmp)
    assert "saved" in done.stderr, done.stderr
    return tmp / "out-http.jsonl"


def _record_http(tmp: Path) -> None:
    """Over HTTP, and the redacted path's text (the calendar's events) is nowhere in the file."""
    text = _recording_over_http(tmp).read_text(encoding="utf-8")
    header = json.loads(text.splitlines()[0])
    assert header["transport"] == "http" and header["redacted"]["paths"] == ["result.contents[*].text"], header
    assert "<redacted>" in text and "Standup" not in text, "the week's events reached the cassette"


def _replay_same(tmp: Path) -> None:
    done = mcp_lab("replay", str(_recording(tmp)), "calendar", cwd=tmp)
    assert done.stdout.splitlines()[0].endswith("-> SAME"), done.stdout


def _replay_junit(tmp: Path) -> None:
    import xml.etree.ElementTree as ET

    done = mcp_lab("replay", str(_recording(tmp)), "sdk_calendar", "--junit", "replay.xml", cwd=tmp, ok=(1,))
    assert done.stdout.splitlines()[0].endswith("-> DIFFERENT"), done.stdout
    suite = ET.parse(tmp / "replay.xml").getroot().find("testsuite")
    assert int(suite.get("failures")) > 0 and suite.find("testcase/failure") is not None, ET.tostring(suite)


def _replay_ignore(tmp: Path) -> None:
    """Still exit 1 (other paths differ), but no difference at an ignored path is reported."""
    argv = ["--ignore", "answer.result.tools[*]", "--ignore", "**.instructions"]
    out = mcp_lab("replay", str(_recording(tmp)), "sdk_calendar", *argv, cwd=tmp, ok=(1,)).stdout
    assert out.splitlines()[0].endswith("-> DIFFERENT"), out
    assert "answer.result.tools[*], **.instructions" in out.splitlines()[1], out  # the rules, taken
    changes = [line.split()[1] for line in out.splitlines() if re.match(r"\s+[~+-] ", line)]
    assert not [c for c in changes if c.startswith("answer.result.tools[") or c.endswith(".instructions:")], out
    assert "answer.result.ttlMs" in out, out  # what is not ignored is still shown


def _replay_legacy_as_modern(tmp: Path) -> None:
    cassette = ROOT / "notebooks" / "cassettes" / "probe-everything.jsonl"
    out = mcp_lab("replay", str(cassette), "everything", "--era", "modern", cwd=tmp, ok=(1,)).stdout
    assert out.splitlines()[0].endswith("-> DIFFERENT"), out
    assert "converted a legacy recording for a modern server" in out, out


def _diff_redacted(tmp: Path) -> None:
    _recording(tmp)
    _recording_over_http(tmp)
    out = mcp_lab("diff", "out.jsonl", "out-http.jsonl", cwd=tmp, ok=(1,)).stdout
    assert out.splitlines()[0].endswith("-> DIFFERENT") and '-> "<redacted>"' in out, out


def _diff_json(tmp: Path) -> None:
    _recording(tmp)
    diff = json.loads(mcp_lab("diff", "out.jsonl", "out.jsonl", "--json", cwd=tmp).stdout)
    assert diff["same"] is True and diff["counts"]["same"] == 3 and diff["counts"]["changed"] == 0, diff


def _workshop_password_file(tmp: Path) -> None:
    """`sudo cat .hub/workshop-password` reads the password the hub's first start generates when
    none is given (classroom/hub/hub_state.py, as jupyterhub_config.py calls it): root's, mode 600,
    kept across starts. Run here as `cat` (sudo left out: the suite already runs as the file's owner)."""
    import hub_state  # classroom/hub/ is on pytest's pythonpath (pyproject.toml)

    (tmp / ".hub").mkdir()
    password = hub_state.generated_password(tmp / ".hub")
    kept = tmp / ".hub" / "workshop-password"
    assert kept.stat().st_mode & 0o777 == 0o600, oct(kept.stat().st_mode)
    assert hub_state.generated_password(tmp / ".hub") == password, "a second start made a new password"
    assert len(password) >= 12 and run(["cat", ".hub/workshop-password"], tmp).stdout.strip() == password


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
        # the English edition's Lab speaks English whatever the machine's locale (tools/lab-overrides.json)
        assert _lab_locale(port, token) == "en"
    finally:
        lab.stop()


def _lab_locale(port: int, token: str) -> str:
    """The language JupyterLab's interface is set to: the user's setting, else the default the
    environment's overrides give the schema (tools/lab-overrides.json)."""
    url = f"http://127.0.0.1:{port}/lab/api/settings/@jupyterlab/translation-extension:plugin?token={token}"
    with urllib.request.urlopen(url, timeout=10) as r:
        plugin = json.loads(r.read())
    return plugin["settings"].get("locale", plugin["schema"]["properties"]["locale"].get("default"))


def _make_lab_pt(tmp: Path) -> None:
    """`make lab-pt`: the Lab answers, its interface is set to pt_BR with the official language pack
    installed, and it opens on the Portuguese edition's first page; Ctrl-C stops it."""
    port = free_ports(1)[0]
    token = "documented-commands"
    lab_args = f"--no-browser --port {port} --IdentityProvider.token={token}"
    settings = f"LAB_PT_SETTINGS={tmp / 'user-settings-pt-BR'}"
    lab = Started(["make", "--no-print-directory", "lab-pt", f"VENV={sys.prefix}", settings, f"LAB_ARGS={lab_args}"])
    try:
        lab.wait_for_line(rf"http://127\.0\.0\.1:{port}/")
        assert wait_for(lambda: _answers(f"http://127.0.0.1:{port}/api/status?token={token}"), timeout=60)
        assert _lab_locale(port, token) == "pt_BR"
        url = f"http://127.0.0.1:{port}/lab/api/translations/pt_BR?token={token}"
        with urllib.request.urlopen(url, timeout=30) as r:
            pack = json.loads(r.read())
        assert pack["data"].get("jupyterlab", {}).get("Settings") == ["Configurações"], (
            "the pt-BR language pack is missing"
        )
        start = "notebooks/pt-BR/00-start-here.ipynb"
        page = start if (ROOT / start).exists() else "README.pt-BR.md"
        assert http_get(f"http://127.0.0.1:{port}/lab/tree/{page}?token={token}") == 200
    finally:
        lab.stop()


def _make_translations(tmp: Path) -> None:
    """`make translations` on the fixture checkout (TRANSLATE_ROOT=): a catalog merged with a
    changed English notebook marks the changed paragraph fuzzy, and the Portuguese notebooks are
    written from the catalogs."""
    from mcp_lab.course import translate

    course = tmp / "course"
    shutil.copytree(ROOT / "tests" / "i18n_fixture", course)
    shutil.rmtree(course / "notebooks" / "pt-BR")
    run(["make", "--no-print-directory", "translations", f"TRANSLATE_ROOT={course}", f"VENV={sys.prefix}"])
    assert translate.problems(course) == []
    assert (course / "notebooks" / "pt-BR" / "01-fixture.ipynb").is_file()


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


def _make_lite(tmp: Path) -> None:
    """`make lite`: the browser edition's site is built (a no-op when another test built it), with
    its start page and the Pyodide kernel's files; under the tests' one lock (_support/lite_site)."""
    with site_lock():
        run(["make", "--no-print-directory", "lite", f"VENV={sys.prefix}"])
    site = ROOT / "build" / "lite"
    assert (site / "index.html").is_file() and (site / "lab" / "index.html").is_file(), "no start page in build/lite"
    assert (site / "lab" / "pt-BR" / "index.html").is_file(), "no Portuguese entry (lab/pt-BR/) in build/lite"
    assert list(site.rglob("pyodide.asm.wasm")), "the site holds no Pyodide core"


def _make_lite_serve(tmp: Path) -> None:
    """`make lite-serve` on a free port: the printed URL answers, Ctrl-C stops it."""
    port = free_ports(1)[0]
    with site_lock():  # `lite-serve` builds the site first when it is not up to date
        web = Started(["make", "--no-print-directory", "lite-serve", f"LITE_PORT={port}", f"VENV={sys.prefix}"])
        try:
            url = web.wait_for_line(rf"(http://127\.0\.0\.1:{port}/\S+)").group(1)
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
    the three things it must bring (Python, Node.js, pip installing this checkout with the
    course and dev extras: `make lab` needs JupyterLab)."""
    import yaml

    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert env["name"] == "mcp-lab"
    deps = env["dependencies"]
    assert any(str(d).startswith("python") for d in deps) and any(str(d).startswith("nodejs") for d in deps)
    (pip,) = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    installs = re.fullmatch(r"-e \.\[([\w,]+)\]", pip[0] if len(pip) == 1 else "")
    assert installs and {"course", "dev"} <= set(installs.group(1).split(",")), pip  # this checkout, the Lab's extras


_make_lab_once = once(_make_lab)
MCP = ".venv/bin/mcp-lab"
HUB_TEST = "tests/test_hub.py::test_make_hub_starts_over_https_and_stops_on_ctrl_c"
HUB_GRADING = "tests/test_hub.py::test_a_submission_is_graded_and_its_feedback_returned"
NBGRADER = "tests/test_labs_nbgrader.py::test_autograde_gives_the_solution_full_marks_and_the_untouched_lab_zero"
ON_THE_HUB = "the same step through nbgrader's API, in the teacher's kernel on the hub, for lab 05"
EVERY_LAB = 'the same command for every lab at once ("*"), lab 10 among them, in a course folder'

COMMANDS: dict[str, Run | ElsewhereTest | ThisSuite] = {
    "make lab": Run("start-and-stop, with LAB_ARGS and VENV", _make_lab_once),
    "make test": ThisSuite(),
    "make bench": ElsewhereTest(
        "tests/test_bench.py::test_make_bench_quick_prints_every_row_with_its_ratio", "make bench QUICK=1", "bench"
    ),
    "make bench QUICK=1": ElsewhereTest(
        "tests/test_bench.py::test_make_bench_quick_prints_every_row_with_its_ratio", "as shown", "bench"
    ),
    "make lint": ThisSuite("`make test` runs `make lint` before pytest"),
    "make check": ElsewhereTest(
        "tests/test_inner_loop.py::test_make_check_is_make_lint_then_the_unit_tests",
        "its rule read: `make lint`, then pytest -m 'not system' (the guard's test runs in that mode too)",
    ),
    "make fmt": Run("on a copy, with an unformatted file planted", _make_fmt),
    **{
        command: ElsewhereTest(
            "tests/test_ci_job.py::test_the_job_passes_a_correct_server",
            "the one-time set-up block of the CI job, run as written in a project folder (and on a broken server)",
        )
        for command in (
            "export SERVER=python server.py",
            "mkdir -p tests/mcp",
            'printf tools/list\\nresources/list\\nresources/read {"uri": "no-such-scheme://nothing-here"}\\n > tests/mcp/script.txt',
            "mcp-lab record tests/mcp/session.jsonl --script tests/mcp/script.txt -- $SERVER",
            "mcp-lab conformance --stdio --no-baseline --write-baseline tests/mcp/conformance-baseline.yaml -- $SERVER",
        )
    },
    "make labs": Run("on a copy, a deleted solution regenerated", _make_labs),
    "make inspector": Run("start, the printed URL answers, Ctrl-C", _make_inspector),
    "make lite": Run("the site built (a no-op once built), its start page and Pyodide there", _make_lite),
    "make lab-pt": Run("start-and-stop: the interface in pt_BR, the language pack there", _make_lab_pt),
    "make translations": Run("on the fixture checkout (TRANSLATE_ROOT=)", _make_translations),
    "make lite-serve": Run("start on a free port, the printed URL answers, Ctrl-C", _make_lite_serve),
    "make lab LAB_ARGS=--no-browser --port 8890": Run("LAB_ARGS on a free port", _make_lab_once),
    "conda env create -f environment.yml": Run("environment.yml checked (conda not run)", _environment_yml),
    "conda activate mcp-lab": Run("the environment's name checked", _environment_yml),
    "make lab VENV=$CONDA_PREFIX": Run("VENV= this environment", _make_lab_once),
    "python -m mcp_lab host-config calendar": Run("as shown", _host_config),
    # docs/engineers.md, the command line: each in a tmp_path, against the bundled servers
    f"{MCP} probe everything": Run("as shown", _probe_everything),
    f"{MCP} probe --json -- python -m mcp_lab.servers.calendar": Run("as shown", _probe_json),
    f"{MCP} probe --require 2026-07-28 calendar": Run("as shown, and a revision not negotiated", _probe_require),
    f"{MCP} probe noisy": Run("as shown: exit 1", _probe_noisy),
    f"{MCP} probe --http calendar": Run("as shown", _probe_http),
    f"{MCP} cost everything": Run("as shown", _cost_everything),
    f"{MCP} cost --json -- python -m mcp_lab.servers.sdk_calendar": Run("as shown", _cost_json),
    f"{MCP} check calendar": Run("as shown", _check_calendar),
    f"{MCP} check --json --http -- python -m mcp_lab.servers.sdk_calendar": Run("as shown", _check_json_http),
    f"{MCP} conformance showcase": Run("one scenario", _conformance("showcase")),
    f"{MCP} conformance calendar": Run("one scenario", _conformance("calendar")),
    f"{MCP} conformance sdk_calendar": Run("one scenario", _conformance("sdk_calendar")),
    f"{MCP} conformance --stdio calendar": Run("one scenario", _conformance("--stdio", "calendar")),
    f"{MCP} conformance --no-baseline --write-baseline skeleton.yaml --junit conformance.xml calendar": Run(
        "one scenario with a failing check", _write_baseline
    ),
    f"{MCP} conformance --expected-failures skeleton.yaml --failures-only calendar": Run(
        "one scenario, the skeleton written just before", _expected_failures
    ),
    f"{MCP} conformance --client": Run("one scenario", _conformance_client),
    """printf tools/list\\nresources/read {"uri": "calendar://week"}\\n > script.txt""": Run(
        "the documented line, by bash", _printf_script
    ),
    f"{MCP} record out.jsonl calendar --script script.txt": Run("as shown", _record),
    f"{MCP} record out-http.jsonl --http calendar --script script.txt --redact result.contents[*].text": Run(
        "as shown", _record_http
    ),
    f"{MCP} replay out.jsonl calendar": Run("a fresh recording: exit 0", _replay_same),
    f"{MCP} replay out.jsonl sdk_calendar --junit replay.xml": Run("a fresh recording: exit 1", _replay_junit),
    f"{MCP} replay out.jsonl sdk_calendar --ignore answer.result.tools[*] --ignore **.instructions": Run(
        "a fresh recording: exit 1", _replay_ignore
    ),
    f"{MCP} replay notebooks/cassettes/probe-everything.jsonl everything --era modern": Run(
        "as shown: exit 1",
        _replay_legacy_as_modern,
        (("server_legacy_answer", "the pinned legacy reference server answers the modern replay in its own era"),),
    ),
    f"{MCP} diff out.jsonl out-http.jsonl": Run("two fresh recordings: exit 1", _diff_redacted),
    f"{MCP} diff out.jsonl out.jsonl --json": Run("a fresh recording", _diff_json),
    # docs/teaching.md, the workshop hub (as root): tests/test_hub.py starts `make hub` itself
    "sudo MCP_LAB_HUB_PORT=8000 make hub": ElsewhereTest(HUB_TEST, "start-and-stop, on free ports", "hub"),
    "sudo cat .hub/workshop-password": Run("the generated file read with cat", _workshop_password_file),
    "sudo MCP_LAB_HUB_IP=0.0.0.0 MCP_LAB_HUB_PORT=443 MCP_LAB_HUB_SSL_CERT=/etc/ssl/room/hub.crt "
    "MCP_LAB_HUB_SSL_KEY=/etc/ssl/room/hub.key make hub": ElsewhereTest(
        HUB_TEST, "over HTTPS with a self-signed certificate, on 127.0.0.1 and a free port", "hub"
    ),
    "cd ~/course": ElsewhereTest(HUB_GRADING, "the teacher's kernel works in ~/course, made on her first start"),
    "nbgrader generate_assignment 10-fix-the-calendar": ElsewhereTest(NBGRADER, EVERY_LAB),
    "nbgrader release_assignment 10-fix-the-calendar": ElsewhereTest(HUB_GRADING, ON_THE_HUB),
    "nbgrader collect 10-fix-the-calendar": ElsewhereTest(HUB_GRADING, ON_THE_HUB),
    "nbgrader autograde 10-fix-the-calendar --create": ElsewhereTest(NBGRADER, EVERY_LAB),
    "nbgrader generate_feedback 10-fix-the-calendar": ElsewhereTest(NBGRADER, EVERY_LAB),
    "nbgrader release_feedback 10-fix-the-calendar": ElsewhereTest(HUB_GRADING, ON_THE_HUB),
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


# A system test: its commands start servers, make targets and installs through COMMANDS' table,
# which a reading of the test's code cannot follow (tests/_support/kinds.py).
@pytest.mark.system
@pytest.mark.parametrize("command", [_param(c) for c in sorted(COMMANDS)])
def test_documented_command_runs(command, tmp_path):
    exercise = COMMANDS[command]
    if isinstance(exercise, Run):
        exercise.run(tmp_path)
    elif isinstance(exercise, ElsewhereTest):
        assert _test_exists(exercise.test), f"{command!r} is exercised by {exercise.test}, which does not exist"
        if exercise.starts:
            file = exercise.test.partition("::")[0]
            assert exercise.test in _tests_running_make_target(file, exercise.starts), (
                f"{exercise.test} does not start `make {exercise.starts}` as {command!r} needs"
            )
    else:
        assert isinstance(exercise, ThisSuite)
