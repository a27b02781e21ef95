"""The durable calendar: handles, SQLite, a signed requestState, and nothing lost under SIGKILL."""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time

import mcp_lab
from mcp_lab import jsonrpc
from mcp_lab.session.isolate import flip_one_character, isolated

START = "2026-09-10T08:30:00Z"
# Requests that the server may answer with a question declare that this client can answer one.
FORM = {"elicitation": {"form": {}}}
ANSWER = {"when": {"action": "accept", "content": {"startsAt": START}}}


def durable(db, *extra) -> list[str]:
    return [sys.executable, "-m", "mcp_lab.servers.durable", "--db", str(db), *extra]


def call(name, **arguments):
    return ("tools/call", {"name": name, "arguments": arguments})


def new_calendar(argv, env=None) -> str:
    row = isolated(argv, [call("create_calendar")], env=env)[0]
    assert row.result_type == "complete" and not row.is_error, row.summary
    handle = row.structured["calendar"]
    assert handle in row.text
    return handle


def retry(handle, state, title="Dentist"):
    return (
        "tools/call",
        {
            "name": "create_event",
            "arguments": {"calendar": handle, "title": title},
            "inputResponses": ANSWER,
            "requestState": state,
        },
    )


def test_abc_passes_across_processes(tmp_path):
    argv = durable(tmp_path / "cal.db")
    handle = new_calendar(argv)
    assert re.fullmatch(r"cal_[A-Za-z0-9_-]{22}", handle), "128 random bits, url-safe, no structure"
    iso = isolated(
        argv,
        [
            call("create_event", calendar=handle, title="Dentist"),
            lambda rows: retry(handle, rows[0].request_state),
            call("list_events", calendar=handle),
            ("resources/read", {"uri": f"calendar://{handle}/week"}),
        ],
        capabilities=FORM,
    )
    a, b, c, week = iso.rows
    assert a.result_type == "input_required" and a.request_state.count(".") == 1
    assert b.result_type == "complete" and b.text == f"Created e1: Dentist at {START}"
    assert c.structured["events"] == [{"id": "e1", "title": "Dentist", "startsAt": START}]
    assert '"title":"Dentist"' in week.text
    assert len({r.pid for r in iso}) == 4
    # The key file beside the database: created once, readable by its owner only.
    key = tmp_path / "cal.db.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 64


def test_handle_validation(tmp_path):
    argv = durable(tmp_path / "cal.db")
    handle = new_calendar(argv)
    forged = handle[:-1] + ("A" if handle[-1] != "A" else "B")
    iso = isolated(
        argv,
        [
            call("list_events", calendar=forged),
            call("create_event", calendar="cal_guess", title="x", startsAt=START),
            call("list_events"),
            call("list_events", calendar=42),
            ("resources/read", {"uri": f"calendar://{forged}/week"}),
            ("resources/list", {}),
        ],
    )
    for row in iso.rows[:4]:
        assert row.result_type == "complete" and row.is_error, row.summary
        assert "Traceback" not in row.text and "create_calendar" in row.text
    assert iso[0].text.startswith("Unknown calendar handle")
    assert iso[4].error_code == -32602 and "Unknown calendar handle" in iso[4].text
    assert iso[5].result["resources"] == [], "handles are bearer secrets and are never listed"
    # Expired: a calendar kept 0 seconds has expired by the next call.
    short = durable(tmp_path / "short.db", "--calendar-ttl", "0")
    gone = new_calendar(short)
    row = isolated(short, [call("list_events", calendar=gone)])[0]
    assert row.is_error and row.text.startswith("Calendar handle expired at")


