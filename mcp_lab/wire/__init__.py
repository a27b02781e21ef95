"""The sans-IO layer: JSON-RPC messages and the error tree, revisions and eras, the era decision,
header rules, elicitation schema analysis, the lint and the Trace model. No I/O, no threads (the
Trace's lock aside), no imports from any other layer of mcp_lab."""
