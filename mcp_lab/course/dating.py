"""Dating a text about MCP by the features it treats as current (notebook 16).

    from mcp_lab.course import dating
    print(dating.registry_text())      # each feature and the revisions in which it was current
    print(dating.articles_text())      # the made-up articles to date
    dating.exercise()                  # a cell's last line: the learner dates each article

A text can only describe a revision in which *every* feature it treats as current was current:
its oldest possible revision is the latest of the features' first revisions, its newest the
earliest of their last ones, and if the first comes after the second no revision fits (the
text mixes eras).  `span(features)` computes that; the exercise keeps its answers inside the
`Choice` until the learner presses Check, so nothing is printed or computed in the notebook.

The spans come from each revision's changelog (notebook 16 lists what 2026-07-28 removed or
moved, with the changelog entry that records each).
"""

from __future__ import annotations

from mcp_lab.wire import revisions

__all__ = ["FEATURES", "ARTICLES", "NONE", "span", "registry_text", "articles_text", "exercise"]

REVISIONS = sorted(revisions.ALL_VERSIONS)  # oldest first
NONE = "no revision fits"

# feature -> (first revision where it is current, last revision where it is current)
FEATURES: dict[str, tuple[str, str]] = {
    "initialize handshake": ("2024-11-05", "2025-11-25"),
    "ping": ("2024-11-05", "2025-11-25"),
    "logging/setLevel": ("2024-11-05", "2025-11-25"),
    "resources/subscribe": ("2024-11-05", "2025-11-25"),
    "HTTP+SSE transport": ("2024-11-05", "2024-11-05"),  # replaced by Streamable HTTP in 2025-03-26
    "Streamable HTTP": ("2025-03-26", "2026-07-28"),
    "Mcp-Session-Id sessions": ("2025-03-26", "2025-11-25"),
    "JSON-RPC batches": ("2025-03-26", "2025-03-26"),  # added, then removed in 2025-06-18
    "roots/list sent by the server": ("2024-11-05", "2025-11-25"),  # a server-initiated request
    "elicitation/create sent by the server": ("2025-06-18", "2025-11-25"),
    "tasks in the core protocol": ("2025-11-25", "2025-11-25"),  # an extension from 2026-07-28
    "notifications/elicitation/complete": ("2025-11-25", "2025-11-25"),
    "server/discover": ("2026-07-28", "2026-07-28"),
    "input_required (MRTR)": ("2026-07-28", "2026-07-28"),
    "subscriptions/listen": ("2026-07-28", "2026-07-28"),
    "per-request logLevel in _meta": ("2026-07-28", "2026-07-28"),
    "tools/call": ("2024-11-05", "2026-07-28"),
}

ARTICLES: dict[str, tuple[str, set[str]]] = {
    "A": (
        "Your first MCP server in ten minutes: open with initialize, then serve tools/call over HTTP+SSE at GET /sse.",
        {"initialize handshake", "HTTP+SSE transport", "tools/call"},
    ),
    "B": (
        "Scaling MCP: pin each Mcp-Session-Id to one replica behind the load balancer; the session "
        "starts with initialize over Streamable HTTP.",
        {"Mcp-Session-Id sessions", "initialize handshake", "Streamable HTTP"},
    ),
    "C": (
        "Stateless MCP: probe with server/discover, stamp _meta on every request, and let a tool answer input_required.",
        {"server/discover", "input_required (MRTR)", "tools/call"},
    ),
    "D": (
        "Fewer round trips: send your tool calls as one JSON-RPC batch array over Streamable HTTP.",
        {"JSON-RPC batches", "Streamable HTTP", "tools/call"},
    ),
    "E": (
        "Keeping a client fresh: ping the server every 30 seconds, resources/subscribe to the week, "
        "and turn on debug output with logging/setLevel.",
        {"ping", "resources/subscribe", "logging/setLevel", "initialize handshake"},
    ),
    "F": (
        "Long jobs, built in: the core protocol's tasks let tools/call return a task to poll, and "
        "a finished URL elicitation is signalled with notifications/elicitation/complete.",
        {"tasks in the core protocol", "notifications/elicitation/complete", "tools/call"},
    ),
    "G": (
        "Live updates without a session: open subscriptions/listen for list changes, and ask for "
        "log messages per request with the logLevel key in _meta.",
        {"subscriptions/listen", "per-request logLevel in _meta", "Streamable HTTP"},
    ),
    "H": (
        "One request, many questions: batch your elicitation/create requests into one JSON-RPC array.",
        {"JSON-RPC batches", "elicitation/create sent by the server"},
    ),
}


def span(features: set[str]) -> tuple[str, str] | None:
    """(oldest, newest) revision in which every feature was current, or None if none fits."""
    unknown = sorted(f for f in features if f not in FEATURES)
    if unknown:
        raise ValueError(f"not in the registry: {unknown}; known: {sorted(FEATURES)}")
    lo = max(FEATURES[f][0] for f in features)
    hi = min(FEATURES[f][1] for f in features)
    return (lo, hi) if lo <= hi else None


def registry_text() -> str:
    """The registry as a table: one feature per line, with the revisions in which it was current."""
    header = f"{'feature':40} {'first current':14} last current"
    return "\n".join([header] + [f"{f:40} {a:14} {b}" for f, (a, b) in FEATURES.items()])


def articles_text() -> str:
    """The articles to date, with the features each one treats as current."""
    out = []
    for key, (text, features) in ARTICLES.items():
        out.append(f"{key}. {text}\n   teaches as current: {', '.join(sorted(features))}")
    return "\n".join(out)


def exercise(key: str = "date-the-articles"):
    """The dating exercise: per article, its oldest and newest revision (or "no revision fits")."""
    from mcp_lab.notebook.choice import Choice

    options = REVISIONS + [NONE]
    rows = {}
    for name, (text, features) in ARTICLES.items():
        fits = span(features)
        right = fits or (NONE, NONE)
        latest = max(features, key=lambda f: FEATURES[f][0])
        earliest = min(features, key=lambda f: FEATURES[f][1])
        why = (
            f"the latest start is {latest} ({FEATURES[latest][0]}), the earliest end is "
            f"{earliest} ({FEATURES[earliest][1]})"
        )
        why += "." if fits else ": the start comes after the end, so the text mixes eras."
        rows[f"{name}. {text}"] = (right, why)
    return Choice(key, rows, {"oldest revision": options, "newest revision": options}, title="Date each article")
