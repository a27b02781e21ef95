"""mcp_lab's pytest plugin: a connected client for your tests, and the wire check on every message.

Installed with the package (entry point `pytest11`, name `mcp_lab`), so pytest loads it by
itself; loading it changes nothing until a project asks (as pytest-django and pytest-asyncio
wait for their settings).  Until then it sets no environment variable, taps no Trace, writes no
file and prints nothing; it only offers its fixtures and options, all namespaced so they cannot
collide with a project's own (`--mcp-lab-server`, not `--mcp-server`).  The wire check is asked
for by any one of:

    [tool.pytest.ini_options]
    mcp_lab_wire_check = true                       # the whole run (mcp_lab's own suite does this)

    pytest --mcp-lab-wire-check                     # the whole run, from the command line

    @pytest.mark.mcp_lab_wire_check                 # only the tests that carry the mark

    @pytest.mark.mcp_server([sys.executable, "my_server.py"])   # or "calendar", or a URL
    def test_lists_tools(mcp_client):
        assert mcp_client.request("tools/list").ok

`mcp_client` starts (or reaches) the server the test names: the `mcp_server` mark (a bundled
name, an argv list, a URL; `http=True` starts it over Streamable HTTP, `headers={...}` sends
credentials), else `--mcp-lab-server "python my_server.py"` on the command line, else the
`mcp_lab_server` ini option.  It probes the server (server/discover, initialize for a legacy one)
and yields the open Client; the server is stopped when the test ends.  `mcp_connect` is the
same as a factory, for a test that needs several servers.

The wire check
--------------
Messages reach the plugin two ways.  In this process it listens to every Trace
(`mcp_lab.session.trace_listeners.listen`) and is handed each event as it is recorded.  Other
processes that record Traces (notebook kernels started by nbclient, a pytest run in a subprocess)
inherit MCP_LAB_WIRE_LOG, which the plugin points at a file for the whole session: their
`trace_listeners` append each send / recv event there as a JSON line, and the plugin reads what
was appended after each test phase.  This process writes no line there (its listener already
sees every message), and a line carrying its pid is skipped.

Each (process, trace, peer) is one conversation with a `WireChecker` of its own, kept for the
whole session, since a module-scoped Trace can span tests.  A message marked `deliberate` where
it was made (send_raw, request(meta=False), a connection to a server that misbehaves on purpose)
is counted apart; a message the schema cannot judge is counted as unchecked; an invalid message
fails the test that produced it, naming the message, the model and the first error.  A stdout
line that is not an MCP message (a `noise` event: stdio's framing rule, MUST NOT) fails the test
too, unless the connection was made `deliberate` or the test is marked
`wire_deliberate(server_noise="why")` (or `server=`).  (Lines other processes record reach the
plugin through the log, which carries messages only.)

The log's folder is removed at the end of the run, on SIGTERM (the handler removes it, then lets
the signal do what it did before), and a folder left by a run that was SIGKILLed is removed by
the next run that enables the check (its name carries the dead process's pid).

At the end of the run one line gives the counts (the same line mcp_lab's own suite prints).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the wire check's modules load when a run asks for it, not with pytest
    from mcp_lab.wire.schema_check import SchemaVerdict, WireChecker

SENDER = {"send": "client", "recv": "server"}


class WireCheckState:
    """The session's checkers, counts and the file other processes report to."""

    def __init__(self, log_path: Path):
        self.log_path = log_path
        self.offset = 0
        self.checkers: dict[tuple, WireChecker] = {}
        self.valid_by_era: Counter = Counter()
        self.deliberate_by_reason: Counter = Counter()
        self.unchecked = 0
        self.invalid: list[SchemaVerdict] = []
        self.worker_invalid: list[str] = []  # what pytest-xdist workers found (already failed there)
        self._inbox: list[tuple] = []
        self._lock = threading.Lock()
        self.only_marked = False  # asked for by a mark only: a failure fails only a marked test
        self.inherited_log: str | None = None  # the wire log this process wrote to before the check

    def tap(self, trace, ev) -> None:
        if ev.kind in SENDER or ev.kind == "noise":
            with self._lock:
                self._inbox.append((os.getpid(), trace.id, ev.peer, ev.kind, ev.line, ev.deliberate))

    def _from_file(self) -> list[tuple]:
        if not self.log_path.exists():
            return []
        with self.log_path.open("rb") as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        self.offset += end
        me, out = os.getpid(), []
        for raw in data[:end].splitlines():
            r = json.loads(raw)
            if r["pid"] != me:
                out.append((r["pid"], r["trace"], r["peer"], r["kind"], r["line"], r.get("deliberate")))
        return out

    def drain(self, exempt: dict[str, str] | None = None) -> list[SchemaVerdict]:
        """Judge everything recorded since the last drain; return the invalid findings.

        `exempt` maps a sender ("client" / "server") to the reason its invalid messages in this
        test are deliberate (the test's `wire_deliberate` mark): those are counted apart."""
        with self._lock:
            records, self._inbox = self._inbox, []
        records += self._from_file()
        from mcp_lab.wire.schema_check import WireChecker, schema_version_of

        bad = []
        for pid, tid, peer, kind, line, deliberate in records:
            if kind == "noise":
                bad += self._noise(line, deliberate, exempt)
                continue
            checker = self.checkers.setdefault((pid, tid, peer), WireChecker())
            try:
                obj = json.loads(line)
            except ValueError:
                obj = line  # not JSON at all: the envelope check says so (or it is deliberate)
            f = checker.feed(obj, sender=SENDER[kind], line=line, deliberate=bool(deliberate))
            if f.verdict == "valid":
                self.valid_by_era[schema_version_of(f.version)] += 1
            elif f.verdict == "deliberate":
                self.deliberate_by_reason[deliberate] += 1
            elif f.verdict == "unchecked":
                self.unchecked += 1
            elif exempt and (why := _exemption(f, exempt)):
                self.deliberate_by_reason[f"test mark: {why}"] += 1
            else:
                bad.append(f)
        self.invalid += bad
        return bad

    def discard(self) -> None:
        """Forget what was recorded since the last drain (a test that did not ask for the check)."""
        with self._lock:
            self._inbox = []
        self._from_file()

    def _noise(self, line: str, deliberate: str | None, exempt: dict[str, str] | None) -> list[SchemaVerdict]:
        """A stdout line that is not an MCP message: a framing violation, unless it is deliberate."""
        why = deliberate or (exempt or {}).get("server_noise") or (exempt or {}).get("server")
        if why:
            self.deliberate_by_reason[why if deliberate else f"test mark: {why}"] += 1
            return []
        from mcp_lab.wire.schema_check import SchemaVerdict

        error = "a line that is not an MCP message (framing: a stdio server MUST NOT write one to stdout)"
        return [SchemaVerdict("invalid", "server", "noise", None, None, "stdio framing", error, line)]

    def summary(self) -> str:
        eras = ", ".join(f"{era}: {n}" for era, n in sorted(self.valid_by_era.items(), reverse=True))
        valid = sum(self.valid_by_era.values())
        n_invalid = len(self.invalid) + len(self.worker_invalid)
        verdict = "none invalid" if not n_invalid else f"{n_invalid} INVALID"
        return (
            f"wire check: {valid} messages valid against the official schema ({eras or 'none'}); "
            f"{sum(self.deliberate_by_reason.values())} deliberate exempt; {self.unchecked} unchecked; {verdict}"
        )


