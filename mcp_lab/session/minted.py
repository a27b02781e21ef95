"""Values a server minted and the client sent back: learned on replay, so a stateful session replays.

A recording of a stateful conversation holds names the server made up: a calendar handle
(`cal_…`) returned by `create_calendar` and passed as `calendar` to every later call, a list id,
a job id, a page cursor.  Replayed as recorded, those calls name something the new server never
issued ("Unknown calendar handle"), or, against the very server that was recorded, write into
the recorded calendar.  So, as the replay already does for ids and `requestState`:

1. `candidates(steps)`: a string is *minted* when it first appears in a recorded answer's
   `result` and later as an **argument value** of a recorded request (a leaf under
   `params.arguments`, or `params.cursor`), never earlier in a request (then the client knew it
   first: it is an argument, not a minted value);
2. `Minted.learn(recorded_result, new_result)`: the new server's answer at the same JSON path
   gives the replacement (a handle in `structuredContent.calendar`, or a whole text block);
3. `Minted.forward(params)`: every later request carries the new values instead, whole or inside
   a longer string, in argument values only; `Minted.back(x)` maps the new values back for the
   comparison alone, so the diff judges what the server decided, not which name it drew, while
   every row keeps the request exactly as it was sent.

What is never substituted: the method, and the name of the tool, prompt or resource a request
asks for (`params.name`, `params.uri`).  Those are the client's choice, not a value the server
minted; "learning" one from the new server's catalog at the same index would send a different
request than the one recorded (a `tools/call create_event` becoming `create_calendar`, a write
to the wrong tool).  For the same reason the entries of a catalog result (`tools`, `prompts`,
`resources`, `resourceTemplates`) are never a source: only its `nextCursor` is minted.

A candidate the new server gave no replacement for is sent as recorded, and the replay says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

__all__ = ["candidates", "Minted"]

_MIN = 6  # shorter strings ("ok", "e1") are too common to be told apart from arguments
# Where a request carries values the client may have been handed by the server: its arguments
# and a page cursor.  Everything else in params (method, name, uri, _meta) is sent as recorded.
ARGUMENT_PLACES = ("arguments", "cursor")
# Catalog entries are what the server offers, not what it minted for this conversation.
_CATALOGS = frozenset({"tools", "prompts", "resources", "resourceTemplates"})


def _leaves(v: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(v, str):
        yield path, v
    elif isinstance(v, dict):
        for k, x in v.items():
            if k not in ("_meta", "requestState"):
                yield from _leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))


def _at(v: Any, path: tuple) -> Any:
    for p in path:
        if isinstance(v, dict) and isinstance(p, str):
            v = v.get(p)
        elif isinstance(v, list) and isinstance(p, int) and p < len(v):
            v = v[p]
        else:
            return None
    return v


def _argument_values(params: Any) -> Iterator[str]:
    """The strings a request sends as argument values (see ARGUMENT_PLACES)."""
    if isinstance(params, dict):
        for place in ARGUMENT_PLACES:
            for _, s in _leaves(params.get(place)):
                yield s


def _minted_leaves(result: Any) -> Iterator[tuple[tuple, str]]:
    """The strings of a result that the server may have minted (not its catalog entries)."""
    if isinstance(result, dict):
        result = {k: v for k, v in result.items() if k not in _CATALOGS}
    yield from _leaves(result)


def candidates(steps) -> set[str]:
    """The minted values of a recorded conversation (`replay.Step`s, in order)."""
    answered: set[str] = set()
    asked: set[str] = set()
    out: set[str] = set()
    for step in steps:
        params = step.params or {}
        for s in _argument_values(params):
            if s in answered and s not in asked:
                out.add(s)
        asked.update(s for _, s in _leaves(params))
        answer = step.recorded.answer if step.recorded is not None else None
        result = answer.get("result") if isinstance(answer, dict) else None
        answered.update(s for _, s in _minted_leaves(result) if len(s) >= _MIN and s not in asked)
    return out


def _replace(v: Any, pattern: re.Pattern | None, table: dict[str, str]) -> Any:
    if pattern is None:
        return v
    if isinstance(v, str):
        return pattern.sub(lambda m: table[m.group(0)], v)
    if isinstance(v, dict):
        return {k: _replace(x, pattern, table) for k, x in v.items()}
    if isinstance(v, list):
        return [_replace(x, pattern, table) for x in v]
    return v


def _compile(table: dict[str, str]) -> re.Pattern | None:
    if not table:
        return None
    return re.compile("|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)))


class Minted:
    """The replacements learned so far: recorded value -> the new server's."""

    def __init__(self, wanted: set[str]):
        self.wanted = set(wanted)
        self.table: dict[str, str] = {}

    def learn(self, recorded_result: Any, new_result: Any) -> None:
        for path, old in _minted_leaves(recorded_result):
            if old in self.wanted and old not in self.table:
                new = _at(new_result, path)
                if isinstance(new, str) and new != old:
                    self.table[old] = new

    def forward(self, params: Any) -> Any:
        """`params` with the learned values put in its argument places (nowhere else)."""
        pattern = _compile(self.table)
        if pattern is None or not isinstance(params, dict):
            return params
        out = dict(params)
        for place in ARGUMENT_PLACES:
            if place in out:
                out[place] = _replace(out[place], pattern, self.table)
        return out

    def substituted(self, params: Any) -> list[tuple[str, str]]:
        """(recorded, sent) for each learned value `forward` puts into these params."""
        values = list(_argument_values(params))
        return sorted({(old, new) for old, new in self.table.items() if any(old in s for s in values)})

    def back(self, value: Any) -> Any:
        rev = {new: old for old, new in self.table.items()}
        return _replace(value, _compile(rev), rev)

    def unlearned(self, params: Any) -> list[str]:
        """Minted values this request would still send as recorded (no replacement learned)."""
        return sorted({s for s in _argument_values(params) if s in self.wanted and s not in self.table})
