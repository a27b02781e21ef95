"""The official Python SDK's client against a bundled server, with a witness (notebook 06).

    run = await sdk_auto_connect("mcp_lab.servers.future", tool="which_revision")
    run.received          # every message the server received, in order (from its own log)
    run.protocol_version  # the version the SDK's session ended on
    run.tool_text         # the tool's first text block

The server runs under `mcp_lab.servers.logged`, which writes each line it receives to a file
before answering it, so what crossed the wire is read from the server's side. The SDK client runs
in its default ``mode="auto"`` (probe with `server/discover`, fall back to `initialize`), under a
deadline; a timeout says where the server's stderr went.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["SdkProbeRun", "sdk_auto_connect"]


@dataclass(frozen=True)
class SdkProbeRun:
    received: list[Any]
    protocol_version: str | None
    tool_text: str


async def sdk_auto_connect(
    module: str, *, tool: str, arguments: dict | None = None, deadline: float = 20.0
) -> SdkProbeRun:
    """Connect the SDK's `mcp.Client` (auto mode) to `module`, call `tool`, and return the run."""
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_lab.servers.logged import read_log

    log = Path(tempfile.mkdtemp(prefix="mcp_lab-sdk-probe-")) / "received.log"
    argv = ["-m", "mcp_lab.servers.logged", "--log", str(log), module]
    params = StdioServerParameters(command=sys.executable, args=argv)
    # The server's stderr goes to a file beside the log (a notebook's own stderr is no file).
    with open(log.with_suffix(".stderr"), "w") as server_stderr:
        try:
            with anyio.fail_after(deadline):
                async with Client(stdio_client(params, errlog=server_stderr), mode="auto") as client:
                    called = await client.call_tool(tool, arguments or {})
                    version, text = client.protocol_version, called.content[0].text
        except TimeoutError:
            raise TimeoutError(
                f"the SDK client did not finish within {deadline:g} s; "
                f"the server's stderr is in {log.with_suffix('.stderr')}"
            ) from None
    return SdkProbeRun(read_log(log), version, text)
