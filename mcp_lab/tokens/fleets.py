"""Several servers at once, and what just-in-time tool discovery saves against loading every
catalog up front.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from mcp_lab.tokens.catalog import CatalogCost, ToolCost, tool_tokens
from mcp_lab.tokens.encodings import DEFAULT_ENCODING

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
        return "\n".join(
            [
                f"upfront (every catalog and instruction block in every prompt): {self.upfront:,} tokens",
                f"search tool definition S: {self.search_tokens:,} tokens; loaded ({self.k}): {names}",
                self.formula(),
            ]
        )

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
            rows.append(
                (
                    c.server or f"server {i}",
                    c.era or "",
                    f"{len(c.tools):,}",
                    f"{c.tools_total:,}",
                    f"{c.instructions_tokens:,}",
                    f"{c.total:,}",
                    f"{c.catalog_bytes:,}",
                )
            )
        rows.append(
            (
                f"{len(self.servers)} servers",
                "",
                f"{self.tool_count:,}",
                f"{self.tools_total:,}",
                f"{self.instructions_tokens:,}",
                f"{self.total:,}",
                f"{self.catalog_bytes:,}",
            )
        )
        return rows

    def text(self) -> str:
        rows = self._rows()
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]

        def line(r: tuple[str, ...]) -> str:
            return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

        rule = "-" * len(line(rows[0]))
        return "\n".join(
            [
                line(rows[0]),
                rule,
                *map(line, rows[1:-1]),
                rule,
                line(rows[-1]),
                f"in every prompt, before any tool is used ({self.encoding} tokens)",
            ]
        )

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
                    raise ValueError(
                        f"tool {want!r} is on several servers ({', '.join(s for s, _ in hits)}): write server:tool"
                    )
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