def test_request_state_tamper_replay_expiry_and_binding(tmp_path):
    argv = durable(tmp_path / "cal.db")
    handle = new_calendar(argv)
    iso = isolated(
        argv,
        [
            call("create_event", calendar=handle, title="Dentist"),
            lambda rows: retry(handle, flip_one_character(rows[0].request_state)),
            lambda rows: retry(handle, rows[0].request_state, title="Mallory"),
            lambda rows: retry(handle, "eyJ0aXRsZSI6IkRlbnRpc3QifQ=="),
            lambda rows: retry(handle, rows[0].request_state),
            lambda rows: retry(handle, rows[0].request_state),
            call("list_events", calendar=handle),
        ],
        capabilities=FORM,
    )
    _, tampered, rebound, plain, ok, replay, listing = iso.rows
    assert tampered.error_code == -32602 and tampered.text.startswith(
        "Invalid requestState: the signature does not match"
    )
    assert rebound.error_code == -32602 and "issued for a different call" in rebound.text
    assert plain.error_code == -32602 and plain.text.startswith("Invalid requestState")
    assert ok.text == f"Created e1: Dentist at {START}"
    assert replay.error_code == -32602 and "already used" in replay.text
    assert [e["title"] for e in listing.structured["events"]] == ["Dentist"]
    # Expired: a state valid for 0 seconds is refused by the next process.
    short = durable(tmp_path / "cal.db", "--state-ttl", "0")
    iso = isolated(
        short,
        [
            call("create_event", calendar=handle, title="Late"),
            lambda rows: retry(handle, rows[0].request_state, title="Late"),
        ],
        capabilities=FORM,
    )
    assert iso[1].error_code == -32602 and iso[1].text.startswith("Expired requestState: it expired at")
    # A forged signature in any characters at all is a clear refusal, never an internal error.
    iso = isolated(
        argv,
        [
            call("create_event", calendar=handle, title="Dentist"),
            lambda rows: retry(handle, rows[0].request_state.split(".")[0] + ".signé-ça"),
        ],
        capabilities=FORM,
    )
    assert iso[1].error_code == -32602 and "signature does not match" in iso[1].text


def test_expired_calendars_are_deleted_as_the_retention_policy_says(tmp_path):
    db = tmp_path / "cal.db"
    handle = new_calendar(durable(db))
    made = isolated(durable(db), [call("create_event", calendar=handle, title="x", startsAt=START)])
    assert not made[0].is_error
    with sqlite3.connect(db) as con:  # time passes: the calendar's retention ends
        con.execute("UPDATE calendars SET expires_at = 0 WHERE handle = ?", (handle,))
        assert con.execute("SELECT count(*) FROM events WHERE calendar = ?", (handle,)).fetchone() == (1,)
    new_calendar(durable(db))  # the next create purges what has expired
    with sqlite3.connect(db) as con:
        left = {h for (h,) in con.execute("SELECT handle FROM calendars")}
        assert handle not in left
        assert con.execute("SELECT count(*) FROM events WHERE calendar = ?", (handle,)).fetchone() == (0,)


def test_key_must_be_shared(tmp_path):
    db = tmp_path / "cal.db"
    handle = new_calendar(durable(db))
    a = isolated(
        durable(db),
        [call("create_event", calendar=handle, title="Dentist")],
        env={"MCP_LAB_DURABLE_KEY": "k" * 32},
        capabilities=FORM,
    )[0]
    b = isolated(
        durable(db), [retry(handle, a.request_state)], env={"MCP_LAB_DURABLE_KEY": "z" * 32}, capabilities=FORM
    )[0]
    assert b.error_code == -32602 and "signature does not match" in b.text
    keyfile = tmp_path / "shared.key"
    keyfile.write_text("s" * 40)
    iso = isolated(
        durable(db, "--key-file", str(keyfile)),
        [call("create_event", calendar=handle, title="Dentist"), lambda rows: retry(handle, rows[0].request_state)],
        capabilities=FORM,
    )
    assert iso[1].text.startswith("Created e1: Dentist")
    short = subprocess.run(
        durable(db), env={**os.environ, "MCP_LAB_DURABLE_KEY": "short"}, input=b"", capture_output=True, timeout=20
    )
    assert short.returncode != 0 and short.stdout == b""
    assert b"must be at least 32 bytes" in short.stderr


def test_wal_and_stdout_only_mcp(tmp_path):
    db = tmp_path / "cal.db"
    handle = new_calendar(durable(db))
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    lines = (
        "\n".join(
            [
                "not json",
                "[]",
                '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
                '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}',
                '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}',
                '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}',
                '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_events","arguments":{"calendar":"%s"},'
                '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
                % handle,
                '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"create_event","arguments":{"calendar":"%s","title":"x"},'
                '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
                % handle,
            ]
        )
        + "\n"
    )
    proc = subprocess.run(durable(db), input=lines.encode(), capture_output=True, timeout=20)
    assert proc.returncode == 0
    out = [jsonrpc.parse(line) for line in proc.stdout.decode().splitlines()]  # raises on any non-MCP line
    codes = [getattr(m, "code", None) for m in out]
    assert codes == [-32700, -32600, -32600, -32601, -32602, None, -32021]
    assert len(out) == 7, "the notification got no answer"
    assert proc.stderr.decode().startswith("mcp_lab-durable-calendar 0.1.0: serving 2026-07-28")


