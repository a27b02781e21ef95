"""No function over 100 lines, and none over 60 without its reason beside the `def`.

A function's length is its lines from `def` to its last line (docstring and comments included:
they are what a reader scrolls through).  The reason is a comment on the line just above the
`def` (or above its first decorator) or on the signature's own lines, saying in a few words why
the function stays long (`# Long on purpose: ...`, `# noqa: C901 -- ...`).  Checked over the
package, the bench, the classroom scripts and tools/; tests read top to bottom and are not held to it.
`test_the_size_check_catches_what_it_is_for` shows each rule failing on planted functions.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from _support import ROOT

CHECKED = ("mcp_lab", "bench", "classroom", "tools")
LIMIT = 100  # lines, never
EXPLAINED = 60  # lines, only with a reason beside the def
_NOQA = re.compile(r"noqa(:\s*[A-Z]+\d+(,\s*[A-Z]+\d+)*)?\s*(--)?", re.I)


def _reason(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The comment beside the def, when it says something (three words or more besides noqa)."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    signature_end = node.body[0].lineno - 1 if node.body[0].lineno > node.lineno else node.lineno
    candidates = [lines[first - 2]] if first >= 2 else []
    candidates += lines[first - 1 : signature_end]
    for line in candidates:
        if "#" not in line:
            continue
        text = _NOQA.sub("", line.split("#", 1)[1]).strip()
        if len(text.split()) >= 3:
            return text
    return None


def long_functions(source: str, name: str) -> list[tuple[str, int, str | None]]:
    """(qualified name, length, reason or None) of each function over EXPLAINED lines."""
    lines = source.splitlines()
    found = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qual = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    length = child.end_lineno - child.lineno + 1
                    if length > EXPLAINED:
                        found.append((f"{name}:{qual}", length, _reason(lines, child)))
                walk(child, qual + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return found


def problems(found: list[tuple[str, int, str | None]]) -> list[str]:
    out = []
    for where, length, reason in found:
        if length > LIMIT:
            out.append(f"{where} is {length} lines (over {LIMIT}): split it")
        elif reason is None:
            out.append(f"{where} is {length} lines (over {EXPLAINED}) with no reason beside its def")
    return out


def _sources() -> list[Path]:
    return sorted(p for folder in CHECKED for p in (ROOT / folder).rglob("*.py") if "node_modules" not in p.parts)


def test_no_function_over_100_lines_and_none_over_60_without_a_reason():
    found = [f for p in _sources() for f in long_functions(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert problems(found) == []


def _planted(length: int, reason: str = "", decorated: bool = False) -> str:
    head = (f"{reason}\n" if reason else "") + ("@decorator\n" if decorated else "") + "def planted(x):\n"
    return head + "    x += 1\n" * (length - 2) + "    return x\n"


def test_the_size_check_catches_what_it_is_for():
    assert long_functions(_planted(60), "m") == []
    assert problems(long_functions(_planted(61), "m")) == [
        "m:planted is 61 lines (over 60) with no reason beside its def"
    ]
    reason = "# Long on purpose: one branch per kind"
    assert problems(long_functions(_planted(80, reason), "m")) == []
    assert problems(long_functions(_planted(80, reason, decorated=True), "m")) == []
    assert problems(long_functions(_planted(80, "# noqa: C901"), "m")) != [], "a bare noqa is no reason"
    assert problems(long_functions(_planted(101, reason), "m")) == ["m:planted is 101 lines (over 100): split it"]
    inline = "def planted(x):  # noqa: C901 -- one check per rule, in order\n" + "    x += 1\n" * 70
    assert long_functions(inline, "m")[0][2] == "one check per rule, in order"
    nested = "class K:\n    def method(self):\n" + "        pass\n" * 70
    assert problems(long_functions(nested, "m")) == ["m:K.method is 71 lines (over 60) with no reason beside its def"]
