"""The official Python SDK's client over stdio, watched: what notebook 03 runs against `noisy`.

    sdk = await run_sdk()                       # python -m mcp_lab.servers.noisy
    sdk = await run_sdk("--glued", mode="2026-07-28", deadline=1.5)
    sdk                                         # what happened, one line per thing seen

Theory of operation.  `run_sdk` connects the SDK's `Client` to the noisy calendar, lists its
tools and calls `create_event`, and records everything the SDK lets a program see: the log
records of the logger `mcp.client.stdio` (where it reports a stdout line it cannot parse), what
it hands to a `message_handler` (notifications and transport faults), the child's stderr, the
revision it settled on, and how the run ended.  Four things a notebook needs, each done here:

- `StdioServerParameters` gives the child a small default environment (`PATH`, `HOME`, a few
  more), not the kernel's: the child runs in the repository's folder with `PYTHONPATH` set, so
  `-m mcp_lab.servers.noisy` is found whether or not the package is installed;
- every wait is bounded by `anyio.fail_after(deadline)`: a hung client ends the run with a
  `TimeoutError`, recorded as how it ended, never a frozen cell;
- the SDK hands the child `sys.stderr` by default, which in a Jupyter kernel is not always a real
  file (`UnsupportedOperation: fileno`), so the transport is built with
  `stdio_client(params, errlog=<a temporary file>)`, which also lets the run read the child's
  stderr afterwards;
- the logger's records are collected by a handler for the run, and the logger is put back as it
  was (propagation included) when the run ends, however it ends.

The SDK is imported when `run_sdk` runs, never by `import mcp_lab`.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["SdkStdioRun", "run_sdk"]

REPO = Path(__file__).resolve().parents[2]  # the folder holding the mcp_lab package
LOGGER = "mcp.client.stdio"
DENTIST = {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}


@dataclass
class SdkStdioRun:
    """What one SDK run showed: log records, messages handed over, results, the child's stderr."""

    log: list[logging.LogRecord] = field(default_factory=list)
    handed: list[Any] = field(default_factory=list)
    version: str | None = None
    tools: list[str] | None = None
    made: str | None = None
    ended: str = "not yet"
    stderr: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        for r in self.log:
            cause = type(r.exc_info[1]).__name__ if r.exc_info else "no exception"
            out.append(f"log  {r.levelname} {r.name}: {r.getMessage()}  <- {cause}")
        for m in self.handed:
            detail = str(m).splitlines()
            first = (detail[1] if len(detail) > 1 else detail[0]).strip()  # line 0 names the model
            out.append(f"message_handler got: {type(m).__name__} | {first[:90]}")
        out.append(f"version: {self.version} | tools: {self.tools} | made: {self.made}")
        out.append(f"ended: {self.ended} | child's stderr: {self.stderr}")
        return out

    def __repr__(self) -> str:
        return "\n".join(self.lines())


class _Collect(logging.Handler):
    def __init__(self, into: list):
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record)


def _params(flags: tuple[str, ...]):
    from mcp import StdioServerParameters

    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_lab.servers.noisy", *flags],
        cwd=str(REPO),
        env={"PYTHONPATH": path},
    )


async def run_sdk(*flags: str, mode: str = "auto", deadline: float = 10.0) -> SdkStdioRun:
    """Connect the SDK to `noisy` (with `flags`), list tools, call create_event; say what happened."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import stdio_client

    run = SdkStdioRun()
    logger = logging.getLogger(LOGGER)
    handler, propagate = _Collect(run.log), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False

    async def on_message(message):  # notifications and transport faults
        run.handed.append(message)

    errlog = tempfile.TemporaryFile("w+")  # a real file: the child's stderr
    try:
        with anyio.fail_after(deadline):
            transport = stdio_client(_params(flags), errlog=errlog)
            async with Client(transport, mode=mode, message_handler=on_message) as client:
                run.version = client.protocol_version
                run.tools = [t.name for t in (await client.list_tools()).tools]
                made = await client.call_tool("create_event", DENTIST)
                run.made = made.content[0].text
        run.ended = "normally"
    except TimeoutError:
        run.ended = f"TimeoutError after our {deadline:g} s deadline"
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
        errlog.seek(0)
        run.stderr = errlog.read().splitlines()
        errlog.close()
    return run
