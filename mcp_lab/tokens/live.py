"""A live server's cost: connect (or borrow a Client), let the probe decide the era, page through
tools/list, then price the catalog offline.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp_lab.tokens.catalog import CatalogCost, catalog_cost
from mcp_lab.tokens.encodings import DEFAULT_ENCODING, encoding_of, spec_of
from mcp_lab.wire.revisions import Era

# --- a live server's cost ------------------------------------------------------------------
#
# Theory of operation: cost() = fetch_catalog() + catalog_cost(). fetch_catalog connects (or
# borrows a Client), lets mcp_lab.probe decide the era -- a modern server answers
# server/discover, whose result carries `instructions`; a legacy one gets `initialize` +
# `notifications/initialized`, and `instructions` comes from the initialize result -- then pages
# through tools/list on that same connection. The probe leaves client.era set, so the tools/list
# requests carry _meta for a modern server and none for a legacy one.
#
# What a server lists can depend on what the client declares: the reference server adds
# trigger-elicitation-request when the client declares elicitation, and more tools for sampling
# and roots. cost() therefore declares nothing (capabilities={}) unless told otherwise: the
# baseline price of connecting, and the catalog the chapter counted (13 tools).

MAX_PAGES = 100  # tools/list pages followed before giving up on a server that never stops


@dataclass(frozen=True)
class Catalog:
    """A server's tool catalog as fetched, plus who answered and in which era."""

    server: str  # serverInfo.name when the server gave one, else the connection's label
    era: Era | None  # the probe's verdict
    protocol_version: str | None
    server_info: dict[str, Any] | None
    instructions: str | None
    tools: tuple[dict[str, Any], ...]
    pages: int  # tools/list requests it took


def fetch_catalog(
    server: Any,
    *,
    timeout: float = 5.0,
    max_pages: int = MAX_PAGES,
    **connect_kwargs: Any,
) -> Catalog:
    """Connect to ``server``, probe its era, and collect every page of ``tools/list``.

    ``server`` is a short name (``"everything"``), an argv list, or an open
    :class:`mcp_lab.Client` (borrowed: probed and used, not closed). Any other keyword goes to
    :func:`mcp_lab.connect`; ``capabilities`` defaults to ``{}`` here (see above). A connection
    opened here is closed before this returns, whatever happens.
    """
    from mcp_lab.session.client import Client

    if isinstance(server, Client):
        if connect_kwargs:
            raise TypeError(
                f"connect options {sorted(connect_kwargs)} only apply when cost() starts the server; "
                "this Client is already connected"
            )
        return _fetch(server, timeout=timeout, max_pages=max_pages)
    from mcp_lab.session.connect import connect

    capabilities = connect_kwargs.setdefault("capabilities", {})
    connect_kwargs.setdefault("timeout", timeout)
    client = connect(server, **connect_kwargs)
    try:
        # The same declaration goes into a legacy initialize (probe's default there is {}).
        return _fetch(client, timeout=timeout, max_pages=max_pages, capabilities=capabilities)
    finally:
        client.close()


def _fetch(client: Any, *, timeout: float, max_pages: int, **probe_kwargs: Any) -> Catalog:
    from mcp_lab.session.probe import cached, probe
    from mcp_lab.wire.errors import CatalogError

    # probe() caches verdicts per argv, instructions included; a count must see what the server
    # says now (a learner edits a server and counts again), so it probes afresh -- except on a
    # borrowed Client that was itself already probed, where a second initialize would be wrong.
    hit = cached(client)
    reuse = hit is not None and hit.client is client and client.era is not None
    verdict = probe(client, timeout=timeout, refresh=not reuse, **probe_kwargs)
    if not verdict.ok:  # modern, but no protocol version both sides speak
        raise CatalogError(
            f"{client.name}: no mutual protocol version (the server supports "
            f"{', '.join(verdict.supported_versions) or 'none it named'}); nothing can be listed"
        )
    era = None if verdict.era is None else Era(verdict.era)  # the probe's Verdict.era is still typed str
    info = verdict.server_info
    instructions = verdict.instructions
    tools: list[dict[str, Any]] = []
    cursor: Any = None
    seen: set[str] = set()
    pages = 0
    while True:
        if pages >= max_pages:
            raise CatalogError(
                f"{client.name}: tools/list still returned a nextCursor after {max_pages} pages; giving up"
            )
        reply = client.request("tools/list", {"cursor": cursor} if cursor is not None else None, timeout=timeout)
        pages += 1
        result = reply.unwrap()  # an error answer raises ProtocolError with the server's code
        page = result.get("tools")
        if not isinstance(page, list) or not all(isinstance(t, dict) for t in page):
            raise CatalogError(f"{client.name}: tools/list result has no list of tool objects")
        tools.extend(page)
        cursor = result.get("nextCursor")
        if cursor is None:
            break
        key = json.dumps(cursor, sort_keys=True)
        if key in seen:  # a cursor seen before would loop forever
            raise CatalogError(f"{client.name}: tools/list repeated the nextCursor {cursor!r}")
        seen.add(key)
    name = (info or {}).get("name") if isinstance(info, dict) else None
    return Catalog(
        server=str(name or client.name),
        era=era,
        protocol_version=verdict.version,
        server_info=info if isinstance(info, dict) else None,
        instructions=instructions if isinstance(instructions, str) else None,
        tools=tuple(tools),
        pages=pages,
    )


def cost(
    server: Any,
    *,
    encoding: str = DEFAULT_ENCODING,
    timeout: float = 5.0,
    max_pages: int = MAX_PAGES,
    **connect_kwargs: Any,
) -> CatalogCost:
    """What connecting ``server`` costs every prompt before any tool is used.

    Connects (short name, argv list, or an open Client), probes the era (modern:
    ``server/discover``; legacy: ``initialize``), follows ``tools/list`` pages, and counts:

    * per tool, the tokens of ``json.dumps({"name", "description", "inputSchema"})`` -- Python's
      default separators ``", "``/``": "``, keys in that order, ``ensure_ascii=False``;
    * ``tools_total``: the whole list rendered that way at once (the rows plus a few framing tokens);
    * ``instructions_tokens``: the raw ``instructions`` text (discover or initialize result);
    * ``catalog_bytes``: compact JSON of ``{"tools": [...]}``, every field the server sent.

    The client declares no capabilities unless ``capabilities=`` says otherwise (a server's
    catalog may grow with what the client declares). Closes what it opened.
    """
    spec_of(encoding)  # an unknown encoding fails before any process is started
    enc = encoding_of(encoding)
    cat = fetch_catalog(server, timeout=timeout, max_pages=max_pages, **connect_kwargs)
    return catalog_cost(
        list(cat.tools),
        cat.instructions,
        enc,
        server=cat.server,
        era=cat.era,
        protocol_version=cat.protocol_version,
    )
