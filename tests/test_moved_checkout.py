"""A copied or moved checkout either works or says so (issue 36, point 5).

A virtualenv is not relocatable: the shebangs of its scripts, its kernelspecs and its editable
install of mcp_lab name the folder it was made in.  A checkout copied elsewhere with its `.venv`
would run the ORIGINAL folder's code without a word.  The Makefile compares the folder `.venv`
was made in with its own on every run; when they differ it says so in one line and removes
`.venv`, which set-up then makes again in the new place.

The test copies this set-up checkout's Makefile, its tools and its real `.venv/bin` (whose
scripts name this folder) into a new folder, and runs make there.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from _support import ROOT

MOVED = "not in this folder (a copied or moved checkout)"


def _make(folder, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", *args], cwd=folder, capture_output=True, text=True, timeout=60
    )


def test_a_copied_checkout_says_so_and_makes_its_venv_again(tmp_path):
    if not (ROOT / ".venv" / "bin" / "pip").exists():
        pytest.fail("this test needs the set-up checkout's .venv (make setup)")
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(ROOT / "Makefile", copy / "Makefile")
    shutil.copytree(ROOT / "tools", copy / "tools", ignore=shutil.ignore_patterns("node_modules"))
    shutil.copytree(ROOT / ".venv" / "bin", copy / ".venv" / "bin", symlinks=True)
    # What the copy would run: its pip names the original folder's interpreter.
    assert str(ROOT / ".venv") in (copy / ".venv" / "bin" / "pip").read_text().splitlines()[0]

    dry = _make(copy, "-n", "prereqs")
    assert MOVED in dry.stdout and str(ROOT / ".venv") in dry.stdout
    assert (copy / ".venv").exists(), "make -n only says it"

    real = _make(copy, "prereqs")
    assert real.returncode == 0, real.stderr
    assert [line for line in real.stdout.splitlines() if MOVED in line], real.stdout
    assert not (copy / ".venv").exists(), "the copied .venv is removed, so set-up makes it again here"


def test_the_checkout_it_was_made_in_says_nothing():
    run = _make(ROOT, "-n", "prereqs")
    assert run.returncode == 0, run.stderr
    assert MOVED not in run.stdout
