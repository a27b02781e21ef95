"""mcp_lab latency bench: `make bench` (or `.venv/bin/python bench/bench.py`).

Prints one table, every number measured in this run against a baseline measured in the same run
on the same machine, so the verdicts mean "how much do we add" rather than "how fast is this box":

  metric                         value                     baseline                      target
  import mcp_lab                 `-c "import mcp_lab"`     `-c pass`                     cost < 150 ms
  calendar cold start            spawn -> first answer     `-c pass` spawn -> exit       ratio < 2x
  warm round trip (tools/list)   Client.request, 1 conn    raw pipe echo, 1 process      ratio < 1.2x
  Client overhead (tools/list)   Client.request, 1 conn    raw pipe to the calendar      ratio < 1.2x
  HTTP keep-alive round trip     1 connection reused       a new connection each         ratio < 2x
  HTTP burst of 50 connects      slowest of 50 at once     one alone                     slowest < 500 ms

and the rows of bench_http.py, bench_tokens.py, bench_cassette.py, bench_notebooks.py,
bench_conformance.py and bench_engineer.py (each file's docstring describes its rows).  Rows are produced by the
functions in MEASUREMENTS, each returning a Row (bench/harness.py) or a list of them; add a
function to add a row. A measurement that cannot run (e.g. a module not there yet) becomes an ERROR row and the
others still run. Exit status: 0 when every row ran (PASS or MISS), 1 when a row is ERROR,
and with --strict also 1 on a MISS.  `--quick` (`make bench QUICK=1`) runs every row with a few
rounds: the same table with rough figures, what the test suite runs (tests/test_bench.py).

Not collected by pytest (no test_ prefix): benchmarks are reports, not assertions, on a 2-core
machine shared with other work. Every wait here has a deadline, every process is reaped.
"""

from __future__ import annotations

import json
import os
import selectors
import statistics
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_cassette  # noqa: E402
import bench_conformance  # noqa: E402
import bench_engineer  # noqa: E402
import bench_http  # noqa: E402
import bench_notebooks  # noqa: E402
import bench_tokens  # noqa: E402
import harness  # noqa: E402
from harness import DEADLINE, PY, ROOT, Row, render  # noqa: E402


def _spawn_runs() -> int:
    return harness.rounds(7, 2)  # interpreter starts per spawn measurement (median)


def _warm_rounds() -> int:
    return harness.rounds(500, 20)  # round trips per warm measurement (median)


def _sdk_rounds() -> int:
    return harness.rounds(300, 20)  # tools/call round trips per client in the SDK comparison


def _run_to_exit(argv: list[str]) -> float:
    """Seconds from spawn to exit of a child that needs no input."""
    t0 = time.perf_counter()
    done = subprocess.run(
        argv,
        cwd=ROOT,
        env=harness.env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=DEADLINE,
    )
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no stderr)"]
        raise RuntimeError(f"{' '.join(argv[1:])} exited {done.returncode}: {tail[0]}")
    return elapsed


def _read_line_by(proc: subprocess.Popen, deadline: float) -> bytes:
    """One stdout line of `proc`, waiting at most until the perf_counter `deadline`."""
    fd = proc.stdout.fileno()
    buf = b""
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while b"\n" not in buf:
            left = deadline - time.perf_counter()
            if left <= 0 or not sel.select(left):
                raise TimeoutError(f"no answer line within {DEADLINE} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("the server closed stdout before answering")
            buf += chunk
    return buf.split(b"\n", 1)[0]


def _reap(proc: subprocess.Popen) -> None:
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=DEADLINE)


def _discover_line() -> bytes:
    from mcp_lab import revisions

    msg = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": revisions.meta()}}
    return (json.dumps(msg, separators=(",", ":")) + "\n").encode()


# -- measurements ---------------------------------------------------------------------------


def measure_import() -> Row:
    row = Row("import mcp_lab (fresh interpreter)", target="cost < 150 ms")
    _run_to_exit([PY, "-c", "import mcp_lab"])  # warm the .pyc files and the page cache
    imports, bases = [], []
    for _ in range(_spawn_runs()):  # interleaved: drift hits both alike
        bases.append(_run_to_exit([PY, "-c", "pass"]))
        imports.append(_run_to_exit([PY, "-c", "import mcp_lab"]))
    row.value, row.baseline = harness.ms(statistics.median(imports)), harness.ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    cost = row.value - row.baseline
    row.ok = cost < 150.0
    row.note = f"import cost {cost:.1f} ms"
    return row


