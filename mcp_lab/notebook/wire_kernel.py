"""The "MCP wire" Jupyter kernel: every cell is one JSON-RPC message, answered under the cell.

    python -m mcp_lab.notebook.wire_kernel install [--sys-prefix | --prefix P | --user]   # the kernelspec
    python -m mcp_lab.notebook.wire_kernel -f CONNECTION_FILE                            # what Jupyter runs

Theory of operation.  This is a wrapper kernel (ipykernel's `Kernel` base class, launched by
`IPKernelApp`): there is no Python in the cells.  The kernel owns at most one MCP server as its
child process.  The first cell connects it:

    %connect calendar            # a known short name: calendar, sdk_calendar, everything, ...
    %connect -- /usr/bin/node server.js
    %connect mine -- python3 my_server.py
    %connect sdk_calendar --no-probe   # no probe: the next cell's message is the first line

and probes its era (`mcp_lab.probe`: server/discover, then the legacy initialize handshake if
needed).  Every later cell is one message typed by hand, handled exactly as the `%%rpc` magic
handles it (`mcp_lab.notebook.magics.prepare` / `exchange`, `mcp_lab.wire.lint`): compacted to one line, linted,
sent, and answered.  Outputs are display_data bundles (text/plain + text/html) whose metadata
says what each one is (`{"mcp_lab": {"kind": "lint" | "sent" | "answer"}}`), so a test can find
the answer in nbclient's outputs and json-decode its text/plain.  A protocol error answer is a
normal output: it is the server's reply, not a failure of the cell.  A cell fails (an error
reply, one line) only for what the kernel itself cannot do: no connection yet, a dead server,
an unknown directive.

Directives at the top of a message cell change how it is sent: `%raw` (byte-exact, so an
embedded newline really breaks the framing), `%meta` (fill a missing `_meta`; it declares form
elicitation, since the person at the keyboard can answer a question by typing the retry), `%nolint`,
`%timeout S`, `%predict WHAT` (the message is sent only once the learner has written a
prediction after it: `result`, or the error code expected; then the kernel says whether it
held).  What the kernel says while it waits (`PREDICT_FIRST`) gives no example code: whatever
number it showed would be some prediction's answer on the learner's screen.  `%trace` shows the
connection's Trace and its sequence diagram, `%close` ends the server.  Restarting the kernel
ends the process, and with it the server (do_shutdown reaps it, and the server also sees EOF on
stdin if the kernel dies), so a restart always means a new server process.
"""

from __future__ import annotations

import json
import re
import shlex
import sys

from ipykernel.kernelbase import Kernel

from mcp_lab.wire import lint as lint_mod
from mcp_lab.wire import revisions
from mcp_lab.wire.lint import LEGACY_REQUEST_METHODS, REQUEST_META_KEYS
from mcp_lab.wire.revisions import Era

KERNEL_NAME = "mcp-wire"
DISPLAY_NAME = "MCP wire"

_DIRECTIVES = ("%connect", "%trace", "%close", "%raw", "%meta", "%nolint", "%timeout", "%predict", "%help")
_HELP = """MCP wire: every cell is one JSON-RPC message, sent to the connected server.
  %connect NAME                 a known server (calendar, sdk_calendar, everything)
  %connect [NAME] -- ARGV...    any stdio server, by its argv
  %connect NAME --no-probe      start it, send nothing: your first cell is its first line
  %trace                        the connection's Trace and sequence diagram
  %close                        end the server process
Top-of-cell directives for a message: %raw  %meta  %nolint  %timeout S
  %predict WHAT                 send only once you wrote your prediction (result, or a code)"""
