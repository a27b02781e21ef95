"""Transports move bytes and interpret nothing of MCP: the `Transport` protocol, stdio (a child
process), Streamable HTTP, an in-memory transport over a server's sans-IO ``handle()``, and the one
process helper (`process.spawn` / `reap`) that starts and stops every child the package keeps
running; short commands run to their end with a deadline (`subprocess.run(..., timeout=)`) do
not go through it. Imports the wire layer only."""
