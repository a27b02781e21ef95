"""Elicitation (MCP 2026-07-28) rendered as ipywidgets 8.1 forms.

A server that needs something from the person returns ``resultType: "input_required"`` with
``inputRequests``; each ``elicitation/create`` entry carries params in one of two modes
``[spec:client/elicitation]``, ``[schema ElicitRequestFormParams / ElicitRequestURLParams]``:

* form mode (``mode: "form"`` or omitted): ``message`` plus a *restricted* ``requestedSchema``:
  a flat object whose properties are primitives (string, number/integer, boolean, single-select
  enum, multi-select enum array). Anything else is refused with a visible message, never a traceback.
* URL mode (``mode: "url"``): ``message`` plus ``url``. The client shows the full URL and which
  server asks, and never fetches it; Accept only means "I consent to open it".

The answer is an ``ElicitResult``: ``{"action": "accept", "content": {...}}`` (form mode),
``{"action": "accept"}`` (URL mode), ``{"action": "decline"}`` or ``{"action": "cancel"}``.

Theory of operation
-------------------
Each property becomes a ``_Field``: one real ipywidget plus a label and an inline message line.
Every value change re-runs validation for the whole form, refreshes the messages and enables or
disables Accept, so a person sees what is wrong before pressing anything. Code (tests, nbclient,
``scripted_answerer``) drives exactly the same objects: ``form.set(...)`` assigns the real widgets'
values and ``form.accept()`` calls the real button's ``click()``, so the same handlers run.
Once a button was pressed the form freezes and ``form.result`` holds the ElicitResult.

In a notebook the kernel cannot block waiting for a click (it must stay free to process the
click), so answering is asynchronous: ``FormRound`` renders one form per input request and calls
``on_complete(input_responses)`` once every form has a result; the caller resumes the MRTR retry
from that callback. ``widget_answerer`` offers the same through the per-key ``answer(key, request)``
shape by raising ``PendingForms``. ``scripted_answerer`` is the synchronous variant for code.

The secrets rule: servers MUST NOT use form mode for passwords, API keys, access tokens or
payment credentials; they MUST use URL mode ``[spec:client/elicitation]`` (security section).
This client refuses to collect such a field: see ``secret_terms`` for the heuristic.

``import mcp_lab.notebook.widgets`` does not import ipywidgets; building a form does.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
import re
import urllib.parse
from typing import Any, Callable

__all__ = [
    "ElicitationForm",
    "FormRound",
    "PendingForms",
    "capabilities",
    "secret_terms",
    "scripted_answerer",
    "unsupported_response",
    "widget_answerer",
]

SPEC_ELICITATION = "https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation"
_SCHEMA_REF = "schema.json $defs/PrimitiveSchemaDefinition"
_FORMATS = ("email", "uri", "date", "date-time")
_PRIMITIVE_TYPES = ("string", "number", "integer", "boolean", "array")

# A deliberately simple e-mail shape (local@domain.tld, no spaces): the server validates for real;
# the client only catches obvious typos before the person presses Accept.
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
# RFC 3986 absolute URI: a scheme, a colon, then something without whitespace.
_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:[^\s]+$")
_INT_RE = re.compile(r"^[+-]?\d+$")


def _widgets():
    """ipywidgets, imported on first use so ``import mcp_lab.notebook.widgets`` stays cheap."""
    import ipywidgets

    return ipywidgets


def capabilities() -> dict:
    """The ``clientCapabilities.elicitation`` object this module can render: both modes."""
    return {"form": {}, "url": {}}


# --------------------------------------------------------------------------------------------
# The secrets heuristic
# --------------------------------------------------------------------------------------------
# Text is normalised first: camelCase and snake/kebab case become separate lower-case words
# ("apiKey" -> "api key", "card_number" -> "card number"), then these word patterns are searched.
# Only free-entry fields (plain strings and numbers) are checked: a boolean "Remember password?"
# or an enum cannot carry a secret. It is a heuristic: it errs towards flagging, and a server can
# always evade it; the spec's rule binds the server, this only protects the person from the
# obvious cases. Names, e-mails and usernames are not secrets per the spec and are not flagged.
_SECRET_PATTERNS: tuple[tuple[str, re.Pattern], ...] = tuple(
    (label, re.compile(rx))
    for label, rx in (
        ("password", r"\b(pass ?word|passwd|pwd)s?\b"),
        ("passphrase", r"\bpass ?phrases?\b"),
        ("passcode", r"\bpass ?codes?\b"),
        ("API key", r"\bapi ?keys?\b"),
        ("secret", r"\bsecrets?\b"),
        ("access token", r"\b(access|bearer|auth|refresh|api|personal access) ?tokens?\b"),
        ("private key", r"\bprivate ?keys?\b"),
        ("card number", r"\b(credit |debit )?card ?(number|no|num)s?\b|\bcredit ?cards?\b"),
        ("CVV", r"\b(cvv2?|cvc2?|csc|card security code)\b"),
        ("payment credential", r"\bpayment (credentials?|details|card)\b"),
    )
)


def _words(text: str) -> str:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text)
    return re.sub(r"[\s_\-./:]+", " ", text).lower().strip()


def secret_terms(text: str | None) -> list[str]:
    """Which secret kinds ``text`` asks for, e.g. ``secret_terms("apiKey") == ["API key"]``."""
    if not text:
        return []
    norm = _words(str(text))
    return [label for label, rx in _SECRET_PATTERNS if rx.search(norm)]


# --------------------------------------------------------------------------------------------
# Schema analysis: property schema -> (kind, options) or a list of problems
# --------------------------------------------------------------------------------------------
class _Spec:
    """What one property asks for, after checking it against the restricted subset."""

    def __init__(self, name: str, schema: dict, required: bool):
        self.name = name
        self.schema = schema
        self.required = required
        self.kind = ""  # string|email|uri|date|date-time|number|integer|boolean|enum|multi
        self.options: list[tuple[str, str]] = []  # (label, const) for enum/multi
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.title = schema.get("title") if isinstance(schema.get("title"), str) else None
        self.description = schema.get("description") if isinstance(schema.get("description"), str) else None


def _is_num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_count(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _titled_options(seq, where: str, problems: list[str]) -> list[tuple[str, str]]:
    if not isinstance(seq, list) or not seq:
        problems.append(f"{where} must be a non-empty list of {{const, title}} objects")
        return []
    out = []
    for i, o in enumerate(seq):
        if not (isinstance(o, dict) and isinstance(o.get("const"), str) and isinstance(o.get("title"), str)):
            problems.append(f"{where}[{i}] must be an object with string 'const' and 'title'")
            return []
        out.append((o["title"], o["const"]))
    return out


def _plain_options(seq, where: str, problems: list[str]) -> list[tuple[str, str]]:
    if not isinstance(seq, list) or not seq or not all(isinstance(v, str) for v in seq):
        problems.append(f"{where} must be a non-empty list of strings")
        return []
    return [(v, v) for v in seq]


def _analyse(name: str, schema, required: bool) -> _Spec:
    if not isinstance(schema, dict):
        spec = _Spec(name, {}, required)
        spec.problems.append("a property schema must be an object")
        return spec
    spec = _Spec(name, schema, required)
    p = spec.problems
    t = schema.get("type")
    if isinstance(t, list):
        p.append(f"type {t!r}: a list of types is not allowed; use one primitive type")
    elif t is None:
        p.append("has no 'type' (allowed: string, number, integer, boolean, or array of enum strings)")
    elif t == "object" or "properties" in schema:
        p.append("nested objects are not allowed: requestedSchema must be flat")
    elif t not in _PRIMITIVE_TYPES:
        p.append(f"type {t!r} is not allowed (allowed: string, number, integer, boolean, array of enum strings)")
    elif t == "array":
        items = schema.get("items")
        if not isinstance(items, dict):
            p.append("an array must have 'items' with 'enum' or 'anyOf' (multi-select enum)")
        elif items.get("type") == "object" or "properties" in items:
            p.append("arrays of objects are not allowed; only arrays of enum strings (multi-select)")
        elif "enum" in items:
            if items.get("type", "string") != "string":
                p.append(f"items.type {items.get('type')!r}: multi-select items must be strings")
            spec.options = _plain_options(items["enum"], "items.enum", p)
        elif "anyOf" in items:
            spec.options = _titled_options(items["anyOf"], "items.anyOf", p)
        else:
            p.append("an array must be a multi-select enum: 'items' needs 'enum' or 'anyOf'")
        for k in ("minItems", "maxItems"):
            if k in schema and not _is_count(schema[k]):
                p.append(f"{k} must be a non-negative integer")
        if _is_count(schema.get("minItems")) and _is_count(schema.get("maxItems")) and schema["minItems"] > schema["maxItems"]:
            p.append("minItems is larger than maxItems: no selection can be valid")
        spec.kind = "multi"
    elif t == "string":
        if "oneOf" in schema:
            spec.options = _titled_options(schema["oneOf"], "oneOf", p)
            spec.kind = "enum"
        elif "enum" in schema:
            spec.options = _plain_options(schema["enum"], "enum", p)
            names = schema.get("enumNames")
            if names is not None and spec.options:
                if isinstance(names, list) and len(names) == len(spec.options) and all(isinstance(n, str) for n in names):
                    # LegacyTitledEnumSchema: enumNames are the display labels.
                    spec.options = [(n, c) for n, (_, c) in zip(names, spec.options)]
                else:
                    p.append("enumNames must be a list of strings as long as enum")
            spec.kind = "enum"
        else:
            fmt = schema.get("format")
            if fmt is not None and fmt not in _FORMATS:
                p.append(f"format {fmt!r} is not allowed (allowed: email, uri, date, date-time)")
            spec.kind = fmt if fmt in _FORMATS else "string"
            for k in ("minLength", "maxLength"):
                if k in schema and not _is_count(schema[k]):
                    p.append(f"{k} must be a non-negative integer")
    elif t in ("number", "integer"):
        for k in ("minimum", "maximum"):
            if k in schema and not _is_num(schema[k]):
                p.append(f"{k} must be a number")
        spec.kind = t
    elif t == "boolean":
        spec.kind = "boolean"
    return spec


# --------------------------------------------------------------------------------------------
# Value parsing shared by set() and validation
# --------------------------------------------------------------------------------------------
def _parse_date(text: str) -> _dt.date:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise ValueError(f"{text!r} is not a date in the form YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a valid calendar date") from None


def _parse_datetime(value) -> _dt.datetime:
    if isinstance(value, str):
        try:
            value = _dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO 8601 date-time such as 2026-09-10T08:30:00Z") from None
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{value.isoformat()} has no time zone; give it in UTC with a Z, e.g. 2026-09-10T08:30:00Z")
    return value


def _utc_string(value: _dt.datetime) -> str:
    """RFC 3339 / ISO 8601 in UTC with a Z, whole seconds: ``2026-09-10T08:30:00Z``."""
    return value.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _format_number(x) -> str:
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    return repr(x) if isinstance(x, float) else str(x)


def _esc(x) -> str:
    return html.escape(str(x), quote=True)


class _Field:
    """One property: its real widget, a label, and the inline message line under it."""

    def __init__(self, spec: _Spec, secret: list[str]):
        w = _widgets()
        self.spec = spec
        self.name = spec.name
        self.secret = secret
        self.input_error: str | None = None  # a value set() could not put into a picker
        s = spec.schema
        wide = w.Layout(width="min(100%, 28em)")
        default = s.get("default")
        hint = ""
        if secret:
            # The honest rendering: the client refuses to collect it. A disabled Password box shows
            # where the field is without ever accepting or echoing input; nothing is sent for it.
            self.widget = w.Password(
                value="", disabled=True, layout=wide,
                placeholder="not collected: servers MUST use URL mode for secrets",
            )
        elif spec.kind in ("string", "email", "uri"):
            self.widget = w.Text(value=default if isinstance(default, str) else "", layout=wide,
                                 placeholder={"email": "name@example.com", "uri": "https://…"}.get(spec.kind, ""))
            lo, hi = s.get("minLength"), s.get("maxLength")
            if lo is not None and hi is not None:
                hint = f"{lo}–{hi} characters"
            elif lo is not None:
                hint = f"at least {lo} characters"
            elif hi is not None:
                hint = f"at most {hi} characters"
            if spec.kind != "string":
                hint = ("an e-mail address" if spec.kind == "email" else "an absolute URI") + (f", {hint}" if hint else "")
        elif spec.kind == "date":
            self.widget = w.DatePicker(value=None, layout=wide)
            hint = "a date (YYYY-MM-DD)"
        elif spec.kind == "date-time":
            # DatetimePicker holds a timezone-aware datetime (the browser shows local time and the
            # kernel receives it converted from UTC); content carries it as a UTC string with a Z.
            self.widget = w.DatetimePicker(value=None, layout=wide)
            hint = "date and time in your browser's local time; sent as UTC, e.g. 2026-09-10T08:30:00Z"
        elif spec.kind in ("number", "integer"):
            # A Text box, not Bounded*Text: bounded widgets silently clamp what the person typed
            # (in the browser and in traitlets) and can never be empty, so "required", "leave out
            # an optional number" and the min/max messages could not be shown. See the report.
            self.widget = w.Text(value=_format_number(default) if _is_num(default) else "", layout=wide,
                                 placeholder="a whole number" if spec.kind == "integer" else "a number")
            lo, hi = s.get("minimum"), s.get("maximum")
            what = "a whole number" if spec.kind == "integer" else "a number"
            if lo is not None and hi is not None:
                hint = f"{what} from {_format_number(lo)} to {_format_number(hi)}"
            elif lo is not None:
                hint = f"{what}, at least {_format_number(lo)}"
            elif hi is not None:
                hint = f"{what}, at most {_format_number(hi)}"
            else:
                hint = what
        elif spec.kind == "boolean":
            self.widget = w.Checkbox(value=default if isinstance(default, bool) else False,
                                     indent=False, description="yes")
        elif spec.kind == "enum":
            consts = [c for _, c in spec.options]
            opts = list(spec.options)
            if not (isinstance(default, str) and default in consts):
                # No pre-selection: an explicit "nothing chosen" entry lets "required" be checked.
                opts = [("— choose —", None)] + opts
                default = None
            self.widget = w.Dropdown(options=opts, value=default, layout=wide)
        elif spec.kind == "multi":
            consts = [c for _, c in spec.options]
            pre = tuple(c for c in consts if c in default) if isinstance(default, list) else ()  # option order, like the browser
            self.widget = w.SelectMultiple(options=list(spec.options), value=pre, layout=wide,
                                           rows=min(max(len(consts), 2), 8))
            lo, hi = s.get("minItems"), s.get("maxItems")
            hint = "select with Ctrl/Cmd-click"
            if lo is not None and hi is not None:
                hint = f"choose {lo}–{hi}; " + hint
            elif lo is not None:
                hint = f"choose at least {lo}; " + hint
            elif hi is not None:
                hint = f"choose at most {hi}; " + hint
        else:  # pragma: no cover - _analyse guarantees a kind when there are no problems
            raise AssertionError(spec.kind)
        if spec.kind == "date" and isinstance(default, str):
            self._assign(default)
        if spec.kind == "date-time" and isinstance(default, str):
            self._assign(default)

        label = _esc(spec.title or spec.name)
        if spec.title and spec.title != spec.name:
            label += f' <span style="color:#888">({_esc(spec.name)})</span>'
        if spec.required:
            label += ' <span style="color:#c00" title="required">*</span>'
        parts = [f"<b>{label}</b>"]
        if spec.description:
            parts.append(f'<div style="color:#555">{_esc(spec.description)}</div>')
        if secret:
            parts.append(
                '<div style="border-left:4px solid #c00;background:#fff0f0;padding:2px 6px">'
                f"⚠ This field asks for a secret ({_esc(', '.join(secret))}). The MCP spec forbids "
                "form mode for sensitive data: servers MUST use URL mode "
                f'(<a href="{SPEC_ELICITATION}" target="_blank" rel="noopener noreferrer">client/elicitation</a>, '
                "security considerations). This client does not collect it; Accept leaves it out.</div>"
            )
        self.label = w.HTML("".join(parts))
        self.hint = hint
        self.message = w.HTML()
        self.box = w.VBox([self.label, self.widget, self.message],
                          layout=w.Layout(margin="0 0 8px 0"))
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
                self.widget.value = {"boolean": False, "multi": (), "enum": None}.get(kind, None if kind in ("date", "date-time") else "")
            elif kind in ("string", "email", "uri"):
                if not isinstance(value, str):
                    raise TypeError(f"expects a string, got {type(value).__name__}")
                self.widget.value = value
            elif kind in ("number", "integer"):
                if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                    raise TypeError(f"expects a number, got {type(value).__name__}")
                self.widget.value = value if isinstance(value, str) else _format_number(value)
            elif kind == "boolean":
                if not isinstance(value, bool):
                    raise TypeError(f"expects True or False, got {type(value).__name__}")
                self.widget.value = value
            elif kind == "date":
                if isinstance(value, _dt.datetime) or not isinstance(value, (_dt.date, str)):
                    raise TypeError(f"expects a datetime.date or 'YYYY-MM-DD', got {type(value).__name__}")
                try:
                    self.widget.value = _parse_date(value) if isinstance(value, str) else value
                except ValueError as e:
                    self.widget.value = None
                    self.input_error = str(e)
            elif kind == "date-time":
                if not isinstance(value, (_dt.datetime, str)):
                    raise TypeError(f"expects an aware datetime or an ISO 8601 string, got {type(value).__name__}")
                try:
                    self.widget.value = _parse_datetime(value)
                except ValueError as e:
                    self.widget.value = None
                    self.input_error = str(e)
            elif kind == "enum":
                consts = [c for _, c in self.spec.options]
                if value not in consts:
                    raise ValueError(f"{value!r} is not one of {consts}")
                self.widget.value = value
            elif kind == "multi":
                consts = [c for _, c in self.spec.options]
                if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
                    raise TypeError(f"expects a list of strings, got {type(value).__name__}")
                bad = [v for v in value if v not in consts]
                if bad:
                    raise ValueError(f"{bad} not among {consts}")
                self.widget.value = tuple(c for c in consts if c in set(value))
        finally:
            self._assigning = False

    # -- reading ------------------------------------------------------------------------------
    def read(self) -> tuple[bool, Any, str | None]:
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
            if _is_count(s.get("minLength")) and n < s["minLength"]:
                return True, v, f"must be at least {s['minLength']} characters (now {n})"
            if _is_count(s.get("maxLength")) and n > s["maxLength"]:
                return True, v, f"must be at most {s['maxLength']} characters (now {n})"
            if kind == "email" and not _EMAIL_RE.match(v):
                return True, v, "is not an e-mail address (name@example.com)"
            if kind == "uri" and not _URI_RE.match(v):
                return True, v, "is not an absolute URI (it needs a scheme, e.g. https://example.com)"
            return True, v, None
        if kind in ("number", "integer"):
            text = v.strip()
            try:
                num = int(text) if _INT_RE.match(text) else float(text)
            except ValueError:
                return True, v, f"{text!r} is not a number"
            if not math.isfinite(num):
                return True, v, f"{text!r} is not a finite number"
            if isinstance(num, float) and num.is_integer() and abs(num) < 2**53:
                num = int(num)  # 30.0 travels as 30: ElicitResult content is string|integer|boolean|string[]
            if kind == "integer" and not isinstance(num, int):
                return True, v, f"{text} is not a whole number"
            if _is_num(s.get("minimum")) and num < s["minimum"]:
                return True, num, f"must be at least {_format_number(s['minimum'])}"
            if _is_num(s.get("maximum")) and num > s["maximum"]:
                return True, num, f"must be at most {_format_number(s['maximum'])}"
            return True, num, None
        if kind == "date":
            return True, v.isoformat(), None
        if kind == "date-time":
            if v.tzinfo is None:  # NaiveDatetimePicker-style value from an out-of-range year
                return True, None, "has no time zone"
            return True, _utc_string(v), None
        if kind == "enum":
            return True, v, None
        if kind == "multi":
            vals = list(v)
            if _is_count(s.get("minItems")) and len(vals) < s["minItems"]:
                return True, vals, f"choose at least {s['minItems']} (now {len(vals)})"
            if _is_count(s.get("maxItems")) and len(vals) > s["maxItems"]:
                return True, vals, f"choose at most {s['maxItems']} (now {len(vals)})"
            return True, vals, None
        raise AssertionError(kind)  # pragma: no cover


# --------------------------------------------------------------------------------------------
# The form
# --------------------------------------------------------------------------------------------
class ElicitationForm:
    """One ``elicitation/create`` request (its ``params``) as an ipywidgets form.

    Form mode renders the restricted schema; URL mode shows the message, the full URL, which server
    asks, an "Open link" anchor (the browser opens it in a new tab when the person clicks; this
    module never fetches it) and Accept / Decline / Cancel.

    In URL mode **Accept means consent only**: it answers ``{"action": "accept"}`` to say the person
    agreed to open the link. What happens on the page (a login, a payment, an API key typed there)
    never passes through this client; the server learns the outcome itself and tells the client on
    the retry, either finishing or asking again.

    Secrets: a form-mode field whose name, title or description asks for a password, passphrase,
    API key, secret, access/bearer token, private key, card number, CVV or payment credential (see
    ``secret_terms``) is shown with a warning and a disabled Password box. The client refuses to
    collect it: ``set()`` refuses a value for it, and Accept sends the other fields and leaves this
    one out of ``content`` (even when it is required; the server can then re-ask via URL mode).
    The findings are in ``form.violations``.

    Driving from code: ``form.fields`` (name -> real widget), ``form.set(**values)``,
    ``form.accept()`` / ``decline()`` / ``cancel()`` (they click the real buttons),
    ``form.errors`` (field -> current message), ``form.result`` (ElicitResult or None),
    ``form.widget`` (the top-level VBox), ``form.on_submit(callback)``.
    """

    def __init__(self, params: dict, *, server_name: str | None = None):
        w = _widgets()
        self.params = params
        self.server_name = server_name
        self.result: dict | None = None
        self.problems: list[str] = []  # why the request cannot be answered with Accept
        self.violations: list[dict] = []  # secrets-rule findings
        self.notes: list[str] = []
        self._fields: dict[str, _Field] = {}
        self._callbacks: list[Callable[[dict], None]] = []
        if not isinstance(params, dict):
            self.problems.append(f"params must be an object, got {type(params).__name__}")
            params = {}
        mode = params.get("mode", "form")
        self.mode = mode if mode in ("form", "url") else "invalid"
        if self.mode == "invalid":
            self.problems.append(f"mode {mode!r} is not 'form' or 'url'")
        self.message = params.get("message") if isinstance(params.get("message"), str) else ""

        self._status = w.HTML()
        self.buttons = {
            "accept": w.Button(description="Accept", button_style="success", icon="check"),
            "decline": w.Button(description="Decline", button_style="warning"),
            "cancel": w.Button(description="Cancel"),
        }
        for action, b in self.buttons.items():
            b.on_click(lambda _b, a=action: self._pressed(a))

        body: list = [w.HTML(self._header_html())]
        if self.mode == "form":
            body += self._build_form(params)
        elif self.mode == "url":
            body += self._build_url(params)
        if self.problems:
            body.append(w.HTML(self._problems_html()))
        body.append(w.HBox(list(self.buttons.values())))
        body.append(self._status)
        self.widget = w.VBox(body, layout=w.Layout(border="1px solid #ccc", padding="8px", max_width="48em"))
        for f in self._fields.values():
            f.widget.observe(lambda _c: self._refresh(), names="value")
        self._refresh()

    # -- building -----------------------------------------------------------------------------
    def _header_html(self) -> str:
        who = (f"<b>{_esc(self.server_name)}</b>" if self.server_name
               else "<i>a server this client did not name</i>")
        kind = {"form": "asks you to fill in a form", "url": "asks you to open a link"}.get(self.mode, "sent a request")
        msg = (f'<div style="font-size:1.05em;margin:4px 0">{_esc(self.message)}</div>' if self.message
               else '<div style="color:#888">(the server sent no message)</div>')
        return f'<div style="color:#555">MCP elicitation: {who} {kind}.</div>{msg}'

    def _build_form(self, params: dict) -> list:
        w = _widgets()
        rs = params.get("requestedSchema")
        where = "requestedSchema"
        if not isinstance(rs, dict):
            self.problems.append(f"{where} is missing or not an object")
            return []
        if rs.get("type") != "object":
            self.problems.append(f"{where}.type must be \"object\", got {rs.get('type')!r}")
        props = rs.get("properties")
        if not isinstance(props, dict):
            self.problems.append(f"{where}.properties must be an object")
            return []
        required = rs.get("required", [])
        if not (isinstance(required, list) and all(isinstance(r, str) for r in required)):
            self.problems.append(f"{where}.required must be a list of property names")
            required = []
        for r in required:
            if r not in props:
                self.problems.append(f"{where}.required names {r!r}, which is not a property")
        specs = [_analyse(n, s, n in required) for n, s in props.items()]
        for sp in specs:
            self.problems += [f"{where}.properties.{sp.name}: {m}" for m in sp.problems]
        if self.problems:
            return []  # refuse the whole form: a partial form would send content the server did not ask for
        for sp in specs:
            secret: list[str] = []
            if sp.kind in ("string", "email", "uri", "number", "integer"):
                for source, text in (("name", sp.name), ("title", sp.title), ("description", sp.description)):
                    for term in secret_terms(text):
                        self.violations.append({"field": sp.name, "term": term, "where": source, "text": text})
                        if term not in secret:
                            secret.append(term)
            self._fields[sp.name] = _Field(sp, secret)
        msg_terms = secret_terms(self.message)
        for term in msg_terms:
            self.violations.append({"field": None, "term": term, "where": "message", "text": self.message})
        out = []
        if msg_terms and not any(v["field"] for v in self.violations):
            out.append(w.HTML(
                '<div style="border-left:4px solid #c60;background:#fff7e6;padding:2px 6px">'
                f"⚠ The message mentions {_esc(', '.join(msg_terms))}. Secrets must not be entered in "
                "form mode (servers MUST use URL mode); check what you type below.</div>"))
        out += [f.box for f in self._fields.values()]
        return out

    def _build_url(self, params: dict) -> list:
        w = _widgets()
        url = params.get("url")
        if not isinstance(url, str) or not url:
            self.problems.append("url is missing or not a string")
            return []
        parts = urllib.parse.urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            # javascript:, data:, file: ... must never become a clickable anchor.
            self.problems.append(f"url must be an absolute http(s) URL, got scheme {parts.scheme!r}")
            return [w.HTML(f"<div>URL (not offered as a link): <code>{_esc(url)}</code></div>")]
        warn = []
        host = parts.hostname or ""
        if parts.scheme.lower() == "http" and host not in ("localhost", "127.0.0.1", "::1"):
            warn.append("it is not HTTPS: the spec requires HTTPS outside development")
        if parts.username or parts.password:
            warn.append("it carries credentials in the URL, which the spec forbids")
            self.violations.append({"field": None, "term": "credentials in URL", "where": "url", "text": url})
        warn_html = "".join(f'<div style="color:#c00">⚠ Careful: {_esc(m)}.</div>' for m in warn)
        return [w.HTML(
            f'<div>Site: <b>{_esc(host)}</b></div>'
            f'<div>Full URL: <code style="word-break:break-all">{_esc(url)}</code></div>{warn_html}'
            f'<div style="margin:6px 0"><a href="{_esc(url)}" target="_blank" rel="noopener noreferrer" '
            'style="padding:4px 10px;border:1px solid #1976d2;border-radius:3px;text-decoration:none">'
            "Open link ↗</a></div>"
            '<div style="color:#555">This client never opens or fetches the page itself; your browser '
            "does, in a new tab, when you click. <b>Accept</b> only tells the server you consent to "
            "open it; what you do there never passes through this notebook.</div>")]

    def _problems_html(self) -> str:
        items = "".join(f"<li><code>{_esc(p)}</code></li>" for p in self.problems)
        return (
            '<div style="border:2px solid #c00;background:#fff0f0;padding:6px 10px;margin:6px 0">'
            "<b>This request cannot be shown as a form.</b> The MCP 2026-07-28 spec restricts a "
            "form-mode <code>requestedSchema</code> to a flat object whose properties are primitives: "
            "string (formats email, uri, date, date-time), number, integer, boolean, a single-select "
            "enum, or an array of enum strings (multi-select). Nested objects, arrays of objects and "
            f"other types are not allowed (spec: <a href=\"{SPEC_ELICITATION}\" target=\"_blank\" "
            f"rel=\"noopener noreferrer\">client/elicitation</a>, \"Requested Schema\"; {_SCHEMA_REF})."
            f"<ul>{items}</ul>Accept is unavailable; you can Decline or Cancel.</div>"
        )

    # -- state --------------------------------------------------------------------------------
    @property
    def fields(self) -> dict:
        """Property name -> the real ipywidget for it."""
        return {n: f.widget for n, f in self._fields.items()}

    def _check(self) -> tuple[dict, dict]:
        content, errors = {}, {}
        for n, f in self._fields.items():
            present, value, err = f.read()
            if err:
                errors[n] = err
            elif present:
                content[n] = value
            elif f.spec.required and not f.secret:
                errors[n] = "required"
        return content, errors

    @property
    def errors(self) -> dict:
        """Current validation messages: field name -> message (plus request-level problems)."""
        errs = {f"request[{i}]": p for i, p in enumerate(self.problems)}
        errs.update(self._check()[1])
        return errs

    @property
    def content(self) -> dict:
        """The ``content`` Accept would send now (valid fields only, secrets never)."""
        return self._check()[0]

    @property
    def can_accept(self) -> bool:
        return self.result is None and not self.errors

    def _refresh(self):
        _, errs = self._check()
        for n, f in self._fields.items():
            if f.secret:
                f.message.value = '<span style="color:#c00">not collected; not sent</span>'
            elif n in errs:
                f.message.value = f'<span style="color:#c00">⚠ {_esc(errs[n])}</span>' + (
                    f' <span style="color:#888">({_esc(f.hint)})</span>' if f.hint else "")
            else:
                f.message.value = f'<span style="color:#888">{_esc(f.hint)}</span>' if f.hint else ""
        if self.result is not None:
            return
        self.buttons["accept"].disabled = bool(errs) or bool(self.problems)
        if self.problems:
            self._status.value = '<span style="color:#c00">Accept is unavailable for this request.</span>'
        elif errs:
            self._status.value = (f'<span style="color:#c00">Fix {len(errs)} field(s) marked ⚠ '
                                  "before accepting.</span>")
        else:
            self._status.value = ""

    # -- actions ------------------------------------------------------------------------------
    def set(self, **values) -> "ElicitationForm":
        """Set field values through the real widgets (strings, numbers, bools, dates, lists).

        Values a picker cannot hold (``"2026-13-01"`` for a date) become an inline message, like a
        person's typo would; wrong types and unknown names raise ValueError at once.
        """
        if self.result is not None:
            raise ValueError(f"this form was already answered ({self.result['action']}); build a new one")
        unknown = [k for k in values if k not in self._fields]
        if unknown:
            raise ValueError(f"no field named {', '.join(map(repr, unknown))}; fields: {list(self._fields)}")
        for k, v in values.items():
            f = self._fields[k]
            if f.secret:
                raise ValueError(f"field {k!r} asks for a secret ({', '.join(f.secret)}); this client refuses "
                                 "to collect it in form mode (servers MUST use URL mode)")
            try:
                f._assign(v)
            except (TypeError, ValueError) as e:
                raise ValueError(f"field {k!r}: {e}") from None
        self._refresh()
        return self

    def accept(self) -> dict | None:
        """Press Accept. Returns the ElicitResult, or None while the form is invalid."""
        self.buttons["accept"].click()
        return self.result

    def decline(self) -> dict | None:
        """Press Decline: ``{"action": "decline"}``."""
        self.buttons["decline"].click()
        return self.result

    def cancel(self) -> dict | None:
        """Press Cancel: ``{"action": "cancel"}``."""
        self.buttons["cancel"].click()
        return self.result

    def on_submit(self, callback: Callable[[dict], None]) -> None:
        """Call ``callback(result)`` once a button produced the result (at once if it already did)."""
        if self.result is not None:
            callback(self.result)
        else:
            self._callbacks.append(callback)

    def _pressed(self, action: str):
        # Handlers run for browser clicks and for accept()/decline()/cancel() alike; a disabled
        # button can still be click()ed from code, so validity is re-checked here.
        if self.result is not None:
            return
        if action == "accept":
            content, errs = self._check()
            if self.problems or errs:
                self._refresh()
                return
            result = {"action": "accept", "content": content} if self.mode == "form" else {"action": "accept"}
        else:
            result = {"action": action}
        self.result = result
        for f in self._fields.values():
            f.widget.disabled = True
        for b in self.buttons.values():
            b.disabled = True
        self._status.value = ('<span style="color:#2e7d32">Answered: <code>'
                              f"{_esc(json.dumps(result, ensure_ascii=False))}</code></span>")
        callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            cb(result)

    # -- display ------------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)

    def __repr__(self):
        state = self.result["action"] if self.result else "waiting"
        return f"<ElicitationForm mode={self.mode} fields={list(self._fields)} {state}>"


# --------------------------------------------------------------------------------------------
# MRTR answer providers
# --------------------------------------------------------------------------------------------
def unsupported_response(method: str) -> dict:
    """The answer this client gives to an input request it cannot serve (not elicitation/create).

    The 2026-07-28 schema has no way to report an error for a single input: an ``InputResponse`` is
    a ``CreateMessageResult``, ``ListRootsResult`` or ``ElicitResult``, nothing else. A server MUST
    NOT send ``sampling/createMessage`` or ``roots/list`` to a client that did not declare
    ``sampling`` / ``roots`` (this one declares only ``elicitation``), so such a request is a server
    bug; we answer ``{"action": "decline"}``, which is a valid InputResponse (it matches
    ElicitResult) and says "the person/client did not provide this".
    """
    return {"action": "decline"}


class FormRound:
    """All ``inputRequests`` of one ``input_required`` result, answered through widgets.

    ``FormRound(input_requests, on_complete, server_name=None)`` renders one ElicitationForm per
    ``elicitation/create`` key, and a "not supported by this client" box (answered with
    ``unsupported_response``) for anything else. When every key has an answer it calls
    ``on_complete({key: result, ...})`` exactly once: that callback is where the MRTR loop sends the
    retry with ``inputResponses`` and the echoed ``requestState``. If no key needs a person (all
    unsupported, or an empty map) ``on_complete`` runs before the constructor returns.
    Display it (``display(round)`` or as a cell's value); ``round.forms`` gives key -> form.
    An exception from ``on_complete`` is shown in the round's status line and kept in ``.error``.
    """

    def __init__(self, input_requests: dict, on_complete: Callable[[dict], None], server_name: str | None = None):
        w = _widgets()
        if not isinstance(input_requests, dict):
            raise TypeError(f"input_requests must be the inputRequests object (a dict), got {type(input_requests).__name__}")
        self.input_requests = input_requests
        self.on_complete = on_complete
        self.server_name = server_name
        self.forms: dict[str, ElicitationForm] = {}
        self.results: dict[str, dict] = {}
        self.done = False
        self.error: BaseException | None = None
        self._status = w.HTML()
        boxes = []
        for key, req in input_requests.items():
            method = req.get("method") if isinstance(req, dict) else None
            head = w.HTML(f'<div style="color:#555">input <code>{_esc(key)}</code>: <code>{_esc(method)}</code></div>')
            if method == "elicitation/create":
                params = req.get("params") if isinstance(req.get("params"), dict) else {}
                form = ElicitationForm(params, server_name=server_name)
                self.forms[key] = form
                boxes.append(w.VBox([head, form.widget]))
            else:
                self.results[key] = unsupported_response(str(method))
                boxes.append(w.VBox([head, w.HTML(
                    '<div style="border:1px solid #c60;background:#fff7e6;padding:4px 8px">'
                    f"<b>{_esc(method)}</b> is not supported by this client (it declares only the "
                    "<code>elicitation</code> capability, so the server should not have asked). "
                    "Answered with <code>{\"action\": \"decline\"}</code>: the schema has no per-input "
                    "error.</div>")]))
        self.widget = w.VBox(boxes + [self._status])
        for key, form in self.forms.items():
            form.on_submit(lambda result, k=key: self._answered(k, result))
        self._maybe_complete()

    def _answered(self, key: str, result: dict):
        self.results[key] = result
        self._maybe_complete()

    def _maybe_complete(self):
        if self.done or len(self.results) < len(self.input_requests):
            left = len(self.input_requests) - len(self.results)
            if not self.done:
                self._status.value = f'<span style="color:#555">Waiting for {left} answer(s).</span>'
            return
        self.done = True
        answers = {k: self.results[k] for k in self.input_requests}
        self._status.value = '<span style="color:#2e7d32">All answered; the client can retry now.</span>'
        try:
            self.on_complete(answers)
        except Exception as e:  # keep the widget usable and say what went wrong, in one line
            self.error = e
            self._status.value = f'<span style="color:#c00">on_complete failed: {_esc(type(e).__name__)}: {_esc(e)}</span>'
            raise

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


class PendingForms(Exception):
    """Raised by a ``widget_answerer`` answer: "a form is on screen, waiting for the person".

    ``forms`` maps input key -> ElicitationForm. ``when_done(callback)`` calls
    ``callback({key: result, ...})`` once every form has been answered: resume the MRTR retry from
    there. ``PendingForms.combine([...])`` merges several (one per key) into one wait.
    An exception, not a returned sentinel, so a loop that does not know about it stops instead of
    sending a placeholder to the server as an answer.
    """

    def __init__(self, forms: dict):
        self.forms = dict(forms)
        super().__init__(f"waiting for the person to answer {', '.join(map(repr, self.forms))}")

    @classmethod
    def combine(cls, pendings) -> "PendingForms":
        forms: dict = {}
        for p in pendings:
            forms.update(p.forms)
        return cls(forms)

    def when_done(self, callback: Callable[[dict], None]) -> None:
        fired = []

        def check(_result=None):
            if not fired and all(f.result is not None for f in self.forms.values()):
                fired.append(True)
                callback({k: f.result for k, f in self.forms.items()})

        for f in self.forms.values():
            if f.result is None:
                f.on_submit(check)
        check()


def widget_answerer(*, server_name: str | None = None, show: Callable[[Any], None] | None = None):
    """An ``answer(key, request) -> dict`` for the MRTR loop that asks the person through widgets.

    For ``elicitation/create`` it builds and shows the form (``show`` defaults to IPython's
    ``display``) and raises ``PendingForms``; the loop catches it, registers
    ``pending.when_done(resume)`` and returns, and ``resume(answers)`` sends the retry once the
    person pressed a button. Other methods are answered at once with ``unsupported_response``.
    """

    def _show(widget):
        if show is not None:
            show(widget)
        else:
            from IPython.display import display

            display(widget)

    def answer(key: str, request: dict) -> dict:
        method = request.get("method") if isinstance(request, dict) else None
        if method != "elicitation/create":
            return unsupported_response(str(method))
        form = ElicitationForm(request.get("params") or {}, server_name=server_name)
        _show(form)
        raise PendingForms({key: form})

    return answer


def scripted_answerer(values: dict | None = None, *, by_key: dict | None = None, action: str = "accept",
                      server_name: str | None = None):
    """A synchronous ``answer(key, request) -> dict`` that fills forms through the same widget code.

    Each ``elicitation/create`` becomes an ElicitationForm; the entries of ``values`` naming its
    fields (one dict can serve several forms), overridden by ``by_key[key]``, are ``set()`` and the
    form's ``action`` button ("accept", "decline", "cancel") is pressed; ``form.result`` is returned.
    If Accept stays blocked (a required field missing, a bad value, a disallowed schema) it raises
    ValueError naming the messages. The last form built is kept as ``answer.last_form``.
    """
    if action not in ("accept", "decline", "cancel"):
        raise ValueError(f"action must be 'accept', 'decline' or 'cancel', got {action!r}")
    values = dict(values or {})
    by_key = dict(by_key or {})

    def answer(key: str, request: dict) -> dict:
        method = request.get("method") if isinstance(request, dict) else None
        if method != "elicitation/create":
            return unsupported_response(str(method))
        form = ElicitationForm(request.get("params") or {}, server_name=server_name)
        answer.last_form = form
        if action == "accept":
            chosen = {k: v for k, v in values.items() if k in form._fields}
            chosen.update(by_key.get(key, {}))
            # Never type a value into a field the client refuses to collect.
            chosen = {k: v for k, v in chosen.items() if not (k in form._fields and form._fields[k].secret)}
            form.set(**chosen)
        result = getattr(form, action)()
        if result is None:
            msgs = "; ".join(f"{k}: {m}" for k, m in form.errors.items())
            raise ValueError(f"input {key!r}: Accept is blocked ({msgs}); pass the missing values or action='decline'")
        return result

    answer.last_form = None
    return answer
