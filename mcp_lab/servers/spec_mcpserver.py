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

The SDK hands an `MCPError` raised by `call_tool` / `get_prompt` to the client unchanged, so each
mend is a check before the SDK's own code runs.  tests/test_sdk_interop.py runs a bare
`MCPServer` beside this class, so a later SDK that fixes these shows up there (and the overrides
can go).
"""

from __future__ import annotations

from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

__all__ = ["SpecMCPServer"]


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
