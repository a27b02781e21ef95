"""A notebook cell cut into the pieces a translator translates and the pieces that stay as they are.

Theory of operation
-------------------
`segments(cell)` returns the cell's source as a list of `Segment`s whose `raw` texts, joined,
are the source again, byte for byte.  A segment with a `msgid` is one catalog entry:

- a markdown cell: one entry per block (paragraph, heading with its paragraph, list, table,
  HTML block), blocks being separated by blank lines; a fenced code block is one block kept as it
  is (code), and a block with no letter in it (a rule, a lone link) is kept as well;
- a code cell: each comment a learner reads (a run of full-line comments at one indentation is
  one entry, its lines joined with newlines; a comment after code is one entry), and the text of
  each string literal `print(...)` shows as it is (any argument, either side of a `+`, an `or`
  fallback, a literal whose `.format()` is printed: a plain or an f-string: the translation must
  keep its `{...}` fields, which the tests check by compiling the generated cell).  Everything
  else in code stays: identifiers, JSON, method names, keys, nbgrader's markers.

A Python file a lab ships beside its notebook (a server with TODOs) is split by `file_segments`:
its comments as in a code cell, and its docstrings (module, class, function), each one entry with
the indentation of its later lines taken off (`render` puts it back).  Its string literals are
the program's (what a server sends is the wire): they stay.  nbgrader's and the lab generator's
markers (`### BEGIN SOLUTION`, `### END STUB`, `# YOUR CODE HERE`) are never entries.

Cell magics (`%%rpc`, `%%bash`) are code of another language: such a cell has no entry.  Lines of
line magics and shell escapes are masked before Python's parser reads the rest of the cell; a cell
that still does not parse (a deliberate syntax error) gives its comments only.

Why not mdpo (the maintained Markdown-to-PO tool): it parses Markdown with md4c (a compiled
extension, pymd4c) and writes each block back re-rendered, so a generated cell would differ from its
English source in wrapping, list markers and emphasis even where nothing is translated, and a
notebook's code cells would still need their own splitter.  Cutting at blank lines keeps every cell
byte for byte (tests/test_translations.py joins every real cell back), which is what lets the
Portuguese notebook keep the English code and the English cell ids exactly.

`render(segment, translation)` puts a translation back where the English was: the comment
prefix and indentation of the first line on every line of a comment, the literal's prefix and
quotes around a string.  `relocate(...)` is the one change generation makes to code besides
comments and strings: a relative path that names an existing file next to the English notebook
is rewritten to name the same file (or its Portuguese copy) from the Portuguese notebook's folder.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

__all__ = ["Segment", "segments", "file_segments", "render", "string_literals", "markdown_links", "placeholders"]

_LETTER = re.compile(r"[^\W\d_]")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
# Comments that are instructions to a tool, not to a person: they stay in English.
_TOOL_COMMENT = re.compile(
    r"^(noqa|type:|fmt:|pragma|ruff:|isort:|pylint:|#|!)|(BEGIN|END) (SOLUTION|STUB)|HIDDEN TESTS|YOUR CODE HERE"
)
_STRING = re.compile(r"^([rRuUfFbB]{0,2})('''|\"\"\"|'|\")(.*)\2$", re.S)
_FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
LEARNER_CALLS = frozenset({"print"})


@dataclass(frozen=True)
class Segment:
    """A span of a cell's source; `msgid` is set when a translator translates it."""

    raw: str
    msgid: str | None = None
    kind: str = "text"  # "markdown" | "comment" | "string" | "text"
    prefix: str = ""  # comment: the indentation and '#...' of its first line; string: prefix + quote
    suffix: str = ""  # string: its closing quote (a docstring's: with the whitespace before it)
    indent: str = ""  # docstring: the indentation its second and later lines carry in the file


def segments(cell: dict) -> list[Segment]:
    """The cell's source as segments (see the module's docstring)."""
    source = cell_source(cell)
    if cell.get("cell_type") == "markdown":
        return _markdown_segments(source)
    if cell.get("cell_type") == "code" and not source.lstrip().startswith("%%"):
        return _code_segments(source)
    return [Segment(source)] if source else []


def cell_source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def render(segment: Segment, translation: str) -> str:
    """The translated text in the segment's place (its English when `translation` is empty)."""
    if segment.msgid is None or not translation:
        return segment.raw
    if segment.kind == "comment":
        indent = segment.prefix[: len(segment.prefix) - len(segment.prefix.lstrip())]
        mark = segment.prefix.lstrip()
        lines = translation.split("\n")
        return mark + lines[0] + "".join(f"\n{indent}{mark}{line}" for line in lines[1:])
    if segment.kind == "string":
        return segment.prefix + translation + segment.suffix
    if segment.kind == "docstring":
        first, *rest = translation.split("\n")
        body = first + "".join(f"\n{segment.indent}{line}" if line else "\n" for line in rest)
        return segment.prefix + body + segment.suffix
    return translation


