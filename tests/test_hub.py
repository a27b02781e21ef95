"""The workshop hub (classroom/hub/, `make hub`) with five learners, end to end.

The real JupyterHub with the project's config and the pinned configurable-http-proxy: five
learners log in through the hub's REST API with the workshop password, their servers start, the
requests-by-hand lab's solution runs in every learner's own server (through the Jupyter server's
kernel websocket, as JupyterLab runs it), each learner's files are shown to be their own, and
after the hub stops no process it started is left.  Select with `-m hub`.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _support.hub import ADMIN_PASSWORD, HUB_CONFIG, PASSWORD, ROOT, WorkshopHub, run_notebook, text_of

pytestmark = pytest.mark.hub

LEARNERS = ["ana", "ben", "chidi", "dara", "emil"]


def solution_notebook() -> Path:
    found = sorted((ROOT / "labs" / "solutions").glob("*requests-by-hand.ipynb"))
    if len(found) != 1:
        pytest.fail(f"expected one requests-by-hand solution in labs/solutions, found {found}", pytrace=False)
    return found[0]


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
    assert "solutions" not in labs, f"{name} was handed the solutions: {sorted(labs)}"
    assert any(n.endswith("requests-by-hand.ipynb") for n in labs), sorted(labs)


WHO_AM_I = (
    "import os; print(os.path.realpath(os.environ['HOME']))",
    "print(open(os.path.expanduser('~/whoami.txt')).read())",
)


def _log_in_the_room(hub: WorkshopHub) -> None:
    """A wrong password is refused; five learners and the teacher (admin) log in over REST."""
    wrong = {"auth": {"username": "ana", "password": "not-the-password"}}
    r = hub.http.post(f"{hub.url}/hub/api/users/ana/tokens", json=wrong)
    assert r.status_code == 403, f"a wrong password got {r.status_code}, expected 403"
    for name in LEARNERS:
        hub.login(name)
    teacher = {"Authorization": f"token {hub.login('teacher', ADMIN_PASSWORD)}"}
    r = hub.http.get(f"{hub.url}/hub/api/users", headers=teacher)
    assert r.status_code == 200, f"the teacher could not list the learners: {r.status_code}"
    assert {u["name"] for u in r.json()} == {*LEARNERS, "teacher"}, r.text[:300]
    banner = f"mcp_lab workshop hub: {hub.url}/  password: {PASSWORD}"
    assert banner in hub.log_tail(10_000), "the hub did not print its address and password"


def _check_separate(hub: WorkshopHub, data: Path, results: list[dict], lab_path: str) -> None:
    """Each learner's kernel ran the lab at home, read its own file, and no one else's server opens."""
    for name, result in zip(LEARNERS, results):
        assert not result["errors"], f"{name}'s run of {lab_path} failed: {result['errors']}"
        home, whoami = (text_of(o).strip() for o in result["outputs"])
        assert home == str((data / "homes" / name).resolve()), f"{name}'s kernel HOME is {home}"
        assert whoami == name, f"{name}'s kernel read {whoami!r} from ~/whoami.txt"
        other = LEARNERS[(LEARNERS.index(name) + 1) % len(LEARNERS)]
        r = hub.http.get(f"{hub.server_url(other)}/api/contents/", headers=hub.headers(name), follow_redirects=False)
        assert r.status_code == 403, f"{name}'s token opened {other}'s server: {r.status_code}"
    homes = sorted(p.name for p in (data / "homes").iterdir())
    assert homes == sorted(LEARNERS), f"one home per learner expected, found {homes}"


def test_five_learners_each_run_the_lab_in_their_own_server(tmp_path: Path) -> None:
    solution = solution_notebook()
    lab_path = f"labs/{solution.name}"
    content = json.loads(solution.read_text(encoding="utf-8"))
    data = tmp_path / "hub"
    with WorkshopHub(data, LEARNERS) as hub:
        _log_in_the_room(hub)
        t0 = time.perf_counter()
        for name in LEARNERS:
            hub.start_server(name)
        for name in LEARNERS:
            hub.wait_ready(name)
        spawn_seconds = time.perf_counter() - t0
        for name in LEARNERS:
            _check_course_copy(hub, name)
            _check_kernels(hub, name)
            _put(hub, name, lab_path, {"type": "notebook", "format": "json", "content": content})
            _put(hub, name, "whoami.txt", {"type": "file", "format": "text", "content": name})

        async def everyone():
            runs = (run_notebook(hub.server_url(n), hub.tokens[n], lab_path, WHO_AM_I) for n in LEARNERS)
            return await asyncio.gather(*runs)

        results = asyncio.run(everyone())
        hub.remember_processes()
        _check_separate(hub, data, results, lab_path)
        # The idle culler is up and allowed to read the users (its first pass runs at start).
        assert "200 GET /hub/api/users?state=[secret] (idle-culler@127.0.0.1)" in hub.log_tail(10_000), (
            "the idle culler never listed the users:\n" + hub.log_tail()
        )
        left = hub.stop()
        assert hub.proc.returncode == 0, f"the hub exited {hub.proc.returncode}:\n{hub.log_tail()}"
    assert not left, f"processes left after the hub stopped: {left}"
    runs = ", ".join(f"{r['seconds']:.1f}" for r in results)
    print(f"5 servers ready in {spawn_seconds:.1f} s; lab runs {runs} s")


def test_wrong_settings_fail_in_one_line(tmp_path: Path) -> None:
    """A too-short workshop password stops the hub with one line that says what to do."""
    done = subprocess.run(
        [sys.executable, "-m", "jupyterhub", "-f", str(HUB_CONFIG)],
        cwd=tmp_path,
        env={**os.environ, "MCP_LAB_HUB_PASSWORD": "short", "MCP_LAB_HUB_DATA": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "MCP_LAB_HUB_PASSWORD must have at least 8 characters" in done.stderr, done.stderr[-500:]
    assert "Traceback" not in done.stderr, done.stderr[-800:]
