"""Multi round-trip requests: `input_required` -> answers -> the same request again.

In 2026-07-28 a server never sends a request to the client.  When a `tools/call`,
`prompts/get` or `resources/read` needs something only the client side has (usually an
answer from the person), the server *answers* with

    {"resultType": "input_required", "inputRequests": {key: {method, params}}, "requestState": "..."}

and the client re-sends the ORIGINAL request as a new request (new id) with
`inputResponses` under the same keys and `requestState` echoed byte-exact.  The two
requests are independent; the continuation travels in the message, so any server process
can finish what another began.

This module owns only the loop.  Who answers is a callback, `answer(key, request) -> dict`
(an ElicitResult such as {"action": "accept", "content": {...}}), so the same loop serves a
script, a test, and the ipywidgets forms of `mcp_lab.widgets` (the notebook layer's
`mcp_lab.notebook.interactive`, which drives the same helpers one round at a time).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.errors import InvalidAnswer, RoundsExceeded
from mcp_lab.wire.revisions import CLIENT_CAPABILITIES_KEY, MRTR_METHODS

__all__ = ["MAX_ROUNDS", "RoundsExceeded", "MrtrCall", "call", "retry_params", "declared", "answering"]

# The spec sets no cap; the official SDKs stop after 10 rounds, and so do we.
MAX_ROUNDS = 10

Answer = Callable[[str, dict], dict]


@dataclass
class MrtrCall:
    """Every round of one multi round-trip call, in order."""

    method: str
    params: dict
    answers: list[jsonrpc.Result | jsonrpc.Error] = field(default_factory=list)
    responses: list[dict] = field(default_factory=list)  # the inputResponses sent each round

    @property
    def final(self) -> jsonrpc.Result | jsonrpc.Error | None:
        return self.answers[-1] if self.answers else None

    @property
    def rounds(self) -> int:
        return len(self.answers)

    @property
    def complete(self) -> bool:
        f = self.final
        return isinstance(f, jsonrpc.Result) and f.result_type == "complete"


def retry_params(original: dict, interim: dict, responses: dict) -> dict:
    # The ORIGINAL params plus the two continuation fields, nothing carried from earlier
    # rounds: each retry is a fresh, self-contained request.
    retry = {k: v for k, v in original.items() if k not in ("inputResponses", "requestState")}
    if responses:
        retry["inputResponses"] = responses
    if "requestState" in interim:
        retry["requestState"] = interim["requestState"]  # echoed untouched, never invented
    return retry


def declared(params: dict, capabilities: dict | None) -> dict:
    """Declare, in this request's own _meta, exactly what the answer provider can render."""
    if capabilities is None:
        return params
    meta = dict(params.get("_meta") or {})
    meta[CLIENT_CAPABILITIES_KEY] = capabilities
    return {**params, "_meta": meta}


# What an answer callback can honour: a form (its ElicitResult carries the form's content).
FORM_ELICITATION: dict = {"form": {}}


def answering(client_capabilities: dict, elicitation: dict = FORM_ELICITATION) -> dict:
    """The client's capabilities plus elicitation, for a context that has someone to answer.

    A bare request declares only what the client was given (nothing by default); the loop below
    and the notebook's form driver can put a question to somebody, so their requests add
    `elicitation` (unless the client already declares its own).
    https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#capabilities
    """
    caps = dict(client_capabilities or {})
    caps.setdefault("elicitation", dict(elicitation))
    return caps


def call(
    client,
    method: str,
    params: dict,
    answer: Answer,
    *,
    capabilities: dict | None = None,
    max_rounds: int = MAX_ROUNDS,
    timeout: float | None = None,
    backoff: tuple[float, float] = (0.05, 0.25),
) -> MrtrCall:
    """Run `method` to completion, asking `answer` for every input the server requests.

    Returns the MrtrCall (every round's answer); `exchange.final` is the last answer, an
    Error as soon as the server answers with one.  A result that carries only
    `requestState` ("try again later") is retried after a short, growing, bounded pause.
    `capabilities` is what every round declares; by default the client's own plus form
    elicitation, since `answer` is there to fill in a form.  Pass `{}` to declare nothing.
    """
    if method not in MRTR_METHODS:
        raise ValueError(f"{method} cannot answer input_required; only {', '.join(sorted(MRTR_METHODS))} can")
    ex = MrtrCall(method, dict(params))
    if capabilities is None:
        capabilities = answering(client.capabilities)
    request_params = declared(dict(params), capabilities)
    delay = backoff[0]
    while True:
        r = client.request(method, request_params, timeout=timeout)
        ex.answers.append(r)
        if isinstance(r, jsonrpc.Result) and r.result.get("resultType", "complete") not in (
            "complete",
            "input_required",
        ):
            raise InvalidAnswer(
                f"unknown resultType {r.result['resultType']!r}: a client must treat it as invalid",
                {"exchange": ex},
            )
        if not isinstance(r, jsonrpc.Result) or r.result_type != "input_required":
            return ex
        if ex.rounds >= max_rounds:
            raise RoundsExceeded(ex.rounds, ex)
        asks = r.result.get("inputRequests") or {}
        if not asks and "requestState" not in r.result:
            raise InvalidAnswer(
                "input_required result with neither inputRequests nor requestState (the spec requires at least one)",
                {"exchange": ex},
            )
        responses = {key: answer(key, ask) for key, ask in asks.items()}
        ex.responses.append(responses)
        if not asks:
            time.sleep(delay)
            delay = min(delay * 2, backoff[1])
        request_params = declared(retry_params(dict(params), r.result, responses), capabilities)
