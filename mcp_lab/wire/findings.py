"""What the lint reports: a `Finding` (severity, message, the rule's spec URL, where), the
`Findings` list, the names and constants the checks share, and the two views (text, HTML).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Iterable

from mcp_lab.wire.revisions import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LATEST,
    LOG_LEVEL_KEY,
    MODERN_REQUEST_METHODS,
    PROTOCOL_VERSION_KEY,
)
from mcp_lab.wire.words import N_, _, ngettext

SPEC_BASE = f"https://modelcontextprotocol.io/specification/{LATEST}/"
SEVERITIES = ("error", "warning", "info")
# How each severity is named on screen (the value in a Finding stays the English key).
_SEVERITY_WORDS = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}


def severity_count(severity: str, n: int) -> str:
    """'3 errors', '1 warning': a count of one severity, in the edition's language."""
    if severity == "error":
        return ngettext("{n} error", "{n} errors", n).format(n=n)
    if severity == "warning":
        return ngettext("{n} warning", "{n} warnings", n).format(n=n)
    return ngettext("{n} info", "{n} infos", n).format(n=n)


def severity_word(severity: str) -> str:
    """A severity as the learner reads it, in the edition's language."""
    return _(_SEVERITY_WORDS.get(severity, severity))


# Keys a client may put in a request's _meta (the reserved ones, then the unprefixed ones the
# spec names: progress opt-in and W3C trace context, an explicit exception to the prefix rule).
REQUEST_META_KEYS = (
    PROTOCOL_VERSION_KEY,
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    "progressToken",
    "traceparent",
    "tracestate",
    "baggage",
)
# Handshake-era client requests (2025-11-25), for completion and era checks.
LEGACY_REQUEST_METHODS = frozenset(
    {
        "initialize",
        "ping",
        "logging/setLevel",
        "completion/complete",
        "prompts/get",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "tools/call",
        "tools/list",
    }
)
REQUEST_METHODS = MODERN_REQUEST_METHODS | LEGACY_REQUEST_METHODS
MAX_SCHEMA_FINDINGS = 6

PREFIX_LABEL_RE = re.compile(r"^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$")
NAME_RE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")


@dataclass(frozen=True)
class Finding:
    """One thing the lint noticed: how bad, which rule, where the spec says so, in one line."""

    severity: str  # "error" | "warning" | "info"
    rule: str  # a stable name, e.g. "id-null", "meta-missing", "schema"
    section: str  # spec page and anchor relative to SPEC_BASE, e.g. "basic/index#general-fields"
    message: str  # one line for the learner
    path: str = ""  # JSON path inside the message, e.g. "params._meta", when it applies

    @property
    def url(self) -> str:
        # A section is relative to the current revision's pages, or a full URL into an older one.
        return self.section if self.section.startswith("https://") else SPEC_BASE + self.section

    def __str__(self) -> str:
        where = " " + _("at {path}").format(path=self.path) if self.path else ""
        return f"{severity_word(self.severity):<7} {self.rule}{where}: {self.message}  [{self.section}]"


class Findings(list):
    """A plain list of Finding that also renders itself in a notebook (HTML) and a terminal."""

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self if f.severity == "warning"]

    @property
    def rules(self) -> list[str]:
        return [f.rule for f in self]

    @property
    def ok(self) -> bool:
        """No errors (warnings and infos do not stop a message from being valid)."""
        return not self.errors

    def text(self) -> str:
        return render_text(self)

    def __str__(self) -> str:
        return render_text(self)

    def _repr_html_(self) -> str:
        return render_html(self)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(render_text(self))


# -- rendering ---------------------------------------------------------------------------------
_COLOURS = {"error": ("#b3261e", "#fce8e6"), "warning": ("#8a5300", "#fef7e0"), "info": ("#1a5fb4", "#e8f0fe")}


def render_text(findings: Iterable[Finding]) -> str:
    findings = list(findings)
    if not findings:
        return "lint: " + _("no findings")
    head = "lint: " + ", ".join(
        severity_count(s, n) for s in SEVERITIES if (n := sum(f.severity == s for f in findings))
    )
    return "\n".join([head] + [f"  {f}" for f in findings])


def render_html(findings: Iterable[Finding]) -> str:
    findings = list(findings)
    if not findings:
        return "<div style='font-size:12px;color:#137333'>lint: {}</div>".format(html.escape(_("no findings")))
    rows = []
    for f in findings:
        fg, bg = _COLOURS.get(f.severity, ("#000", "#fff"))
        path = f" <code>{html.escape(f.path)}</code>" if f.path else ""
        rows.append(
            f"<tr style='background:{bg}'><td style='color:{fg};font-weight:bold'>{html.escape(severity_word(f.severity))}</td>"
            f"<td><code>{html.escape(f.rule)}</code></td>"
            f"<td style='text-align:left'>{html.escape(f.message)}{path}</td>"
            f"<td><a href='{html.escape(f.url)}' target='_blank'>{html.escape(f.section)}</a></td></tr>"
        )
    return (
        "<table style='font-size:12px'><tr><th>lint</th><th>{}</th><th style='text-align:left'>{}</th>"
        "<th>{}</th></tr>".format(html.escape(_("rule")), html.escape(_("finding")), html.escape(_("spec")))
        + "".join(rows)
        + "</table>"
    )
