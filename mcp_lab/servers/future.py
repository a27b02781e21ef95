"""A server from a later revision that still keeps the legacy handshake.

    python -m mcp_lab.servers.future

It speaks one per-request (modern) version, `2027-06-30`, a revision newer than any client in
this course knows, and, for old clients, the 2025-11-25 `initialize` handshake.  So:

* `server/discover` gets a valid DiscoverResult listing only `2027-06-30`, whatever version the
  request names: this server lets any client read its list.  (A 2026-07-28 server would refuse
  a discover at a version it does not implement with -32022; answering it instead is the one
  liberty this server takes, and it is how a client can be handed a DiscoverResult that shares
  no version with it.  The answer itself is schema-valid.)
* any other request carrying `_meta` at a version it does not serve gets -32022 with
  `data.supported` and `data.requested`
  (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#protocol-version-negotiation);
* `initialize` opens a 2025-11-25 session for this process, after which requests without
  `_meta` are served in the handshake era's shape (no `resultType`).

One harmless tool, `which_revision`, says under which revision it was called.  Notebook 06 runs
two dual-era clients against this server and compares what they do with the DiscoverResult.
The JSON-RPC envelope (framing, ids, parse errors) is the calendar's, imported, not copied.
"""

from __future__ import annotations

from typing import Any

from mcp_lab.servers import calendar as core
from mcp_lab.servers.calendar import META_VERSION, Refusal
from mcp_lab.wire.revisions import LEGACY_VERSION  # the one handshake version it still answers

SUPPORTED = ["2027-06-30"]  # the per-request versions it serves
SERVER_INFO = {"name": "mcp_lab-future", "version": "0.1.0"}
INSTRUCTIONS = "A server of a later revision. which_revision says which revision served the call."

TOOL = {
    "name": "which_revision",
    "description": "Say which protocol revision served this call. Reads nothing, writes nothing.",
    "inputSchema": {"type": "object", "properties": {}},
}

# The legacy session of this stdio process: the version `initialize` settled, once it has run.
SESSION: dict[str, str | None] = {"version": None}


def _modern(body: dict) -> dict:
    return core.result(body, SERVER_INFO)


def _check_envelope(params: dict, *, any_version: bool = False) -> str:
    """The calendar's per-request envelope checks at this server's versions; returns the version.
    With `any_version`, a version it does not serve is let through (discover only; see above)."""
    try:
        core.check_meta(params, supported=SUPPORTED)
    except Refusal as refusal:
        if not (any_version and refusal.code == -32022):
            raise
    return params["_meta"][META_VERSION]


def _initialize(params: dict) -> dict:
    asked = params.get("protocolVersion")
    if not isinstance(asked, str):
        raise Refusal(-32602, f"initialize needs a protocolVersion string such as {LEGACY_VERSION!r}, not {asked!r}")
    # The handshake era: the server answers the version it will speak, here its only one.
    SESSION["version"] = LEGACY_VERSION
    return {
        "protocolVersion": LEGACY_VERSION,
        "capabilities": {"tools": {}},
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
    }


def _served_as(version: str) -> dict:
    text = f"served under {version}" + (" (the legacy session initialize opened)" if version == LEGACY_VERSION else "")
    return {"content": [{"type": "text", "text": text}], "isError": False}


def _call(params: dict, version: str) -> dict:
    if params.get("name") != TOOL["name"]:
        raise Refusal(-32602, f"Unknown tool: {params.get('name')!r}; this server has only {TOOL['name']}")
    return _served_as(version)


def dispatch(method: str, params: dict) -> dict:
    """One request, in whichever era its shape names."""
    if method == "initialize":
        return _initialize(params)
    if method == "server/discover":
        _check_envelope(params, any_version=True)  # the version is not refused (see above)
        return _modern(
            {
                "supportedVersions": SUPPORTED,
                "capabilities": {"tools": {}},
                "instructions": INSTRUCTIONS,
                "ttlMs": 3600000,
                "cacheScope": "public",
            }
        )
    if method not in ("tools/list", "tools/call"):
        raise Refusal(-32601, f"Method not found: {method}")
    if "_meta" not in params or META_VERSION not in (params.get("_meta") or {}):
        return _legacy(method, params)
    version = _check_envelope(params)
    if method == "tools/list":
        return _modern({"tools": [TOOL], "ttlMs": 300000, "cacheScope": "public"})
    return _modern(_call(params, version))


def _legacy(method: str, params: dict) -> dict:
    version = SESSION["version"]
    if version is None:
        raise Refusal(
            -32600,
            f"Invalid Request: no _meta and no session: send initialize ({LEGACY_VERSION}) first, "
            f"or carry _meta with protocolVersion {SUPPORTED[0]}",
        )
    if method == "tools/list":
        return {"tools": [TOOL]}
    return _call(params, version)


def handle(msg: Any) -> dict | None:
    return core.handle(msg, dispatch, name="future")


def handle_line(line: bytes | str) -> bytes | None:
    """One framed line in, at most one out (what `mcp_lab.servers.logged` wraps)."""
    return core.handle_line(line, handle)


def main() -> None:
    core.serve_stdio(
        handle_msg=handle,
        banner=f"{SERVER_INFO['name']} {SERVER_INFO['version']}: serving {SUPPORTED[0]} and {LEGACY_VERSION} on stdio",
    )


if __name__ == "__main__":
    main()