def _exemption(f: SchemaVerdict, exempt: dict[str, str]) -> str | None:
    """The reason a test's mark gives for this invalid message, if the mark covers it:
    `client=` / `server=` cover every invalid message of that side; `server_id_null=` only a
    server's error with "id": null (JSON-RPC 2.0 allows it; the MCP schema does not);
    `server_legacy_answer=` only a result without resultType (a legacy server answering a
    modern request in its own era)."""
    if f.sender in exempt:
        return exempt[f.sender]
    error = f.error or ""
    if f.sender == "server" and "server_id_null" in exempt and "not None" in error:
        return exempt["server_id_null"]
    if f.sender == "server" and "server_legacy_answer" in exempt and f.kind == "result" and _no_result_type(f.line):
        return exempt["server_legacy_answer"]
    return None


def _no_result_type(line: str | None) -> bool:
    try:
        result = json.loads(line or "").get("result")
    except (ValueError, AttributeError):
        return False
    return isinstance(result, dict) and "resultType" not in result


class InvalidWireMessage(AssertionError):
    """A message on the wire does not match the official schema of its era."""


def _short(f: SchemaVerdict) -> str:
    line = f.line or ""
    line = line if len(line) <= 240 else line[:240] + f"... ({len(line)} chars)"
    if f.kind == "noise":
        return f"INVALID server stdout line: {f.error}\n  {line}"
    return f"INVALID {f.sender} {f.kind} {f.method or ''} ({f.version}, model {f.model}): {f.error}\n  {line}"


