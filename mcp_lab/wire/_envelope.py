"""The JSON-RPC envelope rules of MCP 2026-07-28, written once, as data.

Theory of operation
-------------------
Four judges read the envelope of a message: the parser (`jsonrpc.parse_obj`) raises on it, the
lint (`wire.lint`) forecasts a server's answer from it, the wire check (`wire.schema_check`)
gives it a verdict, and the bundled Streamable HTTP binding answers 400 because of it.  When each
kept its own copy of the rules they drifted apart (the wire check once let through an empty
`method`, and a request that also carried `result` or `error`).  So the rules are one ordered
table here, in the manner of h11's `_state.py`, and every judge reads the same rows:

    rule       a stable name (the lint's rule name, e.g. "id-null")
    part       which part of the message the row reads: value, version, id, method, answer
    broken     the predicate: True when the message breaks the rule
    code       the JSON-RPC code a receiver answers with
    anchor     where the specification states it (`url` gives the public URL)
    wording    what is wrong, read from the message itself: an English template (marked `N_`)
               and the values it is filled with; `message(value)` is that line in English,
               `shown(value)` the same line in the learner's language
    stops      when broken, the rows after it cannot be judged (a batch has no "method")
    tolerated  a parser reading a peer accepts it all the same (see below)

`broken_rules(value)` walks the rows in order and yields each broken one, ending after the first
broken row that `stops`; `first_broken(value)` is the first of them.  The rows of part "value"
take any decoded JSON value; the others are reached only with an object.

One row is `tolerated`: an error answer whose id is null.  Plain JSON-RPC answers a request it
could not read with `"id": null`; MCP's schema has no null id and omits it instead.  The lint and
the wire check hold a message to the schema and report it; the parser, reading what a peer sent,
accepts it so the client can still show the error (`first_broken(value, tolerate=True)`).  The
agreement test (tests/test_envelope_rules.py) runs every row through every judge, this exception
included.

Two readers, two languages.  What the parser raises and the HTTP binding answers goes on the wire
(a JSON-RPC error message), and a wire never changes with the learner's language: they call
`row.message(value)`, always English.  The lint shows its findings to a person: it calls
`row.shown(value)`, which looks the template up in the edition's catalog at that moment (not at
import) through `mcp_lab.wire.words`, and fills in the same values.

What is not here: the framing of a line (JSON at all, one line) belongs to `jsonrpc.parse` and
the lint's framing checks; a request id still pending is state, kept by `jsonrpc.PendingIds`; who
may send what (a client never sends a response) is a rule of roles, not of the envelope.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from mcp_lab.wire.words import N_, _

SPEC = "https://modelcontextprotocol.io/specification/2026-07-28/"
INVALID_REQUEST = -32600  # the one code an envelope rule answers with; jsonrpc re-exports it


def is_valid_id(value: Any) -> bool:
    """A string or an integer (JSON true is not an id, though Python's bool is an int)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _is_answer(obj: dict) -> bool:
    return "method" not in obj and ("result" in obj or "error" in obj)


def _is_error_answer(obj: dict) -> bool:
    return "method" not in obj and "error" in obj and "result" not in obj


def _error_code_ok(err: Any) -> bool:
    code = err.get("code") if isinstance(err, dict) else None
    return isinstance(code, int) and not isinstance(code, bool)


# A wording: (English template, the values its {placeholders} take).
Wording = tuple[str, dict[str, str]]


def _jsonrpc_message(obj: dict) -> Wording:
    if "jsonrpc" not in obj:
        return N_('the "jsonrpc": "2.0" member is missing'), {}
    return N_('"jsonrpc" must be exactly the string "2.0", not {value}'), {"value": json.dumps(obj["jsonrpc"])}


def _null_id_message(obj: dict) -> Wording:
    return N_("id must be a string or an integer, not None: never null in MCP (stricter than JSON-RPC)"), {}


def _null_error_id_message(obj: dict) -> Wording:
    return (
        N_(
            "id must be a string or an integer, not None: never null in MCP (stricter than JSON-RPC); "
            "an error answering an unreadable request omits the id"
        ),
        {},
    )


def _id_type_message(obj: dict) -> Wording:
    rid = obj["id"]
    return N_("id must be a string or an integer, not {kind} {value}"), {
        "kind": type(rid).__name__,
        "value": json.dumps(rid),
    }


def _params_type_message(obj: dict) -> Wording:
    return N_('"params" must be an object in MCP, not {value}'), {"value": json.dumps(obj["params"])[:40]}


@dataclass(frozen=True)
class EnvelopeRule:
    """One row of the table (the module docstring names the columns)."""

    rule: str
    part: str
    broken: Callable[[Any], bool]
    code: int
    anchor: str
    wording: Callable[[Any], Wording]
    path: str = ""
    stops: bool = False
    tolerated: bool = False

    @property
    def url(self) -> str:
        return SPEC + self.anchor

    def message(self, value: Any) -> str:
        """What is wrong with `value`, in English: the line the parser raises and a server sends."""
        template, values = self.wording(value)
        return template.format(**values)

    def shown(self, value: Any) -> str:
        """The same line in the edition's language, looked up now: what the lint shows a person."""
        template, values = self.wording(value)
        return _(template).format(**values)


def _says(text: str) -> Callable[[Any], Wording]:
    """A wording with nothing to fill in (`text` is marked N_ where the row is written)."""
    return lambda _obj: (text, {})


ENVELOPE_RULES: tuple[EnvelopeRule, ...] = (
    EnvelopeRule(
        "batch",
        "value",
        lambda v: isinstance(v, list),
        INVALID_REQUEST,
        "basic/index#messages",
        _says(N_("a JSON array is a JSON-RPC batch, and MCP has no batches: send one object per line")),
        stops=True,
    ),
    EnvelopeRule(
        "not-object",
        "value",
        lambda v: not isinstance(v, dict),
        INVALID_REQUEST,
        "basic/index#messages",
        _says(N_("a message must be a JSON object")),
        stops=True,
    ),
    EnvelopeRule(
        "jsonrpc-version",
        "version",
        lambda o: o.get("jsonrpc") != "2.0",
        INVALID_REQUEST,
        "basic/index#messages",
        _jsonrpc_message,
        path="jsonrpc",
    ),
    EnvelopeRule(
        "id-null",
        "id",
        lambda o: "id" in o and o["id"] is None and not _is_error_answer(o),
        INVALID_REQUEST,
        "basic/index#requests",
        _null_id_message,
        path="id",
    ),
    EnvelopeRule(
        "error-id-null",
        "id",
        lambda o: "id" in o and o["id"] is None and _is_error_answer(o),
        INVALID_REQUEST,
        "basic/index#error-responses",
        _null_error_id_message,
        path="id",
        tolerated=True,
    ),
    EnvelopeRule(
        "id-type",
        "id",
        lambda o: "id" in o and o["id"] is not None and not is_valid_id(o["id"]),
        INVALID_REQUEST,
        "basic/index#requests",
        _id_type_message,
        path="id",
    ),
    EnvelopeRule(
        "method-missing",
        "method",
        lambda o: not ("method" in o or "result" in o or "error" in o),
        INVALID_REQUEST,
        "basic/index#requests",
        _says(N_('no "method", "result" or "error": this is neither a request, a notification nor a response')),
        path="method",
        stops=True,
    ),
    EnvelopeRule(
        "method-type",
        "method",
        lambda o: "method" in o and not (isinstance(o["method"], str) and o["method"]),
        INVALID_REQUEST,
        "basic/index#requests",
        _says(N_('"method" must be a non-empty string')),
        path="method",
        stops=True,
    ),
    EnvelopeRule(
        "mixed-message",
        "method",
        lambda o: "method" in o and ("result" in o or "error" in o),
        INVALID_REQUEST,
        "basic/index#messages",
        _says(N_("a request cannot also carry result or error")),
    ),
    EnvelopeRule(
        "params-type",
        "method",
        lambda o: "method" in o and "params" in o and not isinstance(o["params"], dict),
        INVALID_REQUEST,
        "basic/index#requests",
        _params_type_message,
        path="params",
        stops=True,
    ),
    EnvelopeRule(
        "result-and-error",
        "answer",
        lambda o: _is_answer(o) and "result" in o and "error" in o,
        INVALID_REQUEST,
        "basic/index#responses",
        _says(N_("a response carries result or error, not both")),
        stops=True,
    ),
    EnvelopeRule(
        "result-id",
        "answer",
        lambda o: _is_answer(o) and "result" in o and "id" not in o,
        INVALID_REQUEST,
        "basic/index#result-responses",
        _says(N_("a result must carry the id of the request it answers")),
        path="id",
    ),
    EnvelopeRule(
        "result-type",
        "answer",
        lambda o: _is_answer(o) and "result" in o and not isinstance(o["result"], dict),
        INVALID_REQUEST,
        "basic/index#result-responses",
        _says(N_('"result" must be an object in MCP')),
        path="result",
    ),
    EnvelopeRule(
        "error-code",
        "answer",
        lambda o: _is_answer(o) and "error" in o and not _error_code_ok(o["error"]),
        INVALID_REQUEST,
        "basic/index#error-responses",
        _says(N_('"error" must be an object with an integer "code"')),
        path="error",
        stops=True,
    ),
    EnvelopeRule(
        "error-message",
        "answer",
        lambda o: _is_answer(o) and "error" in o and not isinstance(o["error"].get("message"), str),
        INVALID_REQUEST,
        "basic/index#error-responses",
        _says(N_('"error.message" is required and must be a string')),
        path="error.message",
    ),
)


def broken_rules(value: Any, *, tolerate: bool = False, parts: tuple[str, ...] = ()) -> Iterator[EnvelopeRule]:
    """The rows `value` breaks, in table order, ending after the first broken row that stops.

    `tolerate` skips the rows a parser accepts from a peer; `parts` keeps only rows of those parts
    (the lint runs the table a part at a time, between checks of its own).
    """
    for row in ENVELOPE_RULES:
        if (tolerate and row.tolerated) or (parts and row.part not in parts):
            continue
        if row.broken(value):
            yield row
            if row.stops:
                return


def first_broken(value: Any, *, tolerate: bool = False) -> EnvelopeRule | None:
    """The first row `value` breaks, or None when its envelope is sound."""
    return next(broken_rules(value, tolerate=tolerate), None)