def _cold_calendar(line: bytes) -> float:
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [PY, "-m", "mcp_lab.servers.calendar"],
        cwd=ROOT,
        env=harness.env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        proc.stdin.write(line)
        proc.stdin.flush()
        answer = _read_line_by(proc, t0 + DEADLINE)
        elapsed = time.perf_counter() - t0
    finally:
        _reap(proc)
    reply = json.loads(answer)
    if reply.get("id") != 1 or "result" not in reply:
        raise RuntimeError(f"server/discover did not succeed: {answer[:200]!r}")
    return elapsed


def measure_cold_start() -> Row:
    row = Row("calendar cold start to first answer", target="ratio < 2x")
    line = _discover_line()
    _cold_calendar(line)  # warm-up, not counted
    colds, bases = [], []
    for _ in range(_spawn_runs()):
        bases.append(_run_to_exit([PY, "-c", "pass"]))
        colds.append(_cold_calendar(line))
    row.value, row.baseline = harness.ms(statistics.median(colds)), harness.ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    row.ok = row.ratio < 2.0
    row.note = "server/discover; baseline: `-c pass` spawn to exit"
    return row


ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"


class _RawPipe:
    """A child process driven with plain blocking write/readline: the floor of any
    line-per-message stdio transport written in Python.  A watchdog kills the child after the
    deadline, which turns a stuck readline into EOF (an error), never a hang."""

    def __init__(self, argv: list[str], rounds: int):
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=harness.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.watchdog = threading.Timer(DEADLINE + rounds * 0.05, self.proc.kill)
        self.watchdog.start()

    def round_trip(self, line: bytes) -> float:
        t0 = time.perf_counter()
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        got = self.proc.stdout.readline()
        if not got:
            raise TimeoutError("raw pipe: no line back (watchdog fired or the process died)")
        return time.perf_counter() - t0

    def close(self) -> None:
        self.watchdog.cancel()
        _reap(self.proc)


def _interleaved(
    client_call: Callable[[], None], raw: _RawPipe, line: bytes, rounds: int, block: int = 20
) -> tuple[list[float], list[float]]:
    """Alternate short blocks of client and raw round trips, so both meet the same machine
    state (CPU frequency, the other core's load, the scheduler's mood): measured in two
    separate phases, the same code was seen to move by 3x between runs on these machines."""
    ours, base = [], []
    for _ in range(3):  # warm both paths
        client_call()
        raw.round_trip(line)
    while len(ours) < rounds:
        for _ in range(block):
            t0 = time.perf_counter()
            client_call()
            ours.append(time.perf_counter() - t0)
        for _ in range(block):
            base.append(raw.round_trip(line))
    return ours, base


def _measure_against(row: Row, raw_argv: list[str], raw_line_for) -> Row:
    import mcp_lab
    from mcp_lab import jsonrpc

    with mcp_lab.connect("calendar") as client:
        first = client.request("tools/list")
        if not first.ok:
            raise RuntimeError(f"tools/list failed: {first}")

        def call() -> None:
            if not client.request("tools/list").ok:
                raise RuntimeError("tools/list failed")

        raw = _RawPipe(raw_argv, _warm_rounds())
        try:
            ours, base = _interleaved(call, raw, raw_line_for(client, len(jsonrpc.encode(first))), _warm_rounds())
        finally:
            raw.close()
    row.value, row.baseline = harness.ms(statistics.median(ours)), harness.ms(statistics.median(base))
    row.ratio = row.value / row.baseline
    return row


def measure_warm_round_trip() -> Row:
    """The whole round trip (client + server) beside a raw pipe echo: how far above the floor."""
    row = Row(f"warm round trip, tools/list x{_warm_rounds()}", target="(reported: includes server work)")

    def echo_line(client, size: int) -> bytes:
        # The echo moves an answer-sized line, so both sides pay the same pipe bytes.
        return (
            json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"pad": "x" * max(0, size - 40)}}, separators=(",", ":"))
            + "\n"
        ).encode()

    _measure_against(row, [PY, "-c", ECHO], echo_line)
    row.ok = True
    row.note = (
        "per round trip, medians, interleaved; baseline: raw pipe echo. The echo does no MCP "
        "work at all, so this ratio is the server's cost plus the client's; the next row isolates the client's"
    )
    return row


