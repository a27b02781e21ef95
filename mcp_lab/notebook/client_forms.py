"""The two other kinds of input request, answered by a person: sampling and roots.

In 2026-07-28 a server that needs the client's model or the client's roots puts a
``sampling/createMessage`` or ``roots/list`` request into ``inputRequests``; the client's answer,
a ``CreateMessageResult`` or a ``ListRootsResult``, goes into ``inputResponses`` of the retry.
https://modelcontextprotocol.io/specification/2026-07-28/client/sampling#creating-messages
https://modelcontextprotocol.io/specification/2026-07-28/client/roots#listing-roots

* ``SamplingForm`` shows the request (system prompt, messages, token budget) and a text box: the
  person writes the reply a model would give. The spec wants a human able to review a sampling
  request and its reply ("User Interaction Model"); here the human *is* the model, so nothing
  reaches an LLM. The answer names its model honestly (``PERSON_MODEL``).
* ``RootsForm`` lists the roots the client could expose, unticked: the person chooses which to
  share (clients SHOULD ask for consent before exposing roots). Sharing none is an answer too.

Both mirror ``ElicitationForm``'s driving surface: ``.widget``, ``.result``, ``.on_submit(cb)``,
``.set(...)``, ``.send()`` (which clicks the real button) and ``.answer(value)``.
Sampling and roots are deprecated as of 2026-07-28 (SEP-2577), and still part of the revision.
"""

from __future__ import annotations

import json
from typing import Callable

from mcp_lab.notebook.fields import esc, load_ipywidgets
from mcp_lab.wire.words import _

__all__ = ["PERSON_MODEL", "RootsForm", "SamplingForm", "check_roots"]

# The `model` a CreateMessageResult names: here no model wrote the reply, a person did.
PERSON_MODEL = "a person, through an mcp_lab form"
BOX = {"border": "1px solid #ccc", "padding": "8px", "max_width": "48em"}


def check_roots(roots: list[dict]) -> list[dict]:
    """The roots a client offers, checked: each a dict with a ``file://`` uri (the spec's MUST)."""
    for root in roots:
        uri = root.get("uri") if isinstance(root, dict) else None
        if not isinstance(uri, str) or not uri.startswith("file://"):
            raise ValueError(f"a root's uri MUST be a file:// URI in 2026-07-28, got {root!r}")
    return [dict(r) for r in roots]


class _PersonForm:
    """What both forms share: one button, a status line, callbacks, freezing once answered."""

    def __init__(self, title: str, button: str):
        w = load_ipywidgets()
        self.result: dict | None = None
        self._callbacks: list[Callable[[dict], None]] = []
        self._status = w.HTML()
        self.button = w.Button(description=button, button_style="success", icon="check")
        self.button.on_click(lambda _b: self._pressed())
        self._title = title

    def _box(self, body: list):
        w = load_ipywidgets()
        head = w.HTML(f'<div style="color:#555">{self._title}</div>')
        return w.VBox([head, *body, self.button, self._status], layout=w.Layout(**BOX))

    def _answer(self) -> dict | None:  # the result to send, or None (and a status) while blocked
        raise NotImplementedError

    def _freeze(self) -> None:
        raise NotImplementedError

    def _pressed(self) -> None:
        if self.result is not None:
            return
        result = self._answer()
        if result is None:
            return
        self.result = result
        self.button.disabled = True
        self._freeze()
        shown = esc(json.dumps(result, ensure_ascii=False))
        self._status.value = '<span style="color:#2e7d32">{} <code>{}</code></span>'.format(_("Answered:"), shown)
        callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            cb(result)

    def send(self) -> dict | None:
        """Press the button (the same handler a click runs); the result, or None while blocked."""
        self.button.click()
        return self.result

    def on_submit(self, callback: Callable[[dict], None]) -> None:
        """Call ``callback(result)`` once answered (at once if it already is)."""
        if self.result is not None:
            callback(self.result)
        else:
            self._callbacks.append(callback)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


