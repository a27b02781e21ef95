"""The schema half of every lab check: what a lab's server sends must be valid MCP of its era.

    from mcp_lab.course import plumbing
    plumbing.probe(argv, env=..., cwd=...)          # five probes of the envelope; CheckFailed or a list of lines
    plumbing.judge("process A", request_line, answer_line)   # one exchange; CheckFailed naming the rule

Theory of operation.  A lab's server has two halves: the tool the learner writes, and the
"protocol plumbing" the template hands over (discovery, listing, the `_meta` check, the error
envelope).  A learner copies that plumbing into their own servers, so it is held to the same
standard as the course's own servers: every answer is judged by the official schema of its era
(`mcp_lab.wire.schema_check`, which asks the SDK's `mcp-types` models, generated from
`schema.ts`).  On top of what the models judge, one rule the models let through because results
may carry extra fields: in 2026-07-28 `serverInfo` rides in `_meta`
(`io.modelcontextprotocol/serverInfo`); a top-level `serverInfo` is the legacy `initialize` shape.

`probe()` sends what every modern server must answer, whatever its tools: `server/discover`,
`tools/list`, a request asking for a revision nobody speaks (-32022 with `data.requested` and
`data.supported`), a line that is not JSON (-32700) and a request whose id is null (-32600),
both answered with the id left out: it could not be read, and the schema never allows
`"id": null`.  `judge()` is the same verdict for one exchange a lab check made anyway.  A
failure is a `CheckFailed` whose one paragraph names the schema type, the field, the rule's page
in the specification, and what to change.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from mcp_lab.course._check import SPEC, CheckFailed, failure, shown
from mcp_lab.wire.revisions import LATEST
from mcp_lab.wire.schema_check import WireChecker, check_message
from mcp_lab.wire.words import N_, _

__all__ = ["probe", "judge", "judge_request", "judge_trace", "UNKNOWN_VERSION"]

UNKNOWN_VERSION = "1999-01-01"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

# What to change, by the schema type that refused an answer.
_RULES = {
    "DiscoverResult": (
        SPEC + "server/discover#discoverresult",
        N_(
            "a discover result carries supportedVersions, capabilities, resultType, and ttlMs + "
            "cacheScope (how long, and for whom, a client may cache it); serverInfo goes in _meta"
        ),
    ),
    "ListToolsResult": (
        SPEC + "server/utilities/caching#cacheable-results",
        N_(
            "a tools/list result carries tools, resultType, ttlMs (an integer, milliseconds) and "
            'cacheScope ("public" or "private")'
        ),
    ),
    "UnsupportedProtocolVersionError": (
        SPEC + "basic/versioning#protocol-version-negotiation",
        N_(
            "-32022 carries data.requested (the version asked for, a string) and "
            "data.supported (the list of versions this server speaks)"
        ),
    ),
    "MissingRequiredClientCapabilityError": (
        SPEC + "basic/index#error-codes",
        N_("-32021 carries data.requiredCapabilities, a capabilities object"),
    ),
    "JSON-RPC 2.0 envelope": (
        SPEC + "basic/index#error-responses",
        N_(
            'an id is a string or an integer; when a request\'s id cannot be read, leave "id" '
            'out of the error (never "id": null)'
        ),
    ),
}
_DEFAULT_RULE = (SPEC + "basic/index#messages", N_("compare the answer with the schema type named here"))


# The JSON-RPC error codes whose schema type is the error object, not the whole response.
_ERROR_OBJECT_TYPES = (
    "ParseError",
    "InvalidRequestError",
    "MethodNotFoundError",
    "InvalidParamsError",
    "InternalError",
)


def _verdict(finding: Any, obj: Any) -> tuple[str | None, str | None]:
    """(model, error) when the answer breaks the schema, else (None, None).

    For the five plain JSON-RPC codes the schema types the error object (code, message, data),
    so that object is what is judged: the envelope (id, jsonrpc) was judged already."""
    if finding.verdict != "invalid":
        return None, None
    if finding.model in _ERROR_OBJECT_TYPES and isinstance(obj, dict) and isinstance(obj.get("error"), dict):
        from mcp_types import _v2026_07_28 as types

        try:
            getattr(types, finding.model).model_validate(obj["error"], by_name=False)
        except Exception as e:  # noqa: BLE001 - pydantic's ValidationError
            return finding.model, str(e).splitlines()[0]
        return None, None
    return finding.model, finding.error


def _fail(what: str, model: str | None, error: str | None, line: str | None) -> CheckFailed:
    url, hint = _RULES.get(model or "", _DEFAULT_RULE)
    return failure(
        what,
        expected=(
            _("an answer that validates against the {revision} schema ({model})").format(revision=LATEST, model=model)
            if model
            else _("an answer that validates against the {revision} schema").format(revision=LATEST)
        ),
        got=_("{error} in {line}").format(error=error, line=shown(line, 200)),
        rule=_("{url} (the schema's {model} type)").format(url=url, model=model or "message"),
        hint=hint,
    )


def _legacy_server_info(what: str, answer: Any, line: str | None) -> None:
    result = answer.get("result") if isinstance(answer, dict) else None
    if isinstance(result, dict) and "serverInfo" in result:
        raise failure(
            what,
            expected=_('serverInfo inside the result\'s _meta, under "{key}"').format(key=SERVER_INFO_KEY),
            got=_("a top-level serverInfo in {line}").format(line=shown(line, 200)),
            rule=SPEC
            + _("basic/index#general-fields (ResultMetaObject): a top-level serverInfo is the legacy initialize shape"),
            hint='return {..., "_meta": {"' + SERVER_INFO_KEY + '": SERVER_INFO}}',
        )


def _loads(line: Any) -> Any:
    if isinstance(line, (str, bytes)):
        try:
            return json.loads(line)
        except ValueError:
            return None
    return line


def judge(what: str, request: Any, answer: Any) -> None:
    """One exchange (lines or parsed dicts): raise CheckFailed when the answer breaks the schema."""
    checker = WireChecker()
    req, ans = _loads(request), _loads(answer)
    line = answer if isinstance(answer, str) else json.dumps(ans)
    if req is not None:
        checker.feed(req, sender="client")
    if isinstance(ans, dict) and "error" in ans:
        # An error answers in the server's era, even when the request asked for a version nobody speaks.
        finding = check_message(ans, sender="server", version=LATEST, line=line)
    else:
        finding = checker.feed(ans, sender="server", line=line)
    model, error = _verdict(finding, ans)
    if model:
        raise _fail(what, model, error, line)
    _legacy_server_info(what, ans, line)


def judge_request(what: str, request: dict) -> None:
    """A request a learner wrote, judged by the 2026-07-28 schema of its method (ClientRequest)."""
    finding = check_message(request, sender="client", version=LATEST, line=json.dumps(request))
    if finding.verdict == "invalid":
        raise failure(
            what,
            expected=_("a request that validates against the {revision} schema ({model})").format(
                revision=LATEST, model=finding.model
            ),
            got=f"{finding.error}",
            rule=SPEC + _("basic/index#requests (the schema's {model} type)").format(model=finding.model),
            hint=N_("compare each field with the method's page in the specification"),
        )


def judge_trace(what: str, trace: Any) -> int:
    """Every answer the server sent in a client's trace; returns how many were judged."""
    checker = WireChecker()
    judged = 0
    for ev in trace:
        if ev.kind not in ("send", "recv"):
            continue
        obj = _loads(ev.line)
        if obj is None:
            continue
        finding = checker.feed(obj, sender="client" if ev.kind == "send" else "server", line=ev.line)
        if ev.kind == "recv" and isinstance(obj, dict) and "error" in obj:
            finding = check_message(obj, sender="server", version=LATEST, line=ev.line)
        if ev.kind == "recv":
            judged += 1
            model, error = _verdict(finding, obj)
            if model:
                raise _fail(what, model, error, ev.line)
            _legacy_server_info(what, obj, ev.line)
    return judged


