"""Where a long wire line may break: between JSON tokens, never inside one that fits.

A JSON-RPC line is one long run without spaces, so a browser or a terminal left to itself either
refuses to break it (the table overflows to the right) or breaks it anywhere (a table column
squeezed to six characters a line, `"2025-11-` on one line and `25"` on the next). The renderers
break it here instead: outside a JSON string after `,` `:` `{` `[`, inside one after a space or a
comma, which keeps every key, number, date, time and URI whole. Only a single token longer than a whole line (a base64 `requestState`) is cut,
in pieces of `chunk` characters, because nothing else can fit.

`wrap()` returns the lines for a terminal; `soft_html()` returns escaped HTML with `<wbr>` at the
same places, so a browser picks the break that fits its column.
"""

from __future__ import annotations

import html

__all__ = ["tokens", "wrap", "soft_html", "LONG_TOKEN"]

LONG_TOKEN = 32  # a token longer than this may be cut in HTML (every LONG_TOKEN characters)

_OUTSIDE = ",:{[ "  # outside a JSON string: break after punctuation that opens or separates
_INSIDE = ", "  # inside a string: after a space or a comma only (a time's or a URI's ':' stays whole)


def tokens(text: str) -> list[str]:
    """The pieces of `text` between break opportunities; joined, they give `text` back."""
    pieces: list[str] = []
    start = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
                continue
            if ch == "\\":
                escaped = True
                continue
            if ch == '"':
                in_string = False
                continue
            if ch in _INSIDE:
                pieces.append(text[start : i + 1])
                start = i + 1
        elif ch == '"':
            in_string = True
        elif ch in _OUTSIDE and (ch != ":" or text[i - 1 : i] == '"'):
            # A colon breaks only after a JSON key ("key":), never inside a time outside quotes.
            pieces.append(text[start : i + 1])
            start = i + 1
    if start < len(text):
        pieces.append(text[start:])
    return pieces


_SOFT = "/._-"  # inside a token too long for a line: cut after one of these when one is near


def _cut(piece: str, size: int) -> list[str]:
    """A token longer than `size` in pieces: after a '/', '.', '_' or '-' in the second half of
    a line when there is one (io.modelcontextprotocol/ + protocolVersion), else every `size`."""
    parts = []
    while len(piece) > size:
        soft = max(piece.rfind(ch, size // 2, size) for ch in _SOFT)
        cut = soft + 1 if soft >= 0 else size
        parts.append(piece[:cut])
        piece = piece[cut:]
    return parts + [piece] if piece or not parts else parts


def wrap(text: str, width: int) -> list[str]:
    """Pieces of at most `width` characters, broken only between tokens (a longer token is cut).

    Nothing is dropped or added: the pieces joined give `text` back (a break at a space keeps
    the space at the end of its piece)."""
    if width < 1:
        raise ValueError(f"width must be at least 1, got {width}")
    lines: list[str] = []
    current = ""
    for piece in tokens(text):
        if len(current) + len(piece) <= width:
            current += piece
            continue
        if current:
            lines.append(current)
            current = ""
        parts = _cut(piece, width) if len(piece) > width else [piece]
        lines.extend(parts[:-1])
        current = parts[-1]
    return lines + [current] if current or not lines else lines


def soft_html(text: str, long_token: int = LONG_TOKEN) -> str:
    """`text` escaped for HTML, with `<wbr>` wherever `wrap()` could break a line.

    A browser also breaks after a hyphen or a slash on its own ("2025-11-" / "25"); a piece that
    holds one is kept whole in a no-wrap span, so a date, a version or a URI stays on one line."""
    out = []
    for piece in tokens(text):
        parts = _cut(piece, long_token) if len(piece) > long_token else [piece]
        out.append("<wbr>".join(_whole(p) for p in parts))
    return "<wbr>".join(out)


def _whole(piece: str) -> str:
    escaped = html.escape(piece)
    if ("-" in piece or "/" in piece) and len(piece) > 1:
        return f"<span style='white-space:nowrap'>{escaped}</span>"
    return escaped