# Shown under a `%predict` cell with nothing written yet: no example code (it would answer some
# prediction on the learner's screen; tests/test_predict_then_see.py reads this text).
PREDICT_FIRST = (
    "Predict first: after %predict write result, or the error code you expect (the number), "
    "then run this cell again. Nothing was sent."
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mcp_lab")
    except PackageNotFoundError:  # a source tree on sys.path, not installed
        return "0"


class WireKernel(Kernel):
    implementation = "mcp_lab.notebook.wire_kernel"
    implementation_version = _version()
    language = "json"
    language_version = "JSON-RPC 2.0 / MCP " + revisions.LATEST
    language_info = {
        "name": "json",
        "mimetype": "application/json",
        "file_extension": ".json",
        "codemirror_mode": {"name": "javascript", "json": True},
        "pygments_lexer": "json",
    }
    banner = "MCP wire: one JSON-RPC message per cell (MCP " + revisions.LATEST + "). Start with %connect NAME."
    help_links = [{"text": "MCP specification " + revisions.LATEST, "url": lint_mod.SPEC_BASE + "basic/index"}]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.client = None
        self.pending: set = set()

    # -- outputs --------------------------------------------------------------------------------
    def _display(self, bundle: dict, kind: str, **extra) -> None:
        self.send_response(
            self.iopub_socket, "display_data", {"data": bundle, "metadata": {"mcp_lab": {"kind": kind, **extra}}}
        )

    def _stream(self, text: str, name: str = "stdout") -> None:
        self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

    def _fail(self, ename: str, message: str) -> dict:
        """One clear line, reported as the cell's error (no Python traceback: there is no Python)."""
        self.send_response(
            self.iopub_socket, "error", {"ename": ename, "evalue": message, "traceback": [f"{ename}: {message}"]}
        )
        return {
            "status": "error",
            "ename": ename,
            "evalue": message,
            "traceback": [],
            "execution_count": self.execution_count,
        }

    def _ok(self) -> dict:
        return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}

    # -- execution ------------------------------------------------------------------------------
    async def do_execute(
        self,
        code,
        silent,
        store_history=True,
        user_expressions=None,
        allow_stdin=False,
        *,
        cell_meta=None,
        cell_id=None,
    ):
        from mcp_lab.wire.errors import LocalError, ProtocolError

        try:
            return self._execute(code, silent)
        except _CellError as e:
            return self._fail(e.ename, str(e))
        except (ProtocolError, LocalError) as e:
            return self._fail(type(e).__name__, e.message)

    def _execute(self, code: str, silent: bool) -> dict:
        stripped = code.strip()
        if not stripped:
            return self._ok()
        first, _, rest = stripped.partition("\n")
        word = first.split(maxsplit=1)[0]
        if word == "%connect":
            return self._connect(first[len("%connect") :].strip())
        if word == "%trace":
            self._need_client()
            tr = self.client.trace
            self._display({"text/plain": tr.text(), "text/html": tr._repr_html_()}, "trace")
            self._display(tr.mermaid()._repr_mimebundle_(), "mermaid")
            return self._ok()
        if word == "%close":
            if self.client is None:  # closing twice (a re-run) is harmless: say so, do not fail
                self._stream("no server is connected (already closed): %connect NAME opens one\n")
                return self._ok()
            code_ = self.client.close()
            name = self.client.name
            self.client = None
            self._stream(f"closed {name!r} (exit code {code_})\n")
            return self._ok()
        if word == "%help":
            self._stream(_HELP + "\n")
            return self._ok()
        return self._message(code, silent)

    def _connect(self, args: str) -> dict:
        from IPython.core.error import UsageError

        from mcp_lab.notebook.magics import connect as open_connection

        try:
            words = shlex.split(args)
        except ValueError as e:
            raise _CellError("UsageError", f"%connect: {e}") from None
        sep = "--" in words
        argv = words[words.index("--") + 1 :] if sep else None
        words = words[: words.index("--")] if sep else words
        probe = "--no-probe" not in words
        words = [w for w in words if w != "--no-probe"]
        if sep and not argv:
            raise _CellError("UsageError", "nothing after --: give the server's argv, e.g. %connect -- node server.js")
        if len(words) > 1 or (not words and not argv):
            raise _CellError(
                "UsageError", "usage: %connect NAME [--no-probe] | %connect [NAME] [--no-probe] -- ARGV..."
            )
        name = words[0] if words else argv[-1].rsplit("/", 1)[-1]
        if self.client is not None:
            self.client.close()
            self.client = None
        try:
            client, verdict = open_connection(name, argv, probe=probe)
        except UsageError as e:
            raise _CellError("ConnectError", str(e)) from None
        # The kernel keeps its one connection itself (the magics' registry is for IPython).
        from mcp_lab.notebook import magics

        magics.connections.pop(name, None)
        self.client = client
        self.pending = set()
        self._stream(f"connected {name!r}: pid {client.transport.describe().pid}, era {client.era or 'not probed'}\n")
        if verdict is not None:
            self._display({"text/plain": verdict.text(trace=False), "text/html": verdict._repr_html_()}, "verdict")
        return self._ok()

    def _message(self, code: str, silent: bool) -> dict:  # lint, predict, send, show: one cell, in order
        from IPython.core.error import UsageError

        from mcp_lab.notebook.magics import answer_bundle, exchange, prepare, sent_bundle

        raw = meta = nolint = False
        timeout = None
        predicted: str | None = None  # None: no %predict; "": %predict with nothing written yet
        lines = code.split("\n")
        while lines and (lines[0].strip().startswith("%") or not lines[0].strip()):
            d = lines.pop(0).strip()
            if not d:
                continue
            parts = d.split()
            if parts[0] == "%raw":
                raw = True
            elif parts[0] == "%meta":
                meta = True
            elif parts[0] == "%nolint":
                nolint = True
            elif parts[0] == "%predict":
                predicted = " ".join(parts[1:]).strip("?").strip()
            elif parts[0] == "%timeout" and len(parts) == 2:
                try:
                    timeout = float(parts[1])
                except ValueError:
                    raise _CellError("UsageError", f"%timeout needs seconds, not {parts[1]!r}") from None
            else:
                raise _CellError("UsageError", f"unknown directive {d!r}; see %help")
        body = "\n".join(lines)
        if not body.strip():
            raise _CellError("UsageError", "no message under the directives")
        if predicted == "":
            self._stream(PREDICT_FIRST + "\n")
            return self._ok()
        self._need_client()
        try:
            text = prepare(body, self.client, raw=raw, meta=meta)
        except UsageError as e:
            raise _CellError("UsageError", str(e)) from None
        if not nolint and not silent:
            f = lint_mod.lint(text, era=self.client.era, pending=self.pending, raw=raw)
            self._display({"text/plain": f.text(), "text/html": f._repr_html_()}, "lint")
        if not silent:
            self._display(sent_bundle(text), "sent")
        from mcp_lab.wire.jsonrpc import TransportClosed

        try:
            answer = exchange(self.client, text, timeout=timeout, pending=self.pending)
        except TransportClosed as e:
            raise _CellError("TransportClosed", f"{e.message}; run %connect again") from None
        if not silent:
            # The reply itself rides in the metadata too, so a test (or a tool) reads the JSON
            # without scraping the human-readable text.
            self._display(answer_bundle(answer), "answer", reply=dict(answer), all=answer.all)
        if predicted:
            self._stream(prediction_verdict(predicted, dict(answer)) + "\n")
        return self._ok()

    def _need_client(self) -> None:
        if self.client is None:
            raise _CellError("NotConnected", "no server yet: run %connect NAME (e.g. %connect calendar) first")

    # -- completion -----------------------------------------------------------------------------
    async def do_complete(self, code, cursor_pos):
        return complete(code, cursor_pos, era=getattr(self.client, "era", None))

    async def do_is_complete(self, code):
        # A message may span lines: Enter adds a line until the JSON closes.
        s = code.strip()
        if not s or s.startswith("%"):
            return {"status": "complete"}
        try:
            json.loads(s)
            return {"status": "complete"}
        except ValueError:
            return {"status": "incomplete", "indent": "  "}

    async def do_shutdown(self, restart):
        if self.client is not None:
            try:
                self.client.close()
            finally:
                self.client = None
        return {"status": "ok", "restart": restart}


