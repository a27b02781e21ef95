"""The session layer: `Client` and `connect()`, the probes (thin drivers over the one era decision
in `mcp_lab.wire.era`), the multi-round-trip loop, `isolated()` and the HTTP servers started for a
notebook. Imports transport and wire; never notebook, tokens or course."""
