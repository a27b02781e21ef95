"""Tools that ask the client something in BOTH eras, through the SDK's resolvers.

A parameter annotated `Annotated[T, Resolve(fn)]` is filled by the SDK before the tool body
runs: `fn` returns `Elicit(...)`, `Sample(...)` or `ListRoots()`, and the SDK picks the wire form
from the request's protocol version. At 2026-07-28 the call answers `input_required` and resumes
on the retry (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr); at
2025-11-25 and before it sends a real server-to-client request in the middle of the call and
waits for the answer. Same tool, two wires: compare them in a trace.

The names and form fields are the ones the conformance suite's 2025-era scenarios use
(`test_sampling`, `test_elicitation`, `test_elicitation_sep1034_defaults`,
`test_elicitation_sep1330_enums`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver import Elicit, ElicitationResult, Resolve, Sample
from mcp_types import CallToolResult, CreateMessageResult, SamplingMessage, TextContent
from pydantic import BaseModel, Field


class Contact(BaseModel):
    username: str = Field(description="User's response")
    email: str = Field(description="User's email address")


class Defaults(BaseModel):
    """Every primitive type with a default, so a form can be pre-filled."""

    name: str = Field(default="John Doe", description="User name")
    age: int = Field(default=30, description="User age")
    score: float = Field(default=95.5, description="User score")
    status: Literal["active", "inactive", "pending"] = Field(default="active", description="User status")
    verified: bool = Field(default=True, description="Verification status")


def _titled(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"const": value, "title": title} for value, title in pairs]


class Enums(BaseModel):
    """The five ways an elicitation form can offer choices."""

    untitledSingle: Literal["option1", "option2", "option3"] = Field(description="Plain enum")
    titledSingle: str = Field(
        description="Choices with titles (oneOf)",
        json_schema_extra={
            "oneOf": _titled(("value1", "First Option"), ("value2", "Second Option"), ("value3", "Third Option"))
        },
    )
    legacyEnum: str = Field(
        description="Deprecated enum with enumNames",
        json_schema_extra={"enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
    )
    untitledMulti: list[Literal["option1", "option2", "option3"]] = Field(description="Several plain choices")
    titledMulti: list[str] = Field(
        description="Several choices with titles",
        json_schema_extra={
            "items": {
                "anyOf": _titled(("value1", "First Choice"), ("value2", "Second Choice"), ("value3", "Third Choice"))
            }
        },
    )


def _text(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)])


def _outcome(result: ElicitationResult) -> str:
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"action={result.action}, content={content}"


def ask_model(prompt: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=prompt))], max_tokens=100)


def ask_contact(message: str) -> Elicit[Contact]:
    return Elicit(message, Contact)


def ask_defaults() -> Elicit[Defaults]:
    return Elicit("Please review your details", Defaults)


def ask_enums() -> Elicit[Enums]:
    return Elicit("Please pick from each kind of list", Enums)


def register_dual(mcp: MCPServer) -> None:
    @mcp.tool()
    def test_sampling(prompt: str, reply: Annotated[CreateMessageResult, Resolve(ask_model)]) -> CallToolResult:
        """Asks the client's model `prompt` (sampling) and returns its answer."""
        said = reply.content.text if isinstance(reply.content, TextContent) else f"({reply.content.type} content)"
        return _text(f"LLM response: {said}")

    @mcp.tool()
    def test_elicitation(
        message: str, answer: Annotated[ElicitationResult[Contact], Resolve(ask_contact)]
    ) -> CallToolResult:
        """Shows the user `message` and a username/email form (elicitation)."""
        return _text(f"User response: {_outcome(answer)}")

    @mcp.tool()
    def test_elicitation_sep1034_defaults(
        answer: Annotated[ElicitationResult[Defaults], Resolve(ask_defaults)],
    ) -> CallToolResult:
        """A form whose every field has a default."""
        return _text(f"Elicitation completed: {_outcome(answer)}")

    @mcp.tool()
    def test_elicitation_sep1330_enums(
        answer: Annotated[ElicitationResult[Enums], Resolve(ask_enums)],
    ) -> CallToolResult:
        """A form with single and multiple choices, with and without titles."""
        return _text(f"Elicitation completed: {_outcome(answer)}")
