"""`ElicitationForm`: one ``elicitation/create`` request as an ipywidgets form (form or URL mode),
validated on every change, frozen once a button was pressed (see `mcp_lab.notebook.widgets`).
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Callable

from mcp_lab.notebook.fields import Field, esc, load_ipywidgets
from mcp_lab.wire.elicitation import SCHEMA_REF, SPEC_ELICITATION, analyse, secret_terms
from mcp_lab.wire.words import _, ngettext

__all__ = ["ElicitationForm", "answer_form"]


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
    ``form.widget`` (the top-level VBox), ``form.on_submit(callback)``. With ``key=...`` a form
    shown on its own registers with `mcp_lab.notebook.interactions` (kind "form") and waits there.
    """

    def __init__(self, params: dict, *, server_name: str | None = None, key: str | None = None):
        w = load_ipywidgets()
        self.params = params
        self.server_name = server_name
        self.result: dict | None = None
        self.problems: list[str] = []  # why the request cannot be answered with Accept
        self.violations: list[dict] = []  # secrets-rule findings
        self.notes: list[str] = []
        self._fields: dict[str, Field] = {}
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
            "accept": w.Button(description=_("Accept"), button_style="success", icon="check"),
            "decline": w.Button(description=_("Decline"), button_style="warning"),
            "cancel": w.Button(description=_("Cancel")),
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
        if key is not None:
            self._register(key)

    def _register(self, key: str) -> None:
        """A form shown on its own (not inside an MRTR call) waits for the person under `key`."""
        from mcp_lab.notebook import interactions

        item = interactions.register(
            key,
            "form",
            is_done=lambda: self.result is not None,
            act=lambda value: answer_form(self, key, value),
            widget=self.widget,
            owner=self,
        )
        self.on_submit(lambda _result: item.settle())

    # -- building -----------------------------------------------------------------------------
    def _header_html(self) -> str:
        who = (
            f"<b>{esc(self.server_name)}</b>"
            if self.server_name
            else "<i>{}</i>".format(_("a server this client did not name"))
        )
        kind = {"form": _("asks you to fill in a form"), "url": _("asks you to open a link")}.get(
            self.mode, _("sent a request")
        )
        msg = (
            f'<div style="font-size:1.05em;margin:4px 0">{esc(self.message)}</div>'
            if self.message
            else '<div style="color:#888">{}</div>'.format(_("(the server sent no message)"))
        )
        line = _("MCP elicitation: {who} {asks}.").format(who=who, asks=kind)
        return f'<div style="color:#555">{line}</div>{msg}'

    def _build_form(self, params: dict) -> list:
        w = load_ipywidgets()
        rs = params.get("requestedSchema")
        where = "requestedSchema"
        if not isinstance(rs, dict):
            self.problems.append(f"{where} is missing or not an object")
            return []
        if rs.get("type") != "object":
            self.problems.append(f'{where}.type must be "object", got {rs.get("type")!r}')
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
        specs = [analyse(n, s, n in required) for n, s in props.items()]
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
            self._fields[sp.name] = Field(sp, secret)
        msg_terms = secret_terms(self.message)
        for term in msg_terms:
            self.violations.append({"field": None, "term": term, "where": "message", "text": self.message})
        out = []
        if msg_terms and not any(v["field"] for v in self.violations):
            out.append(
                w.HTML(
                    '<div style="border-left:4px solid #c60;background:#fff7e6;padding:2px 6px">'
                    + "⚠ "
                    + _(
                        "The message mentions {terms}. Secrets must not be entered in form mode (servers MUST use "
                        "URL mode); check what you type below."
                    ).format(terms=esc(", ".join(msg_terms)))
                    + "</div>"
                )
            )
        out += [f.box for f in self._fields.values()]
        return out

    def _build_url(self, params: dict) -> list:
        w = load_ipywidgets()
        url = params.get("url")
        if not isinstance(url, str) or not url:
            self.problems.append("url is missing or not a string")
            return []
        parts = urllib.parse.urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            # javascript:, data:, file: ... must never become a clickable anchor.
            self.problems.append(f"url must be an absolute http(s) URL, got scheme {parts.scheme!r}")
            return [w.HTML("<div>{} <code>{}</code></div>".format(_("URL (not offered as a link):"), esc(url)))]
        warn = []
        host = parts.hostname or ""
        if parts.scheme.lower() == "http" and host not in ("localhost", "127.0.0.1", "::1"):
            warn.append(_("it is not HTTPS: the spec requires HTTPS outside development"))
        if parts.username or parts.password:
            warn.append(_("it carries credentials in the URL, which the spec forbids"))
            self.violations.append({"field": None, "term": "credentials in URL", "where": "url", "text": url})
        warn_html = "".join(
            '<div style="color:#c00">⚠ {}</div>'.format(_("Careful: {problem}.").format(problem=esc(m))) for m in warn
        )
        return [
            w.HTML(
                "<div>{} <b>{}</b></div>".format(_("Site:"), esc(host))
                + '<div>{} <code style="word-break:break-all">{}</code></div>'.format(_("Full URL:"), esc(url))
                + warn_html
                + f'<div style="margin:6px 0"><a href="{esc(url)}" target="_blank" rel="noopener noreferrer" '
                'style="padding:4px 10px;border:1px solid #1976d2;border-radius:3px;text-decoration:none">'
                + _("Open link")
                + " ↗</a></div>"
                + '<div style="color:#555">{}</div>'.format(
                    _(
                        "This client never opens or fetches the page itself; your browser does, in a new tab, "
                        "when you click. <b>Accept</b> only tells the server you consent to open it; what you do "
                        "there never passes through this notebook."
                    )
                )
            )
        ]

    def _problems_html(self) -> str:
        items = "".join(f"<li><code>{esc(p)}</code></li>" for p in self.problems)
        return (
            '<div style="border:2px solid #c00;background:#fff0f0;padding:6px 10px;margin:6px 0">'
            + _(
                "<b>This request cannot be shown as a form.</b> The MCP 2026-07-28 spec restricts a form-mode "
                "<code>requestedSchema</code> to a flat object whose properties are primitives: string (formats "
                "email, uri, date, date-time), number, integer, boolean, a single-select enum, or an array of enum "
                "strings (multi-select). Nested objects, arrays of objects and other types are not allowed "
                "(spec: {link}, {section}; {schema})."
            ).format(
                link=f'<a href="{SPEC_ELICITATION}" target="_blank" rel="noopener noreferrer">client/elicitation</a>',
                section='"Requested Schema"',
                schema=SCHEMA_REF,
            )
            + f"<ul>{items}</ul>"
            + _("Accept is unavailable; you can Decline or Cancel.")
            + "</div>"
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
                errors[n] = _("required")
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
        errs = self._check()[1]
        for n, f in self._fields.items():
            if f.secret:
                f.message.value = '<span style="color:#c00">{}</span>'.format(_("not collected; not sent"))
            elif n in errs:
                f.message.value = f'<span style="color:#c00">⚠ {esc(errs[n])}</span>' + (
                    f' <span style="color:#888">({esc(f.hint)})</span>' if f.hint else ""
                )
            else:
                f.message.value = f'<span style="color:#888">{esc(f.hint)}</span>' if f.hint else ""
        if self.result is not None:
            return
        self.buttons["accept"].disabled = bool(errs) or bool(self.problems)
        if self.problems:
            self._status.value = '<span style="color:#c00">{}</span>'.format(
                _("Accept is unavailable for this request.")
            )
        elif errs:
            fix = ngettext(
                "Fix {n} field marked ⚠ before accepting.", "Fix {n} fields marked ⚠ before accepting.", len(errs)
            )
            self._status.value = '<span style="color:#c00">{}</span>'.format(fix.format(n=len(errs)))
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
                raise ValueError(
                    f"field {k!r} asks for a secret ({', '.join(f.secret)}); this client refuses "
                    "to collect it in form mode (servers MUST use URL mode)"
                )
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
        self._status.value = '<span style="color:#2e7d32">{} <code>{}</code></span>'.format(
            _("Answered:"), esc(json.dumps(result, ensure_ascii=False))
        )
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


def answer_form(form, key: str, value) -> dict:
    """Answer one form as a person would: fill the fields and press Accept, or press a button."""
    if hasattr(form, "send"):  # a SamplingForm (value: the reply) or a RootsForm (value: uris)
        return form.answer(value)
    if value in ("accept", "decline", "cancel"):
        result = getattr(form, value)()
    elif isinstance(value, dict):
        result = form.set(**value).accept()
    else:
        raise ValueError(f"{key}: answer a form with a dict of field values, or 'decline' / 'cancel'; got {value!r}")
    if result is None:
        problems = "; ".join(f"{k}: {m}" for k, m in form.errors.items())
        raise ValueError(f"{key}: Accept is blocked ({problems})")
    return result
