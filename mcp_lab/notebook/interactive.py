"""A multi round-trip call answered by a person: one ipywidgets form per round.

The loop's rules (new id each round, `inputResponses` under the server's keys, `requestState`
echoed byte-exact) live in the session layer, `mcp_lab.session.mrtr`; this module only waits for
clicks instead of calling an answer function, because a notebook kernel cannot block on a click.

Each form registers with `mcp_lab.notebook.interactions` as kind "form": the first elicitation of
the call under its `key`, any later one (a second round, a second input of a round) under
`"<key>/<n>"`, n counting the call's elicitations from 1 (so the second is `"<key>/2"`).
`answer(value)` takes a dict of field values (set, then Accept), or "decline" / "cancel", or
"accept" (URL mode: consent to open the link); for a sampling request the reply's text, for a
roots request the list of root URIs to share (`mcp_lab.notebook.client_forms`).
"""

from __future__ import annotations

import html
import time
from typing import Callable

from mcp_lab.notebook import interactions
from mcp_lab.notebook.form import answer_form as _answer_form
from mcp_lab.session.mrtr import MAX_ROUNDS, MrtrCall, answering, declared, retry_params
from mcp_lab.wire import jsonrpc
from mcp_lab.wire.revisions import MRTR_METHODS
from mcp_lab.wire.words import _

__all__ = ["Interactive", "interactive"]


class Interactive:
    """A multi round-trip call driven by ipywidgets forms, one round at a time.

    A notebook kernel cannot block a cell waiting for a click that the same kernel must
    process, so the loop is turned inside out: each `input_required` renders the forms, and
    the submit handler sends the retry.  The same objects can be driven from code
    (`form("when").set(...)`, `.accept()`), which is how nbclient runs the notebooks.
    """

    def __init__(
        self,
        client,
        method: str,
        params: dict,
        *,
        max_rounds: int = MAX_ROUNDS,
        timeout: float | None = None,
        server_name: str | None = None,
        key: str | None = None,
        sampling: bool = False,
        roots: list[dict] | None = None,
    ):
        if method not in MRTR_METHODS:
            raise ValueError(f"{method} cannot answer input_required; only {', '.join(sorted(MRTR_METHODS))} can")
        import ipywidgets as w

        from mcp_lab.notebook import widgets

        self.client, self.method, self.params = client, method, dict(params)
        self.max_rounds, self.timeout = max_rounds, timeout
        self.server_name = server_name or getattr(client, "name", None)
        # The forms below can render both modes: declare them, with the client's own capabilities.
        self.capabilities = answering(getattr(client, "capabilities", {}), widgets.capabilities())
        # A person can also stand in for the model (sampling) and pick the roots to share: the
        # requests declare each only when this call offers it.
        # https://modelcontextprotocol.io/specification/2026-07-28/client/sampling#capabilities
        self.sampling, self.roots = sampling, roots
        if sampling:
            self.capabilities.setdefault("sampling", {})
        if roots is not None:
            self.capabilities.setdefault("roots", {})
        self.exchange = MrtrCall(method, dict(params))
        self.round = None
        self.error: Exception | None = None
        self.widget = w.VBox()
        self._status = w.HTML()
        self.on_done: Callable[["Interactive"], None] | None = None
        # The interactions' names: the key given, else the tool's (or the method's) name.
        self.key = key or str(params.get("name") or method)
        self.origin = interactions.current_origin()
        self.elicitations = 0
        self._send(declared(dict(params), self.capabilities))

    # -- the loop, one step per answer ------------------------------------------------------
    def _send(self, request_params: dict) -> None:
        from mcp_lab.notebook import widgets

        r = self.client.request(self.method, request_params, timeout=self.timeout)
        self.exchange.answers.append(r)
        if isinstance(r, jsonrpc.Result) and r.result_type == "input_required":
            if self.exchange.rounds >= self.max_rounds:
                self._finish(f"Stopped: still asked for input after {self.exchange.rounds} rounds.")
                return
            asks = r.result.get("inputRequests") or {}
            # FormRound calls back at once when nobody needs to be asked (a requestState-only
            # "try again" result): the nested retry has then already moved the loop on.
            this_round = widgets.FormRound(
                asks,
                lambda responses: self._answered(r.result, responses),
                server_name=self.server_name,
                sampling=self.sampling,
                roots=self.roots,
            )
            if this_round.done:
                return
            self.round = this_round
            self._register(this_round)
            self.widget.children = [this_round.widget, self._status]
            waiting = _("round {n}: the server is waiting for your answer").format(n=self.exchange.rounds)
            self._status.value = f"<i>{html.escape(waiting)}</i>"
            return
        self._finish(None)

    def _answered(self, interim: dict, responses: dict) -> None:
        self.exchange.responses.append(responses)
        if not responses:
            # A requestState-only round ("try again later"): the same short, growing, bounded
            # pause as `call()`, before the automatic retry.
            quiet = sum(1 for r in self.exchange.responses if not r)
            time.sleep(min(0.05 * 2 ** (quiet - 1), 0.25))
        try:
            self._send(declared(retry_params(dict(self.params), interim, responses), self.capabilities))
        except Exception as e:  # a dead server, a deadline: say so under the form, keep the rounds
            self.error = e
            self._finish(_("The retry failed: {kind}: {error}").format(kind=type(e).__name__, error=e))

    def _finish(self, problem: str | None) -> None:
        f = self.exchange.final
        if problem:
            text = problem
        elif isinstance(f, jsonrpc.Error):
            text = _("error {code}: {message}").format(code=f.code, message=f.message)
        else:
            content = f.result.get("content") or []
            text = " ".join(c.get("text", "") for c in content if isinstance(c, dict)) or "complete"
        self.widget.children = [self._status]
        self._status.value = f"<b>{html.escape(text)}</b>"
        self.round = None
        if self.on_done:
            self.on_done(self)

    def _register(self, this_round) -> None:
        for form in this_round.forms.values():
            self.elicitations += 1
            key = self.key if self.elicitations == 1 else f"{self.key}/{self.elicitations}"
            item = interactions.register(
                key,
                "form",
                is_done=lambda form=form: form.result is not None,
                act=lambda value, form=form, key=key: _answer_form(form, key, value),
                widget=form.widget,
                owner=form,
                origin=self.origin,
            )
            form.on_submit(lambda _result, item=item: item.settle())

    # -- driving it from code ---------------------------------------------------------------
    def form(self, key: str):
        if self.round is None:
            raise LookupError(_("no form is waiting: the call is complete"))
        return self.round.forms[key]

    @property
    def final(self):
        return self.exchange.final

    @property
    def done(self) -> bool:
        return self.round is None

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def interactive(client, method: str, params: dict, **kw) -> Interactive:
    """Start a call whose `input_required` rounds are answered through forms."""
    return Interactive(client, method, params, **kw)
