"""An official-SDK server whose one tool mirrors an argument into a header (`x-mcp-header`).

    python tests/fakes/sdk_header_server.py PORT

Used by test_http.py: the SDK checks `Mcp-Param-Region` against the body itself, so a
client that forgets the header (or encodes it differently) is refused by the real rule.
"""

import sys
from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

from mcp_lab.servers.sdk_calendar import _serve_http

server = MCPServer("header-fake", version="0.1.0")


@server.tool()
def forecast(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
    """The weather of a region (the region also travels as the Mcp-Param-Region header)."""
    return f"Sunny in {region}"


if __name__ == "__main__":
    _serve_http(server, int(sys.argv[1]))
