"""Run another bundled server and keep a log of exactly what it received.

    python -m mcp_lab.servers.logged --log calendar.log mcp_lab.servers.calendar

Isolation is a claim about what reaches a server, so the honest witness is the server's own
side of the pipe.  This wrapper is that witness, at the process level: it imports the wrapped
module, and for every line that arrives on stdin it first appends the line, byte for byte, to
the log (and flushes), then lets the module's own sans-IO `handle_line()` (or `handle()`)
answer it.  The wrapped server's code is untouched; the log holds nothing the server did not
receive, and everything it did.

Log format (shared with `mcp_lab.servers.notes --log`): one received line per log line,
exactly as it arrived minus its newline -- a JSON Lines file when the client is well behaved.
`read_log(path)` reads it back as decoded messages.  On stderr (when no file is given) each line
is prefixed with "received: ", because stderr also carries the server's other words.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any, Callable, TextIO

__all__ = ["MessageLog", "read_log", "serve", "main"]

STDERR_PREFIX = "received: "


class MessageLog:
    """Where a server writes each line it received: a file (exact lines) or stderr (prefixed)."""

    def __init__(self, path: str | None = None):
        self.path = path
        # Line-buffered text in UTF-8; a line is flushed before the server answers it, so a
        # client holding the answer can read the log at once, without waiting or polling.
        self._stream: TextIO = open(path, "a", encoding="utf-8", buffering=1) if path else sys.stderr
        self._prefix = "" if path else STDERR_PREFIX

    def record(self, line: bytes | str) -> None:
        text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
        text = text[:-1] if text.endswith("\n") else text
        self._stream.write(self._prefix + text + "\n")
        self._stream.flush()

    def close(self) -> None:
        if self.path:
            self._stream.close()


def read_log(path: str | Path) -> list[Any]:
    """The messages a server logged, in order: decoded JSON, or the raw text of a non-JSON line."""
    out: list[Any] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append(line)
    return out


def _line_handler(module: Any) -> Callable[[bytes], bytes | None]:
    if hasattr(module, "handle_line"):
        return module.handle_line
    if hasattr(module, "handle"):

        def handle_line(line: bytes) -> bytes | None:
            try:
                msg = json.loads(line)
            except ValueError:
                msg = None
            answer = (
                module.handle(msg)
                if msg is not None
                else {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
            )
            return None if answer is None else (json.dumps(answer, separators=(",", ":")) + "\n").encode()

        return handle_line
    raise SystemExit(f"{module.__name__} has neither handle_line() nor handle(): it cannot be wrapped")


def serve(module_name: str, log: MessageLog, stdin=None, stdout=None) -> None:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise SystemExit(f"logged: cannot import {module_name!r}: {e}") from None
    answer = _line_handler(module)
    where = log.path or "stderr"
    print(f"logged({module_name}): every received line goes to {where}", file=sys.stderr, flush=True)
    for line in stdin:
        log.record(line)  # first the witness, then the answer
        out = answer(line)
        if out is not None:
            stdout.write(out)
            stdout.flush()


def _options(argv: list[str] | None):
    parser = argparse.ArgumentParser(
        prog="python -m mcp_lab.servers.logged", description="Run a bundled server, logging each line it receives."
    )
    parser.add_argument("--log", metavar="PATH", help="append received lines here (default: stderr)")
    parser.add_argument("module", help="the server module to wrap, e.g. mcp_lab.servers.calendar")
    return parser.parse_args(argv)


def serve_in_process(argv: list[str]):
    """The browser edition's way in (mcp_lab.servers.inprocess): log the line, then answer it
    with a fresh copy of the wrapped module."""
    from mcp_lab.servers.inprocess import serve_argv

    args = _options(argv)
    log = MessageLog(args.log)
    answer, _label = serve_argv([sys.executable, "-m", args.module])

    def serve_line(line: bytes | str) -> bytes | None:
        log.record(line)  # first the witness, then the answer
        return answer(line)

    return serve_line


def main(argv: list[str] | None = None) -> None:
    args = _options(argv)
    log = MessageLog(args.log)
    try:
        serve(args.module, log)
    finally:
        log.close()


if __name__ == "__main__":
    main()
