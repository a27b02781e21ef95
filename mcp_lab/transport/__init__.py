"""Transports move bytes and interpret nothing of MCP: the `Transport` protocol, stdio (a child
process), Streamable HTTP, an in-memory transport over a server's sans-IO ``handle()``, and the one
process helper every spawn goes through. Imports the wire layer only."""
