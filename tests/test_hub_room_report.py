"""The room view's data, alone: a kernel's status file (mcp_lab.notebook.room_status) and what the
room service reads from a home (classroom/hub/room_report.py).  The running service, with two
learners at different points and a real browser, is in tests/test_hub_workshop.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "classroom" / "hub"))

import room_report  # noqa: E402

from mcp_lab.notebook import room_status  # noqa: E402


def _notebook(cells: list[dict]) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _code(count=None, outputs=(), graded=False) -> dict:
    meta = {"nbgrader": {"grade": True, "grade_id": "check", "points": 10}} if graded else {}
    return {"cell_type": "code", "source": "", "metadata": meta, "outputs": list(outputs), "execution_count": count}


def test_a_kernel_writes_its_status_only_on_the_hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    room_status.publish(["cell:a"], [("q1", "quiz")])
    assert not (tmp_path / ".mcp_lab").exists(), "a status file was written off the hub"
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    monkeypatch.setenv("JPY_SESSION_NAME", "notebooks/04.ipynb")
    room_status.publish(["cell:b", "cell:a"], [("q1", "quiz")])
    written = json.loads((tmp_path / ".mcp_lab" / "room" / f"{os.getpid()}.json").read_text())
    assert written["notebook"] == "notebooks/04.ipynb" and written["cells_run"] == ["cell:a", "cell:b"]
    assert written["pending"] == [["q1", "quiz"]]


def test_the_report_follows_the_live_kernel_else_the_saved_notebooks(tmp_path: Path) -> None:
    home = tmp_path
    (home / "notebooks").mkdir()
    (home / "labs").mkdir()
    (home / "notebooks" / "04.ipynb").write_text(_notebook([_code(), _code(), _code()]))
    failed = {"output_type": "error", "ename": "CheckFailed", "evalue": "request 2 had no id\nmore", "traceback": []}
    (home / "labs" / "05.ipynb").write_text(_notebook([_code(1), _code(2, [failed], graded=True)]))
    (home / "labs" / "08.ipynb").write_text(_notebook([_code(1, [{"output_type": "stream"}], graded=True)]))
    (home / "labs" / "10.ipynb").write_text(_notebook([_code(graded=True)]))
    os.utime(home / "notebooks" / "04.ipynb", (1, 1))  # saved long ago: 10 is the last saved
    report = room_report.learner_report(home)
    assert report["notebook"] == "labs/10.ipynb" and report["progress"] == [0, 1] and report["pending"] == []
    assert report["labs"] == {"05": "failed: CheckFailed: request 2 had no id", "08": "passed", "10": "not run"}
    status = home / ".mcp_lab" / "room"
    status.mkdir(parents=True)
    live = {"notebook": f"{home}/notebooks/04.ipynb", "cells_run": ["a", "b"], "pending": [["p", "prediction"]]}
    (status / f"{os.getpid()}.json").write_text(json.dumps({**live, "time": 2}))
    (status / "999999999.json").write_text(json.dumps({**live, "notebook": "labs/05.ipynb", "time": 3}))  # gone
    report = room_report.learner_report(home)
    assert report["notebook"] == "notebooks/04.ipynb" and report["progress"] == [2, 3], report
    assert report["pending"] == [["p", "prediction"]]


def test_the_report_reads_no_link_fifo_or_other_json(tmp_path: Path) -> None:
    """The service runs as root: a learner's link to a file they may not read, or a FIFO that
    would block the page, counts as no notebook at all."""
    home, secret = tmp_path / "home", tmp_path / "root-only.ipynb"
    (home / "labs").mkdir(parents=True)
    secret.write_text(_notebook([_code(1, [{"output_type": "stream"}], graded=True)]))
    (home / "labs" / "05.ipynb").symlink_to(secret)
    os.mkfifo(home / "labs" / "08.ipynb")
    (home / "labs" / "10.ipynb").write_text("[1, 2]")
    report = room_report.learner_report(home)
    assert report["labs"] == {"05": "not run", "08": "not run", "10": "not run"}, report
