"""The schema check of one message, and of a conversation in order (sans-IO).

Theory of operation
-------------------
The normative definition of every MCP message is `schema.ts`; the JSON Schema and the official
SDK's `mcp-types` models are generated from it.  This module asks those generated models (they
are installed with the SDK, so the check needs nothing from outside the repository) whether a
message is valid *for its era*:

* the JSON-RPC envelope first, by the rows of `jsonrpc.ENVELOPE_RULES` (the one table of those
  rules, read by the parser and the lint too): `"jsonrpc": "2.0"`, an id that is a string or an
  integer (never null, never a float or a bool), a non-empty method with no result or error
  beside it, an error object with an integer `code` and a string `message`;
* then the body, by method and by protocol version, through `mcp_types.methods`
  (`validate_client_request`, `validate_server_result`, ...): a request of 2026-07-28 is checked
  against the 2026-07-28 models, a legacy `initialize` against 2025-11-25;
* for the error codes that the 2026-07-28 schema gives a shape of their own (-32020, -32021,
  -32022, ...), the error's `data` against that shape.

Which version applies to a message is decided the way a peer would decide it: a request says so
in `params._meta["io.modelcontextprotocol/protocolVersion"]`; a legacy request carries no `_meta`
and belongs to the version its session negotiated with `initialize` (2025-11-25 when there is no
session yet); an answer belongs to the request it answers (matched by id).  `WireChecker` keeps
that small state for one conversation; `check_message()` is the pure function under it.

A message the model cannot judge (a method no schema defines, an answer to an unknown id) is
counted as *unchecked*, never as valid; a message a lesson breaks on purpose is passed with
`deliberate=True` and counted apart, never silently skipped.

The spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/index#messages
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from mcp_lab.wire.jsonrpc import first_broken
from mcp_lab.wire.revisions import LATEST, LEGACY_VERSION

__all__ = ["SchemaVerdict", "Tally", "WireChecker", "check_message", "schema_version_of"]

Sender = Literal["client", "server"]
Verdict = Literal["valid", "invalid", "unchecked", "deliberate"]

_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"


@dataclass(frozen=True)
class SchemaVerdict:
    """What the check concluded about one message."""

    verdict: Verdict
    sender: Sender
    kind: str  # request | notification | result | error | invalid
    method: str | None
    version: str | None
    model: str | None = None  # the model that judged it
    error: str | None = None  # the first validation error, one line
    line: str | None = None  # the message as it went on the wire, when known

    def __str__(self) -> str:
        where = f"{self.sender} {self.kind} {self.method or ''}".strip()
        if self.verdict == "invalid":
            return f"INVALID {where} ({self.version}, {self.model}): {self.error}\n  {self.line or ''}"
        return f"{self.verdict} {where} ({self.version})"


@dataclass
class Tally:
    """Counts for a report line: how many messages were judged, and how."""

    valid: int = 0
    invalid: int = 0
    unchecked: int = 0
    deliberate: int = 0
    findings: list[SchemaVerdict] = field(default_factory=list)

    def add(self, f: SchemaVerdict) -> None:
        setattr(self, f.verdict, getattr(self, f.verdict) + 1)
        if f.verdict == "invalid":
            self.findings.append(f)


def schema_version_of(version: str | None) -> str:
    """The schema a message of protocol `version` is judged by: 2026-07-28's, or 2025-11-25's for
    every older (or unknown) one.  A version, not an era: see `revisions.era_of` for the era."""
    return LATEST if version == LATEST else LEGACY_VERSION


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            e = errors()[0]
            loc = ".".join(str(p) for p in e.get("loc", ())) or "(message)"
            return f"{loc}: {e.get('msg')} (got {e.get('input')!r:.80})"
        except Exception:  # noqa: BLE001 - fall back to the exception's own text
            pass
    return str(exc).splitlines()[0]


def _envelope(obj: Any) -> tuple[str, str | None]:
    """Classify the JSON-RPC envelope; return (kind, problem).

    The problem is the first row of `jsonrpc.ENVELOPE_RULES` the message breaks (the table the
    parser and the lint read too), held to the schema: no row is tolerated here.
    """
    rule = first_broken(obj)
    if rule is not None:
        return "invalid", rule.message(obj)
    if "method" in obj:
        return ("request" if "id" in obj else "notification"), None
    return ("result" if "result" in obj else "error"), None


def _error_model(code: int):
    """The 2026-07-28 model for an error code with a shape of its own, if any."""
    from mcp_types import _v2026_07_28 as v  # the generated models; internal to mcp-types

    return {
        -32700: v.ParseError,
        -32600: v.InvalidRequestError,
        -32601: v.MethodNotFoundError,
        -32602: v.InvalidParamsError,
        -32603: v.InternalError,
        -32020: v.HeaderMismatchError,
        -32021: v.MissingRequiredClientCapabilityError,
        -32022: v.UnsupportedProtocolVersionError,
    }.get(code)


# Long on purpose: the table of validators by (sender, kind) reads as one piece of the schema.
def check_message(
    obj: Any,
    *,
    sender: Sender,
    version: str | None,
    method: str | None = None,
    line: str | None = None,
    deliberate: bool = False,
) -> SchemaVerdict:
    """Judge one parsed message sent by `sender` under protocol `version`.

    `method` is the method of the request an answer answers (results and errors carry none).
    """
    from mcp_types import methods as m
    from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

    kind, problem = _envelope(obj)
    method = obj.get("method", method) if isinstance(obj, Mapping) else method
    base = SchemaVerdict("valid", sender, kind, method, version, line=line)  # each verdict below replaces fields
    if deliberate:
        return replace(base, verdict="deliberate")
    if problem:
        return replace(base, verdict="invalid", kind="invalid", model="JSON-RPC 2.0 envelope", error=problem)
    if kind == "error":
        code = obj["error"]["code"]
        # -32020..-32022 exist only in 2026-07-28: their shape applies whatever version was asked
        # (a -32022 answers precisely a request in a version the server does not know).
        model = _error_model(code) if schema_version_of(version) == LATEST or -32022 <= code <= -32020 else None
        if model is None:
            return replace(base, model="JSON-RPC error")
        # The three MCP error types describe the whole response; the JSON-RPC ones the error object.
        subject = dict(obj) if "error" in model.model_fields else dict(obj["error"])
        return _judge(base, model.__name__, lambda: model.model_validate(subject, by_name=False))
    if method is None or version not in KNOWN_PROTOCOL_VERSIONS:
        return replace(base, verdict="unchecked", error="no method or no known protocol version to judge by")
    params = obj.get("params")
    validators = {
        ("client", "request"): (m.CLIENT_REQUESTS, lambda: m.validate_client_request(method, version, params)),
        ("client", "notification"): (
            m.CLIENT_NOTIFICATIONS,
            lambda: m.validate_client_notification(method, version, params),
        ),
        ("server", "result"): (m.SERVER_RESULTS, lambda: m.validate_server_result(method, version, obj["result"])),
        ("server", "request"): (
            m.SERVER_REQUESTS,
            lambda: m.SERVER_REQUESTS[(method, version)].model_validate(dict(obj), by_name=False),
        ),
        ("server", "notification"): (
            m.SERVER_NOTIFICATIONS,
            lambda: m.SERVER_NOTIFICATIONS[(method, version)].model_validate(dict(obj), by_name=False),
        ),
        ("client", "result"): (m.CLIENT_RESULTS, lambda: m.validate_client_result(method, version, obj["result"])),
    }
    surface, run = validators[(sender, kind)]
    target = surface.get((method, version))
    if target is None:
        return replace(base, verdict="unchecked", error=f"{method} is not a {version} {kind} in the schema")
    member = _result_member(target, obj) if kind == "result" else None
    if member is not None:
        # A union "X | InputRequiredResult" accepts a bare {"resultType": "complete"} as an
        # InputRequiredResult (all its fields are optional); resultType says which one is meant.
        return _judge(base, member.__name__, lambda: member.model_validate(dict(obj["result"]), by_name=False))
    return _judge(base, getattr(target, "__name__", str(target)), run)


def _result_member(target, obj: Mapping):
    """The one model of a result union that the result's own resultType selects, if any."""
    import typing

    members = typing.get_args(target)
    if not members or not isinstance(obj.get("result"), Mapping):
        return None
    wants_input = obj["result"].get("resultType") == "input_required"
    chosen = [m for m in members if (m.__name__ == "InputRequiredResult") == wants_input]
    return chosen[0] if len(chosen) == 1 else None


