"""Runnable servers the course drives; each one is `python -m mcp_lab.servers.NAME`."""