def placeholders(text: str) -> set[str]:
    """The `{...}` fields of a string (a format string or an f-string's expressions)."""
    return set(_FIELD.findall(text))


# -- markdown ---------------------------------------------------------------------------------------
def _markdown_segments(source: str) -> list[Segment]:
    out: list[Segment] = []
    lines = source.splitlines(keepends=True)
    block: list[str] = []
    gap: list[str] = []
    fenced = False

    def flush_block() -> None:
        if block:
            text = "".join(block)
            body = text.rstrip("\n")
            tail = text[len(body) :]
            translatable = not _FENCE.match(body) and _LETTER.search(body)
            out.append(Segment(body, body if translatable else None, "markdown" if translatable else "text"))
            if tail:
                out.append(Segment(tail))
            block.clear()

    for line in lines:
        if fenced:
            block.append(line)
            fenced = not _FENCE.match(line)
            continue
        if _FENCE.match(line) and not block:
            if gap:
                out.append(Segment("".join(gap)))
                gap.clear()
            block.append(line)
            fenced = True
            continue
        if line.strip():
            if gap:
                out.append(Segment("".join(gap)))
                gap.clear()
            block.append(line)
        else:
            flush_block()
            gap.append(line)
    flush_block()
    if gap:
        out.append(Segment("".join(gap)))
    return out


# -- code -------------------------------------------------------------------------------------------
def _masked(source: str) -> str:
    """The cell with its magic and shell lines replaced by `pass` (same line count, so the
    positions Python's parser gives hold for the cell itself)."""
    out = []
    for line in source.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")) or re.match(r"^\w+\s*=\s*[!%]", stripped):
            out.append(line[: len(line) - len(stripped)] + "pass")
        else:
            out.append(line)
    return "\n".join(out)


def mask_magics(source: str) -> str:
    """The cell's source with its magic and shell lines blanked, for Python's parsers (public name)."""
    return _masked(source)


def _offsets(source: str) -> list[int]:
    starts, total = [], 0
    for line in source.splitlines(keepends=True) or [""]:
        starts.append(total)
        total += len(line)
    starts.append(total)
    return starts


def _comment_spans(source: str, masked: str) -> list[tuple[int, int, Segment]]:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(masked).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    starts = _offsets(source)
    lines = source.splitlines()
    spans: list[tuple[int, int, Segment]] = []
    run: list[tuple[int, int, str, str]] = []  # (start, end, indent + mark, text) of full-line comments
    run_indent = ""

    def close_run() -> None:
        if run:
            start, end = run[0][0], run[-1][1]
            text = "\n".join(r[3] for r in run)
            spans.append((start, end, Segment(source[start:end], text, "comment", run[0][2])))
            run.clear()

    last_row = -2
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        (row, col), end_col = tok.start, tok.end[1]
        start, end = starts[row - 1] + col, starts[row - 1] + end_col
        raw = source[start:end]
        body = raw.lstrip("#")
        text = body.strip()
        mark = raw[: len(raw) - len(body)] + body[: len(body) - len(body.lstrip())]
        if not _LETTER.search(text) or _TOOL_COMMENT.search(text) or raw.startswith("#!") or raw != raw.rstrip():
            close_run()
            continue
        indent = lines[row - 1][:col]
        if indent.strip():  # a comment after code on the same line: an entry of its own
            close_run()
            spans.append((start, end, Segment(raw, text, "comment", mark)))
            continue
        # A line continues the run when it sits right under it, at its indentation, and opens with
        # its mark ('# '): the rest of the line, inner indentation kept, is the entry's next line.
        if run and row == last_row + 1 and indent == run_indent and raw.startswith(run[0][2].lstrip()):
            run.append((start, end, indent + mark, raw[len(run[0][2].lstrip()) :]))
        else:
            close_run()
            run_indent = indent
            run.append((start, end, indent + mark, text))
        last_row = row
    close_run()
    return spans


def string_literals(source: str) -> list[tuple[int, int, ast.AST, bool]]:
    """(start, end, node, learner_facing) of every one-literal string in the cell's code: a
    learner-facing one is printed as it is by a call in LEARNER_CALLS (`_shown_texts`). [] when
    it does not parse."""
    masked = _masked(source)
    try:
        tree = ast.parse(masked)
    except SyntaxError:
        return []
    starts = _offsets(source)
    lines = source.splitlines(keepends=True)
    facing = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in LEARNER_CALLS:
            for arg in node.args:
                facing.update(id(n) for n in _shown_texts(arg))
    found = []
    for node in ast.walk(tree):
        is_str = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if not (is_str or isinstance(node, ast.JoinedStr)) or node.end_lineno is None:
            continue
        # ast columns count UTF-8 bytes; the cell's text counts characters.
        col = len(lines[node.lineno - 1].encode()[: node.col_offset].decode(errors="ignore"))
        end_col = len(lines[node.end_lineno - 1].encode()[: node.end_col_offset].decode(errors="ignore"))
        start, end = starts[node.lineno - 1] + col, starts[node.end_lineno - 1] + end_col
        found.append((start, end, node, id(node) in facing))
    return found


