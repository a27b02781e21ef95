"""mcp_lab latency bench: `make bench` (or `.venv/bin/python tests/bench.py`).

Prints one table, every number measured in this run against a baseline measured in the same run
on the same machine, so the verdicts mean "how much do we add" rather than "how fast is this box":

  metric                         value                     baseline                      target
  import mcp_lab                 `-c "import mcp_lab"`     `-c pass`                     cost < 150 ms
  calendar cold start            spawn -> first answer     `-c pass` spawn -> exit       ratio < 2x
  warm round trip (tools/list)   Client.request, 1 conn    raw pipe echo, 1 process      ratio < 1.2x
  Client overhead (tools/list)   Client.request, 1 conn    raw pipe to the calendar      ratio < 1.2x

Rows are produced by the functions in MEASUREMENTS, each returning a Row; add a function to add
a row. A measurement that cannot run (e.g. a module not there yet) becomes an ERROR row and the
others still run. Exit status: 0 when every row ran (PASS or MISS), 1 when a row is ERROR,
and with --strict also 1 on a MISS.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
SPAWN_RUNS = 7          # interpreter starts per spawn measurement (median)
WARM_ROUNDS = 500       # round trips per warm measurement (median)
DEADLINE = 10.0         # seconds for any single wait on a child


@dataclass
class Row:
    metric: str
    value: float | None = None      # ms
    baseline: float | None = None   # ms
    ratio: float | None = None
    target: str = ""
    ok: bool | None = None          # None = ERROR
    note: str = ""


def _env() -> dict:
    # The children import mcp_lab from this checkout even when it is not installed.
    env = dict(os.environ)
    # Measure what a learner meets: cached bytecode. (These machines export
    # PYTHONDONTWRITEBYTECODE=1, which would make every fresh interpreter recompile mcp_lab.)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _ms(seconds: float) -> float:
    return seconds * 1000.0


def _run_to_exit(argv: list[str]) -> float:
    """Seconds from spawn to exit of a child that needs no input."""
    t0 = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=_env(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=DEADLINE)
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

    msg = {"jsonrpc": "2.0", "id": 1, "method": "server/discover",
           "params": {"_meta": revisions.meta()}}
    return (json.dumps(msg, separators=(",", ":")) + "\n").encode()


# -- measurements ---------------------------------------------------------------------------

def measure_import() -> Row:
    row = Row("import mcp_lab (fresh interpreter)", target="cost < 150 ms")
    _run_to_exit([PY, "-c", "import mcp_lab"])        # warm the .pyc files and the page cache
    imports, bases = [], []
    for _ in range(SPAWN_RUNS):                          # interleaved: drift hits both alike
        bases.append(_run_to_exit([PY, "-c", "pass"]))
        imports.append(_run_to_exit([PY, "-c", "import mcp_lab"]))
    row.value, row.baseline = _ms(statistics.median(imports)), _ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    cost = row.value - row.baseline
    row.ok = cost < 150.0
    row.note = f"import cost {cost:.1f} ms"
    return row


def _cold_calendar(line: bytes) -> float:
    t0 = time.perf_counter()
    proc = subprocess.Popen([PY, "-m", "mcp_lab.servers.calendar"], cwd=ROOT, env=_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
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
    _cold_calendar(line)                                 # warm-up, not counted
    colds, bases = [], []
    for _ in range(SPAWN_RUNS):
        bases.append(_run_to_exit([PY, "-c", "pass"]))
        colds.append(_cold_calendar(line))
    row.value, row.baseline = _ms(statistics.median(colds)), _ms(statistics.median(bases))
    row.ratio = row.value / row.baseline
    row.ok = row.ratio < 2.0
    row.note = "server/discover; baseline: `-c pass` spawn to exit"
    return row


ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"


def _echo_round_trips(line: bytes, rounds: int) -> list[float]:
    """Per-round seconds through a raw pipe to a Python echo process: the floor of any
    line-per-message stdio transport written in Python."""
    proc = subprocess.Popen([PY, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    # Plain blocking readline keeps the baseline raw; the deadline is a watchdog that kills
    # the echo process, which turns a stuck readline into EOF.
    watchdog = threading.Timer(DEADLINE + rounds * 0.05, proc.kill)
    watchdog.start()
    times = []
    try:
        w, r = proc.stdin, proc.stdout
        for _ in range(rounds):
            t0 = time.perf_counter()
            w.write(line)
            w.flush()
            got = r.readline()
            times.append(time.perf_counter() - t0)
            if not got:
                raise TimeoutError("echo baseline: no line back (watchdog fired or the process died)")
    finally:
        watchdog.cancel()
        _reap(proc)
    return times


def measure_warm_round_trip() -> Row:
    import mcp_lab
    from mcp_lab import jsonrpc

    row = Row(f"warm round trip, tools/list x{WARM_ROUNDS}", target="ratio < 1.2x")
    times = []
    with mcp_lab.connect("calendar") as client:
        first = client.request("tools/list")
        if not first.ok:
            raise RuntimeError(f"tools/list failed: {first}")
        size = len(jsonrpc.encode(first))
        for _ in range(WARM_ROUNDS):
            t0 = time.perf_counter()
            reply = client.request("tools/list")
            times.append(time.perf_counter() - t0)
            if not reply.ok:
                raise RuntimeError(f"tools/list failed: {reply}")
    # The echo baseline moves an answer-sized line, so both sides pay the same pipe bytes.
    line = (json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"pad": "x" * max(0, size - 40)}},
                       separators=(",", ":")) + "\n").encode()
    base = _echo_round_trips(line, WARM_ROUNDS)
    row.value, row.baseline = _ms(statistics.median(times)), _ms(statistics.median(base))
    row.ratio = row.value / row.baseline
    row.ok = row.ratio < 1.2
    row.note = f"per round trip, medians; answer {size} B; baseline: raw pipe echo"
    return row


def measure_client_overhead() -> Row:
    """Client.request against a raw write/readline loop to the *same* calendar process kind:
    the server's own work cancels out, what is left is mcp_lab's client + transport cost."""
    import mcp_lab
    from mcp_lab import revisions

    row = Row(f"Client overhead, tools/list x{WARM_ROUNDS}", target="ratio < 1.2x")
    times = []
    with mcp_lab.connect("calendar") as client:
        client.request("tools/list")
        for _ in range(WARM_ROUNDS):
            t0 = time.perf_counter()
            client.request("tools/list")
            times.append(time.perf_counter() - t0)
    line = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                        "params": {"_meta": revisions.meta()}}, separators=(",", ":")) + "\n").encode()
    proc = subprocess.Popen([PY, "-m", "mcp_lab.servers.calendar"], cwd=ROOT, env=_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    watchdog = threading.Timer(DEADLINE + WARM_ROUNDS * 0.05, proc.kill)
    watchdog.start()
    base = []
    try:
        for n in range(WARM_ROUNDS + 1):
            t0 = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            got = proc.stdout.readline()
            if not got:
                raise TimeoutError("raw calendar: no line back (watchdog fired or the server died)")
            if n:                                   # the first round is the warm-up
                base.append(time.perf_counter() - t0)
    finally:
        watchdog.cancel()
        _reap(proc)
    row.value, row.baseline = _ms(statistics.median(times)), _ms(statistics.median(base))
    row.ratio = row.value / row.baseline
    row.ok = row.ratio < 1.2
    row.note = "baseline: raw write/readline to the calendar server (server work included)"
    return row


MEASUREMENTS: list[Callable[[], Row]] = [
    measure_import,
    measure_cold_start,
    measure_warm_round_trip,
    measure_client_overhead,
]

# Token rows (issue 6) live beside the rows above, in the same Row format.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_tokens import MEASUREMENTS as TOKEN_MEASUREMENTS  # noqa: E402
MEASUREMENTS += TOKEN_MEASUREMENTS


# -- report ---------------------------------------------------------------------------------

def _fmt_ms(v: float | None) -> str:
    return "-" if v is None else (f"{v:.3f} ms" if v < 1 else f"{v:.1f} ms")


def render(rows: list[Row]) -> str:
    head = ("metric", "value", "baseline", "ratio", "target", "verdict")
    cells = [head]
    for r in rows:
        verdict = "ERROR" if r.ok is None else ("PASS" if r.ok else "MISS")
        cells.append((r.metric, _fmt_ms(r.value), _fmt_ms(r.baseline),
                      "-" if r.ratio is None else f"{r.ratio:.2f}x", r.target, verdict))
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    out = []
    for n, c in enumerate(cells):
        out.append("  ".join(s.ljust(w) for s, w in zip(c, widths)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    notes = [f"  {r.metric}: {r.note}" for r in rows if r.note]
    return "\n".join(out + ([""] + notes if notes else []))


def main(argv: list[str]) -> int:
    strict = "--strict" in argv
    print(f"mcp_lab bench: Python {sys.version.split()[0]} at {PY}, {os.cpu_count()} CPUs", flush=True)
    rows = []
    for fn in MEASUREMENTS:
        t0 = time.perf_counter()
        try:
            row = fn()
        except Exception as e:  # one broken row must not hide the others
            name = fn.__name__.removeprefix("measure_").replace("_", " ")
            row = Row(name, ok=None, note=f"{type(e).__name__}: {e}")
            if "-v" in argv:
                traceback.print_exc()
        print(f"  measured {fn.__name__} in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        rows.append(row)
    print(render(rows))
    if any(r.ok is None for r in rows):
        return 1
    if strict and not all(r.ok for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
