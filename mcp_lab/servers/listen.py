"""Subscription streams for a stdlib server: `subscriptions/listen`, sans-IO.

    streams = Streams(capabilities, known_uris, server_info)
    streams.open(rid, params)      -> the acknowledgement (a message dict): the stream's first message
    streams.cancel(params)         -> None: the client ended a stream (stdio: notifications/cancelled)
    streams.changed(kinds, uris)   -> the notifications each open stream asked for, tagged
    streams.close_all(reason)      -> the closing result and notifications/cancelled of each stream

Theory of operation.  A listen request opens a stream that stays open: it gets no answer while it
lasts.  Its first message is `notifications/subscriptions/acknowledged`, which carries the subset
of the requested filter this server honours: a list-changed kind only when the server declares
`listChanged` for that primitive, resource URIs only when it declares `resources.subscribe` (and
only the URIs it serves).  Every later message of the stream carries the listen request's id in
`_meta` under `io.modelcontextprotocol/subscriptionId`, and a stream gets only the kinds its
acknowledgement names.  The server holds streams in memory only: a new process starts with none,
so after a stdio reconnect a client must listen again.

https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
When the server ends a stream itself (here: at shutdown, when stdin closes) it answers the listen
request with a plain complete result tagged with the same id (Graceful Closure), and on stdio also
sends `notifications/cancelled` naming the listen request, the one use of that notification a
server may make (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation).
Nothing here reads or writes a stream of bytes: the caller frames and writes what comes back.
"""

from __future__ import annotations

from typing import Any

from mcp_lab.servers.calendar import Refusal

__all__ = ["KINDS", "SUBSCRIPTION_ID", "Streams"]

SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
# Filter field -> (the capability that gates it, the notification it asks for).
KINDS = {
    "toolsListChanged": ("tools", "notifications/tools/list_changed"),
    "promptsListChanged": ("prompts", "notifications/prompts/list_changed"),
    "resourcesListChanged": ("resources", "notifications/resources/list_changed"),
}


def _notification(method: str, sub_id: Any, params: dict | None = None) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": {**(params or {}), "_meta": {SUBSCRIPTION_ID: sub_id}}}


class Streams:
    """The open `subscriptions/listen` streams of one server process, by subscription id."""

    def __init__(self, capabilities: dict, known_uris: list[str], server_info: dict):
        self.capabilities = capabilities
        self.known_uris = list(known_uris)
        self.server_info = server_info
        self.open_streams: dict[Any, dict] = {}  # subscription id -> the honoured filter

    def honoured(self, wanted: Any) -> dict:
        """The part of a requested filter this server will deliver (what the acknowledgement says)."""
        if not isinstance(wanted, dict):
            raise Refusal(-32602, "subscriptions/listen needs params.notifications, an object (a filter)")
        kept: dict = {}
        for field, (primitive, _method) in KINDS.items():
            if wanted.get(field) is True and (self.capabilities.get(primitive) or {}).get("listChanged"):
                kept[field] = True
        uris = wanted.get("resourceSubscriptions")
        if uris is not None and not (isinstance(uris, list) and all(isinstance(u, str) for u in uris)):
            raise Refusal(-32602, "notifications.resourceSubscriptions must be a list of URI strings")
        if uris and (self.capabilities.get("resources") or {}).get("subscribe"):
            served = [u for u in uris if u in self.known_uris]
            if served:
                kept["resourceSubscriptions"] = served
        return kept

    def open(self, rid: Any, params: dict) -> dict:
        """Open stream `rid`; returns its first message, the acknowledgement."""
        kept = self.honoured(params.get("notifications"))
        self.open_streams[rid] = kept
        return _notification("notifications/subscriptions/acknowledged", rid, {"notifications": kept})

    def cancel(self, params: Any) -> None:
        """The client ended a stream (notifications/cancelled naming it); unknown ids are ignored."""
        if isinstance(params, dict):
            self.open_streams.pop(params.get("requestId"), None)

    def changed(self, kinds: set[str], uris: set[str]) -> list[dict]:
        """The notifications for a change: for each open stream, only what it asked for."""
        out = []
        for sub_id, kept in self.open_streams.items():
            for field, (_primitive, method) in KINDS.items():
                if field in kinds and kept.get(field):
                    out.append(_notification(method, sub_id))
            for uri in kept.get("resourceSubscriptions", []):
                if uri in uris:
                    out.append(_notification("notifications/resources/updated", sub_id, {"uri": uri}))
        return out

    def close_all(self, reason: str) -> list[dict]:
        """End every stream from the server's side: its closing result, then notifications/cancelled."""
        out = []
        for sub_id in list(self.open_streams):
            meta = {SUBSCRIPTION_ID: sub_id, SERVER_INFO: self.server_info}
            out.append({"jsonrpc": "2.0", "id": sub_id, "result": {"resultType": "complete", "_meta": meta}})
            out.append(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": {"requestId": sub_id, "reason": reason, "_meta": {SUBSCRIPTION_ID: sub_id}},
                }
            )
        self.open_streams.clear()
        return out
