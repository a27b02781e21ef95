"""What a Streamable HTTP session knows, kept out of the transport: which MCP headers mirror a
message, and what the client has learnt from earlier answers.

The transport moves bytes; before each POST it asks `derive(body)` for the MCP headers, and after
each answer it tells `learn(sent, answer)`. Learnt here, per connection:
- the version a legacy `initialize` negotiated (a legacy session carries it in a header only);
- for each tool, which arguments its `inputSchema` marks `x-mcp-header`, so a `tools/call`
  mirrors them as `Mcp-Param-{Name}` headers; a tool whose annotation is invalid is recorded,
  since a client MUST drop it. The validity rules and the encoding are the official SDK's,
  used rather than rewritten
  (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.headers import headers_for

__all__ = ["HttpSessionState"]


class HttpSessionState:
    def __init__(self) -> None:
        self.legacy_version: str | None = None  # negotiated by a legacy initialize
        # tool name -> {property path: header token}, learnt from tools/list answers
        self.param_headers: dict[str, dict] = {}
        self.invalid_tools: dict[str, str] = {}  # tool name -> why a client must drop it

    def derive(self, body: Any) -> dict[str, str]:
        """The MCP headers for one request body: the `_meta` mirror, plus Mcp-Param-* learnt."""
        return {**headers_for(body, legacy_version=self.legacy_version), **self._param_headers(body)}

    def learn(self, sent: Any, answer: Any) -> None:
        """Take what an answer to `sent` teaches (called by the transport for matched answers)."""
        if not isinstance(sent, dict) or not isinstance(answer, jsonrpc.Result):
            return
        if sent.get("method") == "initialize":
            v = answer.result.get("protocolVersion")
            if isinstance(v, str):
                self.legacy_version = v
        elif sent.get("method") == "tools/list":
            self._learn_tools(answer.result.get("tools"))

    def _learn_tools(self, tools: Any) -> None:
        if not isinstance(tools, list) or not any("x-mcp-header" in json.dumps(t) for t in tools):
            return
        from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map

        for tool in tools:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                continue
            why = find_invalid_x_mcp_header(tool.get("inputSchema"))
            if why:
                self.invalid_tools[tool["name"]] = why
                self.param_headers.pop(tool["name"], None)
            else:
                mapping = x_mcp_header_map(tool.get("inputSchema"))
                if mapping:
                    self.param_headers[tool["name"]] = mapping

    def _param_headers(self, body: Any) -> dict[str, str]:
        if not (isinstance(body, dict) and body.get("method") == "tools/call" and isinstance(body.get("params"), dict)):
            return {}
        mapping = self.param_headers.get(body["params"].get("name"))
        args = body["params"].get("arguments")
        if not mapping or not isinstance(args, dict):
            return {}
        from mcp.shared.inbound import mcp_param_headers

        return mcp_param_headers(mapping, args)
