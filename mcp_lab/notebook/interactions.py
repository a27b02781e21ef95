"""Every interactive part of a lesson, in one kernel-wide registry: what still waits for the person.

    from mcp_lab.notebook import interactions
    interactions.pending()                 # the unanswered ones: .key, .kind, .done, .answer(value)
    interactions.answer("dentist", {"startsAt": "2026-09-10T08:30"})

Theory of operation
-------------------
A quiz question, a prediction, an elicitation form, a consent prompt, a choice exercise and a
`%%rpc` challenge each register themselves here under a *key* the notebook's author gives
(unique within the notebook, short, kebab-case) and a *kind*.  The registry never decides
anything: an `Interaction` only knows how to ask its owner whether it is done and how to act on
an answer, and `answer(value)` goes through the very widget handlers a person's click runs (it
sets the real widgets and presses the real buttons).  So a test (or a teacher's script) answers
exactly what a learner would, and a learner's Run All leaves everything unanswered.

While an interaction is pending its outermost widget carries the CSS class `mcp-lab-pending`
(`PENDING_CLASS`); the owner calls `settle()` when a click answered it, which removes the class.
A browser counts `.mcp-lab-pending` elements to see what still waits.

Re-running a cell replaces what it registered: registering a key that exists replaces it, and
when a cell starts again (IPython's `pre_run_cell`), whatever its previous run registered is
dropped first, since its widgets left the page with the cell's old output.  A cell is known by
the id the front end sends (JupyterLab does), else by its source text.  Interactions created
later by a click (the second round of a form) carry the cell of the object that made them
(`origin`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = [
    "add_listener",
    "KINDS",
    "PENDING_CLASS",
    "Interaction",
    "all_interactions",
    "answer",
    "clear",
    "conflicts",
    "current_origin",
    "free_key",
    "get",
    "pending",
    "register",
    "watch_cells",
]

PENDING_CLASS = "mcp-lab-pending"
KINDS = ("quiz", "prediction", "form", "consent", "choice", "challenge", "task")

_registry: dict[str, "Interaction"] = {}
_conflicts: list[str] = []  # keys two different cells registered (an author's mistake)
_origin: str | None = None  # the cell running now (None between cells, e.g. in a click handler)
_watching = False
_cells_run: set[str] = set()  # the distinct cells this kernel ran (for the hub's room view)


@dataclass(eq=False)
class Interaction:
    """One interactive part, as the registry sees it.

    `is_done()` asks the owner; `act(value)` answers through the owner's widgets; `widget` is
    the outermost widget (it carries `PENDING_CLASS` while pending); `owner` is the object that
    registered it (a Question, a Prediction, a form...); `solution` is the right answer where the
    owner knows one (a quiz question), else None.
    """

    key: str
    kind: str
    is_done: Callable[[], bool]
    act: Callable[[Any], Any]
    widget: Any = None
    owner: Any = None
    solution: Any = None
    origin: str | None = None
    _settled: bool = field(default=False, repr=False)

    @property
    def done(self) -> bool:
        return bool(self.is_done())

    def answer(self, value: Any) -> Any:
        """Answer as the person would (the owner's widget handlers run), then settle.

        A click happens between cells, so the handlers run with no current cell: whatever they
        register (the next round's form, the next consent prompt) belongs to its owner's cell.
        """
        global _origin
        saved, _origin = _origin, None
        try:
            result = self.act(value)
        finally:
            _origin = saved
        self.settle()
        return result

    def settle(self) -> None:
        """Drop the pending mark from the widget once the owner says it is done."""
        if self.widget is not None and self.done:
            self.widget.remove_class(PENDING_CLASS)
        _publish()

    def __repr__(self) -> str:
        return f"<Interaction {self.key!r} {self.kind} {'done' if self.done else 'pending'}>"


def current_origin() -> str | None:
    """The cell running now (its id, or a digest of its source), or None outside a cell."""
    return _origin


def register(
    key: str,
    kind: str,
    *,
    is_done: Callable[[], bool],
    act: Callable[[Any], Any],
    widget: Any = None,
    owner: Any = None,
    solution: Any = None,
    origin: str | None = None,
) -> Interaction:
    """Register (or replace) the interaction under `key`; mark its widget pending."""
    if not isinstance(key, str) or not key.strip():
        raise ValueError(f"an interaction needs a key (a short kebab-case name), got {key!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    watch_cells()
    item = Interaction(
        key,
        kind,
        is_done,
        act,
        widget=widget,
        owner=owner,
        solution=solution,
        origin=origin if origin is not None else _origin,
    )
    old = _registry.get(key)
    if old is not None and None not in (old.origin, item.origin) and old.origin != item.origin:
        _conflicts.append(key)  # the earlier one is gone from the registry: say so to the tests
    _registry[key] = item
    if widget is not None:
        if item.done:
            widget.remove_class(PENDING_CLASS)
        else:
            widget.add_class(PENDING_CLASS)
    return item


def get(key: str) -> Interaction:
    try:
        return _registry[key]
    except KeyError:
        known = ", ".join(sorted(_registry)) or "none yet"
        raise KeyError(f"no interaction {key!r} in this kernel (registered: {known})") from None


def all_interactions() -> list[Interaction]:
    """Every registered interaction, in the order they were registered."""
    return list(_registry.values())


def pending() -> list[Interaction]:
    """The interactions still waiting for an answer."""
    return [i for i in _registry.values() if not i.done]


def answer(key: str, value: Any) -> Any:
    """Answer the interaction `key` with `value`, through its widgets."""
    return get(key).answer(value)


def conflicts() -> list[str]:
    """Keys that two different cells registered (the later replaced the earlier): give each
    interaction of a notebook its own key."""
    return list(_conflicts)


def clear() -> None:
    """Forget every interaction (a fresh kernel's state)."""
    _registry.clear()
    _conflicts.clear()


def free_key(prefix: str) -> str:
    """`prefix/n` for the smallest n >= 1 not registered (consent prompts, several forms)."""
    n = 1
    while f"{prefix}/{n}" in _registry:
        n += 1
    return f"{prefix}/{n}"


# --------------------------------------------------------------------------------------------
# Which cell is running: IPython's pre/post_run_cell events
# --------------------------------------------------------------------------------------------
def _cell_origin(info) -> str:
    cell_id = getattr(info, "cell_id", None)
    if cell_id:
        return f"cell:{cell_id}"
    raw = getattr(info, "raw_cell", "") or ""
    return "source:" + hashlib.sha1(raw.encode("utf-8")).hexdigest()[:16]


def _pre_run_cell(info) -> None:
    global _origin
    _origin = _cell_origin(info)
    for key in [k for k, i in _registry.items() if i.origin == _origin]:
        del _registry[key]


def _post_run_cell(_result) -> None:
    global _origin
    if _origin is not None:
        _cells_run.add(_origin)
    _origin = None
    _publish()


# Who wants to hear after each cell which cells ran and what still waits: the workshop hub's
# room view registers one (mcp_lab.notebook.room_status, loaded as a kernel extension there).
_listeners: list[Callable[[list[str], list[tuple[str, str]]], None]] = []


def add_listener(listener: Callable[[list[str], list[tuple[str, str]]], None]) -> None:
    """Call `listener(cells_run, [(key, kind), ...])` after every cell (idempotent)."""
    if listener not in _listeners:
        _listeners.append(listener)


def _publish() -> None:
    for listener in _listeners:
        listener(sorted(_cells_run), [(i.key, i.kind) for i in pending()])


def watch_cells(shell=None) -> bool:
    """Follow cell runs in this IPython (idempotent); False outside IPython."""
    global _watching
    if _watching:
        return True
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:  # pragma: no cover - the notebook layer always has IPython
            return False
        shell = get_ipython()
    if shell is None:
        return False
    shell.events.register("pre_run_cell", _pre_run_cell)
    shell.events.register("post_run_cell", _post_run_cell)
    _watching = True
    return True
