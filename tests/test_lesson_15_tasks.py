"""Notebook 15's helpers read the wire, and its task judges the cassette player's real answer.

- `which_name` must tell a replay that wrote the recorded tool names from one that wrote other
  names (the replay defect of issue 38 is the second case), and from one that sent no call.
- `player-refuses` passes only on the player's -32602 (a recorded method, params it never saw);
  a recorded request, an unknown method and a malformed value are each told what is wrong.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from _support import ROOT

from mcp_lab import cassette
from mcp_lab.course.lessons import n15, tasks
from mcp_lab.wire.trace import Trace as WireTrace

RECORDING = ROOT / "notebooks" / "cassettes" / "calendar-primitives.jsonl"
PLAYER = [sys.executable, "-m", "mcp_lab.servers.cassette", str(RECORDING)]
JUDGE = tasks()["player-refuses"].judge


@dataclass
class Written:
    """What a replay exposes to the helpers: the trace of what its client wrote."""

    trace: WireTrace


def _wrote(*names: str) -> Written:
    lines = "\n".join(
        f'-> {{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}'
        for i, name in enumerate(names, 1)
    )
    return Written(cassette.from_lines(lines))


def test_tool_calls_reads_the_recording():
    assert n15.tool_calls(RECORDING) == ["create_event"]


def test_which_name_tells_the_recorded_name_from_a_remapped_one():
    assert n15.which_name(RECORDING, _wrote("create_event")) == n15.NAMES[0]
    assert n15.which_name(RECORDING, _wrote("create_calendar")) == n15.NAMES[1]
    assert n15.which_name(RECORDING, Written(cassette.from_lines(""))) == n15.NAMES[2]


def test_a_recorded_method_with_other_params_is_the_refusal_asked_for():
    other = ("tools/call", {"name": "create_event", "arguments": {"title": "never recorded"}})
    assert JUDGE(n15.ask_player(PLAYER, other)) is None


def test_each_other_answer_is_told_what_is_wrong():
    unknown = JUDGE(n15.ask_player(PLAYER, ("tools/list", {})))
    assert unknown is not None and "no request with that method" in unknown
    recorded = JUDGE(n15.ask_player(PLAYER, ("resources/read", {"uri": "calendar://week"})))
    assert recorded is not None and "recorded" in recorded
    assert "pair" in JUDGE(n15.ask_player(PLAYER, "tools/call"))
    assert n15.ask_player(PLAYER, ...) is ...