def test_nothing_lost_under_sigkill(tmp_path):
    """SIGKILL at random moments during 200 creates; every acknowledged one survives, whole."""
    rng = random.Random(20261202)
    db = tmp_path / "kill.db"
    argv = durable(db)
    handle = new_calendar(argv)
    acked: list[str] = []
    attempted = kills = 0
    deadline = time.monotonic() + 60
    while attempted < 200:
        assert time.monotonic() < deadline, "the kill test ran out of time"
        client = mcp_lab.connect(argv, timeout=10)
        pid = client.transport.pid
        target, spin = rng.randint(1, 9), rng.randint(0, 30000)
        acks = {"n": 0, "done": False}
        cond = threading.Condition()

        def killer():
            with cond:
                cond.wait_for(lambda: acks["n"] >= target or acks["done"], timeout=30)
                if acks["done"]:
                    return
            for _ in range(spin):  # a random sub-millisecond moment into the next write
                pass
            os.kill(pid, signal.SIGKILL)

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        try:
            while attempted < 200:
                title = f"k{attempted:03d}"
                attempted += 1
                try:
                    answer = client.request(
                        "tools/call",
                        {"name": "create_event", "arguments": {"calendar": handle, "title": title, "startsAt": START}},
                    )
                except mcp_lab.TransportClosed:
                    kills += 1
                    break
                assert answer.ok and answer.result["resultType"] == "complete", answer
                acked.append(title)
                with cond:
                    acks["n"] += 1
                    cond.notify_all()
        finally:
            with cond:
                acks["done"] = True
                cond.notify_all()
            thread.join(10)
            client.close()
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = con.execute(
            "SELECT id, title, starts_at FROM events WHERE calendar = ? ORDER BY seq", (handle,)
        ).fetchall()
    titles = [t for _, t, _ in rows]
    missing = set(acked) - set(titles)
    assert not missing, f"acknowledged creates lost: {sorted(missing)}"
    assert len(titles) == len(set(titles)), "an event was written twice"
    assert all(re.fullmatch(r"k\d{3}", t) and s == START for _, t, s in rows), "a half-written event"
    assert [i for i, _, _ in rows] == [f"e{n}" for n in range(1, len(rows) + 1)]
    assert len(acked) <= len(rows) <= len(acked) + kills  # only an unacknowledged in-flight create may add one
    assert kills >= 15
    listed = isolated(argv, [call("list_events", calendar=handle)])[0]
    assert len(listed.structured["events"]) == len(rows)
    print(
        f"\nkill test: {attempted} creates, {kills} SIGKILLs, {len(acked)} acknowledged, "
        f"{len(rows)} found ({len(rows) - len(acked)} unacknowledged but committed)"
    )


def test_eight_processes_one_database(tmp_path):
    db = tmp_path / "shared.db"
    argv = durable(db)
    handle = new_calendar(argv)
    errors: list[str] = []
    started = time.monotonic()

    def worker(w: int):
        try:
            with mcp_lab.connect(argv, timeout=20) as client:
                for i in range(100):
                    answer = client.request(
                        "tools/call",
                        {
                            "name": "create_event",
                            "arguments": {"calendar": handle, "title": f"w{w}-{i:03d}", "startsAt": START},
                        },
                    )
                    if not (answer.ok and answer.result["resultType"] == "complete" and not answer.result["isError"]):
                        errors.append(f"worker {w} create {i}: {answer}")
                        return
        except Exception as e:  # surfaced below; a thread's exception would otherwise vanish
            errors.append(f"worker {w}: {e!r}")

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    elapsed = time.monotonic() - started
    assert not errors, errors[:3]
    with sqlite3.connect(db) as con:
        ids = [i for (i,) in con.execute("SELECT id FROM events WHERE calendar = ?", (handle,))]
        titles = {t for (t,) in con.execute("SELECT title FROM events WHERE calendar = ?", (handle,))}
    assert len(ids) == 800 and len(titles) == 800
    assert sorted(ids, key=lambda s: int(s[1:])) == [f"e{n}" for n in range(1, 801)]
    print(f"\n8 processes x 100 creates: 800 events in {elapsed:.2f} s")


# -- a handle is a name, not a permission -------------------------------------------------------

NOT_YOURS = "Not your calendar"


def test_a_handle_held_by_another_stdio_caller_is_refused_on_every_call(tmp_path):
    """The host names the caller in MCP_LAB_CALLER; bob holds alice's valid handle and is refused."""
    argv = durable(tmp_path / "cal.db")
    alice, bob = {"MCP_LAB_CALLER": "alice"}, {"MCP_LAB_CALLER": "bob"}
    handle = new_calendar(argv, env=alice)
    refused = isolated(
        argv,
        [
            call("list_events", calendar=handle),
            call("create_event", calendar=handle, title="Bob's meeting", startsAt=START),
            call("create_event", calendar=handle, title="no start"),  # would ask: refused first
            ("resources/read", {"uri": f"calendar://{handle}/week"}),
        ],
        env=bob,
    )
    for row in refused.rows[:3]:
        assert row.result_type == "complete" and row.is_error, row.summary
        assert row.text.startswith(NOT_YOURS) and "a name, not a permission" in row.text, row.text
    assert refused[3].error_code == -32602 and NOT_YOURS in refused[3].text, refused[3].summary
    # The owner, in other processes, still reads and writes it; bob wrote nothing.
    mine = isolated(
        argv,
        [call("create_event", calendar=handle, title="Dentist", startsAt=START), call("list_events", calendar=handle)],
        env=alice,
    )
    assert not mine[0].is_error, mine[0].summary
    assert [e["title"] for e in mine[1].structured["events"]] == ["Dentist"], mine[1].summary


