"""The chapter's calendar, rebuilt with the official Python SDK (`mcp` 2.3.0, `MCPServer`).

Run it with ``python -m mcp_lab.servers.sdk_calendar`` (stdio, the default) or
``python -m mcp_lab.servers.sdk_calendar --http 8765`` (Streamable HTTP on 127.0.0.1 only).

It speaks the same 2026-07-28 protocol as the stdlib-only ``mcp_lab.servers.calendar``, so a
notebook can put the two side by side: same tools, same wire shapes, but here the SDK does
``server/discover``, ``_meta`` validation, ``resultType`` stamping, cache hints and the sealing
of ``requestState``. What the SDK does *not* do for a hand-written multi-round-trip tool is
check that the client declared the capability it is about to be asked for, so the tools below
do that themselves (the -32021 branch).

Request-state security. The SDK encrypts every ``requestState`` it hands out (``v1.…``
AES-GCM tokens bound to the tool name and arguments, 600 s expiry). By default the key is
generated per process, so a retry that reaches a *different* process (a restart, another
replica) is rejected with -32602 "Invalid or expired requestState". Set ``MCP_LAB_STATE_KEY``
(at least 32 bytes) or pass ``--state-key-file PATH`` and every process shares one key, so the
retry survives a restart.

Nothing but MCP goes to stdout: the SDK logs to stderr, and so does this module.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from datetime import datetime
from typing import Annotated, Any

from mcp.server import CacheHint, MCPServer
from mcp.server.mcpserver import Context, RequestStateSecurity
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
)
from pydantic import Field, WithJsonSchema

from mcp_lab.servers.spec_mcpserver import STATE_KEY_ENV, SpecMCPServer, request_state_key

SERVER_NAME = "mcp-lab-sdk-calendar"
SERVER_VERSION = "0.1.0"

# The events live in this process's memory. That is the statelessness bug a later lesson
# exposes: a second replica (or a restart) has its own list, so "e3" exists on one process only.
EVENTS: list[dict[str, str]] = [
    {"id": "e1", "title": "Standup", "startsAt": "2026-09-07T09:00:00Z"},
    {"id": "e2", "title": "Design review", "startsAt": "2026-09-09T15:00:00Z"},
]


def _drop_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


# pydantic would publish `startsAt` as anyOf[string, null] with "default": null; the chapter's
# tools/list shows a plain optional date-time string, so the published schema is pinned here.
Title = Annotated[str, Field(description="What the event is called")]
StartsAt = Annotated[
    str | None,
    WithJsonSchema({"type": "string", "format": "date-time"}),
    Field(
        title="Starts at",
        description="RFC 3339 date-time; omit it and you will be asked",
        json_schema_extra=_drop_default,
    ),
]
Restaurant = Annotated[str, Field(description="Where to book")]

STARTS_AT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"startsAt": {"type": "string", "format": "date-time"}},
    "required": ["startsAt"],
}

BOOKING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "seating": {
            "type": "string",
            "title": "Seating",
            "oneOf": [
                {"const": "indoor", "title": "Indoor dining room"},
                {"const": "terrace", "title": "Terrace"},
                {"const": "bar", "title": "At the bar"},
            ],
        },
        "partySize": {"type": "integer", "title": "Party size", "minimum": 1, "maximum": 12, "default": 2},
        "highChair": {"type": "boolean", "title": "Need a high chair?", "default": False},
        "guestName": {"type": "string", "title": "Name for the booking", "default": "Guest"},
    },
    "required": ["seating", "partySize"],
}
SEATING_LABELS = {"indoor": "an indoor", "terrace": "a terrace", "bar": "a bar"}


# Long on purpose: the server's declarations (tool, resource, prompt) one after another, as an SDK user writes them.
def build_server(state_key: str | bytes | None = None) -> MCPServer:
    """Build the server; ``state_key`` switches from the per-process key to a shared one."""
    security = RequestStateSecurity(keys=[state_key]) if state_key is not None else None
    # SpecMCPServer: MCPServer with its error codes for an unknown tool or prompt mended (-32602).
    mcp = SpecMCPServer(
        SERVER_NAME,
        version=SERVER_VERSION,
        instructions="A small calendar: list the week, create events, book a table.",
        cache_hints={
            "tools/list": CacheHint(ttl_ms=300000, scope="public"),
            "resources/read": CacheHint(ttl_ms=60000, scope="private"),
        },
        request_state_security=security,
    )

    @mcp.tool()
    async def create_event(
        ctx: Context, title: Title, startsAt: StartsAt = None
    ) -> CallToolResult | InputRequiredResult:
        """Create a calendar event. If startsAt is missing, the server asks the user for it."""
        if startsAt is not None:
            # A bad argument is a tool execution error (isError), which the model can read and fix.
            if not _is_datetime(startsAt):
                return _tool_error(
                    f"startsAt must be an ISO 8601 date-time such as 2026-09-10T08:30:00Z, not {startsAt!r}."
                )
            return _create(title, startsAt)
        # Round 2: the client answered the question from round 1. The SDK has already
        # unsealed requestState back into the plaintext we minted (the partial arguments).
        answer = (ctx.input_responses or {}).get("when")
        if isinstance(answer, ElicitResult):
            partial = json.loads(ctx.request_state) if ctx.request_state else {"title": title}
            if answer.action != "accept":
                return _tool_error(f'No event created: the user chose "{answer.action}" when asked for a start time.')
            # A malformed *answer* is a protocol error (-32602), as the MRTR rules ask.
            starts_at = (answer.content or {}).get("startsAt")
            if not isinstance(starts_at, str) or not _is_datetime(starts_at):
                raise MCPError(
                    INVALID_PARAMS, f"inputResponses.when.content.startsAt must be a date-time, got {starts_at!r}"
                )
            return _create(partial.get("title", title), starts_at)
        # Round 1: ask. Only allowed if this request declared form elicitation.
        require_form_elicitation(ctx)
        return InputRequiredResult(
            input_requests={
                "when": ElicitRequest(
                    params=ElicitRequestFormParams(
                        message=f'When should "{title}" start?', requested_schema=STARTS_AT_SCHEMA
                    )
                )
            },
            request_state=json.dumps({"title": title}, separators=(",", ":")),
        )

    @mcp.tool()
    async def book_table(ctx: Context, restaurant: Restaurant) -> CallToolResult | InputRequiredResult:
        """Book a restaurant table; the details are asked for in one elicitation form."""
        answer = (ctx.input_responses or {}).get("booking")
        if not isinstance(answer, ElicitResult):
            require_form_elicitation(ctx)
            return InputRequiredResult(
                input_requests={
                    "booking": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"How would you like your table at {restaurant}?",
                            requested_schema=BOOKING_SCHEMA,
                        )
                    )
                },
                request_state=json.dumps({"restaurant": restaurant}, separators=(",", ":")),
            )
        if answer.action != "accept":
            return _tool_error(f'No table booked: the user chose "{answer.action}".')
        form = _checked_booking(answer.content or {})
        chair = "with a high chair" if form["highChair"] else "no high chair"
        summary = (
            f"Booked {SEATING_LABELS[form['seating']]} table for {form['partySize']} at {restaurant} "
            f"under {form['guestName']} ({chair})."
        )
        return CallToolResult(
            content=[TextContent(type="text", text=summary)],
            structured_content={"restaurant": restaurant, **form},
        )

    @mcp.resource("calendar://week", name="week", title="This week's events", mime_type="application/json")
    def week() -> str:
        """All events of the week, as a JSON list."""
        return json.dumps(EVENTS)

    @mcp.prompt()
    def prepare_week(focus: str = "balance") -> str:  # optional, as in the bundled calendar
        """Draft a plan for the week around one focus."""
        return f"Read calendar://week and draft a plan. Focus: {focus}."

    return mcp


def require_form_elicitation(ctx: Context) -> None:
    """Raise -32021 unless this request's clientCapabilities allow a form elicitation.

    A bare ``elicitation: {}`` means form mode (the spec's reading, and the SDK's own
    resolver check); ``{"url": {}}`` alone does not.
    """
    caps = ctx.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    if elicitation is not None and (elicitation.form is not None or elicitation.url is None):
        return
    raise MCPError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Client did not declare the form elicitation capability this tool needs to ask a question",
        {"requiredCapabilities": {"elicitation": {"form": {}}}},
    )


def _is_datetime(value: str) -> bool:
    """True for an ISO 8601 date-time with a zone (RFC 3339 style, e.g. 2026-09-10T08:30:00Z)."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).tzinfo is not None
    except ValueError:
        return False


