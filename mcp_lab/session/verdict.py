"""What a probe concludes about a server (`Verdict`), and the steps that build it (`Reasoning`).

The model only: the era, the version, what the server said about itself, the steps in plain
words, the open connection, and what was found wrong (`findings()`, plain data for `probe --json`).
It has a plain-text form for a terminal (`text()`, `headline()`). Its HTML for Jupyter is drawn
in the notebook layer (`mcp_lab.notebook.probe_views`), found through `mcp_lab.wire.views`,
where the package facade names it: this layer imports nothing above it.

The stdio probe (`mcp_lab.session.probe`) and the HTTP probe (`mcp_lab.session.probe_http`) differ
only in how they ask; both write their steps and build their verdict through `Reasoning`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_lab.wire import era, jsonrpc, revisions, views
from mcp_lab.wire.era import Era
from mcp_lab.wire.trace import Trace

if TYPE_CHECKING:
    from mcp_lab.session.client import Client

__all__ = ["Verdict", "Reasoning", "identity"]


@dataclass(frozen=True, eq=False)
class Verdict:
    """What a probe concluded about one server, how it got there, and the open connection."""

    server: str  # the label of the server (short name or argv[-1])
    era: Era | None  # "modern" | "legacy"; None when no era was reached
    version: str | None  # the negotiated version; None when none is mutual
    capabilities: dict  # the server's declared capabilities
    server_info: dict | None  # name / title / version, as the server states it
    instructions: str | None  # natural-language guidance for the model, if any
    supported_versions: tuple = ()  # modern: the DiscoverResult's list; -32022: data.supported
    steps: tuple = ()  # the reasoning, one short sentence per step
    elapsed_ms: float = 0.0  # wall time of the probe (spawn not included)
    cached: bool = False  # True when the era came from the cache, not a fresh probe
    trace: Trace | None = field(default=None, repr=False)
    client: Client | None = field(default=None, repr=False)

    # -- the connection ---------------------------------------------------------------
    def close(self) -> int | None:
        """Close the connection the probe left open (the caller's job)."""
        return self.client.close() if self.client is not None else None

    def finish(self) -> None:
        """End the conversation and read the server's stdout to its end (`Client.finish`), so a
        line a buffered server flushes only at exit is recorded and judged; no request follows."""
        if self.client is not None:
            self.client.finish()

    def __enter__(self) -> Verdict:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def ok(self) -> bool:
        """True when the client can go on talking to this server (an era and a version)."""
        return self.era is not None and self.version is not None

    def findings(self, *, require: str | None = None) -> list[dict]:
        """What this probe found wrong, as plain data (`probe --json` and its exit status 1): each
        stdout line that was not an MCP message (a framing violation), no mutual version, no
        verdict at all, and `require` (a revision) not being the one negotiated."""
        out: list[dict] = []
        for e in self.trace or ():
            if e.kind == "noise":
                out.append(
                    {
                        "kind": "framing",
                        "message": e.note or "a stdout line that is not an MCP message",
                        "line": e.line,
                        "t": round(e.t, 6),
                        "spec": "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#receiving-messages",
                    }
                )
        if self.era is None:
            out.append({"kind": "no-verdict", "message": "the probe reached no era (see its steps)"})
        elif self.version is None:
            listed = ", ".join(self.supported_versions) or "none"
            out.append({"kind": "no-mutual-version", "message": f"no version is mutual (the server lists {listed})"})
        if require is not None and self.version != require:
            out.append(
                {
                    "kind": "require",
                    "message": f"--require {require}: the negotiated version is {self.version or 'none'}",
                }
            )
        return out

    # -- plain forms (the HTML is the notebook layer's) ----------------------------------
    def headline(self) -> str:
        version = self.version or "no mutual version"
        who = identity(self.server_info)
        return (
            f"{self.server}: {self.era or 'unknown'} era, {version}"
            + (f" -- {who}" if who else "")
            + (" (cached verdict)" if self.cached else "")
        )

    def to_dict(self) -> dict:
        return {
            "server": self.server,
            "era": self.era,
            "version": self.version,
            "supported_versions": list(self.supported_versions),
            "capabilities": self.capabilities,
            "server_info": self.server_info,
            "instructions": self.instructions,
            "steps": list(self.steps),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "cached": self.cached,
            "findings": self.findings(),
            "trace": self.trace.to_json() if self.trace is not None else [],
        }

    def text(self, width: int | None = 160, *, trace: bool = True) -> str:
        out = [
            f"verdict  {self.headline()}",
            f"probe    {self.elapsed_ms:.0f} ms",
            f"caps     {', '.join(self.capabilities) or '(none)'}",
        ]
        if self.instructions:
            first = self.instructions.strip().splitlines()[0] if self.instructions.strip() else ""
            out.append(f"instr    {first[:100]}{'…' if len(first) > 100 else ''} ({len(self.instructions)} chars)")
        out.append("steps")
        out += [f"  {i}. {s}" for i, s in enumerate(self.steps, 1)]
        if trace and self.trace is not None:
            out += ["trace", self.trace.text(width=width)]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str | None:
        """Jupyter's view, drawn by the notebook layer (`mcp_lab.notebook.probe_views`)."""
        return views.html("verdict", self)


def identity(info: dict | None) -> str:
    """A server's `name "title" version`, as its serverInfo states it ("" when it states none)."""
    if not isinstance(info, dict):
        return ""
    name = info.get("name", "?")
    title = f' "{info["title"]}"' if info.get("title") else ""
    version = f" {info['version']}" if info.get("version") else ""
    return f"{name}{title}{version}"


class Reasoning:
    """What every probe keeps, whatever the transport: its steps (also notes in the Trace) and
    the verdict built from them.  The stdio and HTTP probes subclass it and differ only in how
    they ask; the verdict's era and version go to the client through `Client.adopt_era`."""

    def __init__(self, client: Client, timeout: float):
        self.c = client
        self.timeout = timeout
        self.steps: list[str] = []
        self.t0 = time.monotonic()

    def step(self, text: str) -> None:
        self.steps.append(text)
        self.c.trace.note(text, peer=self.c.name)

    def discovered(self, d: era.Decision, answer: Any) -> Verdict:
        """A modern verdict from a discover's answer; what a DiscoverResult says is kept even when
        no version is mutual (`d.version` None), so the learner sees who refused to share one."""
        r = answer.result if isinstance(answer, jsonrpc.Result) and isinstance(answer.result, dict) else {}
        raw_meta = r.get("_meta")
        meta: dict = raw_meta if isinstance(raw_meta, dict) else {}
        info = meta.get(revisions.SERVER_INFO_KEY)
        caps = r.get("capabilities") if isinstance(r.get("capabilities"), dict) else None
        instructions = r.get("instructions") if isinstance(r.get("instructions"), str) else None
        return self.verdict(
            Era.MODERN, d.version, caps, info if isinstance(info, dict) else None, instructions, d.supported
        )

    def verdict(
        self,
        era: Era | None,
        version: str | None,
        caps: dict | None = None,
        info: dict | None = None,
        instructions: str | None = None,
        supported: tuple | list = (),
        cached: bool = False,
    ) -> Verdict:
        """The Verdict, and the client told to talk in its era (a typo in `era` is a ValueError)."""
        chosen = None if era is None else Era(era)
        self.c.adopt_era(chosen, version)
        return Verdict(
            server=self.c.name,
            era=chosen,
            version=version,
            capabilities=dict(caps or {}),
            server_info=info,
            instructions=instructions,
            supported_versions=tuple(supported),
            steps=tuple(self.steps),
            elapsed_ms=(time.monotonic() - self.t0) * 1000.0,
            cached=cached,
            trace=self.c.trace,
            client=self.c,
        )
