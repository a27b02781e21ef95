"""What every `make bench` row shares: the Row, the table, the children's environment, the
deadlines and the quick mode.  bench.py and each bench_*.py import this module; it imports none
of them, so the bench has no import circle (a bench_*.py file also runs alone).

Quick mode (`bench.py --quick`, `make bench QUICK=1`, or MCP_LAB_BENCH_QUICK=1 in the
environment) runs every row with a few rounds instead of hundreds: the table is the same, its
figures are rough.  The test suite runs it (tests/test_bench.py) so a row that breaks fails the
suite; no figure of a quick run is asserted.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
DEADLINE = 10.0  # seconds for any single wait on a child
QUICK_ENV = "MCP_LAB_BENCH_QUICK"
_quick = os.environ.get(QUICK_ENV, "") not in ("", "0")


def set_quick(on: bool) -> None:
    """Switch every row to its quick round counts (bench.py's --quick)."""
    global _quick
    _quick = on


def quick() -> bool:
    return _quick


def rounds(full: int, quick_rounds: int) -> int:
    """How many rounds a measurement runs: `full` in a real bench, `quick_rounds` in quick mode."""
    return quick_rounds if _quick else full


@dataclass
class Row:
    metric: str
    value: float | None = None  # ms
    baseline: float | None = None  # ms
    ratio: float | None = None
    target: str = ""
    ok: bool | None = None  # None = ERROR
    note: str = ""


def error_row(fn, e: BaseException) -> Row:
    """The row a measurement that raised becomes: named after its function, the error as note."""
    name = fn.__name__.removeprefix("measure_").replace("_", " ")
    return Row(name, ok=None, note=f"{type(e).__name__}: {e}")


def env() -> dict:
    """The children's environment: they import mcp_lab from this checkout even when it is not
    installed, and write bytecode (what a learner meets: cached .pyc files; these machines export
    PYTHONDONTWRITEBYTECODE=1, which would make every fresh interpreter recompile mcp_lab)."""
    out = dict(os.environ)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    out["PYTHONPATH"] = str(ROOT) + (os.pathsep + out["PYTHONPATH"] if out.get("PYTHONPATH") else "")
    return out


def ms(seconds: float) -> float:
    return seconds * 1000.0


def _fmt_ms(v: float | None) -> str:
    return "-" if v is None else (f"{v:.3f} ms" if v < 1 else f"{v:.1f} ms")


def render(rows: list[Row]) -> str:
    """The table: one line per row, then the notes."""
    head = ("metric", "value", "baseline", "ratio", "target", "verdict")
    cells = [head]
    for r in rows:
        verdict = "ERROR" if r.ok is None else ("PASS" if r.ok else "MISS")
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}x"
        cells.append((r.metric, _fmt_ms(r.value), _fmt_ms(r.baseline), ratio, r.target, verdict))
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    out = []
    for n, c in enumerate(cells):
        out.append("  ".join(s.ljust(w) for s, w in zip(c, widths)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    notes = [f"  {r.metric}: {r.note}" for r in rows if r.note]
    return "\n".join(out + ([""] + notes if notes else []))


def run_alone(measurements, argv: list[str]) -> int:
    """A bench_*.py file run by itself: its rows, the same table, the same exit status."""
    set_quick(_quick or "--quick" in argv)
    rows: list[Row] = []
    for fn in measurements:
        try:
            got = fn()
        except Exception as e:  # one broken row must not hide the others
            got = error_row(fn, e)
        rows.extend(got if isinstance(got, list) else [got])
    print(render(rows))
    return 1 if any(r.ok is None for r in rows) else 0
