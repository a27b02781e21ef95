"""Two conversations side by side: which exchanges are the same, changed, missing or extra.

An *exchange* is one client message and the server's answer to it (a request and its result or
error; a notification and nothing), or one message the server sent unasked.  `exchanges(trace)`
reads them off a Trace (`mcp_lab.session.exchanges`, re-exported here).  `compare(left, right)` aligns two lists of exchanges by what was asked
(method, and the tool, prompt or resource named), then compares each aligned pair after
normalising what legitimately varies (see `mcp_lab.wire.jsondiff`): the result is a `TraceDiff`,
whose `.same` is True only when every exchange is the same and nothing stopped the comparison.

    d = mcp_lab.session.diff.diff("a.jsonl", "b.jsonl")     # two cassettes
    d.same, d.counts, print(d.text())                       # HTML in a notebook
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from typing import Any, Iterable

from mcp_lab.session import cassette
from mcp_lab.session.exchanges import RpcExchange, exchanges
from mcp_lab.wire import jsondiff, views
from mcp_lab.wire.jsondiff import Change, view_rules
from mcp_lab.wire.trace import Trace

__all__ = ["RpcExchange", "ExchangeDiff", "TraceDiff", "exchanges", "compare", "diff", "rules_for"]

STATUSES = ("same", "changed", "missing", "extra")


@dataclass
class ExchangeDiff:
    status: str  # same | changed | missing | extra
    left: RpcExchange | None
    right: RpcExchange | None
    changes: list[Change] = field(default_factory=list)
    why: str | None = None  # a reason: why an exchange is missing, what the era change did

    @property
    def label(self) -> str:
        """What was asked, as sent: the new side when there is one (a replay's real request)."""
        side = self.right if self.right is not None else self.left
        if side is None:
            raise ValueError("an ExchangeDiff has at least one side")
        return side.label


@dataclass
class TraceDiff:
    """The outcome of a replay or of a comparison of two recordings."""

    items: list[ExchangeDiff]
    left_name: str = "recorded"
    right_name: str = "replayed"
    rules: tuple = jsondiff.DEFAULT_RULES
    error: str | None = None  # why the run stopped early (the diff is then partial)
    notes: list[str] = field(default_factory=list)  # what an era conversion changed, and other remarks
    trace: Trace | None = field(default=None, repr=False)  # the new conversation (replay only)
    warnings: list[str] = field(default_factory=list)  # e.g. an --ignore rule that matched nothing
    unreached: bool = False  # replay: the server answered nothing at all (could not be reached)
    exception: BaseException | None = field(default=None, repr=False)  # replay: why it stopped

    @property
    def same(self) -> bool:
        return self.error is None and all(i.status == "same" for i in self.items)

    @property
    def counts(self) -> dict[str, int]:
        return {s: sum(1 for i in self.items if i.status == s) for s in STATUSES}

    def of(self, status: str) -> list[ExchangeDiff]:
        return [i for i in self.items if i.status == status]

    def headline(self) -> str:
        c = self.counts
        verdict = "SAME" if self.same else ("PARTIAL, " if self.error else "") + "DIFFERENT"
        return (
            f"{self.left_name} vs {self.right_name}: " + ", ".join(f"{c[s]} {s}" for s in STATUSES) + f" -> {verdict}"
        )

    def text(self, width: int = 100) -> str:
        out = [self.headline()]
        out += [f"  note: {n}" for n in self.notes]
        if self.error:
            out.append(f"  stopped early: {self.error}")
        if self.rules:
            out.append(f"  ignored (normalised before comparing): {', '.join(self.rules)}")
        for n, item in enumerate(self.items, 1):
            left = item.left.outcome if item.left else "-"
            right = item.right.outcome if item.right else "-"
            out.append(f"{n:3d} {item.status:<8} {item.label}   [{left} | {right}]")
            if item.why:
                out.append(f"             {item.why}")
            out += [f"             {c.text(width)}" for c in item.changes]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<TraceDiff {self.headline()}>"

    def _repr_html_(self) -> str | None:
        """Jupyter's view, drawn by the notebook layer (`mcp_lab.notebook.diff_views`)."""
        return views.html("diff", self)


# -- comparing ----------------------------------------------------------------------------------
def rules_for(*, server_version: bool = False, ignore: Iterable[str] = ()) -> tuple:
    """The normalisation rules: ids and requestState always, serverInfo.version on request, and
    `ignore`, each written as the diff prints a path (`answer.result.tools[1].inputSchema`,
    `[*]` for any index) or, as before, relative to one message (`result.instructions`)."""
    rules = jsondiff.DEFAULT_RULES + (jsondiff.SERVER_VERSION_RULES if server_version else ())
    return rules + tuple(ignore)


def _compiled(rules: tuple) -> tuple:
    return tuple(p for r in rules for p in view_rules(r))


_DROP = object()


def _strip(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _strip(x) for k, x in v.items() if x is not _DROP}
    if isinstance(v, list):
        return [_strip(x) for x in v if x is not _DROP]
    return v


def _view(x: RpcExchange, rules: tuple) -> dict:
    """What is compared: the request and the answer, with what varies normalised (the default
    rules: a placeholder, so presence still counts) and what the caller ignores removed (so a
    place present on one side only is ignored too).  A replayed exchange is read in the
    recording's names (`RpcExchange.compared_as`)."""
    x = x.compared_as or x
    view: dict[str, Any] = {}
    if x.kind != "server":
        view["request"] = x.request if x.request is not None else x.request_line
    view["answer"] = x.answer
    defaults = set(jsondiff.DEFAULT_RULES + jsondiff.SERVER_VERSION_RULES)
    own = tuple(r for r in rules if r not in defaults)
    if own:
        view = _strip(jsondiff.normalise(view, _compiled(own), placeholder=_DROP))
    return jsondiff.normalise(view, _compiled(tuple(r for r in rules if r in defaults)))


def unmatched(items: list["ExchangeDiff"], ignore: Iterable[str]) -> list[str]:
    """A warning for each `ignore` rule that matched no place in either conversation."""
    views = []
    for i in items:
        for x in (i.left, i.right):
            if x is not None:
                raw = {"answer": x.answer} if x.kind == "server" else {"request": x.request, "answer": x.answer}
                views.append(raw)
    out = []
    for rule in ignore:
        pats = view_rules(rule)
        if not any(jsondiff.normalise(v, pats, placeholder=_HIT) != v for v in views):
            out.append(
                f"--ignore {rule!r} matched nothing in either conversation; write a path as the diff "
                "prints it, e.g. 'answer.result.tools[*].description'"
            )
    return out


_HIT = "\0ignored"


def pair(left: RpcExchange | None, right: RpcExchange | None, rules: tuple, why: str | None = None) -> ExchangeDiff:
    """One aligned pair, compared (either side may be absent: missing or extra)."""
    if right is None:
        return ExchangeDiff("missing", left, None, [], why)
    if left is None:
        return ExchangeDiff("extra", None, right, [], why)
    changes = jsondiff.diff(_view(left, rules), _view(right, rules))
    return ExchangeDiff("changed" if changes else "same", left, right, changes, why)


def compare(
    left: list[RpcExchange], right: list[RpcExchange], rules: tuple = jsondiff.DEFAULT_RULES
) -> list[ExchangeDiff]:
    """Align two exchange lists by what was asked, then compare each aligned pair."""
    matcher = difflib.SequenceMatcher(None, [x.key for x in left], [x.key for x in right], autojunk=False)
    out: list[ExchangeDiff] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out += [pair(a, b, rules) for a, b in zip(left[i1:i2], right[j1:j2])]
            continue
        out += [pair(a, None, rules, "not in the other conversation") for a in left[i1:i2]]
        out += [pair(None, b, rules, "not in the first conversation") for b in right[j1:j2]]
    return out


def _as_trace(x: Any) -> tuple[Trace, str]:
    if isinstance(x, Trace):
        return x, x.title or "trace"
    if isinstance(x, cassette.Cassette):
        return x.trace, x.path.name if x.path else "cassette"
    if isinstance(x, (str, os.PathLike)):
        c = cassette.read(x)
        return c.trace, os.path.basename(os.fspath(x))
    raise TypeError(f"expected a Trace, a Cassette or a cassette path, not {type(x).__name__}")


def diff(a: Any, b: Any, *, server_version: bool = False, ignore: Iterable[str] = ()) -> TraceDiff:
    """Compare two recordings (paths, Cassettes or Traces) exchange by exchange."""
    ta, na = _as_trace(a)
    tb, nb = _as_trace(b)
    if na == nb:
        na, nb = na + " (first)", nb + " (second)"
    rules = rules_for(server_version=server_version, ignore=ignore)
    items = compare(exchanges(ta), exchanges(tb), rules)
    return TraceDiff(items, na, nb, rules, warnings=unmatched(items, ignore))


def to_json(d: TraceDiff) -> dict:
    """The diff as plain JSON (the CLI's --json)."""
    return {
        "same": d.same,
        "counts": d.counts,
        "left": d.left_name,
        "right": d.right_name,
        "error": d.error,
        "notes": d.notes,
        "ignored": list(d.rules),
        "warnings": list(d.warnings),
        "exchanges": [
            {
                "status": i.status,
                "what": i.label,
                "sent": i.right.request_line if i.right is not None and i.right.kind != "server" else None,
                "why": i.why,
                "changes": [{"path": c.where, "kind": c.kind, "left": c.left, "right": c.right} for c in i.changes],
            }
            for i in d.items
        ],
    }


def dumps(d: TraceDiff) -> str:
    return json.dumps(to_json(d), indent=2, ensure_ascii=False)