def _checked_booking(content: dict[str, Any]) -> dict[str, Any]:
    """Validate the accepted form against BOOKING_SCHEMA, filling defaults; -32602 if malformed."""
    props = BOOKING_SCHEMA["properties"]
    form = {name: content.get(name, spec.get("default")) for name, spec in props.items()}
    seating, size = form["seating"], form["partySize"]
    if seating not in SEATING_LABELS:
        raise MCPError(INVALID_PARAMS, f"seating must be one of {sorted(SEATING_LABELS)}, got {seating!r}")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 12:
        raise MCPError(INVALID_PARAMS, f"partySize must be an integer from 1 to 12, got {size!r}")
    if not isinstance(form["highChair"], bool) or not isinstance(form["guestName"], str):
        raise MCPError(INVALID_PARAMS, "highChair must be a boolean and guestName a string")
    return form


def _create(title: str, starts_at: str) -> CallToolResult:
    event = {"id": f"e{len(EVENTS) + 1}", "title": title, "startsAt": starts_at}
    EVENTS.append(event)
    return CallToolResult(
        content=[TextContent(type="text", text=f"Created {event['id']}: {title} at {starts_at}")],
        structured_content=event,
    )


def _tool_error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m mcp_lab.servers.sdk_calendar", description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    parser.add_argument("--state-key-file", metavar="PATH", help=f"shared request-state key (else ${STATE_KEY_ENV})")
    args = parser.parse_args(argv)
    # Plain log lines on stderr, one record per line, whatever is installed: the SDK logs through
    # rich when rich is importable (a dev tool may bring it), and rich pads and wraps records at its
    # console width. basicConfig here makes the SDK's own basicConfig a no-op.
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    server = build_server(request_state_key(args.state_key_file, "sdk_calendar"))
    if args.http is not None:
        _serve_http(server, args.http)
    else:
        server.run(transport="stdio")


def _serve_http(server: MCPServer, port: int) -> None:
    """Streamable HTTP on 127.0.0.1 only, i.e. ``server.run("streamable-http")`` with one change.

    uvicorn prints its access log to stdout; here it goes to stderr like every other log line,
    so stdout stays empty in both modes.
    """
    import copy

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    log_config = copy.deepcopy(LOGGING_CONFIG)
    log_config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    app = server.streamable_http_app(host="127.0.0.1")
    uvicorn.run(app, host="127.0.0.1", port=port, log_config=log_config, log_level="info")


if __name__ == "__main__":
    main()
