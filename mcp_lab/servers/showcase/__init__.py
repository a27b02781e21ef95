"""The showcase: one modern MCP server (2026-07-28) with the whole surface, built on the official SDK.

Run it with ``python -m mcp_lab.servers.showcase`` (stdio) or
``python -m mcp_lab.servers.showcase --http PORT`` (Streamable HTTP on 127.0.0.1:PORT/mcp only;
a foreign Host or Origin gets a 4xx). Once the socket listens, one line goes to stderr:
``showcase: serving Streamable HTTP on http://127.0.0.1:PORT/mcp``.

What it shows, each part in its own module:

    content  tools answering text, image, audio, an embedded resource, a mix, and an error as a
             result (isError); progress; a text and a binary resource; a resource template;
             prompts with arguments, an embedded resource and an image; completion
    rounds   input_required for elicitation, sampling and roots; several inputs at once; several
             rounds with requestState; a tampered requestState refused (-32602); a prompt that
             asks first; capabilities checked on every request (-32021)
    live     logging filtered by the request's `_meta` logLevel; `subscriptions/listen` fed by
             tools that change the tool list, the prompt list and a resource
    lessons  notebook 07's tools: roots then sampling in two rounds (`brief_project`), and a
             result that holds only a requestState (`prepare_report`)
    dual     tools that ask through the SDK's resolvers: input_required at 2026-07-28, a real
             server-to-client request at 2025-11-25 -- one tool, both wires
    schemas  a hand-written JSON Schema 2020-12 input schema, and an `x-mcp-header` argument
    media    the sample PNG and WAV, built from bytes

Tool, resource and prompt names are the ones the official conformance suite
(`@modelcontextprotocol/conformance`) calls, so the suite can score this server. The SDK does
`server/discover`, the per-request `_meta` checks, `resultType`, the cache hints
(`ttlMs`/`cacheScope`) and the sealing of `requestState`; it also answers a legacy `initialize`
(2025-11-25 and before), so the same process serves both eras.
"""

from __future__ import annotations

from mcp.server import CacheHint, MCPServer
from mcp.server.mcpserver import RequestStateSecurity

from mcp_lab.servers.spec_mcpserver import SpecMCPServer

from .content import (
    register_completion,
    register_content_tools,
    register_prompts,
    register_resources,
)
from .dual import register_dual
from .lessons import register_lessons
from .live import register_live
from .rounds import register_rounds
from .schemas import register_header_tool, schema_tools

__all__ = ["SERVER_NAME", "SERVER_VERSION", "build_server"]

SERVER_NAME = "mcp-lab-showcase"
SERVER_VERSION = "0.1.0"

# How long a client may reuse each cacheable result, and whether it may share it between users.
# The lists change only through the trigger tools, which announce it on subscriptions/listen.
CACHE_HINTS = {
    "tools/list": CacheHint(ttl_ms=60_000, scope="public"),
    "prompts/list": CacheHint(ttl_ms=60_000, scope="public"),
    "resources/list": CacheHint(ttl_ms=60_000, scope="public"),
    "resources/templates/list": CacheHint(ttl_ms=300_000, scope="public"),
    "resources/read": CacheHint(ttl_ms=0, scope="private"),  # test://watched-resource changes
}


def build_server(state_key: str | bytes | None = None) -> MCPServer:
    """The showcase server; `state_key` (>= 32 bytes) replaces the per-process requestState key."""
    security = RequestStateSecurity(keys=[state_key]) if state_key is not None else None
    # SpecMCPServer: MCPServer with its error codes for an unknown tool or prompt mended (-32602).
    mcp = SpecMCPServer(
        SERVER_NAME,
        title="mcp_lab showcase",
        version=SERVER_VERSION,
        instructions="A tour of MCP 2026-07-28: every content type, resources, prompts, completion, "
        "logging, subscriptions and multi-round-trip requests.",
        cache_hints=CACHE_HINTS,
        request_state_security=security,
        tools=schema_tools(),
    )
    register_content_tools(mcp)
    register_resources(mcp)
    register_prompts(mcp)
    register_completion(mcp)
    register_rounds(mcp)
    register_live(mcp)
    register_header_tool(mcp)
    register_dual(mcp)
    register_lessons(mcp)
    return mcp
