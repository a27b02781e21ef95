"""The cost model of one catalog: how a tool definition is rendered into a prompt, its tokens and
wire bytes, and `CatalogCost` (what one connected server costs every prompt).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_lab.tokens.chart import Bar, Chart, bar_svg
from mcp_lab.tokens.encodings import DEFAULT_ENCODING, count, encoding_of
from mcp_lab.wire.revisions import Era

if TYPE_CHECKING:  # pragma: no cover - typing only, keeps the import light
    import tiktoken


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


def wire_bytes(obj: Any) -> int:
    """UTF-8 bytes of `obj` as compact JSON: how a server writes a result on the wire."""
    return len(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


_wire_bytes = wire_bytes  # the former private name, kept for existing callers


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
    era: Era | None = None
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
            "server": self.server,
            "era": self.era,
            "protocol_version": self.protocol_version,
            "encoding": self.encoding,
            "tools": [{"name": t.name, "tokens": t.tokens, "bytes": t.bytes} for t in self.tools],
            "tool_count": len(self.tools),
            "tools_total": self.tools_total,
            "framing_tokens": self.framing_tokens,
            "instructions_tokens": self.instructions_tokens,
            "total": self.total,
            "catalog_bytes": self.catalog_bytes,
            "cheapest": pick(self.cheapest),
            "costliest": pick(self.costliest),
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
            style = {"costliest": ' style="background:#fde2e1"', "cheapest": ' style="background:#e2f5e5"'}.get(
                mark, ""
            )
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

    def chart(self) -> Chart:
        """A horizontal bar chart of tokens per tool (costliest first), as inline SVG."""
        bars = [Bar(t.name, t.tokens, t.bytes, self._mark(t)) for t in self.tools]
        title = f"Tokens per tool definition ({self.encoding}), {self.tools_total:,} in all"
        heading = (
            f"{len(self.tools)} tools, {self.tools_total:,} tokens + instructions "
            f"{self.instructions_tokens:,} = {self.total:,} ({self.encoding})"
        )
        return Chart(bar_svg(bars, title=title, heading=heading))


def catalog_cost(
    tools: list[dict[str, Any]],
    instructions: str | None,
    encoding: "str | tiktoken.Encoding" = DEFAULT_ENCODING,
    *,
    server: str = "",
    era: Era | None = None,
    protocol_version: str | None = None,
) -> CatalogCost:
    """Cost of a ``tools/list`` catalog plus the server's ``instructions`` (pure: no I/O)."""
    enc = encoding_of(encoding)
    rows = tuple(ToolCost(str(t.get("name", "")), tool_tokens(t, enc), wire_bytes(t)) for t in tools)
    return CatalogCost(
        encoding=enc.name,
        tools=rows,
        tools_total=count(render_catalog(tools), enc) if tools else 0,
        instructions_tokens=count(instructions, enc) if instructions else 0,
        catalog_bytes=wire_bytes({"tools": list(tools)}),
        server=server,
        era=era,
        protocol_version=protocol_version,
    )