class SamplingForm(_PersonForm):
    """A ``sampling/createMessage`` request: the person reads it and writes the reply."""

    def __init__(self, params: dict, *, server_name: str | None = None):
        who = esc(server_name or _("a server this client did not name"))
        super().__init__(
            _("MCP sampling: {who} asks your model for a reply.").format(who=f"<b>{who}</b>"), _("Send reply")
        )
        w = load_ipywidgets()
        self.params = params if isinstance(params, dict) else {}
        lines = []
        if self.params.get("systemPrompt"):
            lines.append("<div><i>{}</i> {}</div>".format(_("system prompt:"), esc(self.params["systemPrompt"])))
        for m in self.params.get("messages") or []:
            content = m.get("content") if isinstance(m, dict) else None
            text = content.get("text") if isinstance(content, dict) else json.dumps(content)
            lines.append(f"<div><b>{esc(m.get('role', '?'))}:</b> {esc(text)}</div>")
        budget = self.params.get("maxTokens")
        lines.append(
            '<div style="color:#555">{}</div>'.format(
                _("at most {n} tokens; you are the model here").format(n=esc(budget))
            )
        )
        self.reply = w.Textarea(placeholder=_("the reply the model would give"), layout=w.Layout(width="100%"))
        self.reply.observe(self._typed, names="value")
        self.widget = self._box([w.HTML("".join(lines)), self.reply])

    def _typed(self, _change) -> None:
        if self.result is None:
            self._status.value = ""  # the "write a reply first" line goes once something is typed

    def set(self, reply: str) -> "SamplingForm":
        if self.result is not None:
            raise ValueError("this sampling request was already answered")
        self.reply.value = reply
        return self

    def answer(self, value: str) -> dict | None:
        """The registry's hook: write `value` as the reply and send it."""
        return self.set(value).send()

    def _answer(self) -> dict | None:
        text = self.reply.value.strip()
        if not text:
            self._status.value = '<span style="color:#c00">{}</span>'.format(_("Write a reply first."))
            return None
        content = {"type": "text", "text": text}
        return {"role": "assistant", "content": content, "model": PERSON_MODEL, "stopReason": "endTurn"}

    def _freeze(self) -> None:
        self.reply.disabled = True

    def __repr__(self):
        return f"<SamplingForm {'answered' if self.result else 'waiting'}>"


class RootsForm(_PersonForm):
    """A ``roots/list`` request: the person ticks which of the client's roots to share."""

    def __init__(self, roots: list[dict], *, server_name: str | None = None):
        who = esc(server_name or _("a server this client did not name"))
        title = _("MCP roots: {who} asks which folders this client considers relevant.").format(who=f"<b>{who}</b>")
        super().__init__(title, _("Share selected"))
        w = load_ipywidgets()
        self.roots = check_roots(roots)
        self.boxes = {
            r["uri"]: w.Checkbox(value=False, description=f"{r.get('name', '')} {r['uri']}".strip(), indent=False)
            for r in self.roots
        }
        note = w.HTML('<div style="color:#555">{}</div>'.format(_("Nothing is ticked: share only what you choose.")))
        self.widget = self._box([note, *self.boxes.values()])

    def set(self, uris: list[str]) -> "RootsForm":
        unknown = [u for u in uris if u not in self.boxes]
        if unknown:
            raise ValueError(f"not a root this client offers: {unknown}; offered: {list(self.boxes)}")
        for uri, box in self.boxes.items():
            box.value = uri in uris
        return self

    def answer(self, value: list[str]) -> dict | None:
        """The registry's hook: tick the roots named in `value` and share them."""
        return self.set(value).send()

    def _answer(self) -> dict:
        return {"roots": [r for r in self.roots if self.boxes[r["uri"]].value]}

    def _freeze(self) -> None:
        for box in self.boxes.values():
            box.disabled = True

    def __repr__(self):
        return f"<RootsForm {'answered' if self.result else 'waiting'}>"
