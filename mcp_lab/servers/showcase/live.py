"""The showcase's moving parts: logging by the request's log level, list changes, resource updates.

Logging (deprecated in 2026-07-28 but still part of it): a request opts in by putting
`io.modelcontextprotocol/logLevel` in its `_meta`; without it the server sends no
`notifications/message` for that request, with it only that level and above. The SDK applies
the filter; the tools below just log at several levels so the filter can be seen.
https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging

Change notifications travel only on a `subscriptions/listen` stream the client opened, and only
the kinds it asked for. The trigger tools change the tool list, the prompt list or a resource
for real, then publish the event.
https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
"""

from __future__ import annotations

import asyncio
import warnings
import weakref
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.prompts.base import Prompt
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import (
    CallToolResult,
    EmptyResult,
    InputRequiredResult,
    SetLevelRequestParams,
    SubscribeRequestParams,
    TextContent,
    UnsubscribeRequestParams,
)

from .rounds import ask_text, done, need, require

WATCHED_URI = "test://watched-resource"
DYNAMIC_TOOL = "test_dynamic_tool"
DYNAMIC_PROMPT = "test_dynamic_prompt"
LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

# The level each 2025-11-25 connection chose with logging/setLevel (a 2026-07-28 request has none).
_legacy_floor: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _connection(session: Any) -> Any:
    """The SDK's per-client connection behind a (per-request) ServerSession.

    mcp 2.3 has no public accessor for it; without one the level filter below is simply off.
    """
    return getattr(session, "_connection", None)


async def log(ctx: Context, level: str, data: Any) -> None:
    """One notifications/message for this request, unless its level is below the one asked for.

    At 2026-07-28 the SDK applies the request's `_meta` logLevel; at 2025-11-25 the level a session
    set with logging/setLevel is applied here.
    """
    conn = _connection(ctx.session)
    floor = _legacy_floor.get(conn) if conn is not None else None
    if floor is not None and LEVELS.index(level) < LEVELS.index(floor):
        return
    with warnings.catch_warnings():
        # The SDK marks logging deprecated (SEP-2577); the showcase uses it on purpose.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await ctx.session.send_log_message(
            level=level, data=data, logger="showcase", related_request_id=ctx.request_context.request_id
        )


def register_live(mcp: MCPServer) -> None:
    """Logging tools, a capability-gated tool, and the triggers behind subscriptions/listen."""
    _serve_legacy_set_level(mcp)
    register_logging_tools(mcp)
    register_triggers(mcp)


def _serve_legacy_set_level(mcp: MCPServer) -> None:
    """`logging/setLevel` for 2025-11-25 sessions; serving it is also what makes the SDK declare `logging`.

    A server that sends notifications/message must declare the logging capability
    (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging#capabilities).
    MCPServer has no public hook for either, so the handler goes on the low-level server. On the
    2026-07-28 wire the method does not exist and the SDK answers -32601 for it.
    """

    async def set_level(ctx, params: SetLevelRequestParams) -> EmptyResult:
        conn = _connection(ctx.session)
        if conn is not None:
            _legacy_floor[conn] = params.level
        return EmptyResult()

    mcp._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)


def register_logging_tools(mcp: MCPServer) -> None:
    """Tools that log (filtered by the request's logLevel) and tools gated on client capabilities."""

    @mcp.tool()
    async def test_logging_tool(ctx: Context) -> CallToolResult:
        """Logs one message at each of debug, info, warning and error; the request's logLevel decides what arrives."""
        for level in ("debug", "info", "warning", "error"):
            await log(ctx, level, f"{level}: a message from test_logging_tool")
        return done("Logged at debug, info, warning and error.")

    @mcp.tool()
    async def test_tool_with_logging(ctx: Context) -> CallToolResult:
        """Logs three info messages about 50 ms apart while it runs."""
        for i, text in enumerate(("Tool execution started", "Tool processing data", "Tool execution completed")):
            if i:
                await asyncio.sleep(0.05)
            await log(ctx, "info", text)
        return done("Tool with logging executed successfully")

    @mcp.tool()
    def test_missing_capability(ctx: Context) -> CallToolResult:
        """Needs the client's sampling capability: without it in _meta the answer is -32021."""
        require(ctx, "sampling")
        return done("The request declared sampling, so this tool may run.")

    @mcp.tool()
    async def test_streaming_elicitation(ctx: Context) -> CallToolResult | InputRequiredResult:
        """Reports progress, then asks a question as an input_required result (never a request of its own)."""
        if "answer" in (ctx.input_responses or {}):
            return done("Thanks for the answer.")
        require(ctx, "elicitation")
        await ctx.report_progress(1, 2, "about to ask a question")
        return need({"answer": ask_text("Anything to add?", "note")})