def verdict_code(reply: dict) -> str:
    """What a prediction is compared with: the error's code, or "result"."""
    error = reply.get("error")
    return str(error.get("code")) if isinstance(error, dict) else "result"


def prediction_verdict(predicted: str, reply: dict) -> str:
    """'Your prediction held' or 'Not quite', comparing `predicted` with what came back."""
    actual = verdict_code(reply)
    said = predicted.strip().lower()
    held = said == actual or (actual == "result" and said in ("result", "a result", "ok"))
    if held:
        return f"Your prediction held: {actual}. The reasons are below."
    return f"Not quite: you predicted {predicted}, the answer is {actual}. The reasons are below."


class _CellError(Exception):
    def __init__(self, ename: str, message: str):
        super().__init__(message)
        self.ename = ename


# -- completion (pure, so it is testable without a kernel) -----------------------------------------
_OPEN_STRING = re.compile(r'"((?:[^"\\]|\\.)*)$')


def complete(code: str, cursor_pos: int, *, era: Era | str | None = None) -> dict:
    """Complete a method name after `"method": "`, a `_meta` key inside `_meta`, or a directive."""
    before = code[:cursor_pos]
    matches: list[str] = []
    start = cursor_pos
    line_start = before.rfind("\n") + 1
    if before[line_start:].lstrip().startswith("%") and '"' not in before[line_start:]:
        word_start = line_start + len(before[line_start:]) - len(before[line_start:].lstrip())
        word = before[word_start:]
        if " " not in word:
            matches = [d for d in _DIRECTIVES if d.startswith(word)]
            start = word_start
        elif word.startswith("%connect "):
            from mcp_lab.servers.known import names

            partial = word.rsplit(" ", 1)[1]
            matches = [n for n in names() if n.startswith(partial)]
            start = cursor_pos - len(partial)
        return _reply(matches, start, cursor_pos)
    m = _OPEN_STRING.search(before)
    if m is None or before[: m.start()].count('"') % 2:
        return _reply([], cursor_pos, cursor_pos)
    partial = m.group(1)
    start = m.start() + 1
    lead = before[: m.start()].rstrip()
    if re.search(r'"method"\s*:\s*$', lead):
        if era == Era.LEGACY:
            pool = sorted(LEGACY_REQUEST_METHODS | {"notifications/initialized", "notifications/cancelled"})
        elif era == Era.MODERN:
            pool = sorted(revisions.MODERN_REQUEST_METHODS | {"notifications/cancelled"})
        else:
            pool = sorted(revisions.MODERN_REQUEST_METHODS | LEGACY_REQUEST_METHODS)
        matches = [x for x in pool if x.startswith(partial)]
    elif _inside_meta(before[: m.start()]) and not lead.endswith(":"):
        matches = [k for k in REQUEST_META_KEYS if k.startswith(partial)]
        if not matches and partial:
            # "protocolV" -> the reserved key that ends with it
            matches = [k for k in REQUEST_META_KEYS if k.rsplit("/", 1)[-1].lower().startswith(partial.lower())]
    return _reply(matches, start, cursor_pos)


