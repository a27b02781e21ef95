"""The stdio transport and the client, against real child processes (small scripts made here)."""

import json
import os
import sys
import textwrap

import pytest
from _support import wait_for

import mcp_lab
from mcp_lab import jsonrpc
from mcp_lab.transport.stdio import StdioTransport
from mcp_lab.wire.jsonrpc import DeadlineExceeded, TransportClosed
from mcp_lab.wire.revisions import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY


def script(tmp_path, body: str) -> list[str]:
    p = tmp_path / "server.py"
    p.write_text(textwrap.dedent(body))
    return [sys.executable, str(p)]


ECHO_ID = """
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete", "echo": msg}}), flush=True)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); read its state from /proc.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_argv_must_be_a_list_not_a_shell_string():
    with pytest.raises(TypeError, match="not a shell string"):
        StdioTransport("python server.py")
    with pytest.raises(TypeError, match="as a list"):
        mcp_lab.connect("python -m mcp_lab.servers.calendar")


def test_unknown_short_name_and_missing_executable_are_one_line_errors():
    with pytest.raises(ValueError, match="unknown server 'nope': use one of"):
        mcp_lab.connect("nope")
    with pytest.raises(TransportClosed, match="not on PATH"):
        mcp_lab.connect(["no-such-server-binary-xyz"])


@pytest.mark.wire_deliberate(server="an echo fake: its results show what was sent, not a schema-complete answer")
def test_declared_capabilities_follow_what_the_context_can_honour(tmp_path):
    """Issue 14: a client declares elicitation only where someone can answer the question."""
    from mcp_lab import mrtr
    from mcp_lab.notebook.interactive import interactive

    def declared(answer) -> dict:
        return answer.unwrap()["echo"]["params"]["_meta"][CLIENT_CAPABILITIES_KEY]

    call = {"name": "create_event", "arguments": {"title": "Dentist"}}
    with mcp_lab.connect(script(tmp_path, ECHO_ID)) as c:
        assert declared(c.request("tools/call", call)) == {}  # nobody to ask
        ex = mrtr.call(c, "tools/call", call, lambda key, ask: {"action": "decline"})
        assert declared(ex.final) == {"elicitation": {"form": {}}}  # an answer callback fills in forms
        ex = mrtr.call(c, "tools/call", call, lambda key, ask: {"action": "decline"}, capabilities={})
        assert declared(ex.final) == {}  # the caller's word wins
        widget = interactive(c, "tools/call", call)  # the notebook's forms render both modes
        assert declared(widget.exchange.final) == {"elicitation": {"form": {}, "url": {}}}
    given = {"roots": {}, "elicitation": {"url": {}}}
    with mcp_lab.connect(script(tmp_path, ECHO_ID), capabilities=given) as c:
        assert declared(c.request("tools/list")) == given  # declared at connect: on every request
        ex = mrtr.call(c, "tools/call", call, lambda key, ask: {"action": "decline"})
        assert declared(ex.final) == given  # the client's own elicitation declaration is kept


@pytest.mark.wire_deliberate(server="an echo fake: its results show what was sent, not a schema-complete answer")
def test_request_adds_meta_of_the_current_revision(tmp_path):
    with mcp_lab.connect(script(tmp_path, ECHO_ID), client_info={"name": "t", "version": "1"}) as c:
        echoed = c.request("tools/list").unwrap()["echo"]
        m = echoed["params"]["_meta"]
        assert m[PROTOCOL_VERSION_KEY] == "2026-07-28"
        # A bare request has nobody to answer a question, so it declares nothing.
        assert m[CLIENT_CAPABILITIES_KEY] == {}
        assert m["io.modelcontextprotocol/clientInfo"] == {"name": "t", "version": "1"}
        # meta=False sends what was given and nothing else
        assert "params" not in c.request("tools/list", meta=False).unwrap()["echo"]
        # a partial _meta from the caller wins over the defaults, key by key
        got = c.request("x", {"_meta": {PROTOCOL_VERSION_KEY: "1900-01-01"}}).unwrap()["echo"]["params"]["_meta"]
        assert got[PROTOCOL_VERSION_KEY] == "1900-01-01" and CLIENT_CAPABILITIES_KEY in got
        # legacy era: no _meta stamped
        c.era = "legacy"
        assert "_meta" not in c.request("tools/list", {}).unwrap()["echo"]["params"]


def test_ids_are_fresh_and_the_trace_has_exact_lines(tmp_path):
    with mcp_lab.connect(script(tmp_path, ECHO_ID)) as c:
        a, b = c.request("a"), c.request("b")
        assert a.id != b.id
        sent = c.trace.sent
        assert len(sent) == 2 and all("\n" not in s for s in sent)
        assert json.loads(sent[0])["method"] == "a"
        recv = c.trace.of("recv")
        assert recv[0].elapsed_ms is not None and recv[0].elapsed_ms >= 0
        assert "->" in c.trace.text() and "<table" in c.trace._repr_html_()
        diagram = c.trace.mermaid()
        assert diagram.startswith("sequenceDiagram") and "a (id 1)" in diagram
        assert diagram._repr_mimebundle_()["text/vnd.mermaid"] == str(diagram)


@pytest.mark.wire_deliberate(server="a fake that writes noise; its result is minimal")
def test_a_non_json_stdout_line_is_noise_in_the_trace_not_a_crash(tmp_path):
    argv = script(
        tmp_path,
        """
        import json, sys
        print("Loading model... 42%", flush=True)   # the classic stray print
        for line in sys.stdin:
            msg = json.loads(line)
            print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete"}}), flush=True)
    """,
    )
    with mcp_lab.connect(argv) as c:
        assert c.request("tools/list").ok
        [noise] = c.trace.of("noise")
        assert noise.line == "Loading model... 42%" and "framing violation" in noise.note


@pytest.mark.wire_deliberate(server="a fake with a minimal result")
def test_stderr_is_kept_apart_and_in_the_trace(tmp_path):
    argv = script(
        tmp_path,
        """
        import json, sys
        print("starting up", file=sys.stderr, flush=True)
        for line in sys.stdin:
            msg = json.loads(line)
            print("got " + msg["method"], file=sys.stderr, flush=True)
            print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {}}), flush=True)
    """,
    )
    with mcp_lab.connect(argv) as c:
        c.request("tools/list")
        assert wait_for(lambda: "got tools/list" in c.stderr)
        assert c.stderr[0] == "starting up"
        assert [e.line for e in c.trace.of("stderr")][:2] == ["starting up", "got tools/list"]
        assert c.trace.of("noise") == []


def test_silence_hits_the_deadline_not_a_hang(tmp_path):
    argv = script(
        tmp_path,
        """
        import sys
        print("I read and never answer", file=sys.stderr, flush=True)
        for line in sys.stdin:
            pass
    """,
    )
    with mcp_lab.connect(argv) as c:
        with pytest.raises(DeadlineExceeded) as e:
            c.request("server/discover", timeout=0.3)
        assert isinstance(e.value, TimeoutError) and not hasattr(e.value, "code")  # local: no JSON-RPC code
        assert "within 0.3 s" in str(e.value)
        # The request is still out there: its id stays pending, so reusing it is refused.
        assert 1 in c.pending and 1 in c.abandoned
        with pytest.raises(jsonrpc.ProtocolError, match="still pending"):
            c.request("tools/list", id=1, timeout=0.1)


def test_a_late_answer_is_recorded_as_late_not_matched_to_the_next_request(tmp_path):
    argv = script(
        tmp_path,
        """
        import json, sys
        held = None
        for line in sys.stdin:
            msg = json.loads(line)
            if held is None:
                held = msg          # answer the first request only when the second arrives
                continue
            for m in (held, msg):
                print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"resultType": "complete",
                                  "for": m["method"]}}), flush=True)
    """,
    )
    with mcp_lab.connect(argv) as c:
        with pytest.raises(DeadlineExceeded):
            c.request("first", timeout=0.3)
        second = c.request("second")
        assert second.result["for"] == "second"
        late = [e for e in c.trace.of("recv") if e.message.id == 1]
        assert late and "late answer" in late[0].note
        assert 1 not in c.pending and not c.abandoned  # resolved once its answer came


def test_a_server_that_dies_says_so_with_its_stderr(tmp_path):
    argv = script(
        tmp_path,
        """
        import sys
        print("fatal: missing API_KEY", file=sys.stderr, flush=True)
        sys.exit(3)
    """,
    )
    c = mcp_lab.connect(argv)
    try:
        with pytest.raises(TransportClosed) as e:
            c.request("server/discover", timeout=5)
        assert "exit code 3" in str(e.value) and "missing API_KEY" in str(e.value)
    finally:
        c.close()


def test_close_reaps_even_a_server_that_ignores_stdin_eof_and_sigterm(tmp_path):
    argv = script(
        tmp_path,
        """
        import signal, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("stubborn", file=sys.stderr, flush=True)
        while True:
            time.sleep(0.05)
    """,
    )
    t = StdioTransport(argv, grace=0.2).start()
    assert wait_for(lambda: t.stderr_lines == ["stubborn"])
    pid = t.pid
    code = t.close()
    assert code == -9  # it took SIGKILL
    assert not alive(pid)


def test_context_manager_leaves_no_zombie():
    with mcp_lab.connect("calendar") as c:
        pid = c.transport.pid
        assert c.request("tools/list").ok
    assert c.transport.returncode is not None
    assert not alive(pid)


@pytest.mark.wire_deliberate(server="an echo fake: its results show the raw text received")
def test_send_raw_sends_the_exact_text(tmp_path):
    argv = script(
        tmp_path,
        """
        import json, sys
        for line in sys.stdin:
            print(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"raw": line}}), flush=True)
    """,
    )
    with mcp_lab.connect(argv) as c:
        text = '{"jsonrpc":"2.0", "id":1,   "method":"tools/list"}'
        [answer] = c.send_raw(text)
        assert answer.result["raw"] == text + "\n"
        assert c.trace.sent[-1] == text
        # an embedded newline really splits the message in two lines on the wire
        got = c.send_raw('{"jsonrpc":"2.0",\n"id":1,"method":"x"}', quiet=0.5)
        assert [g.result["raw"] for g in got] == ['{"jsonrpc":"2.0",\n', '"id":1,"method":"x"}\n']


@pytest.mark.wire_deliberate(server="an echo fake: its results show what was sent")
def test_notify_sends_no_id_and_expects_nothing(tmp_path):
    with mcp_lab.connect(script(tmp_path, ECHO_ID)) as c:
        c.notify("notifications/cancelled", {"requestId": 1})
        assert json.loads(c.trace.sent[-1]) == {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 1},
        }
        assert c.request("tools/list").ok


@pytest.mark.wire_deliberate(server="a fake that interleaves stray messages on purpose")
def test_answers_to_other_ids_are_kept_not_dropped(tmp_path):
    argv = script(
        tmp_path,
        """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            print(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}), flush=True)
            print(json.dumps({"jsonrpc": "2.0", "id": "stale", "result": {}}), flush=True)
            print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete"}}), flush=True)
    """,
    )
    with mcp_lab.connect(argv) as c:
        assert c.request("tools/list").ok
        kinds = [e.summary for e in c.trace.of("recv")]
        assert kinds == ["notifications/progress", "result (id stale) [no resultType]", "result (id 1) complete"]


def test_a_client_dropped_without_close_is_still_reaped(tmp_path):
    import gc

    c = mcp_lab.connect(script(tmp_path, ECHO_ID))
    pid = c.transport.pid
    assert c.request("x").ok
    del c
    gc.collect()  # the finalizer runs once nothing refers to the transport
    assert wait_for(lambda: not alive(pid))


def test_close_also_ends_the_servers_own_children(tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    # A wrapper that leaves a background child behind, then becomes `cat` (exits on EOF).
    t = StdioTransport(["sh", "-c", f"sleep 300 & echo $! > {pidfile}; exec cat"], grace=0.5).start()
    assert wait_for(lambda: pidfile.exists() and pidfile.read_text().strip())
    grandchild = int(pidfile.read_text())
    assert alive(grandchild)
    t.close()
    assert wait_for(lambda: not alive(grandchild))


@pytest.mark.wire_deliberate(client="a tools/call padded with a huge blob to fill the pipe")
def test_a_write_to_a_server_that_never_reads_has_a_deadline(tmp_path):
    argv = script(
        tmp_path,
        """
        import sys, signal
        signal.pause()      # never reads stdin
    """,
    )
    with mcp_lab.connect(argv) as c:
        with pytest.raises(DeadlineExceeded, match="did not read its stdin"):
            c.request("tools/call", {"blob": "x" * 1_000_000}, timeout=0.5)


def test_foreseeable_start_mistakes_are_one_line_errors(tmp_path):
    plain = tmp_path / "server.py"
    plain.write_text("print('no shebang')\n")
    plain.chmod(0o755)
    with pytest.raises(TransportClosed, match=r"run it through its interpreter, e\.g\. \[sys\.executable"):
        mcp_lab.connect([str(plain)])
    with pytest.raises(TransportClosed, match="working folder .* does not exist"):
        mcp_lab.connect([sys.executable, "-c", "pass"], cwd=str(tmp_path / "nope"))
    echo = tmp_path / "echo.py"
    echo.write_text(textwrap.dedent(ECHO_ID))
    with mcp_lab.connect([sys.executable, echo]) as c:  # a pathlib.Path in argv is fine
        assert c.request("x").ok and c.name == "echo.py"


@pytest.mark.wire_deliberate(server_noise="invalid UTF-8 on stdout, on purpose")
def test_invalid_utf8_and_missing_result_type_are_flagged_in_the_trace(tmp_path):
    argv = script(
        tmp_path,
        """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            sys.stdout.buffer.write(b'{"jsonrpc":"2.0","method":"x","params":{"t":"\\xff"}}\\n')
            body = {} if msg["method"] == "bare" else {"resultType": "partial"}
            print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": body}), flush=True)
    """,
    )
    with mcp_lab.connect(argv) as c:
        assert c.request("bare").ok
        assert "not valid UTF-8" in c.trace.of("noise")[0].note
        assert "no resultType" in c.trace.of("recv")[-1].note
        c.request("odd")
        assert "unknown resultType 'partial'" in c.trace.of("recv")[-1].note
        c.era = "legacy"  # a legacy result may omit it: no remark then
        c.request("bare")
        assert c.trace.of("recv")[-1].note is None
