"""One form field: a property of an elicitation schema as a real ipywidget, a label and an inline
message line. Built from a `mcp_lab.wire.elicitation.FieldSpec`; used by `ElicitationForm`.
"""

from __future__ import annotations

import datetime as _dt
import html
import math
from typing import Any

from mcp_lab.wire.elicitation import (
    EMAIL_RE,
    INT_RE,
    SPEC_ELICITATION,
    URI_RE,
    FieldSpec,
    format_number,
    is_count,
    is_num,
    parse_date,
    parse_datetime,
    utc_string,
)
from mcp_lab.wire.words import _

__all__ = ["Field", "esc", "load_ipywidgets"]


def load_ipywidgets():
    """ipywidgets, imported on first use so ``import mcp_lab.notebook.widgets`` stays cheap."""
    import ipywidgets

    return ipywidgets


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def _range(lo, hi, both: str, least: str, most: str, otherwise: str = "") -> str:
    """A hint for bounds: `both`, `least` and `most` are formats taking {lo} and {hi}."""
    if lo is not None and hi is not None:
        return both.format(lo=lo, hi=hi)
    if lo is not None:
        return least.format(lo=lo)
    if hi is not None:
        return most.format(hi=hi)
    return otherwise


# One builder per field kind: (ipywidgets, spec, layout, schema default) -> (widget, hint).
def _text(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    s = spec.schema
    widget = w.Text(
        value=default if isinstance(default, str) else "",
        layout=wide,
        placeholder={"email": "name@example.com", "uri": "https://…"}.get(spec.kind, ""),
    )
    hint = _range(
        s.get("minLength"),
        s.get("maxLength"),
        _("{lo}–{hi} characters"),
        _("at least {lo} characters"),
        _("at most {hi} characters"),
    )
    if spec.kind != "string":
        hint = (_("an e-mail address") if spec.kind == "email" else _("an absolute URI")) + (
            f", {hint}" if hint else ""
        )
    return widget, hint


def _date(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    return w.DatePicker(value=None, layout=wide), _("a date (YYYY-MM-DD)")


def _date_time(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    # DatetimePicker holds a timezone-aware datetime (the browser shows local time and the
    # kernel receives it converted from UTC); content carries it as a UTC string with a Z.
    hint = _("date and time in your browser's local time; sent as UTC, e.g. 2026-09-10T08:30:00Z")
    return w.DatetimePicker(value=None, layout=wide), hint


def _number(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    # A Text box, not Bounded*Text: bounded widgets silently clamp what the person typed
    # (in the browser and in traitlets) and can never be empty, so "required", "leave out
    # an optional number" and the min/max messages could not be shown. See the report.
    if spec.kind == "integer":
        what = _("a whole number")
        bounds = (
            _("a whole number from {lo} to {hi}"),
            _("a whole number, at least {lo}"),
            _("a whole number, at most {hi}"),
        )
    else:
        what = _("a number")
        bounds = (_("a number from {lo} to {hi}"), _("a number, at least {lo}"), _("a number, at most {hi}"))
    widget = w.Text(value=format_number(default) if is_num(default) else "", layout=wide, placeholder=what)
    lo, hi = spec.schema.get("minimum"), spec.schema.get("maximum")
    lo, hi = (None if lo is None else format_number(lo)), (None if hi is None else format_number(hi))
    return widget, _range(lo, hi, *bounds, what)


def _boolean(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    return w.Checkbox(value=default if isinstance(default, bool) else False, indent=False, description=_("yes")), ""


def _enum(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    consts = [c for _label, c in spec.options]
    opts = list(spec.options)
    if not (isinstance(default, str) and default in consts):
        # No pre-selection: an explicit "nothing chosen" entry lets "required" be checked.
        opts = [(_("— choose —"), None)] + opts
        default = None
    return w.Dropdown(options=opts, value=default, layout=wide), ""


def _multi(w, spec: FieldSpec, wide, default) -> tuple[Any, str]:
    consts = [c for _label, c in spec.options]
    pre = (
        tuple(c for c in consts if c in default) if isinstance(default, list) else ()
    )  # option order, like the browser
    widget = w.SelectMultiple(options=list(spec.options), value=pre, layout=wide, rows=min(max(len(consts), 2), 8))
    s = spec.schema
    bounds = _range(
        s.get("minItems"),
        s.get("maxItems"),
        _("choose {lo}–{hi}; "),
        _("choose at least {lo}; "),
        _("choose at most {hi}; "),
    )
    return widget, bounds + _("select with Ctrl/Cmd-click")


WIDGET_BUILDERS = {
    "string": _text,
    "email": _text,
    "uri": _text,
    "date": _date,
    "date-time": _date_time,
    "number": _number,
    "integer": _number,
    "boolean": _boolean,
    "enum": _enum,
    "multi": _multi,
}


def _label_html(spec: FieldSpec, secret: list[str]) -> str:
    """The field's label: title (and name), a required star, the description, a secret's warning."""
    label = esc(spec.title or spec.name)
    if spec.title and spec.title != spec.name:
        label += f' <span style="color:#888">({esc(spec.name)})</span>'
    if spec.required:
        label += ' <span style="color:#c00" title="{}">*</span>'.format(_("required"))
    parts = [f"<b>{label}</b>"]
    if spec.description:
        parts.append(f'<div style="color:#555">{esc(spec.description)}</div>')
    if secret:
        parts.append(
            '<div style="border-left:4px solid #c00;background:#fff0f0;padding:2px 6px">'
            + "⚠ "
            + _(
                "This field asks for a secret ({terms}). The MCP spec forbids form mode for sensitive data: "
                "servers MUST use URL mode ({link}, security considerations). This client does not collect it; "
                "Accept leaves it out."
            ).format(
                terms=esc(", ".join(secret)),
                link=f'<a href="{SPEC_ELICITATION}" target="_blank" rel="noopener noreferrer">client/elicitation</a>',
            )
            + "</div>"
        )
    return "".join(parts)


class Field:
    """One property: its real widget, a label, and the inline message line under it."""

    def __init__(self, spec: FieldSpec, secret: list[str]):
        w = load_ipywidgets()
        self.spec = spec
        self.name = spec.name
        self.secret = secret
        self.input_error: str | None = None  # a value set() could not put into a picker
        wide = w.Layout(width="min(100%, 28em)")
        default = spec.schema.get("default")
        if secret:
            # The honest rendering: the client refuses to collect it. A disabled Password box shows
            # where the field is without ever accepting or echoing input; nothing is sent for it.
            placeholder = _("not collected: servers MUST use URL mode for secrets")
            self.widget, hint = w.Password(value="", disabled=True, layout=wide, placeholder=placeholder), ""
        elif spec.kind in WIDGET_BUILDERS:
            self.widget, hint = WIDGET_BUILDERS[spec.kind](w, spec, wide, default)
        else:  # pragma: no cover - analyse guarantees a kind when there are no problems
            raise AssertionError(spec.kind)
        if spec.kind in ("date", "date-time") and isinstance(default, str):
            self._assign(default)
        self.label = w.HTML(_label_html(spec, secret))
        self.hint = hint
        self.message = w.HTML()
        self.box = w.VBox([self.label, self.widget, self.message], layout=w.Layout(margin="0 0 8px 0"))
        self.widget.observe(self._changed, names="value")

    def _changed(self, _change):
        # A real edit replaces whatever set() could not assign.
        if not getattr(self, "_assigning", False):
            self.input_error = None

    # -- setting ------------------------------------------------------------------------------
    def _assign(self, value):
        """Put ``value`` into the widget, or record why it cannot hold it (shown inline)."""
        kind = self.spec.kind
        self._assigning = True
        try:
            self.input_error = None
            if value is None or value == "":
                self.widget.value = {"boolean": False, "multi": (), "enum": None}.get(
                    kind, None if kind in ("date", "date-time") else ""
                )
            elif kind in ("string", "email", "uri"):
                if not isinstance(value, str):
                    raise TypeError(f"expects a string, got {type(value).__name__}")
                self.widget.value = value
            elif kind in ("number", "integer"):
                if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                    raise TypeError(f"expects a number, got {type(value).__name__}")
                self.widget.value = value if isinstance(value, str) else format_number(value)
            elif kind == "boolean":
                if not isinstance(value, bool):
                    raise TypeError(f"expects True or False, got {type(value).__name__}")
                self.widget.value = value
            elif kind == "date":
                if isinstance(value, _dt.datetime) or not isinstance(value, (_dt.date, str)):
                    raise TypeError(f"expects a datetime.date or 'YYYY-MM-DD', got {type(value).__name__}")
                try:
                    self.widget.value = parse_date(value) if isinstance(value, str) else value
                except ValueError as e:
                    self.widget.value = None
                    self.input_error = str(e)
            elif kind == "date-time":
                if not isinstance(value, (_dt.datetime, str)):
                    raise TypeError(f"expects an aware datetime or an ISO 8601 string, got {type(value).__name__}")
                try:
                    self.widget.value = parse_datetime(value)
                except ValueError as e:
                    self.widget.value = None
                    self.input_error = str(e)
            elif kind == "enum":
                consts = [c for _label, c in self.spec.options]
                if value not in consts:
                    raise ValueError(f"{value!r} is not one of {consts}")
                self.widget.value = value
            elif kind == "multi":
                consts = [c for _label, c in self.spec.options]
                if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
                    raise TypeError(f"expects a list of strings, got {type(value).__name__}")
                bad = [v for v in value if v not in consts]
                if bad:
                    raise ValueError(f"{bad} not among {consts}")
                self.widget.value = tuple(c for c in consts if c in set(value))
        finally:
            self._assigning = False

    # -- reading ------------------------------------------------------------------------------
    def read(self) -> tuple[bool, Any, str | None]:  # noqa: C901 -- one branch per widget kind, mirroring __init__
        """(present, json_value, error) for the current widget value."""
        kind, s = self.spec.kind, self.spec.schema
        if self.secret:
            return False, None, None
        if self.input_error:
            return False, None, self.input_error
        v = self.widget.value
        if kind == "boolean":
            return True, bool(v), None
        if kind in ("date", "date-time", "enum") and v is None:
            return False, None, None
        if kind in ("string", "email", "uri", "number", "integer") and v.strip() == "":
            return False, None, None
        if kind == "multi" and len(v) == 0:
            return False, None, None
        if kind in ("string", "email", "uri"):
            n = len(v)
            if is_count(s.get("minLength")) and n < s["minLength"]:
                return True, v, _("must be at least {lo} characters (now {n})").format(lo=s["minLength"], n=n)
            if is_count(s.get("maxLength")) and n > s["maxLength"]:
                return True, v, _("must be at most {hi} characters (now {n})").format(hi=s["maxLength"], n=n)
            if kind == "email" and not EMAIL_RE.match(v):
                return True, v, _("is not an e-mail address (name@example.com)")
            if kind == "uri" and not URI_RE.match(v):
                return True, v, _("is not an absolute URI (it needs a scheme, e.g. https://example.com)")
            return True, v, None
        if kind in ("number", "integer"):
            text = v.strip()
            try:
                num = int(text) if INT_RE.match(text) else float(text)
            except ValueError:
                return True, v, _("{text} is not a number").format(text=repr(text))
            if not math.isfinite(num):
                return True, v, _("{text} is not a finite number").format(text=repr(text))
            if isinstance(num, float) and num.is_integer() and abs(num) < 2**53:
                num = int(num)  # 30.0 travels as 30: ElicitResult content is string|integer|boolean|string[]
            if kind == "integer" and not isinstance(num, int):
                return True, v, _("{text} is not a whole number").format(text=text)
            if is_num(s.get("minimum")) and num < s["minimum"]:
                return True, num, _("must be at least {lo}").format(lo=format_number(s["minimum"]))
            if is_num(s.get("maximum")) and num > s["maximum"]:
                return True, num, _("must be at most {hi}").format(hi=format_number(s["maximum"]))
            return True, num, None
        if kind == "date":
            return True, v.isoformat(), None
        if kind == "date-time":
            if v.tzinfo is None:  # NaiveDatetimePicker-style value from an out-of-range year
                return True, None, _("has no time zone")
            return True, utc_string(v), None
        if kind == "enum":
            return True, v, None
        if kind == "multi":
            vals = list(v)
            if is_count(s.get("minItems")) and len(vals) < s["minItems"]:
                return True, vals, _("choose at least {lo} (now {n})").format(lo=s["minItems"], n=len(vals))
            if is_count(s.get("maxItems")) and len(vals) > s["maxItems"]:
                return True, vals, _("choose at most {hi} (now {n})").format(hi=s["maxItems"], n=len(vals))
            return True, vals, None
        raise AssertionError(kind)  # pragma: no cover