def _inside_meta(prefix: str) -> bool:
    """Is the position after `prefix` directly inside the object that `"_meta":` opened?"""
    i = prefix.rfind('"_meta"')
    if i < 0:
        return False
    depth = 0
    in_str = False
    esc = False
    for ch in prefix[i + len('"_meta"') :]:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth <= 0:
                return False
    return depth == 1


def _reply(matches: list[str], start: int, end: int) -> dict:
    return {"matches": matches, "cursor_start": start, "cursor_end": end, "metadata": {}, "status": "ok"}


# -- the kernelspec ------------------------------------------------------------------------------
def kernel_json() -> dict:
    return {
        "argv": [sys.executable, "-m", "mcp_lab.notebook.wire_kernel", "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "json",
        "interrupt_mode": "signal",
        # IPKernelApp (which runs this kernel) speaks CurveZMQ like ipykernel's own kernel, so
        # Lab's `--KernelManager.transport_encryption=auto` can encrypt it too.
        "metadata": {"supported_encryption": ["curve"]},
    }


def install(*, user: bool = False, prefix: str | None = None, sys_prefix: bool = False, name: str = KERNEL_NAME) -> str:
    """Write the kernelspec; returns the directory Jupyter will find it in."""
    import tempfile
    from pathlib import Path

    from jupyter_client.kernelspec import KernelSpecManager

    if sys_prefix:
        prefix = sys.prefix
    with tempfile.TemporaryDirectory() as td:
        (Path(td) / "kernel.json").write_text(json.dumps(kernel_json(), indent=1) + "\n")
        return KernelSpecManager().install_kernel_spec(td, kernel_name=name, user=user, prefix=prefix)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "install":
        import argparse

        ap = argparse.ArgumentParser(
            prog="python -m mcp_lab.notebook.wire_kernel install",
            description=f"Install the {DISPLAY_NAME!r} kernelspec ({KERNEL_NAME}).",
        )
        where = ap.add_mutually_exclusive_group()
        where.add_argument("--sys-prefix", action="store_true", help="into this environment (sys.prefix)")
        where.add_argument("--prefix", help="into PREFIX/share/jupyter/kernels")
        where.add_argument("--user", action="store_true", help="into the user's Jupyter data dir")
        ap.add_argument("--name", default=KERNEL_NAME)
        a = ap.parse_args(argv[1:])
        dest = install(user=a.user, prefix=a.prefix, sys_prefix=a.sys_prefix, name=a.name)
        print(f"installed kernelspec {a.name!r} ({DISPLAY_NAME}) in {dest}")
        return
    from ipykernel.kernelapp import IPKernelApp

    IPKernelApp.launch_instance(argv=argv, kernel_class=WireKernel)


if __name__ == "__main__":
    main()