def _shown_texts(node: ast.AST) -> list[ast.AST]:
    """The string literals of a printed argument that end up on the screen as they are: the
    argument itself, either side of a `+`, a choice of `or` / `if ... else`, and a literal whose
    `.format(...)` is printed; not a literal inside any other call (a separator, a key, a value
    given to a function), nor anything inside an f-string's fields."""
    if isinstance(node, (ast.Constant, ast.JoinedStr)):
        return [node] if isinstance(node, ast.JoinedStr) or isinstance(node.value, str) else []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _shown_texts(node.left) + _shown_texts(node.right)
    if isinstance(node, ast.BoolOp):
        return [n for value in node.values for n in _shown_texts(value)]
    if isinstance(node, ast.IfExp):
        return _shown_texts(node.body) + _shown_texts(node.orelse)
    if isinstance(node, ast.Starred):
        return _shown_texts(node.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
    ):
        return _shown_texts(node.func.value)
    return []


def _string_spans(source: str) -> list[tuple[int, int, Segment]]:
    spans = []
    for start, end, _node, facing in string_literals(source):
        if not facing:
            continue
        raw = source[start:end]
        m = _STRING.match(raw)
        if not m or m.group(2) in m.group(3).replace("\\" + m.group(2), "") or "b" in m.group(1).lower():
            continue  # implicit concatenation, bytes, or a literal this cannot split safely: stays
        if not _LETTER.search(_FIELD.sub("", m.group(3))):
            continue
        spans.append((start, end, Segment(raw, m.group(3), "string", m.group(1) + m.group(2), m.group(2))))
    return spans


def _code_segments(source: str) -> list[Segment]:
    spans = _comment_spans(source, _masked(source)) + _string_spans(source)
    return _joined(source, sorted(spans, key=lambda s: s[0]))


def _joined(source: str, spans: list[tuple[int, int, Segment]]) -> list[Segment]:
    """The source as segments: the spans' own, and the text between them kept as it is."""
    out: list[Segment] = []
    at = 0
    for start, end, seg in spans:
        if start < at:  # overlapping spans cannot happen (a comment is never inside a string)
            continue
        if start > at:
            out.append(Segment(source[at:start]))
        out.append(seg)
        at = end
    if at < len(source):
        out.append(Segment(source[at:]))
    return out


def file_segments(text: str) -> list[Segment]:
    """A Python file as segments: its comments and docstrings are entries, the rest stays."""
    spans = _comment_spans(text, text) + _docstring_spans(text)
    return _joined(text, sorted(spans, key=lambda s: s[0]))


def _docstring_spans(source: str) -> list[tuple[int, int, Segment]]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    owners = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    firsts = {
        (node.body[0].lineno, node.body[0].col_offset)
        for node in ast.walk(tree)
        if isinstance(node, owners) and node.body and isinstance(node.body[0], ast.Expr)
    }
    spans = []
    for start, end, node, _facing in string_literals(source):
        if not isinstance(node, ast.Constant) or (node.lineno, node.col_offset) not in firsts:
            continue
        raw = source[start:end]
        m = _STRING.match(raw)
        if not m or "b" in m.group(1).lower():
            continue
        body = m.group(3)
        core = body.strip()
        if not _LETTER.search(core):
            continue
        lead, trail = body[: len(body) - len(body.lstrip())], body[len(body.rstrip()) :]
        later = [line for line in core.split("\n")[1:] if line.strip()]
        indent = min((line[: len(line) - len(line.lstrip())] for line in later), key=len, default="")
        first, *rest = core.split("\n")
        msgid = "\n".join([first] + [line[len(indent) :] for line in rest])
        seg = Segment(raw, msgid, "docstring", m.group(1) + m.group(2) + lead, trail + m.group(2), indent)
        if render(seg, msgid) != raw:  # a blank line holding spaces, or an uneven margin: no dedent
            seg = Segment(raw, core, "docstring", m.group(1) + m.group(2) + lead, trail + m.group(2))
        spans.append((start, end, seg))
    return spans


_LINK = re.compile(r"(\]\()([^)\s#]+)((?:#[^)\s]*)?\))")


def markdown_links(text: str) -> list[tuple[int, int, str]]:
    """(start, end, target) of every inline link target in markdown text (anchors left out)."""
    return [(m.start(2), m.end(2), m.group(2)) for m in _LINK.finditer(text)]
