"""`make lab` keeps the teachers' folders out of the learner's file browser.

The Makefile's `lab` line passes `--ContentsManager.hide_globs`; this test reads that very line
(`make -n lab`), starts a real Jupyter server with it over a copy of the labs' layout, and asks
the contents API (what the file browser lists) for `labs/`: the student labs are there,
`solutions` and `source` are not. The same server without the flag lists them (the check sees
what it exists for).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess

from _support import ROOT


def make_lab_hide_globs() -> str:
    dry = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    line = re.search(r"jupyter lab (?:.*\\\n)*.*", dry)
    assert line, f"`make -n lab` shows no `jupyter lab` command:\n{dry[-2000:]}"
    words = shlex.split(line.group(0).replace("\\\n", " "))
    flags = [w for w in words if w.startswith("--ContentsManager.hide_globs=")]
    assert len(flags) == 1, f"`make lab` sets no (or several) hide_globs: {words}"
    return flags[0]


def listed(lab) -> list[str]:
    """What the file browser would list in labs/, over a copy of the labs' layout."""
    for folder in ("solutions", "source"):
        (lab.root / "labs" / folder).mkdir(parents=True)
    (lab.root / "labs" / "05-requests-by-hand.ipynb").write_bytes(
        (ROOT / "labs" / "05-requests-by-hand.ipynb").read_bytes()
    )
    status, body = lab._api("/api/contents/labs")
    assert status == 200, status
    return sorted(item["name"] for item in json.loads(body)["content"])


def test_make_lab_hides_the_solutions_and_the_sources(jupyter_server):
    flag = make_lab_hide_globs()
    assert listed(jupyter_server([])) == ["05-requests-by-hand.ipynb", "solutions", "source"]
    assert listed(jupyter_server([], args=[flag])) == ["05-requests-by-hand.ipynb"]
