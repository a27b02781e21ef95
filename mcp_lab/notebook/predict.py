"""Predict, then see: the learner commits to an answer before the real exchange is shown.

    guess = mcp_lab.predict("version-mismatch")   # words from mcp_lab/course/lessons/; displays
    # next cell
    with guess.reveal():               # hidden until the prediction above is made
        old = cal.request("tools/list", {"_meta": {...}})
        print(cal.trace.received[-1])
    guess.expect(old.code)             # what crossed the wire; the reason comes with the words

Theory of operation
-------------------
`Prediction` owns a small form: the question, the options (RadioButtons), or a text / integer
box for `kind=str` / `kind=int`, and a Predict button.  Pressing Predict freezes the form (a
prediction changed after seeing the answer is not a prediction) and tells every reveal area.
`reveal()` is a context manager around an `ipywidgets.Output` that stays hidden until then; what
the block prints or displays is captured in it, and above it a line says "Make your prediction
above to see what came back".  An exception in the block is not swallowed into the hidden area:
it propagates and shows as the cell's error, as any other failure would.
The reason (`why`, from the lesson's words) is the rule behind the answer, in the quiz's Markdown
subset with its spec links: the paragraph that states the rule would answer the prediction if it
stood in a markdown cell under the widget, so it is shown with the verdict instead.
`expect(value)` records the real answer, computed by the cell from what came back (never
written in the cell: its source is on screen before the learner commits); the verdict ("Your prediction held" or "Not
quite: ..." and the reason) appears under the revealed output once both are known, so
answer-then-expect and expect-then-answer both work.  The prediction registers with
`mcp_lab.notebook.interactions` as kind "prediction"; `answer(value)` sets the real widget and
presses the real button.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from mcp_lab.notebook import interactions
from mcp_lab.notebook.quiz import markdown_html
from mcp_lab.wire.words import _

__all__ = ["Prediction", "predict"]


def waiting() -> str:
    """The line over a hidden reveal area, in the edition's language."""
    return _("Make your prediction above to see what came back.")