def _fail(bad: list[SchemaVerdict]) -> None:
    shown = "\n".join(_short(f) for f in bad[:5])
    more = f"\n... and {len(bad) - 5} more" if len(bad) > 5 else ""
    raise InvalidWireMessage(
        f"{len(bad)} message(s) on the wire do not match the official schema or its framing:\n{shown}{more}\n"
        "(a message broken on purpose is marked where it is made: connect(..., deliberate='why'), or a "
        "test that sends bad requests on purpose: @pytest.mark.wire_deliberate(client='why'))"
    )


_STATE: WireCheckState | None = None
MARK = "mcp_lab_wire_check"
_FOLDER_PREFIX = "mcp-lab-wire-"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("mcp_lab", "mcp_lab: a connected MCP client and the wire check")
    group.addoption(
        "--mcp-lab-server",
        metavar="SERVER",
        help="the server the mcp_client fixture connects to: a bundled name, an http(s) URL, or a "
        "command line (split as a shell would)",
    )
    group.addoption(
        "--mcp-lab-wire-check",
        action="store_true",
        default=False,
        help="judge every MCP message any test puts on the wire against the official schema",
    )
    parser.addini("mcp_lab_server", "the server the mcp_client fixture connects to (as --mcp-lab-server)")
    parser.addini("mcp_lab_wire_check", "true: the wire check for the whole run", type="bool", default=False)


def _server_of(request):
    import shlex

    mark = request.node.get_closest_marker("mcp_server")
    if mark is not None and mark.args:
        return mark.args[0], dict(mark.kwargs)
    given = request.config.getoption("--mcp-lab-server") or request.config.getini("mcp_lab_server")
    if not given:
        pytest.fail(
            "mcp_client needs a server: @pytest.mark.mcp_server(NAME_URL_OR_ARGV), --mcp-lab-server "
            "'python my_server.py', or mcp_lab_server = ... in the pytest ini",
            pytrace=False,
        )
    from mcp_lab.servers import known

    if given in known.KNOWN or given.startswith(("http://", "https://")):
        return given, {}
    return shlex.split(given), {}


@pytest.fixture
def mcp_connect():
    """A factory: `mcp_connect(server, http=False, headers=None, timeout=10)` -> a probed, open
    Client; every server it started is stopped when the test ends."""
    import contextlib

    from mcp_lab.session import cli_support
    from mcp_lab.session.probe import probe
    from mcp_lab.transport.process import unbuffered_env

    with contextlib.ExitStack() as stack:

        def connect(server, *, http: bool = False, headers: dict | None = None, timeout: float = 10.0, **kw):
            target = stack.enter_context(cli_support.serve_target(server, http=http))
            if headers:
                kw["headers"] = headers
            if isinstance(target, (list, tuple)):
                # A Python server's stray print() then arrives while the test runs, in order.
                kw["env"] = {**unbuffered_env(target), **(kw.get("env") or {})}
            verdict = probe(target, refresh=True, timeout=min(timeout, 5.0), **kw)
            stack.callback(verdict.close)
            verdict.client.timeout = timeout
            return verdict.client

        yield connect


@pytest.fixture
def mcp_client(request, mcp_connect):
    """The open, probed Client of the server this test names (see the module's notes)."""
    server, options = _server_of(request)
    return mcp_connect(server, **options)


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "mcp_server(server, http=False, headers=None): the server the mcp_client fixture connects to "
        "(a bundled name, an argv list or a URL)",
    )
    config.addinivalue_line(
        "markers",
        "wire_deliberate(client=why, server=why, server_noise=why, server_id_null=why, server_legacy_answer=why): "
        "this test puts invalid messages from that side (or a server's stray stdout lines, or its id-null "
        "errors) on the wire on purpose; the wire check counts them as deliberate, with the reason",
    )
    config.addinivalue_line("markers", f"{MARK}: judge the MCP messages this test puts on the wire (mcp_lab)")
    if config.getoption("--mcp-lab-wire-check") or config.getini("mcp_lab_wire_check"):
        _enable(only_marked=False)


def pytest_collection_modifyitems(session, config, items) -> None:
    """A run that did not ask for the check everywhere still checks the tests marked for it."""
    if _STATE is None and any(item.get_closest_marker(MARK) for item in items):
        _enable(only_marked=True)


