"""A server that needs something from the person returns ``resultType: "input_required"`` with
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
Each property becomes a ``Field``: one real ipywidget plus a label and an inline message line.
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

Where things are: schema analysis and the secrets heuristic in `mcp_lab.wire.elicitation`
(sans-IO), one field in `mcp_lab.notebook.fields`, the form in `mcp_lab.notebook.form`, and the
answerers (`FormRound`, `widget_answerer`, `scripted_answerer`) here; this module is also the
public `mcp_lab.widgets`. ``import mcp_lab.widgets`` does not import ipywidgets; building a form does.
"""

from __future__ import annotations

from typing import Any, Callable

from mcp_lab.notebook.client_forms import RootsForm, SamplingForm
from mcp_lab.notebook.fields import esc, load_ipywidgets
from mcp_lab.notebook.form import ElicitationForm
from mcp_lab.wire.elicitation import capabilities, secret_terms
from mcp_lab.wire.words import _, ngettext

__all__ = [
    "ElicitationForm",
    "FormRound",
    "RootsForm",
    "SamplingForm",
    "PendingForms",
    "capabilities",
    "secret_terms",
    "scripted_answerer",
    "unsupported_response",
    "widget_answerer",
]


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
    ``elicitation/create`` key, a SamplingForm per ``sampling/createMessage`` key when
    ``sampling=True``, a RootsForm per ``roots/list`` key when ``roots`` (the client's roots) is
    given, and a "not supported by this client" box (answered with
    ``unsupported_response``) for anything else. When every key has an answer it calls
    ``on_complete({key: result, ...})`` exactly once: that callback is where the MRTR loop sends the
    retry with ``inputResponses`` and the echoed ``requestState``. If no key needs a person (all
    unsupported, or an empty map) ``on_complete`` runs before the constructor returns.
    Display it (``display(round)`` or as a cell's value); ``round.forms`` gives key -> form.
    An exception from ``on_complete`` is shown in the round's status line and kept in ``.error``.
    """

    # Long on purpose: the round's widgets built in the order the person sees them
    def __init__(
        self,
        input_requests: dict,
        on_complete: Callable[[dict], None],
        server_name: str | None = None,
        *,
        sampling: bool = False,
        roots: list[dict] | None = None,
    ):
        w = load_ipywidgets()
        if not isinstance(input_requests, dict):
            raise TypeError(
                f"input_requests must be the inputRequests object (a dict), got {type(input_requests).__name__}"
            )
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
            head = w.HTML(
                '<div style="color:#555">{}: <code>{}</code></div>'.format(
                    _("input {key}").format(key=f"<code>{esc(key)}</code>"), esc(method)
                )
            )
            if method == "elicitation/create":
                params = req.get("params") if isinstance(req.get("params"), dict) else {}
                form = ElicitationForm(params, server_name=server_name)
                self.forms[key] = form
                boxes.append(w.VBox([head, form.widget]))
            elif method == "sampling/createMessage" and sampling:
                params = req.get("params") if isinstance(req.get("params"), dict) else {}
                self.forms[key] = SamplingForm(params, server_name=server_name)
                boxes.append(w.VBox([head, self.forms[key].widget]))
            elif method == "roots/list" and roots is not None:
                self.forms[key] = RootsForm(roots, server_name=server_name)
                boxes.append(w.VBox([head, self.forms[key].widget]))
            else:
                self.results[key] = unsupported_response(str(method))
                boxes.append(
                    w.VBox(
                        [
                            head,
                            w.HTML(
                                '<div style="border:1px solid #c60;background:#fff7e6;padding:4px 8px">'
                                + _(
                                    "{method} is not supported by this client (it declares only the {capability} "
                                    "capability, so the server should not have asked). Answered with {answer}: the "
                                    "schema has no per-input error."
                                ).format(
                                    method=f"<b>{esc(method)}</b>",
                                    capability="<code>elicitation</code>",
                                    answer='<code>{"action": "decline"}</code>',
                                )
                                + "</div>"
                            ),
                        ]
                    )
                )
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
                waiting = ngettext("Waiting for {n} answer.", "Waiting for {n} answers.", left).format(n=left)
                self._status.value = f'<span style="color:#555">{waiting}</span>'
            return
        self.done = True
        answers = {k: self.results[k] for k in self.input_requests}
        self._status.value = '<span style="color:#2e7d32">{}</span>'.format(
            _("All answered; the client can retry now.")
        )
        try:
            self.on_complete(answers)
        except Exception as e:  # keep the widget usable and say what went wrong, in one line
            self.error = e
            self._status.value = '<span style="color:#c00">{}</span>'.format(
                _("on_complete failed: {error}").format(error=f"{esc(type(e).__name__)}: {esc(e)}")
            )
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


def scripted_answerer(
    values: dict | None = None, *, by_key: dict | None = None, action: str = "accept", server_name: str | None = None
):
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
