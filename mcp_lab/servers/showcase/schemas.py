"""Tools whose input schemas teach something: JSON Schema 2020-12 kept as written, and `x-mcp-header`.

`json_schema_2020_12_tool` publishes a hand-written 2020-12 schema (`$schema`, `$defs` with an
`$anchor`, `$ref`, `allOf`/`anyOf`, `if`/`then`/`else`, `additionalProperties: false`) exactly as
written, and checks each call against it with jsonschema's 2020-12 validator.
https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool

`test_header_echo` marks its `region` argument with `x-mcp-header`, so over Streamable HTTP a
client must also send it as the `Mcp-Param-Region` header; the SDK compares header and body
and refuses a mismatch or an omission (-32020) before the tool runs.
https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent
from pydantic import Field

SCHEMA_TOOL = "json_schema_2020_12_tool"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

CONTACT_SCHEMA: dict[str, Any] = {
    "$schema": DRAFT_2020_12,
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    # at least one way to reach the person, and the one named by contactMethod
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


def _text(text: str, *, error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=error)


def save_contact(
    name: str | None = None,
    address: dict[str, Any] | None = None,
    contactMethod: str | None = None,
    phone: str | None = None,
    email: str | None = None,
) -> CallToolResult:
    """Saves a contact; the input schema uses JSON Schema 2020-12 features."""
    from jsonschema import Draft202012Validator

    given = {
        k: v
        for k, v in {
            "name": name,
            "address": address,
            "contactMethod": contactMethod,
            "phone": phone,
            "email": email,
        }.items()
        if v is not None
    }
    problems = [e.message for e in Draft202012Validator(CONTACT_SCHEMA).iter_errors(given)]
    if problems:
        return _text("The contact does not match the schema: " + "; ".join(problems), error=True)
    how = contactMethod or ("phone" if phone else "email")
    return _text(f"Saved {name or 'a contact'}, reachable by {how}.")


def schema_tools() -> list[Tool]:
    """The tools to hand to MCPServer(tools=...): their schemas are set here, not derived."""
    contact = Tool.from_function(save_contact, name=SCHEMA_TOOL, description="Tool with JSON Schema 2020-12 features")
    return [contact.model_copy(update={"parameters": CONTACT_SCHEMA})]


def register_header_tool(mcp) -> None:
    @mcp.tool()
    def test_header_echo(
        region: Annotated[
            str,
            Field(
                description="Also sent as the Mcp-Param-Region header over HTTP",
                json_schema_extra={"x-mcp-header": "Region"},
            ),
        ],
    ) -> CallToolResult:
        """Echoes `region`, which travels in the body and in the Mcp-Param-Region header."""
        return _text(f"Region: {region}")
