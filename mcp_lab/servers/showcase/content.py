"""What the showcase serves: tools with every content type, resources, a template, prompts, completion.

The names (`test_simple_text`, `test://static-text`, `test_prompt_with_arguments`, ...) are the
ones the official conformance suite calls, so the same server is both a tour and a test target.
Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool-result,
https://modelcontextprotocol.io/specification/2026-07-28/server/resources#resource-templates,
https://modelcontextprotocol.io/specification/2026-07-28/server/prompts#promptmessage,
https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/completion
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp_types import (
    AudioContent,
    CallToolResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    EmbeddedResource,
    ImageContent,
    PromptReference,
    ResourceTemplateReference,
    TextContent,
    TextResourceContents,
)
from pydantic import Field

from .media import PNG_BASE64, PNG_BYTES, WAV_BASE64

# What completion/complete offers, per (reference, argument). Values are filtered by prefix.
SUGGESTIONS: dict[tuple[str, str], list[str]] = {
    ("test_prompt_with_arguments", "arg1"): ["paris", "park", "party", "pasta", "hello"],
    ("test_prompt_with_arguments", "arg2"): ["world", "wonder", "window"],
    ("test://template/{id}/data", "id"): ["1", "42", "123", "1234"],
}


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)


def _image() -> ImageContent:
    return ImageContent(type="image", data=PNG_BASE64, mime_type="image/png")


def _embedded(uri: str, mime_type: str, text: str) -> EmbeddedResource:
    return EmbeddedResource(type="resource", resource=TextResourceContents(uri=uri, mime_type=mime_type, text=text))


def register_content_tools(mcp: MCPServer) -> None:
    """Tools whose results carry text, image, audio, embedded resources, a mix, and an error."""

    @mcp.tool()
    def test_simple_text() -> CallToolResult:
        """Returns one text block."""
        return CallToolResult(content=[_text("This is a simple text response for testing.")])

    @mcp.tool()
    def test_image_content() -> CallToolResult:
        """Returns one image block: a 1x1 PNG, base64 in `data`."""
        return CallToolResult(content=[_image()])

    @mcp.tool()
    def test_audio_content() -> CallToolResult:
        """Returns one audio block: a short silent WAV, base64 in `data`."""
        return CallToolResult(content=[AudioContent(type="audio", data=WAV_BASE64, mime_type="audio/wav")])

    @mcp.tool()
    def test_embedded_resource() -> CallToolResult:
        """Returns a resource embedded in the result (its contents inline, not a link)."""
        return CallToolResult(
            content=[_embedded("test://embedded-resource", "text/plain", "This is an embedded resource content.")]
        )

    @mcp.tool()
    def test_multiple_content_types() -> CallToolResult:
        """Returns text, an image and an embedded JSON resource in one result."""
        return CallToolResult(
            content=[
                _text("Multiple content types test:"),
                _image(),
                _embedded(
                    "test://mixed-content-resource",
                    "application/json",
                    json.dumps({"test": "data", "value": 123}, separators=(",", ":")),
                ),
            ]
        )

    @mcp.tool()
    def test_error_handling() -> CallToolResult:
        """Fails on purpose, as a result with isError: true (the model can read it), not a protocol error."""
        return CallToolResult(content=[_text("This tool intentionally returns an error for testing")], is_error=True)

    @mcp.tool()
    async def test_tool_with_progress(ctx: Context) -> CallToolResult:
        """Reports progress 0, 50, 100 of 100 when the request carries a progressToken."""
        for step in (0, 50, 100):
            await ctx.report_progress(step, 100, f"Completed step {step} of 100")
            if step < 100:
                await asyncio.sleep(0.05)
        return CallToolResult(content=[_text("Progress reported: 0, 50 and 100 of 100.")])


def register_resources(mcp: MCPServer) -> None:
    """A text resource, a binary one, a template, and one that changes (for subscriptions/listen)."""

    @mcp.resource(
        "test://static-text",
        name="static-text",
        title="Static text",
        description="A fixed text resource",
        mime_type="text/plain",
    )
    def static_text() -> str:
        return "This is the content of the static text resource."

    @mcp.resource(
        "test://static-binary",
        name="static-binary",
        title="Static binary",
        description="A 1x1 PNG, read back as a base64 blob",
        mime_type="image/png",
    )
    def static_binary() -> bytes:
        return PNG_BYTES

    @mcp.resource(
        "test://template/{id}/data",
        name="template-data",
        title="Data by id",
        description="A resource template: the id in the URI is substituted",
        mime_type="application/json",
    )
    def template_data(id: str) -> str:  # the template variable is called id on the wire
        return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"}, separators=(",", ":"))


def register_prompts(mcp: MCPServer) -> None:
    """Prompts without arguments, with arguments, with an embedded resource, with an image."""

    @mcp.prompt()
    def test_simple_prompt() -> list[UserMessage]:
        """A prompt with no arguments."""
        return [UserMessage(_text("This is a simple prompt for testing."))]

    @mcp.prompt()
    def test_prompt_with_arguments(
        arg1: Annotated[str, Field(description="First test argument")],
        arg2: Annotated[str, Field(description="Second test argument")],
    ) -> list[UserMessage]:
        """A prompt with two required arguments (completion/complete suggests values for both)."""
        return [UserMessage(_text(f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))]

    @mcp.prompt()
    def test_prompt_with_embedded_resource(
        resourceUri: Annotated[str, Field(description="URI of the resource to embed")],  # the wire name
    ) -> list[UserMessage]:
        """A prompt whose first message embeds a resource."""
        return [
            UserMessage(_embedded(resourceUri, "text/plain", "Embedded resource content for testing.")),
            UserMessage(_text("Please process the embedded resource above.")),
        ]

    @mcp.prompt()
    def test_prompt_with_image() -> list[UserMessage]:
        """A prompt whose first message is an image."""
        return [UserMessage(_image()), UserMessage(_text("Please analyze the image above."))]


def register_completion(mcp: MCPServer) -> None:
    """completion/complete for the prompt arguments and the template variable above."""

    @mcp.completion()
    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion:
        key = ref.name if isinstance(ref, PromptReference) else ref.uri
        values = [v for v in SUGGESTIONS.get((key, argument.name), []) if v.startswith(argument.value)]
        return Completion(values=values, total=len(values), has_more=False)