def pytest_unconfigure(config) -> None:
    _disable()


def _enable(*, only_marked: bool) -> None:
    """Start the wire check: the log folder, the environment variable, the listener, the clean-ups."""
    global _STATE
    from mcp_lab.session import trace_listeners

    _sweep_orphans()
    folder = Path(tempfile.mkdtemp(prefix=f"{_FOLDER_PREFIX}{os.getpid()}-"))
    _STATE = WireCheckState(folder / "wire.jsonl")
    _STATE.only_marked = only_marked
    os.environ[trace_listeners.WIRE_LOG_ENV] = str(_STATE.log_path)  # for the processes the run starts
    _STATE.inherited_log = trace_listeners.wire_log()
    trace_listeners.log_messages_to(None)  # this process: the listener sees every message
    trace_listeners.listen(_STATE.tap)
    atexit.register(_disable)
    _on_sigterm_remove(folder)


def _disable() -> None:
    global _STATE
    if _STATE is None:
        return
    from mcp_lab.session import trace_listeners

    trace_listeners.unlisten(_STATE.tap)
    trace_listeners.log_messages_to(_STATE.inherited_log)
    if os.environ.get(trace_listeners.WIRE_LOG_ENV) == str(_STATE.log_path):
        os.environ.pop(trace_listeners.WIRE_LOG_ENV, None)
    shutil.rmtree(_STATE.log_path.parent, ignore_errors=True)
    _STATE = None


def _on_sigterm_remove(folder: Path) -> None:
    """On SIGTERM: remove the folder, then let the signal do what it did before (main thread only:
    Python installs handlers nowhere else)."""
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGTERM)

    def handler(signum, frame):
        shutil.rmtree(folder, ignore_errors=True)
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
        if callable(previous):
            previous(signum, frame)
        else:
            os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, handler)


def _sweep_orphans() -> None:
    """Remove the folders of runs that died without cleaning up (SIGKILL): their pid is gone."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_FOLDER_PREFIX}*-*"):
        m = re.match(re.escape(_FOLDER_PREFIX) + r"(\d+)-", folder.name)
        if not m or not folder.is_dir():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except (PermissionError, OverflowError):
            pass


def _exempt(item) -> dict[str, str]:
    mark = item.get_closest_marker("wire_deliberate")
    return dict(mark.kwargs) if mark else {}


def _judged(item):
    """Run one test phase, then judge what it put on the wire (a failing phase keeps its error)."""
    if _STATE is None:
        return (yield)
    try:
        result = yield
    except BaseException:
        if _STATE is not None:
            _STATE.discard() if _STATE.only_marked and not item.get_closest_marker(MARK) else _STATE.drain(
                _exempt(item)
            )
        raise
    if _STATE is None:
        return result
    if _STATE.only_marked and not item.get_closest_marker(MARK):
        _STATE.discard()  # not asked for in this test: neither judged nor counted
        return result
    bad = _STATE.drain(_exempt(item))
    if bad:
        _fail(bad)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _judged(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _judged(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    return (yield from _judged(item))


def pytest_sessionfinish(session) -> None:
    """On a pytest-xdist worker: hand this worker's counts to the controller, which prints the sum."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None and _STATE is not None:
        _STATE.drain()
        workeroutput["wirecheck"] = json.dumps(
            {
                "valid_by_era": dict(_STATE.valid_by_era),
                "deliberate_by_reason": dict(_STATE.deliberate_by_reason),
                "unchecked": _STATE.unchecked,
                "invalid": [_short(f) for f in _STATE.invalid],
            }
        )


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """On the xdist controller: add a finished worker's counts to the run's."""
    data = getattr(node, "workeroutput", {}).get("wirecheck")
    if data and _STATE is not None:
        counts = json.loads(data)
        _STATE.valid_by_era.update(counts["valid_by_era"])
        _STATE.deliberate_by_reason.update(counts["deliberate_by_reason"])
        _STATE.unchecked += counts["unchecked"]
        _STATE.worker_invalid += counts["invalid"]


def pytest_terminal_summary(terminalreporter) -> None:
    if _STATE is None:
        return
    _STATE.drain()
    terminalreporter.write_line(_STATE.summary())
    if _STATE.deliberate_by_reason:
        reasons = "; ".join(f"{n} x {why}" for why, n in _STATE.deliberate_by_reason.most_common(6))
        terminalreporter.write_line(f"wire check, deliberate: {reasons}")
