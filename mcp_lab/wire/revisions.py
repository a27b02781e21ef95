"""Protocol revisions, the reserved `_meta` keys, and the rules that tell the eras apart.

MCP revisions are dated YYYY-MM-DD. That the date marks the last backwards-incompatible change
is said by MCP's versioning guide (https://modelcontextprotocol.io/docs/learn/versioning), a page
of the project's documentation, not of the specification; the specification names the two eras
(https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#terminology), and two
matter to this course:

* modern (2026-07-28 and later) — stateless.  There is no handshake: every request carries
  its protocol version and the client's capabilities in `params._meta`, and a server answers
  each request on its own.  `server/discover` is mandatory for servers.
* legacy (2025-11-25 and earlier) — an `initialize` handshake opens a session, and the
  version and capabilities negotiated there hold for the rest of the connection.

All era knowledge lives here, so the rest of the package asks this module instead of
comparing strings (the design of the official SDK v2, which keeps negotiation in one place).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = [
    "Era",
    "LATEST",
    "LEGACY_VERSION",
    "MODERN_VERSIONS",
    "LEGACY_VERSIONS",
    "ALL_VERSIONS",
    "PROTOCOL_VERSION_KEY",
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "SERVER_INFO_KEY",
    "LOG_LEVEL_KEY",
    "SUBSCRIPTION_ID_KEY",
    "REQUIRED_META_KEYS",
    "MODERN_REQUEST_METHODS",
    "LEGACY_ONLY_METHODS",
    "MODERN_ONLY_METHODS",
    "MRTR_METHODS",
    "DEFAULT_CLIENT_INFO",
    "meta",
    "era_of",
    "missing_meta_keys",
]


class Era(StrEnum):
    """The two eras, the one word for an era everywhere in mcp_lab.

    A `str` whose values are "modern" and "legacy", so that cassettes, JSON output and a
    notebook's `verdict.era == "modern"` read and compare as before."""

    MODERN = "modern"
    LEGACY = "legacy"

    def __repr__(self) -> str:  # a learner printing (v.era, v.version) sees ('modern', ...)
        return repr(self.value)


# Versions are named as versions: LATEST is the newest modern revision, LEGACY_VERSION the newest
# handshake-era one (what a client asks for when it falls back to initialize).
LATEST = "2026-07-28"
LEGACY_VERSION = "2025-11-25"
MODERN_VERSIONS = (LATEST,)
# The handshake-era revisions, newest first (the same list the official SDK carries).
LEGACY_VERSIONS = (LEGACY_VERSION, "2025-06-18", "2025-03-26", "2024-11-05")
ALL_VERSIONS = MODERN_VERSIONS + LEGACY_VERSIONS

_PREFIX = "io.modelcontextprotocol/"
PROTOCOL_VERSION_KEY = _PREFIX + "protocolVersion"
CLIENT_CAPABILITIES_KEY = _PREFIX + "clientCapabilities"
CLIENT_INFO_KEY = _PREFIX + "clientInfo"
SERVER_INFO_KEY = _PREFIX + "serverInfo"
LOG_LEVEL_KEY = _PREFIX + "logLevel"  # deprecated by SEP-2577, still valid
SUBSCRIPTION_ID_KEY = _PREFIX + "subscriptionId"
# A request without either of these is malformed: the server answers -32602.
REQUIRED_META_KEYS = (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY)

# The client request methods of 2026-07-28 (schema: ClientRequest).
MODERN_REQUEST_METHODS = frozenset(
    {
        "server/discover",
        "completion/complete",
        "prompts/get",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "subscriptions/listen",
        "tools/call",
        "tools/list",
    }
)
# Methods of 2025-11-25 that 2026-07-28 no longer has: requests (initialize, ping,
# logging/setLevel, resources/(un)subscribe) and notifications (notifications/initialized,
# notifications/roots/list_changed).  A modern server does not implement the requests; what it
# answers is not fixed by one code.  To `initialize` on stdio the code is implementation-defined
# (an unknown method that also lacks the required _meta: -32601 and -32602 are both seen; the
# bundled calendar answers -32601), and over HTTP the request lacks the required headers and is
# rejected with 400 (basic/versioning#compatibility-matrix).  The one rule is a SHOULD: a
# modern-only server names its supported versions in any error it returns to `initialize`
# (basic/versioning#backward-compatibility-with-initialization-based-versions).  The other
# requests are unknown methods (-32601 on stdio); the notifications get no answer.
LEGACY_ONLY_METHODS = frozenset(
    {
        "initialize",
        "notifications/initialized",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "notifications/roots/list_changed",
    }
)
MODERN_ONLY_METHODS = frozenset({"server/discover", "subscriptions/listen"})
# The only requests that may answer with resultType "input_required".
MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})

DEFAULT_CLIENT_INFO = {"name": "mcp_lab", "version": "0.1.0"}


def meta(
    protocol_version: str = LATEST, capabilities: dict | None = None, client_info: dict | None = None, **extra: Any
) -> dict:
    """The `_meta` object a modern request carries.

    `capabilities` defaults to `{}` ("no optional capabilities"), which is a valid
    declaration; `client_info` defaults to mcp_lab's identity (clients SHOULD send it).
    Extra keyword arguments are added verbatim, e.g. progressToken=1.
    """
    out: dict[str, Any] = {
        PROTOCOL_VERSION_KEY: protocol_version,
        CLIENT_CAPABILITIES_KEY: {} if capabilities is None else capabilities,
        CLIENT_INFO_KEY: dict(DEFAULT_CLIENT_INFO) if client_info is None else client_info,
    }
    out.update(extra)
    return out


def era_of(version: str | None) -> Era | None:
    """The era of a protocol version, or None for a version this package does not know.

    The package's one `era_of`: every other question about eras is asked of this one."""
    if version in MODERN_VERSIONS:
        return Era.MODERN
    if version in LEGACY_VERSIONS:
        return Era.LEGACY
    return None


def missing_meta_keys(params: Any) -> list[str]:
    """The required `_meta` keys absent from a request's params (all of them if no _meta)."""
    m = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(m, dict):
        return list(REQUIRED_META_KEYS)
    return [k for k in REQUIRED_META_KEYS if k not in m]
