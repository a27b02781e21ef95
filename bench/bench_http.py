"""Streamable HTTP rows for `make bench`: the bundled calendar served over HTTP on 127.0.0.1.

  keep-alive round trip   tools/list, one connection reused   a fresh connection per request   ratio < 2x
  burst of 50 connects    the slowest of 50 simultaneous       one fresh-connection round trip  slowest < 500 ms
                          connect + tools/list

Both talk raw HTTP through the standard library's http.client (no mcp_lab client), so the rows
measure the server's binding: Nagle's algorithm on a keep-alive connection shows as ~40 ms per
request, a short listen backlog as 1 s stalls in the burst.  The server under test is
`python -m mcp_lab.servers.calendar --http PORT` from the checkout given by MCP_LAB_BENCH_ROOT
(default: this one), so the same rows can be run against an older checkout for a before/after.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import DEADLINE, PY, ROOT, Row  # noqa: E402

VERSION = "2026-07-28"
BODY = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": VERSION,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
            }
        },
    }
).encode()
HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": VERSION,
    "Mcp-Method": "tools/list",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    """The calendar over HTTP, started and reaped around the measurement."""

    def __enter__(self) -> int:
        root = Path(os.environ.get("MCP_LAB_BENCH_ROOT", ROOT))
        env = {**harness.env(), "PYTHONPATH": str(root)}
        self.port = _free_port()
        argv = [PY, "-m", "mcp_lab.servers.calendar", "--http", str(self.port)]
        self.proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self.port
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        raise RuntimeError(f"the calendar did not listen on port {self.port} within {DEADLINE:g} s")

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(DEADLINE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(DEADLINE)


def _post(conn: http.client.HTTPConnection) -> None:
    conn.request("POST", "/mcp", BODY, HEADERS)
    reply = conn.getresponse()
    data = reply.read()
    if reply.status != 200:
        raise RuntimeError(f"HTTP {reply.status}: {data[:200]!r}")


def _fresh_round_trip(port: int) -> float:
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=DEADLINE)
    try:
        _post(conn)
    finally:
        conn.close()
    return time.perf_counter() - t0


def _rounds() -> int:
    return harness.rounds(200, 10)


def _burst() -> int:
    return harness.rounds(50, 10)


def measure_keep_alive() -> Row:
    rounds = _rounds()
    row = Row(f"HTTP keep-alive round trip, tools/list x{rounds}", target="ratio < 2x")
    with _Server() as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=DEADLINE)
        kept, fresh = [], []
        try:
            _post(conn)  # warm-up: the connection is open
            for _ in range(rounds):  # interleaved, so both see the same machine load
                t0 = time.perf_counter()
                _post(conn)
                kept.append(time.perf_counter() - t0)
                fresh.append(_fresh_round_trip(port))
        finally:
            conn.close()
    row.value = statistics.median(kept) * 1000
    row.baseline = statistics.median(fresh) * 1000
    row.ratio = row.value / row.baseline
    row.ok = row.ratio < 2.0
    row.note = "medians; baseline: a new TCP connection per request (Nagle on a kept connection shows as ~40 ms)"
    return row


def measure_burst() -> Row:
    burst, alone = _burst(), harness.rounds(20, 3)
    row = Row(f"HTTP burst of {burst} connects", target="slowest < 500 ms")
    with _Server() as port:
        single = statistics.median(_fresh_round_trip(port) for _ in range(alone))
        times: list[float] = []
        errors: list[str] = []
        go = threading.Event()

        def one() -> None:
            go.wait(DEADLINE)
            try:
                times.append(_fresh_round_trip(port))
            except Exception as e:  # noqa: BLE001 - reported in the row, not raised from a thread
                errors.append(repr(e))

        threads = [threading.Thread(target=one) for _ in range(burst)]
        for t in threads:
            t.start()
        go.set()
        for t in threads:
            t.join(DEADLINE * 2)
    row.value = max(times) * 1000 if times else None
    row.baseline = single * 1000
    row.ratio = None if row.value is None else row.value / row.baseline
    row.ok = not errors and row.value is not None and row.value < 500
    row.note = f"the slowest of {burst} simultaneous connect + tools/list; baseline: one alone (median of {alone})"
    if errors:
        row.note += f"; {len(errors)} of {burst} FAILED, e.g. {errors[0]}"
    return row


MEASUREMENTS = [measure_keep_alive, measure_burst]

if __name__ == "__main__":
    sys.exit(harness.run_alone(MEASUREMENTS, sys.argv[1:]))
