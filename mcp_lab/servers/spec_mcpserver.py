"""`SpecMCPServer`: the official SDK's `MCPServer` (mcp 2.3) with its error-code deviations mended.

The bundled servers built on the SDK (`sdk_calendar`, `showcase`) use it in place of `MCPServer`,
so what they put on the wire is what the spec asks, not what the SDK happens to do:

    tools/call of a tool the server does not have
        MCPServer: a *result* with `isError: true`, as if the tool had run and failed.
        The spec: a protocol error, JSON-RPC -32602; `isError` is for a tool that ran.
        https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling
    prompts/get of an unknown prompt, or without a required argument
        MCPServer: -32603 "Internal server error".
        The spec: -32602 for both.
        https://modelcontextprotocol.io/specification/2026-07-28/server/prompts#error-handling

It also holds the one set-up step they share, `request_state_key()`: the key that seals their
requestState, shared across processes only when the person running them supplies one.

The SDK hands an `MCPError` raised by `call_tool` / `get_prompt` to the client unchanged, so each
mend is a check before the SDK's own code runs.  tests/test_sdk_interop.py runs a bare
`MCPServer` beside this class, so a later SDK that fixes these shows up there (and the overrides
can go).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from mcp_lab.servers.known import STATE_KEY_ENV

__all__ = ["SpecMCPServer", "STATE_KEY_ENV", "request_state_key"]


def request_state_key(path: str | None, prog: str) -> str | None:
    """The shared requestState key from `--state-key-file PATH` or $MCP_LAB_STATE_KEY, else None
    (each process then seals with a key of its own).  A bad key is one line on stderr and exit."""
    if path is not None:
        try:
            with open(path, encoding="utf-8") as f:
                key = f.read().strip()
        except OSError as exc:
            sys.exit(f"{prog}: cannot read --state-key-file {path}: {exc.strerror}")
    else:
        key = os.environ.get(STATE_KEY_ENV) or None
    if key is not None and len(key.encode()) < 32:
        sys.exit(
            f"{prog}: the requestState key must be at least 32 bytes (got {len(key.encode())}); "
            'make one with: python -c "import secrets; print(secrets.token_hex(32))"'
        )
    return key


class SpecMCPServer(MCPServer):
    """`MCPServer`, answering an unknown tool, an unknown prompt or a missing prompt argument with -32602."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None):
        if name not in {tool.name for tool in await self.list_tools()}:
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {name!r}")
        return await super().call_tool(name, arguments, context)

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Context | None = None):
        prompt = next((p for p in await self.list_prompts() if p.name == name), None)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt: {name!r}")
        missing = [a.name for a in prompt.arguments or () if a.required and a.name not in (arguments or {})]
        if missing:
            raise MCPError(INVALID_PARAMS, f"Prompt {name!r} needs the argument(s) {', '.join(missing)}")
        return await super().get_prompt(name, arguments, context)
