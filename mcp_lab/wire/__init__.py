"""The sans-IO layer: JSON-RPC messages and the error tree, the envelope rules as one table
(`jsonrpc.ENVELOPE_RULES`), revisions and eras, the era decision, header rules, elicitation schema
analysis, the lint, the wire check and the Trace model.  No imports from any other layer of
mcp_lab, no threads (the Trace's lock aside), and no I/O with one exception still to move out
(issue 39, point 5): `trace.py` reads the MCP_LAB_WIRE_LOG environment variable on every `add()`
and appends each message to the file it names."""
