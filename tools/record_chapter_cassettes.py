"""Record the chapter's exchanges as cassettes in notebooks/cassettes/ (run from the repo root).

    .venv/bin/python tools/record_chapter_cassettes.py

Each file is a real recording of one of the project's real servers, made the way the chapter
made it: the probe of the pinned reference server (discover refused, then the handshake and the
catalog), the calendar's three primitives, the input_required round trip, and the statelessness
run with one fresh process per message (A, B, C).  The header names the server by its portable
command (`python -m ...`), never by a path of this machine.  Re-run it after changing a server;
notebook 15 and tests/test_cassette.py replay these files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mcp_lab
from mcp_lab import mrtr

OUT = Path(__file__).resolve().parents[1] / "notebooks" / "cassettes"
WHEN = "2026-09-10T08:30:00Z"
DENTIST = {"name": "create_event", "arguments": {"title": "Dentist"}}
CALENDAR = {"command": ["python", "-m", "mcp_lab.servers.calendar"]}
HOW = "tools/record_chapter_cassettes.py"


def _accept(key, request):
    return {"action": "accept", "content": {"startsAt": WHEN}}


def probe_reference() -> None:
    with mcp_lab.probe("everything", timeout=10, refresh=True) as v:
        tools = v.client.request("tools/list", timeout=10).result["tools"]
        assert len(tools) == 13, f"the pinned reference server lists {len(tools)} tools after the handshake, not 13"
        v.trace.title = "the chapter's probe of the reference server, then tools/list"
        v.trace.save(OUT / "probe-everything.jsonl", how=HOW, server={"command": ["mcp-server-everything", "stdio"]})


def calendar_primitives() -> None:
    with mcp_lab.probe("calendar", refresh=True) as v:
        c = v.client
        c.request("resources/read", {"uri": "calendar://week"})
        c.request("prompts/get", {"name": "prepare_week", "arguments": {"focus": "deep work"}})
        c.request("tools/call", {"name": "create_event", "arguments": {"title": "Dentist", "startsAt": WHEN}})
        c.trace.title = "the calendar's three primitives: a resource, a prompt, a tool"
        c.trace.save(OUT / "calendar-primitives.jsonl", how=HOW, server=CALENDAR)


def calendar_input_required() -> None:
    with mcp_lab.probe("calendar", refresh=True) as v:
        ex = mrtr.call(v.client, "tools/call", DENTIST, _accept)
        assert ex.complete and ex.rounds == 2, ex
        v.trace.title = "create_event without a date: input_required, then the retry"
        v.trace.save(OUT / "calendar-input-required.jsonl", how=HOW, server=CALENDAR)


def statelessness_abc() -> None:
    iso = mcp_lab.isolated(
        "calendar",
        [
            ("tools/call", DENTIST),
            lambda rows: (
                "tools/call",
                {**DENTIST, "requestState": rows[0].request_state, "inputResponses": {"when": _accept("when", None)}},
            ),
            ("resources/read", {"uri": "calendar://week"}),
        ],
        labels=["process A", "process B", "process C"],
    )
    assert [r.result_type for r in iso] == ["input_required", "complete", "complete"], iso.text()
    iso.trace.save(
        OUT / "statelessness-abc.jsonl", how=HOW, server={**CALENDAR, "era": "modern", "version": mcp_lab.LATEST}
    )


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for record in (probe_reference, calendar_primitives, calendar_input_required, statelessness_abc):
        record()
        print(f"recorded {record.__name__}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