def measure_client_overhead() -> Row:
    """Client.request against a raw write/readline loop to the *same* server kind: the server's
    own work cancels out, what is left is mcp_lab's client + transport cost."""
    from mcp_lab import revisions

    row = Row(f"Client overhead, tools/list x{_warm_rounds()}", target="ratio < 1.2x")

    def request_line(client, size: int) -> bytes:
        return (
            json.dumps(
                {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": revisions.meta()}},
                separators=(",", ":"),
            )
            + "\n"
        ).encode()

    _measure_against(row, [PY, "-m", "mcp_lab.servers.calendar"], request_line)
    row.ok = row.ratio < 1.2
    row.note = "per round trip, medians, interleaved; baseline: raw write/readline to a calendar server process"
    return row


def measure_against_the_sdk_client() -> Row:
    """mcp_lab's Client against the official SDK's `mcp.Client`, both on the bundled calendar
    over stdio, per uncached `tools/call` (the SDK answers a repeated tools/list from its cache
    within ttlMs, so list calls would not measure the wire). Interleaved blocks, one event loop."""
    import anyio
    from mcp import Client as SdkClient
    from mcp import StdioServerParameters

    import mcp_lab

    row = Row(f"Client vs the SDK's Client, tools/call x{_sdk_rounds()}", target="ratio <= 0.5x (>= 2x faster)")
    arguments = {"title": "Bench", "startsAt": "2026-09-10T08:30:00Z"}
    params = {"name": "create_event", "arguments": arguments}
    ours: list[float] = []
    theirs: list[float] = []

    async def run() -> None:
        with anyio.fail_after(_sdk_rounds() * 2 * DEADLINE):  # every wait has a deadline
            await compare()

    async def compare() -> None:
        server = StdioServerParameters(command=PY, args=["-m", "mcp_lab.servers.calendar"], env=harness.env())
        async with SdkClient(server, read_timeout_seconds=DEADLINE) as sdk:
            with mcp_lab.connect("calendar", timeout=DEADLINE) as mine:
                for _ in range(3):  # warm both
                    mine.request("tools/call", params).unwrap()
                    await sdk.call_tool("create_event", arguments)
                while len(ours) < _sdk_rounds():
                    for _ in range(20):
                        t0 = time.perf_counter()
                        mine.request("tools/call", params).unwrap()
                        ours.append(time.perf_counter() - t0)
                    for _ in range(20):
                        t0 = time.perf_counter()
                        answer = await sdk.call_tool("create_event", arguments)
                        theirs.append(time.perf_counter() - t0)
                        if answer.is_error:
                            raise RuntimeError(f"the SDK's tools/call failed: {answer}")

    anyio.run(run)
    row.value, row.baseline = harness.ms(statistics.median(ours)), harness.ms(statistics.median(theirs))
    row.ratio = row.value / row.baseline
    row.ok = row.ratio <= 0.5
    row.note = (
        f"per tools/call, medians, interleaved; baseline: the SDK's mcp.Client on the same server kind; "
        f"mcp_lab is {row.baseline / row.value:.1f}x faster"
    )
    return row


MEASUREMENTS: list[Callable[[], "Row | list[Row]"]] = [
    measure_import,
    measure_cold_start,
    measure_warm_round_trip,
    measure_client_overhead,
    measure_against_the_sdk_client,
]

# The other rows, each file's MEASUREMENTS in the same Row format: a function may return several rows.
MEASUREMENTS += (
    bench_http.MEASUREMENTS
    + bench_tokens.MEASUREMENTS
    + bench_cassette.MEASUREMENTS
    + bench_notebooks.MEASUREMENTS
    + bench_conformance.MEASUREMENTS
    + bench_engineer.MEASUREMENTS
)


def main(argv: list[str]) -> int:
    strict = "--strict" in argv
    harness.set_quick(harness.quick() or "--quick" in argv)
    mode = " (quick: a few rounds per row, rough figures)" if harness.quick() else ""
    print(f"mcp_lab bench: Python {sys.version.split()[0]} at {PY}, {os.cpu_count()} CPUs{mode}", flush=True)
    rows = []
    for fn in MEASUREMENTS:
        t0 = time.perf_counter()
        try:
            row = fn()
        except Exception as e:  # one broken row must not hide the others
            row = harness.error_row(fn, e)
            if "-v" in argv:
                traceback.print_exc()
        print(f"  measured {fn.__name__} in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        rows.extend(row if isinstance(row, list) else [row])
    print(render(rows))
    if any(r.ok is None for r in rows):
        return 1
    if strict and not all(r.ok for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