def _meta(version: str = LATEST) -> dict:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-lab-check", "version": "1"},
    }


def probe(
    argv: Sequence[str],
    *,
    env: dict | None = None,
    cwd: str | None = None,
    timeout: float = 10.0,
    name: str | None = None,
) -> list[str]:
    """Send the four envelope probes to one process of the server; each answer is judged."""
    from mcp_lab.session.connect import connect
    from mcp_lab.wire.errors import McpError

    name = name or _("the plumbing")
    client = connect(list(argv), timeout=timeout, env=env, cwd=cwd, name=name)
    try:
        lines = []
        for method, version, want in (
            ("server/discover", LATEST, _("the discover result")),
            ("tools/list", LATEST, _("the tools/list result")),
            ("tools/list", UNKNOWN_VERSION, _("the -32022 error")),
        ):
            what = _("{name} ({method} asking {version})").format(name=name, method=method, version=version)
            try:
                client.request(method, {"_meta": _meta(version)}, meta=False)
            except McpError as e:
                raise CheckFailed(
                    _(
                        "{what} got no answer ({message}); the server must answer every request. Its stderr: {stderr}"
                    ).format(what=what, message=e.message, stderr=" | ".join(client.stderr[-3:]) or _("(nothing)"))
                ) from None
            judge(what, client.trace.sent[-1], client.trace.received[-1])
            if version == UNKNOWN_VERSION and (refused := _version_error(client.trace.received[-1])):
                raise refused
            lines.append(want)
        _unreadable(client, _("{name} (a line that is not JSON)").format(name=name), "{this is not json", -32700)
        _unreadable(
            client,
            _("{name} (a request whose id is null)").format(name=name),
            json.dumps({"jsonrpc": "2.0", "id": None, "method": "tools/list", "params": {"_meta": _meta()}}),
            -32600,
        )
        lines.append(_("the -32700 and -32600 errors with no id"))
        return [
            _("{name}: {answers} validate against the {revision} schema").format(
                name=name, answers=", ".join(lines), revision=LATEST
            )
        ]
    finally:
        client.close()


