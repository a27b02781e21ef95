"""Past one machine, on paper: the course image and the Zero to JupyterHub config.

Nothing here builds the image or touches Kubernetes (neither is available where the tests run);
these tests hold the two files to what they claim: the image runs exactly the project's set-up
(`make setup teach`, the Makefile's own steps, nothing installed beside them), its start copies
the course the way the one-machine hub does, and the config parses and names that image.
Also the course copy itself, which both share.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from _support import ROOT
from course_spawner import COPIED_MARK, copy_course  # classroom/hub/ is on pytest's pythonpath

IMAGE = ROOT / "classroom" / "image"
Z2JH = ROOT / "classroom" / "z2jh" / "config.yaml"


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = (IMAGE / "Dockerfile").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    out = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), " ".join(rest.split())))
    return out


def image_ref() -> str:
    label = next(a for i, a in dockerfile() if i == "LABEL")
    title = re.search(r'org\.opencontainers\.image\.title="([^"]+)"', label).group(1)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    return f"{title}:{version}"


def test_the_image_runs_exactly_the_projects_set_up() -> None:
    steps = dockerfile()
    runs = [a for i, a in steps if i == "RUN"]
    make_runs = [shlex.split(r) for r in runs if r.startswith("make ")]
    assert make_runs == [["make", "setup", "teach"]], f"expected one `RUN make setup teach`: {runs}"
    for r in runs:
        for other in ("pip install", "npm ci", "npm install", "ipykernel install", "python -m venv"):
            assert other not in r, f"the image installs beside make ({other!r} in RUN {r!r})"
    # The Makefile's `setup` and `teach` are where those steps live (what the image then runs).
    plan = subprocess.run(["make", "-n", "-B", "setup", "teach"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert plan.returncode == 0, plan.stderr
    for step in (
        "pip install",
        "-e '.[course,dev]'",
        "-e '.[course,dev,teach]'",
        "ipykernel install",
        "wire_kernel install",
        "npm ci",
    ):
        assert step in plan.stdout, f"`make setup teach` no longer runs {step!r}"
    # Prerequisites tools/check_prereqs.sh asks for: Python 3.11+ (bookworm: 3.11), venv, make, Node 20+.
    base = next(a for i, a in steps if i == "FROM")
    node_major = int(re.match(r"node:(\d+)-bookworm", base).group(1))
    assert node_major >= 20, base
    apt = next(r for r in runs if "apt-get install" in r)
    assert {"python3", "python3-venv", "make"} <= set(apt.split()), apt
    assert ("WORKDIR", "/srv/mcp_lab") in steps and ("USER", "1000") in steps
    cmd = json.loads(next(a for i, a in steps if i == "CMD"))
    assert cmd == ["/srv/mcp_lab/classroom/image/start-learner.sh"]


def test_the_image_start_copies_the_course_then_becomes_the_server() -> None:
    script = IMAGE / "start-learner.sh"
    assert script.stat().st_mode & 0o111, "start-learner.sh must be executable"
    lines = [ln for ln in script.read_text().splitlines() if ln and not ln.startswith("#")]
    assert 'classroom/hub/course_spawner.py --copy-into "$HOME"' in lines[-2], lines
    assert lines[-1] == 'exec /srv/mcp_lab/.venv/bin/jupyterhub-singleuser "$@"', lines
    assert any("--nbgrader-course" in ln for ln in lines), "the teacher's course folder is never made"


def test_the_image_leaves_out_the_teachers_folders() -> None:
    """The learner image's build context has no worked solutions and no lab sources."""
    ignored = {ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines() if ln and not ln.startswith("#")}
    assert {"labs/solutions", "labs/source"} <= ignored, sorted(ignored)