def _judge(base: SchemaVerdict, model: str, run: Callable[[], object]) -> SchemaVerdict:
    try:
        run()
    except Exception as exc:  # noqa: BLE001 - pydantic.ValidationError, or the surface's own refusal
        return replace(base, verdict="invalid", model=model, error=_first_error(exc))
    return replace(base, verdict="valid", model=model)


class WireChecker:
    """Judges one conversation in order, tracking what decides each message's version.

    Feed it every message as it goes on the wire (`sent` by the client, `received` from the
    server); it remembers the method and version of each pending request id and the version a
    legacy session negotiated.
    """

    def __init__(self) -> None:
        self.tally = Tally()
        self._pending: dict[tuple[Sender, Any], tuple[str, str | None]] = {}
        self._session_version: str | None = None
        # The version the last request named in its _meta: what a notification without one (a
        # modern server's list_changed, a client's notifications/cancelled) is judged by.
        self._request_version: str | None = None

    def feed(self, obj: Any, *, sender: Sender, line: str | None = None, deliberate: bool = False) -> SchemaVerdict:
        version, method = self._version_for(obj, sender)
        f = check_message(obj, sender=sender, version=version, method=method, line=line, deliberate=deliberate)
        self.tally.add(f)
        self._learn(obj, sender, version)
        return f

    def _version_for(self, obj: Any, sender: Sender) -> tuple[str | None, str | None]:
        if not isinstance(obj, Mapping):
            return None, None
        if "method" in obj:
            raw_params = obj.get("params")
            params: Mapping[str, Any] = raw_params if isinstance(raw_params, Mapping) else {}
            raw_meta = params.get("_meta")
            meta: Mapping[str, Any] = raw_meta if isinstance(raw_meta, Mapping) else {}
            if isinstance(meta.get(_VERSION_KEY), str):
                if "id" in obj:
                    self._request_version = meta[_VERSION_KEY]
                return meta[_VERSION_KEY], obj["method"]
            if obj["method"] == "initialize":
                asked = params.get("protocolVersion")
                return (asked if isinstance(asked, str) and asked != LATEST else LEGACY_VERSION), "initialize"
            return self._session_version or self._request_version or LEGACY_VERSION, obj["method"]
        answered_by: Sender = "client" if sender == "server" else "server"
        method, version = self._pending.get((answered_by, obj.get("id"))) or (None, None)
        result = obj.get("result")
        if method == "initialize" and isinstance(result, Mapping):
            agreed = result.get("protocolVersion")
            version = agreed if isinstance(agreed, str) else version
        return version, method

    def _learn(self, obj: Any, sender: Sender, version: str | None) -> None:
        if not isinstance(obj, Mapping) or "id" not in obj:
            return
        key = (sender, obj["id"]) if "method" in obj else None
        if key is not None:
            self._pending[key] = (obj["method"], version)
            return
        answered_by: Sender = "client" if sender == "server" else "server"
        method, _ = self._pending.pop((answered_by, obj.get("id")), None) or (None, None)
        if method == "initialize" and isinstance(obj.get("result"), Mapping):
            agreed = obj["result"].get("protocolVersion")
            self._session_version = agreed if isinstance(agreed, str) else self._session_version