def test_without_a_named_caller_the_os_account_owns_the_calendar(tmp_path):
    from mcp_lab.servers.durable import stdio_caller

    assert stdio_caller({}) == f"uid:{os.getuid()}"
    assert stdio_caller({"MCP_LAB_CALLER": " alice "}) == "host:alice"
    argv = durable(tmp_path / "cal.db")
    handle = new_calendar(argv)  # no MCP_LAB_CALLER: the account
    row = isolated(argv, [call("list_events", calendar=handle)], env={"MCP_LAB_CALLER": "eve"})[0]
    assert row.is_error and row.text.startswith(NOT_YOURS), row.summary


def test_ownership_in_process_and_the_owner_column_is_a_digest(tmp_path):
    from mcp_lab.servers.durable import DurableCalendar, owner_digest

    server = DurableCalendar(tmp_path / "cal.db", b"k" * 32, caller="host:alice")
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}

    def tool(name, caller=None, **arguments):
        msg = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": meta},
        }
        return server.handle(msg, caller)["result"]

    handle = tool("create_calendar")["structuredContent"]["calendar"]
    assert tool("list_events", calendar=handle)["isError"] is False
    assert tool("list_events", "bearer:bob", calendar=handle)["isError"] is True
    stored = server.db.execute("SELECT owner FROM calendars").fetchone()[0]
    assert stored == owner_digest("host:alice") and "alice" not in stored


def test_http_callers_are_their_bearer_tokens(tmp_path):
    import httpx

    from mcp_lab import serve_http

    tokens = {"alice": "a" * 24, "bob": "b" * 24}
    env = {"MCP_LAB_DURABLE_TOKENS": ",".join(f"{k}={v}" for k, v in tokens.items())}
    argv = durable(tmp_path / "cal.db", "--http", "{port}")
    with serve_http(argv, env=env) as srv:
        with srv.connect(headers={"Authorization": f"Bearer {tokens['alice']}"}) as alice:
            made = alice.request("tools/call", {"name": "create_calendar", "arguments": {}})
            handle = made.result["structuredContent"]["calendar"]
            own = alice.request("tools/call", {"name": "list_events", "arguments": {"calendar": handle}})
            assert own.result["isError"] is False, own
        with srv.connect(headers={"Authorization": f"Bearer {tokens['bob']}"}) as bob:
            other = bob.request("tools/call", {"name": "list_events", "arguments": {"calendar": handle}})
            assert other.result["isError"] is True and other.result["content"][0]["text"].startswith(NOT_YOURS), other
        for auth in (None, "Bearer " + "c" * 24, "Basic " + tokens["alice"]):
            r = httpx.post(
                srv.url,
                json={"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}},
                headers={} if auth is None else {"Authorization": auth},
                timeout=5,
            )
            assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Bearer"), (auth, r.status_code)


def test_http_without_tokens_runs_open_says_so_and_a_bad_table_is_one_clear_line(tmp_path):
    from mcp_lab import serve_http

    env = {"MCP_LAB_DURABLE_TOKENS": ""}
    with serve_http(durable(tmp_path / "cal.db", "--http", "{port}"), env=env) as srv:
        with srv.connect() as first, srv.connect() as second:
            made = first.request("tools/call", {"name": "create_calendar", "arguments": {}})
            handle = made.result["structuredContent"]["calendar"]
            same = second.request("tools/call", {"name": "list_events", "arguments": {"calendar": handle}})
        banner = " ".join(srv.stderr)
    assert same.result["isError"] is False, "open mode: every HTTP client is the one anonymous caller"
    assert "NO bearer tokens" in banner and "http:anonymous" in banner, banner
    bad = subprocess.run(
        durable(tmp_path / "cal.db", "--http", "0"),
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "MCP_LAB_DURABLE_TOKENS": "alice=short"},
    )
    assert bad.returncode != 0 and "at least 16 characters" in bad.stderr and "Traceback" not in bad.stderr