class Prediction:
    """One prediction: options to pick from, or a typed answer (`kind=int` / `kind=str`)."""

    def __init__(
        self,
        key: str,
        prompt: str,
        options: Sequence[str] | None = None,
        *,
        kind: type | None = None,
        why: str | None = None,
    ):
        if options is None and kind not in (int, str):
            raise ValueError("a prediction needs options=[...] or kind=int / kind=str")
        if options is not None and (kind not in (None, str) or len(list(options)) < 2):
            raise ValueError("options=[...] takes at least two strings (and no kind=)")
        import ipywidgets as w

        self.key, self.prompt = key, prompt
        self.options = [str(o) for o in options] if options is not None else None
        self.kind = str if options is not None else kind
        self.value: Any = None  # the prediction, once made
        self.actual: Any = None
        self.why: str | None = why
        self._expected = False
        self._reveals: list[dict] = []
        if self.options is not None:
            # Each option shows in the edition's language; its value stays the author's English, so
            # the verdict compares like with like in every edition.
            self._input = w.RadioButtons(
                options=[(_(o), o) for o in self.options], value=None, layout=w.Layout(width="auto")
            )
        elif kind is int:
            # A text box, not an IntText: an IntText shows 0 before the learner types, and 0 may be
            # the answer (predict, then see); the number is read when Predict is pressed.
            self._input = w.Text(value="", placeholder=_("a whole number"), layout=w.Layout(width="10em"))
        else:
            self._input = w.Text(value="", placeholder=_("your prediction"), layout=w.Layout(width="24em"))
        self._button = w.Button(description=_("Predict"), button_style="primary")
        self._note = w.HTML("")
        self._button.on_click(lambda _b: self._predicted())
        title = w.HTML("<b>{}</b> {}".format(html.escape(_("Predict:")), html.escape(_(prompt))))
        self.widget = w.VBox([title, self._input, self._button, self._note])
        self.interaction = interactions.register(
            key, "prediction", is_done=lambda: self.made, act=self._act, widget=self.widget, owner=self
        )

    # -- the learner's side ---------------------------------------------------------------
    @property
    def made(self) -> bool:
        return self.value is not None

    def _act(self, value: Any) -> None:
        if self.options is not None and value not in self.options:
            raise ValueError(f"{self.key}: {value!r} is not one of the options {self.options}")
        self._input.value = str(value) if self.kind is int else value
        self._button.click()

    def _predicted(self) -> None:
        if self.made:
            return
        raw = self._input.value
        if self.options is not None and raw is None:
            self._note.value = "<i>{}</i>".format(_("Pick an option first."))
            return
        if self.kind is str and self.options is None and not str(raw).strip():
            self._note.value = "<i>{}</i>".format(_("Type your prediction first."))
            return
        if self.kind is int:
            try:
                raw = int(str(raw).strip())
            except ValueError:
                self._note.value = "<i>{}</i>".format(_("Type a whole number first."))
                return
        self.value = raw if self.kind is int else str(raw).strip()
        self._input.disabled = self._button.disabled = True
        self._note.value = _("You predicted <b>{value}</b>. Now look below.").format(
            value=html.escape(str(self._shown(self.value)))
        )
        self.interaction.settle()
        self._refresh()

    # -- the author's side ----------------------------------------------------------------
    def reveal(self) -> "_Reveal":
        """A `with` block whose output stays hidden until the prediction is made."""
        import ipywidgets as w

        area = {
            "wait": w.HTML(f"<i>{waiting()}</i>"),
            "out": w.Output(),
            "verdict": w.HTML(""),
        }
        area["box"] = w.VBox([area["wait"], area["out"], area["verdict"]])
        self._reveals.append(area)
        self._refresh()
        return _Reveal(area)

    def expect(self, actual: Any, *, why: str | None = None) -> None:
        """The real answer (computed from the exchange) and, unless given with the question, the
        reason; the verdict shows once the prediction is made."""
        self.actual, self._expected = actual, True
        if why is not None:
            self.why = why
        if not self._reveals:  # no reveal block: the verdict gets its own area in this cell
            import ipywidgets as w
            from IPython.display import display

            area = {"wait": w.HTML(f"<i>{waiting()}</i>"), "out": None, "verdict": w.HTML("")}
            area["box"] = w.VBox([area["wait"], area["verdict"]])
            self._reveals.append(area)
            display(area["box"])
        self._refresh()

    @property
    def held(self) -> bool | None:
        """None until both the prediction and the real answer are known; then whether it held."""
        if not (self.made and self._expected):
            return None
        return _same(self.value, self.actual, self.kind)

    def verdict(self) -> str:
        """The verdict as plain text ('' until both sides are known)."""
        if self.held is None:
            return ""
        why = " " + _("Why: {reason}").format(reason=_(self.why)) if self.why else ""
        actual = self._shown(self.actual)
        if self.held:
            return _("Your prediction held: {answer}.").format(answer=actual) + why
        return (
            _("Not quite: you predicted {guess}, the answer is {answer}.").format(
                guess=self._shown(self.value), answer=actual
            )
            + why
        )

    def _shown(self, value: Any) -> Any:
        """An option as the learner reads it (in the edition's language); any other value as it is."""
        return _(value) if self.options is not None and value in self.options else value

    def _refresh(self) -> None:
        for area in self._reveals:
            # "" (not None) shows a hidden widget again: the browser edition's kernel turns None into
            # JavaScript's undefined, which drops the change, and the revealed output stayed hidden.
            shown = "" if self.made else "none"
            area["wait"].layout.display = "none" if self.made else ""
            if area["out"] is not None:
                area["out"].layout.display = shown
            text = self.verdict()
            colour = "#e6f4ea" if self.held else "#fce8e6"
            area["verdict"].value = (
                f"<div style='background:{colour};padding:4px'>{markdown_html(text)}</div>" if text else ""
            )

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)

    def __repr__(self) -> str:
        return f"<Prediction {self.key!r} {'made: ' + repr(self.value) if self.made else 'waiting'}>"


def _same(predicted: Any, actual: Any, kind: type) -> bool:
    if kind is int:
        try:
            return int(predicted) == int(actual)
        except (TypeError, ValueError):
            return False
    return str(predicted).strip().casefold() == str(actual).strip().casefold()


class _Reveal:
    """The context manager `Prediction.reveal()` returns: displays the area, captures into it."""

    def __init__(self, area: dict):
        self.area = area

    def __enter__(self):
        from IPython.display import display

        display(self.area["box"])
        self.area["out"].__enter__()
        return self.area["out"]

    def __exit__(self, etype, evalue, tb):
        # Never hide a failure in the hidden area: end the capture, let the error reach the cell.
        self.area["out"].__exit__(None, None, None)
        return False


def predict(
    key: str, prompt: str, options: Sequence[str] | None = None, *, kind: type | None = None, why: str | None = None
) -> Prediction:
    """A prediction the learner makes before the next cell's real exchange is revealed."""
    return Prediction(key, prompt, options, kind=kind, why=why)
