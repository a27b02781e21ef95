"""The sans-IO layer: JSON-RPC messages and the error tree, the envelope rules as one table
(`jsonrpc.ENVELOPE_RULES`), revisions and eras, the era decision, header rules, elicitation schema
analysis, the lint, the wire check and the Trace model.  No imports from any other layer of
mcp_lab, no threads (the Trace's lock aside), and no I/O: no file, no socket, no environment
variable (tests/test_wire_no_io.py reads the source to hold it).  A Trace hands its events to the
listener its caller gave it; whatever writes them to a file is the session layer's
(`mcp_lab.session.trace_listeners`), and `Trace.save` / `Trace.load` hand the file to the
session layer's cassette module, which the facade names.  `views` is the registry through which
the objects of every layer below `notebook/` find their Jupyter view."""
