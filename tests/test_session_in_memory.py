"""The session layer in-process: the real Client over the in-memory transport against the real
calendar logic (`servers/calendar.handle_line`), no child process. Also the Transport protocol,
the caller-owned Trace and the error tree by cause."""

from __future__ import annotations

import socket

import pytest

import mcp_lab
from mcp_lab.servers import calendar as calendar_server
from mcp_lab.session.connect import connect_in_memory
from mcp_lab.transport.base import Transport
from mcp_lab.transport.http import HttpTransport
from mcp_lab.transport.memory import MemoryTransport
from mcp_lab.transport.stdio import StdioTransport
from mcp_lab.wire import errors, jsonrpc
from mcp_lab.wire.trace import Trace

WHEN = "2026-09-10T08:30:00Z"


def test_every_transport_satisfies_the_transport_protocol():
    for t in (
        StdioTransport(["true"]),
        HttpTransport("http://127.0.0.1:9/mcp"),
        MemoryTransport(calendar_server.handle_line),
    ):
        assert isinstance(t, Transport), f"{type(t).__name__} lacks part of the Transport protocol"


def test_in_memory_answers_are_the_servers_own(calendar):
    listed = calendar.request("tools/list").unwrap()
    assert [t["name"] for t in listed["tools"]] == ["create_event"]
    assert calendar.transport.pid is None and calendar.transport.alive
    sent, received = calendar.trace.sent, calendar.trace.received
    assert len(sent) == len(received) == 1 and '"_meta"' in sent[0]


def test_a_server_error_answer_is_a_remote_error_with_the_servers_code(calendar):
    answer = calendar.request("tools/list", meta=False)
    with pytest.raises(errors.RemoteError) as info:
        answer.unwrap()
    assert isinstance(info.value, mcp_lab.ProtocolError) and info.value.code == jsonrpc.INVALID_PARAMS


def test_silence_in_memory_still_honours_the_deadline():
    client = connect_in_memory(lambda line: None, name="mute", timeout=0.05)
    with pytest.raises(TimeoutError) as info:
        client.request("tools/list")
    assert isinstance(info.value, mcp_lab.DeadlineExceeded) and not isinstance(info.value, mcp_lab.ProtocolError)
    assert not hasattr(info.value, "code"), "a local failure carries no JSON-RPC code"


def test_a_closed_transport_is_transport_closed(calendar):
    calendar.close()
    with pytest.raises(mcp_lab.TransportClosed):
        calendar.request("tools/list")


def test_the_servers_stderr_reaches_the_trace_in_memory():
    def noisy(line):
        import sys

        print("thinking about", line[:20], file=sys.stderr)
        return calendar_server.handle_line(line)

    client = connect_in_memory(noisy, name="noisy")
    assert client.request("tools/list").ok
    assert [e.line[:14] for e in client.trace.of("stderr")] == ["thinking about"]
    assert client.stderr and client.stderr[0].startswith("thinking about")


def test_the_caller_owns_the_trace_and_notes_go_into_it():
    shared = Trace(title="two connections, one record")
    a = connect_in_memory(calendar_server.handle_line, name="a", trace=shared)
    b = connect_in_memory(calendar_server.handle_line, name="b", trace=shared)
    a.request("tools/list")
    shared.note("between the two", peer="a")
    b.request("tools/list")
    assert a.trace is b.trace is shared
    assert shared.peers == ["a", "b"] and [e.kind for e in shared] == ["send", "recv", "note", "send", "recv"]
    with pytest.raises(ValueError, match="unknown event kind"):
        shared.add("recieved", "typo")


def test_the_probe_runs_in_memory_and_writes_its_reasoning_as_notes(calendar):
    verdict = mcp_lab.probe(calendar, timeout=2)
    assert (verdict.era, verdict.version) == ("modern", "2026-07-28") and calendar.era == "modern"
    notes = [e.line for e in calendar.trace.of("note")]
    assert notes == list(verdict.steps) and notes, "every probe step is a note in the caller's Trace"


def test_a_multi_round_trip_call_completes_in_memory(calendar):
    done = mcp_lab.mrtr.call(
        calendar,
        "tools/call",
        {"name": "create_event", "arguments": {"title": "Dentist"}},
        mcp_lab.widgets.scripted_answerer({"startsAt": WHEN}),
    )
    assert done.rounds == 2 and done.final.result["resultType"] == "complete"
    ids = [jsonrpc.parse(line).id for line in calendar.trace.sent]
    assert len(set(ids)) == 2, f"each round is a new request with a new id, got {ids}"


def test_the_error_tree_groups_by_cause():
    assert issubclass(mcp_lab.DeadlineExceeded, TimeoutError) and issubclass(mcp_lab.RoundsExceeded, RuntimeError)
    assert issubclass(mcp_lab.HttpError, mcp_lab.TransportClosed)
    for local in (mcp_lab.TransportClosed, mcp_lab.DeadlineExceeded, mcp_lab.RoundsExceeded, errors.CatalogError):
        assert issubclass(local, mcp_lab.LocalError) and not issubclass(local, mcp_lab.ProtocolError)
    assert issubclass(mcp_lab.RemoteError, mcp_lab.ProtocolError) and issubclass(
        mcp_lab.ProtocolError, mcp_lab.McpError
    )


def test_a_refused_http_connection_is_caught_as_transport_closed():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening: the connection is refused
        client = mcp_lab.connect(f"http://127.0.0.1:{port}/mcp", timeout=2)
        try:
            with pytest.raises(mcp_lab.TransportClosed) as info:
                client.request("tools/list")
        finally:
            client.close()
    assert isinstance(info.value, mcp_lab.HttpError) and "cannot connect" in info.value.message
