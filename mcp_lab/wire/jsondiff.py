"""A structural JSON diff, and the normalisation that comes before it. Pure: no I/O.

`diff(a, b)` walks two decoded JSON values side by side and returns one `Change` per place
where they differ, each with a path (`result.tools[3].name`), the value on the left and the
value on the right.  Objects are compared key by key; arrays position by position (an array
whose length differs reports the extra or missing items at the end, which is what a reader
of a catalog wants to see: "tools[12] added").  Values of different JSON types are one change.

`normalise(value, rules)` replaces what legitimately varies between two runs of the same
conversation with a fixed placeholder before the comparison, so that the diff shows what a
server *decided*, not what it drew at random: the JSON-RPC id, every `requestState` (opaque:
two servers, or one server twice, issue different ones), the time stamps a server puts in a
result (`timestamp`, `lastModified`, `createdAt`, `updatedAt`), and, when asked, the server's
version.  A rule is a path pattern where `*` matches one key or index and `**` any depth.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = [
    "Change",
    "diff",
    "normalise",
    "format_path",
    "path_matches",
    "DEFAULT_RULES",
    "TIMESTAMP_RULES",
    "SERVER_VERSION_RULES",
    "PLACEHOLDER",
    "view_rules",
]

PLACEHOLDER = "<varies>"

# What varies between two honest runs of one conversation: the JSON-RPC id, the opaque
# requestState, and the fields that state when a server produced something (the Trace's own
# times, `t` and `elapsed_ms`, are never compared: they are not in the messages).
TIMESTAMP_RULES: tuple[str, ...] = ("**.timestamp", "**.lastModified", "**.createdAt", "**.updatedAt")
DEFAULT_RULES: tuple[str, ...] = ("id", "**.requestState") + TIMESTAMP_RULES
# serverInfo.version: legacy servers state it in the initialize result, modern ones in _meta.
SERVER_VERSION_RULES: tuple[str, ...] = ("result.serverInfo.version", "**.io.modelcontextprotocol/serverInfo.version")

_MISSING = object()


@dataclass(frozen=True)
class Change:
    """One difference: where, and the two values (`None` with `kind` saying which side lacks it)."""

    path: tuple
    kind: str  # "changed" | "added" (only on the right) | "removed" (only on the left)
    left: Any = None
    right: Any = None

    @property
    def where(self) -> str:
        return format_path(self.path)

    def text(self, width: int = 100) -> str:
        def show(v: Any) -> str:
            s = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
            return s if len(s) <= width else s[: width - 1] + "…"

        if self.kind == "added":
            return f"+ {self.where}: {show(self.right)}"
        if self.kind == "removed":
            return f"- {self.where}: {show(self.left)}"
        return f"~ {self.where}: {show(self.left)} -> {show(self.right)}"


_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_/-]*$")


def format_path(path: Iterable) -> str:
    """`('result', 'tools', 3, 'name')` -> `result.tools[3].name` (odd keys quoted)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN.match(part):
            out += ("." if out else "") + part
        else:
            out += "[" + json.dumps(part, ensure_ascii=False) + "]"
    return out or "(whole message)"


def _compile(rule: str) -> tuple[str, ...]:
    # A key may itself hold dots and slashes (`io.modelcontextprotocol/serverInfo`): such a key
    # is written whole in a rule, and matched by trying every way to join pattern pieces.
    return tuple(rule.split("."))


def _step(states: frozenset, key: str) -> frozenset:
    """Advance every (pattern, position) state over one path key: a small automaton, so a
    document is walked once whatever the number of rules."""
    out = set()
    todo = list(states)
    while todo:
        pat, i = todo.pop()
        if i >= len(pat):
            continue
        if pat[i] == "**":
            out.add((pat, i))  # ** eats this key and stays
            todo.append((pat, i + 1))  # ... or matches nothing
            continue
        for n in range(1, len(pat) - i + 1):
            piece = pat[i : i + n]
            if "**" in piece:
                break
            if (n == 1 and piece[0] == "*") or ".".join(piece) == key:
                out.add((pat, i + n))
    return frozenset(out)


@functools.lru_cache(maxsize=8192)
def _advance(states: frozenset, key: str) -> tuple[frozenset, bool]:
    """`_step`, remembered (a catalog repeats the same keys thousands of times), and whether a
    rule is complete at this key."""
    nxt = _step(states, key)
    return nxt, any(i == len(pat) for pat, i in nxt)


def path_matches(path: tuple, rule: str) -> bool:
    """Does `path` match the pattern `rule` (dot-separated, `*` one step, `**` any depth)?"""
    states = frozenset({(_compile(rule), 0)})
    for key in path:
        states = _step(states, str(key))
    return any(i == len(pat) for pat, i in states)


def normalise(value: Any, rules: Iterable[str] = DEFAULT_RULES, *, placeholder: Any = PLACEHOLDER) -> Any:
    """A copy of `value` where every place matching a rule holds `placeholder` instead."""
    start = frozenset((_compile(r), 0) for r in rules)

    def walk(v: Any, states: frozenset) -> Any:
        if not states:
            return v  # no rule can match below here: the value is kept as it is
        if isinstance(v, dict):
            out = {}
            for k, x in v.items():
                nxt, hit = _advance(states, str(k))
                out[k] = placeholder if hit else walk(x, nxt)
            return out
        if isinstance(v, list):
            out_list = []
            for n, x in enumerate(v):
                nxt, hit = _advance(states, str(n))
                out_list.append(placeholder if hit else walk(x, nxt))
            return out_list
        return v

    return walk(value, start)


def diff(left: Any, right: Any, path: tuple = ()) -> list[Change]:
    """Every difference between two JSON values, in document order (left's keys first)."""
    if isinstance(left, dict) and isinstance(right, dict):
        out: list[Change] = []
        for k in list(left) + [k for k in right if k not in left]:
            a, b = left.get(k, _MISSING), right.get(k, _MISSING)
            if a is _MISSING:
                out.append(Change(path + (k,), "added", None, b))
            elif b is _MISSING:
                out.append(Change(path + (k,), "removed", a, None))
            else:
                out += diff(a, b, path + (k,))
        return out
    if isinstance(left, list) and isinstance(right, list):
        out = []
        for i in range(max(len(left), len(right))):
            if i >= len(left):
                out.append(Change(path + (i,), "added", None, right[i]))
            elif i >= len(right):
                out.append(Change(path + (i,), "removed", left[i], None))
            else:
                out += diff(left[i], right[i], path + (i,))
        return out
    if _same_scalar(left, right):
        return []
    return [Change(path, "changed", left, right)]


def _same_scalar(a: Any, b: Any) -> bool:
    # JSON has one number type but true is not 1: compare the type family, then the value.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


# A diff path as printed (`tools[1]`, `[*]`, `["a.b"]`) read as dotted steps.
_INDEX = re.compile(r"\[(\d+|\*|\"(?:[^\"\\]|\\.)*\")\]")


def view_rules(rule: str) -> tuple[str, ...]:
    """One rule as patterns over an exchange's view ({"request": ..., "answer": ...}): brackets
    become steps (`tools[1]` -> `tools.1`, `[*]` -> `*`); a rule that names neither side applies
    to both messages, as the rules relative to one message always did."""

    def step(m: re.Match) -> str:
        inner = m.group(1)
        return "." + (json.loads(inner) if inner.startswith('"') else inner)

    r = _INDEX.sub(step, rule.strip()).lstrip(".")
    if r.startswith(("answer.", "request.", "**")) or r in ("answer", "request"):
        return (r,)
    return (f"request.{r}", f"answer.{r}")