def register_triggers(mcp: MCPServer) -> None:
    """A resource that changes, and tools that change it, the tool list and the prompt list."""
    watched = {"text": "Watched resource content, version 1", "version": 1}
    legacy_subscribers = _serve_legacy_subscribe(mcp)

    @mcp.resource(
        WATCHED_URI,
        name="watched-resource",
        title="Watched resource",
        description="Changes each time test_update_watched_resource runs",
        mime_type="text/plain",
    )
    def watched_resource() -> str:
        return watched["text"]

    @mcp.tool()
    async def test_update_watched_resource(ctx: Context) -> CallToolResult:
        """Changes test://watched-resource and publishes a resource-updated event to listeners."""
        watched["version"] += 1
        watched["text"] = f"Watched resource content, version {watched['version']}"
        await ctx.notify_resource_updated(WATCHED_URI)  # subscriptions/listen streams (2026-07-28)
        if ctx.session in legacy_subscribers.get(WATCHED_URI, ()):  # a 2025-11-25 resources/subscribe
            await ctx.session.send_resource_updated(WATCHED_URI)
        return done(f"{WATCHED_URI} is now at version {watched['version']}.")

    @mcp.tool()
    async def test_trigger_tool_change(ctx: Context) -> CallToolResult:
        """Adds test_dynamic_tool, or removes it if present, then publishes tools/list_changed."""
        if any(t.name == DYNAMIC_TOOL for t in await mcp.list_tools()):
            mcp.remove_tool(DYNAMIC_TOOL)
            change = "removed"
        else:
            mcp.add_tool(_dynamic_tool, name=DYNAMIC_TOOL)
            change = "added"
        await ctx.notify_tools_changed()
        return done(f"{DYNAMIC_TOOL} {change}; tools/list changed.")

    @mcp.tool()
    async def test_trigger_prompt_change(ctx: Context) -> CallToolResult:
        """Adds test_dynamic_prompt, or removes it if present, then publishes prompts/list_changed."""
        if any(p.name == DYNAMIC_PROMPT for p in await mcp.list_prompts()):
            mcp.remove_prompt(DYNAMIC_PROMPT)
            change = "removed"
        else:
            mcp.add_prompt(Prompt.from_function(_dynamic_prompt, name=DYNAMIC_PROMPT))
            change = "added"
        await ctx.notify_prompts_changed()
        return done(f"{DYNAMIC_PROMPT} {change}; prompts/list changed.")


def _serve_legacy_subscribe(mcp: MCPServer) -> dict[str, weakref.WeakSet]:
    """`resources/subscribe` / `unsubscribe` for 2025-11-25 sessions: uri -> the sessions subscribed.

    The methods are gone at 2026-07-28 (subscriptions/listen replaces them) and the SDK answers
    -32601 there; MCPServer has no public hook for them, so they go on the low-level server.
    """
    subscribers: dict[str, weakref.WeakSet] = {}

    async def subscribe(ctx, params: SubscribeRequestParams) -> EmptyResult:
        subscribers.setdefault(str(params.uri), weakref.WeakSet()).add(ctx.session)
        return EmptyResult()

    async def unsubscribe(ctx, params: UnsubscribeRequestParams) -> EmptyResult:
        subscribers.get(str(params.uri), weakref.WeakSet()).discard(ctx.session)
        return EmptyResult()

    mcp._lowlevel_server.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    mcp._lowlevel_server.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribe)
    return subscribers


def _dynamic_tool() -> CallToolResult:
    """A tool that exists only between two calls of test_trigger_tool_change."""
    return CallToolResult(content=[TextContent(type="text", text="I come and go.")])


def _dynamic_prompt() -> str:
    """A prompt that exists only between two calls of test_trigger_prompt_change."""
    return "I come and go."