def test_z2jh_config_parses_and_names_the_image() -> None:
    config = yaml.safe_load(Z2JH.read_text(encoding="utf-8"))
    single = config["singleuser"]
    assert f"{single['image']['name']}:{single['image']['tag']}" == image_ref()
    assert single["cmd"] == "/srv/mcp_lab/classroom/image/start-learner.sh"
    assert single["storage"]["homeMountPath"] == "/home/jovyan"  # the image's uid 1000 home
    to_mb = {"M": 1, "G": 1000}
    guarantee, limit = (int(v[:-1]) * to_mb[v[-1]] for v in (single["memory"]["guarantee"], single["memory"]["limit"]))
    assert 553 <= guarantee <= limit, "the guarantee covers the measured learner (553 MB, five notebooks)"
    assert config["cull"]["enabled"] is True and config["cull"]["timeout"] > 0
    hub = config["hub"]["config"]
    assert hub["JupyterHub"]["authenticator_class"] == "shared-password"
    assert hub["SharedPasswordAuthenticator"]["user_password"] is None, "never commit a password"
    assert hub["SharedPasswordAuthenticator"]["admin_password"] is None, "never commit a password"
    assert hub["Authenticator"]["admin_users"] == ["teacher"]
    assert config["cull"]["timeout"] >= 3 * 3600, "idle servers kept three hours"
    # the classroom: the exchange on a shared volume, learners' Fetch/Submit on ~/labs, grading
    mounts = {m["name"]: m["mountPath"] for m in single["storage"]["extraVolumeMounts"]}
    files = single["extraFiles"]
    assert "Exchange.root = " + repr(mounts["exchange"]).replace("'", '"') in files["learner-nbgrader"]["stringData"]
    assert "ExchangeFactory.submit = LabsSubmit" in files["learner-nbgrader"]["stringData"]
    assert files["teacher-nbgrader"]["data"]["Exchange"]["root"] == mounts["exchange"]
    learner_server = files["learner-server"]["data"]["ServerApp"]
    assert learner_server["jpserver_extensions"]["nbgrader.server_extensions.formgrader"] is False
    assert "-l" not in learner_server["terminado_settings"]["shell_command"], "a login shell resets PATH"


def test_course_copy_is_once_and_leaves_out_the_solutions(tmp_path: Path) -> None:
    home = tmp_path / "ana"
    assert copy_course(ROOT, home, ["notebooks", "labs"]) is True
    assert (home / COPIED_MARK).exists()
    assert not (home / "labs" / "solutions").exists(), "a learner must not get the solutions"
    assert not (home / "labs" / "source").exists(), "a learner must not get the labs' sources"
    assert (home / "labs" / "pt-BR" / "08-ask-the-person" / "server.py").exists(), "the Portuguese labs are copied"
    assert not (home / "labs" / "pt-BR" / "solutions").exists(), "nor the Portuguese edition's solutions"
    assert sorted(p.name for p in (home / "labs").glob("*.ipynb")) == sorted(
        p.name for p in (ROOT / "labs").glob("*.ipynb")
    ), "every student lab is copied"
    assert sorted(p.name for p in (home / "notebooks").glob("*.ipynb")) == sorted(
        p.name for p in (ROOT / "notebooks").glob("*.ipynb")
    )
    mine = next((home / "labs").glob("*.ipynb"))
    mine.write_text("my edits", encoding="utf-8")
    assert copy_course(ROOT, home, ["notebooks", "labs"]) is False
    assert mine.read_text(encoding="utf-8") == "my edits", "a restart overwrote a learner's work"
    with pytest.raises(FileNotFoundError, match="no-such-part"):
        copy_course(ROOT, tmp_path / "ben", ["no-such-part"])
    # The image's start calls the same copy from the command line.
    done = subprocess.run(
        [sys.executable, str(ROOT / "classroom" / "hub" / "course_spawner.py"), "--copy-into", str(tmp_path / "chidi")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and (tmp_path / "chidi" / COPIED_MARK).exists(), done.stderr


def test_course_copy_leaves_out_exactly_the_teachers_folders(tmp_path: Path) -> None:
    course = tmp_path / "course"
    for rel in (
        "notebooks/a.ipynb",
        "notebooks/source/kept.txt",
        "labs/b.ipynb",
        "labs/b/server.py",
        "labs/solutions/b.ipynb",
        "labs/source/b/b.ipynb",
        "labs/.ipynb_checkpoints/b.ipynb",
    ):
        (course / rel).parent.mkdir(parents=True, exist_ok=True)
        (course / rel).write_text("x", encoding="utf-8")
    home = tmp_path / "home"
    copy_course(course, home, ["notebooks", "labs"])
    got = sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file() and p.name != COPIED_MARK)
    assert got == ["labs/b.ipynb", "labs/b/server.py", "notebooks/a.ipynb", "notebooks/source/kept.txt"], got
