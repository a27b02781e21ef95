"""Record the pinned reference server as the lessons drive it, for the browser edition.

    .venv/bin/python tools/record_reference_sessions.py      # or: make recordings

The browser edition has no Node, so `connect("everything")` there answers from recordings of
the real server (mcp_lab.servers.inprocess).  This tool makes them: it runs the lessons that
talk to the reference server (LESSONS) in the installed edition, each in a kernel of its own
with nbclient, against the real pinned server (`make setup` installs it).  Around each lesson
it adds two cells of its own (nothing is written into the notebook): the first keeps every
Client the lesson opens; the last writes, for each connection whose process was the reference
server, that process's own events as a cassette.  Identical conversations (a cell that opens
the same exchange twice) are kept once.  The results replace notebooks/cassettes/everything/;
`make lite` packs them with the chapter's probe (probe-everything.jsonl).

A cell of a lesson that fails stops the recording with the notebook, the cell and the error: a
recording of a lesson that no longer runs would teach the wrong thing.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "notebooks" / "cassettes" / "everything"
LESSONS = ("06-probe-then-fallback", "09-statelessness", "11-token-cost")
CELL_TIMEOUT = 120

KEEP = """
from mcp_lab.session.client import Client as _RecordedClient
_recorded_clients = []
_recorded_init = _RecordedClient.__init__
def _record_client(self, *args, **kwargs):
    _recorded_init(self, *args, **kwargs)
    _recorded_clients.append(self)
_RecordedClient.__init__ = _record_client
"""
WRITE = """
from mcp_lab.wire.trace import Trace as _RecordedTrace
for _n, _c in enumerate(_recorded_clients):
    if any("mcp-server-everything" in str(a) for a in (getattr(_c.transport, "argv", None) or [])):
        _mine = [e for e in _c.trace if e.peer == _c.name]
        _RecordedTrace(_mine, title=f"{LESSON}: connection {_n}").save(
            f"{OUT_DIR}/{_n:03d}.jsonl", how="tools/record_reference_sessions.py",
            server={"label": "everything", "command": ["mcp-server-everything", "stdio"]})
"""


def run_lesson(stem: str, out_dir: Path) -> None:
    """Run notebooks/STEM.ipynb with the two recording cells around it; fail with the cell."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from traitlets.config import Config

    path = ROOT / "notebooks" / f"{stem}.ipynb"
    nb = nbformat.read(path, as_version=4)
    write = WRITE.replace("{LESSON}", stem).replace("{OUT_DIR}", str(out_dir))
    nb.cells = [nbformat.v4.new_code_cell(KEEP), *nb.cells, nbformat.v4.new_code_cell(write)]
    config = Config()
    config.KernelManager.transport_encryption = "auto"
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, config=config, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except CellExecutionError as e:
        raise SystemExit(
            f"record_reference_sessions: {stem} failed, nothing recorded: {str(e).splitlines()[-1]}"
        ) from None


def _conversation(path: Path) -> str:
    """What the client sent and what came back, without ids, times and _meta: the identity of a session."""
    said = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        event = json.loads(line)
        msg = event.get("message")
        if event.get("kind") in ("send", "recv") and isinstance(msg, dict):
            params = msg.get("params")  # absent and {} differ: the player tells them apart
            if isinstance(params, dict):
                params = {k: v for k, v in params.items() if k != "_meta"}
            said.append([event["kind"], msg.get("method"), params, msg.get("result"), msg.get("error")])
    return json.dumps(said, sort_keys=True)


def main() -> int:
    kept: dict[str, Path] = {}
    with tempfile.TemporaryDirectory(prefix="mcp_lab-record-") as tmp:
        for stem in LESSONS:
            lesson_dir = Path(tmp) / stem[:2]
            lesson_dir.mkdir()
            run_lesson(stem, lesson_dir)
            for path in sorted(lesson_dir.glob("*.jsonl")):
                kept.setdefault(_conversation(path), path)
            print(f"recorded {stem}: {len(list(lesson_dir.glob('*.jsonl')))} connection(s)", file=sys.stderr)
        if OUT.exists():
            shutil.rmtree(OUT)
        OUT.mkdir(parents=True)
        for path in kept.values():
            shutil.copy2(path, OUT / f"{path.parent.name}-{path.stem[-2:]}.jsonl")
    print(f"wrote {len(kept)} distinct conversation(s) with the reference server to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
