"""A choice exercise: one row per case, a dropdown per column, a Check button, every row explained.

    ex = Choice("primitives", rows={"create an event": (("tool", "model"), "an action...")},
                columns={"primitive": ["tool", "resource", "prompt"], "decided by": [...]})
    ex                                   # as a cell's last line: the learner picks, then Check

Theory of operation
-------------------
Nothing is graded, printed or computed for the learner before they press Check: the rows start
blank, and the right answers stay in the object.  Check grades every row and explains each one
(the right answer and why); a wrong row says what was picked.  The exercise registers with
`mcp_lab.notebook.interactions` as kind "choice": it is done once Check was pressed with every
row filled in (a wrong answer is an answer; the feedback teaches).  `answer(value)` takes the
learner's choices, `{row: (choice, ...)}` (or a list of tuples in row order, or plain strings for
a one-column exercise), sets the real dropdowns and presses the real Check button.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from mcp_lab.notebook import interactions
from mcp_lab.wire.words import _, ngettext

__all__ = ["Choice"]


class Choice:
    """`rows`: label -> (right choices, one per column; why). `columns`: header -> options."""

    def __init__(
        self,
        key: str,
        rows: Mapping[str, tuple[Sequence[str] | str, str]],
        columns: Mapping[str, Sequence[str]],
        *,
        title: str = "",
    ):
        import ipywidgets as w

        self.key, self.title = key, title
        self.columns = {h: list(o) for h, o in columns.items()}
        self.solution = {label: _as_tuple(right) for label, (right, _why) in rows.items()}
        self.why = {label: why for label, (_right, why) in rows.items()}
        for label, right in self.solution.items():
            if len(right) != len(self.columns):
                raise ValueError(f"row {label!r}: {len(right)} answers for {len(self.columns)} columns")
            for value, (header, options) in zip(right, self.columns.items()):
                if value not in options:
                    raise ValueError(f"row {label!r}: {value!r} is not an option of column {header!r}")
        self.checked = False
        self.score: int | None = None
        self._pickers: dict[str, list] = {}
        lines = []
        head = "".join(f"<th style='text-align:left;padding:0 6px'>{html.escape(_(h))}</th>" for h in self.columns)
        lines.append(w.HTML(f"<table><tr><th></th>{head}</tr></table>"))
        for label in self.solution:
            pickers = [
                w.Dropdown(
                    options=[(_("choose"), None)] + [(_(o), o) for o in options],
                    value=None,
                    layout=w.Layout(width="10em"),
                )
                for options in self.columns.values()
            ]
            self._pickers[label] = pickers
            text = w.HTML(html.escape(_(label)), layout=w.Layout(width="32em"))
            lines.append(w.HBox([text, *pickers]))
        self._button = w.Button(description=_("Check"), button_style="primary")
        self._feedback = w.HTML("")
        self._button.on_click(lambda _b: self._check())
        top = [w.HTML(f"<b>{html.escape(_(title))}</b>")] if title else []
        self.widget = w.VBox(top + lines + [self._button, self._feedback])
        self.interaction = interactions.register(
            key, "choice", is_done=lambda: self.checked, act=self._act, widget=self.widget, owner=self
        )

    @property
    def choices(self) -> dict[str, tuple]:
        """What the learner has picked so far (None where a row is blank)."""
        return {label: tuple(p.value for p in pickers) for label, pickers in self._pickers.items()}

    def _act(self, value: Any) -> int | None:
        if isinstance(value, Mapping):
            picked = {label: _as_tuple(v) for label, v in value.items()}
        else:
            picked = {label: _as_tuple(v) for label, v in zip(self.solution, value)}
        unknown = [label for label in picked if label not in self._pickers]
        if unknown:
            raise ValueError(f"{self.key}: no row {unknown[0]!r}; rows: {list(self._pickers)}")
        for label, values in picked.items():
            for picker, v in zip(self._pickers[label], values):
                picker.value = v
        self._button.click()
        return self.score

    def _check(self) -> None:
        chosen = self.choices
        blank = [label for label, values in chosen.items() if None in values]
        if blank:
            still = ngettext(
                "Fill in every line first ({n} line still blank).",
                "Fill in every line first ({n} lines still blank).",
                len(blank),
            )
            self._feedback.value = "<i>{}</i>".format(still.format(n=len(blank)))
            return
        right, items = 0, []
        for label, values in chosen.items():
            ok = values == self.solution[label]
            right += ok
            answer = ", ".join(_(a) for a in self.solution[label])
            shown, why = _(label), _(self.why[label])
            mark = (
                _("right") if ok else _("not quite: you picked {picked}").format(picked=", ".join(_(v) for v in values))
            )
            colour = "#e6f4ea" if ok else "#fce8e6"
            items.append(
                f"<li style='background:{colour};padding:1px 4px'>{html.escape(shown)}: <b>{html.escape(answer)}</b>"
                f" [{html.escape(mark)}]. {html.escape(why)}</li>"
            )
        self.checked, self.score = True, right
        self._feedback.value = (
            "<b>{}</b>".format(_("{right} of {total} right.").format(right=right, total=len(chosen)))
            + f"<ul style='margin:2px 0;padding-left:1.2em'>{''.join(items)}</ul>"
        )
        self.interaction.settle()

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        state = f"{self.score} of {len(self.solution)} right" if self.checked else "not checked yet"
        return f"<Choice {self.key!r}: {state}>"


def _as_tuple(value) -> tuple:
    return (value,) if isinstance(value, str) or value is None else tuple(value)