def _version_error(line: str) -> CheckFailed | None:
    """The answer to an unknown version must be -32022, echoing what was asked."""
    obj = _loads(line)
    err = obj.get("error") if isinstance(obj, dict) else None
    data = err.get("data") if isinstance(err, dict) else None
    if not (
        isinstance(err, dict)
        and err.get("code") == -32022
        and isinstance(data, dict)
        and data.get("requested") == UNKNOWN_VERSION
    ):
        return failure(
            _("a request asking for protocol version {version}").format(version=UNKNOWN_VERSION),
            expected=_('the error -32022 with data.requested "{version}" and data.supported').format(
                version=UNKNOWN_VERSION
            ),
            got=shown(obj, 200),
            rule=_RULES["UnsupportedProtocolVersionError"][0],
            hint=_RULES["UnsupportedProtocolVersionError"][1],
        )
    return None


def _unreadable(client: Any, what: str, line: str, code: int) -> dict:
    """Send a request whose id cannot be read; its error answer must leave the id out."""
    want = {-32700: N_("the error -32700 (parse error)"), -32600: N_("the error -32600 (invalid request)")}[code]
    before = len(list(client.trace))
    client.send_raw(line, quiet=1.0)
    # What came back, whether the client could file it as an answer or only as a stray line
    # (an answer whose id is null answers no request it sent).
    lines = [ev.line for ev in list(client.trace)[before:] if ev.kind in ("recv", "noise")]
    if not lines:
        raise failure(
            what,
            expected=want,
            got=_("no answer"),
            rule=SPEC + "basic/index#error-codes",
            hint=N_("answer a request you cannot read with an error that has no id"),
        )
    obj = _loads(lines[-1])
    model, error = _verdict(check_message(obj, sender="server", version=LATEST, line=lines[-1]), obj)
    if model:
        raise _fail(what, model, error, lines[-1])
    if not (isinstance(obj, dict) and isinstance(obj.get("error"), dict) and obj["error"].get("code") == code):
        raise failure(
            what,
            expected=want,
            got=shown(obj, 200),
            rule=SPEC + "basic/index#error-codes",
            hint=N_("answer a request you cannot read with an error that has no id"),
        )
    return obj
