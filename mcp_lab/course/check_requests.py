"""Lab 05's check (requests by hand): four requests written by hand, sent byte-for-byte to the bundled calendar.

    from mcp_lab.course import check_requests
    check_requests.check([discover, list_tools, read_week, create], list_every_tool)
    check_requests.try_each({"discover": discover, ...})               # optional: each one's answer

Theory of operation.  Each request is judged twice.  First on its own, before anything is sent:
is it still the template's placeholder, is it one JSON object, is it a JSON-RPC request (not a
notification) for the right method, does its `_meta` carry the two keys 2026-07-28 requires, and does it validate against the official schema of its method (`mcp-types`).  Then on the wire: the compact JSON of the learner's own object is written to a
fresh `python -m mcp_lab.servers.calendar` with `Client.send_raw`, unchanged (no `_meta` added,
no id rewritten), and the answer must be the one the calendar gives a correct request.  The
requests go in order to one process, so the week read by request 3 is the seed week (two
events) and the event created by request 4 is the third, "e3".  Each request is answered before
the next is sent, so an id may be used again: the rule is only that an id must not match one
still waiting for its answer (basic/index, Requests); the report says when an id was reused.

Then, when the lab passes its `list_every_tool(send)`, the client function is run against the
paged toolbox (`python -m mcp_lab.servers.paged`, three tools to a page): `send(request)` writes
the learner's request byte-for-byte and returns the whole answer as a dict.  The names it returns
must be every tool of every page, in order; a client that reads page 1 only gets three of seven,
and the report says which rule it broke (server/utilities/pagination: a page with `nextCursor`
is not the last).

The first unmet expectation raises `CheckFailed` (see `mcp_lab.course._check`), re-raised from
`check` itself so a notebook shows the paragraph and not the check's internals.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from mcp_lab.course import plumbing
from mcp_lab.course._check import CheckFailed, CheckReport, failure, is_placeholder, shown
from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.words import N_, _, ngettext

__all__ = ["EXPECTED", "check", "check_pages", "try_each"]

# (method, what the request is for), in the order the lab asks for them.
EXPECTED = (
    ("server/discover", N_("ask which revisions the server speaks")),
    ("tools/list", N_("list the tools")),
    ("resources/read", N_("read the resource calendar://week")),
    ("tools/call", N_("call create_event with a title and a startsAt date-time")),
)
SEED_TITLES = ["Standup", "Design review"]
_ENVELOPE = N_('basic/index: a request is {"jsonrpc": "2.0", "id": string or integer (never null), "method", "params"}')
_META_RULE = N_(
    "basic/index#general-fields: every 2026-07-28 request carries params._meta with "
    '"{version_key}" and "{capabilities_key}"; '
    "a server answers -32602 to a request missing either"
)
# Formatted with latest=revisions.LATEST when shown (only the last one has the field).
_HINTS = {
    jsonrpc.PARSE_ERROR: N_("the server could not parse the line as JSON"),
    jsonrpc.INVALID_REQUEST: N_("the envelope is wrong: check jsonrpc, id and method"),
    jsonrpc.METHOD_NOT_FOUND: N_("check the spelling of the method"),
    jsonrpc.INVALID_PARAMS: N_("the server's message names the parameter it did not accept"),
    jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY: N_(
        "error.data.requiredCapabilities names what the request did not "
        "declare; for create_event, give a startsAt so the server never has to ask the person"
    ),
    jsonrpc.UNSUPPORTED_PROTOCOL_VERSION: N_('the protocolVersion in _meta must be "{latest}"'),
}


def check(requests: Sequence[Any], list_every_tool: Any = None, *, timeout: float = 5.0) -> CheckReport:
    """Check the four requests (dicts or JSON text) against a real calendar process, then, when
    given, the client function `list_every_tool(send)` against the paged toolbox."""
    try:
        report = _check(requests, timeout)
        if list_every_tool is not None:
            report.passed.append(check_pages(list_every_tool, timeout=timeout))
        return report
    except CheckFailed as e:
        raise e.with_traceback(None) from None  # the paragraph, not the check's own frames


def try_each(written: dict[str, Any], *, width: int = 150) -> None:
    """Send each request written so far to a calendar of the learner's own; print each answer.

    The lab's optional "try one" cell: a placeholder (`...`) is skipped, text that is not JSON
    gets one line, and every other request goes as one compact JSON line, exactly as `check`
    sends it.  The calendar is started here and closed at the end, so running it again starts
    afresh and the check's own server is never touched.
    """
    from mcp_lab.session.connect import connect

    with connect("calendar") as scratch:
        for name, request in written.items():
            if request is ...:
                print(_("{name}: not written yet").format(name=name))
                continue
            try:
                obj = json.loads(request) if isinstance(request, str) else request
                line = json.dumps(obj, separators=(",", ":"))
            except (TypeError, ValueError) as e:
                print(_("{name}: not JSON yet ({error})").format(name=name, error=e))
                continue
            answers = scratch.send_raw(line)  # one line, exactly as the check sends it
            said = scratch.trace.received[-1][:width] if answers else _("(no answer)")
            print(f"{name}: {said}")


def _label(i: int) -> str:
    return _("request {number} ({method})").format(number=i + 1, method=EXPECTED[i][0])


def _as_object(i: int, value: Any) -> dict:
    """The learner's request as a JSON object, or the reason it is not one yet."""
    what = _label(i)
    if is_placeholder(value):
        raise CheckFailed(
            _(
                "{what} is still a placeholder: write the JSON-RPC request as a dict (or as its "
                "JSON text) that will {purpose}, in place of the `...` under YOUR CODE HERE."
            ).format(what=what, purpose=_(EXPECTED[i][1]))
        )
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as e:
            raise failure(
                what,
                expected=N_("valid JSON text"),
                got=_("a parse error ({error})").format(error=e),
                rule=N_("basic/index: every message is one JSON-RPC 2.0 object, UTF-8 JSON"),
                hint=N_(
                    "JSON needs double quotes around keys and strings, and no trailing commas; "
                    "a Python dict is easier to get right"
                ),
            ) from None
    if not isinstance(value, dict):
        raise failure(
            what,
            expected=N_("one JSON object (a dict)"),
            got=_("a {type}: {value}").format(type=type(value).__name__, value=shown(value, 120)),
            rule=N_("basic/index: one message is one object; MCP has no batches"),
            hint=N_("write a single dict with jsonrpc, id, method and params"),
        )
    try:
        json.dumps(value)
    except (TypeError, ValueError) as e:
        raise failure(
            what,
            expected=N_("a dict of JSON values only (str, int, float, bool, None, list, dict)"),
            got=_("something json cannot encode ({error})").format(error=e),
            rule=N_("basic/index: messages are JSON"),
            hint=N_("replace sets, tuples of objects, dates or other Python objects by JSON values"),
        ) from None
    return value


# Long on purpose: one failure paragraph per rule a hand-written request breaks, in the order met.
def _check_alone(i: int, obj: dict, seen_ids: dict) -> jsonrpc.Request:
    what = _label(i)
    method = EXPECTED[i][0]
    try:
        msg = jsonrpc.parse_obj(obj)
    except jsonrpc.ProtocolError as e:
        raise failure(
            what,
            expected=N_("a valid JSON-RPC 2.0 request envelope"),
            got=_("{message}, which is not one ({reason})").format(message=shown(obj, 160), reason=e.message),
            rule=_ENVELOPE,
            hint=N_('start from {"jsonrpc": "2.0", "id": 1, "method": ..., "params": {"_meta": {...}}}'),
        ) from None
    if isinstance(msg, jsonrpc.Notification):
        raise failure(
            what,
            expected=N_("a request, with an id"),
            got=_('a message without "id", which is a notification'),
            rule=N_("basic/index: a notification has no id and the receiver must never answer it"),
            hint=N_('add an "id" (a string or an integer) so the answer can come back'),
        )
    if not isinstance(msg, jsonrpc.Request):
        raise failure(
            what,
            expected=N_("a request (with a method)"),
            got=_("a {kind} message").format(kind=type(msg).__name__.lower()),
            rule=N_("basic/index: clients send requests; only servers send results and errors"),
            hint=N_('the message needs "method"'),
        )
    if msg.method != method:
        raise failure(
            what,
            expected=_('"method": "{method}" (this request should {purpose})').format(
                method=method, purpose=_(EXPECTED[i][1])
            ),
            got=f'"method": {json.dumps(msg.method)}',
            rule=N_("schema ClientRequest: method names are exact strings, slash-separated"),
            hint=_('spell it exactly "{method}"').format(method=method),
        )
    missing = revisions.missing_meta_keys(msg.params)
    if missing:
        meta = (msg.params or {}).get("_meta")
        got = (
            _("no params._meta at all")
            if not isinstance(meta, dict)
            else _("_meta with the keys {keys}").format(keys=sorted(meta))
        )
        raise failure(
            what,
            expected=N_("params._meta with both required keys"),
            got=_("{got} (missing: {keys})").format(got=got, keys=", ".join(missing)),
            rule=_(_META_RULE).format(
                version_key=revisions.PROTOCOL_VERSION_KEY, capabilities_key=revisions.CLIENT_CAPABILITIES_KEY
            ),
            hint=N_(
                "copy the two keys from notebook 02: the version string and a "
                "capabilities object ({} declares no optional capability)"
            ),
        )
    meta = msg.params["_meta"]
    if meta[revisions.PROTOCOL_VERSION_KEY] != revisions.LATEST:
        raise failure(
            what,
            expected=f'protocolVersion "{revisions.LATEST}"',
            got=json.dumps(meta[revisions.PROTOCOL_VERSION_KEY]),
            rule=N_("basic/versioning: a server MUST answer -32022 to a version it does not implement"),
            hint=_('this course speaks "{version}"').format(version=revisions.LATEST),
        )
    if not isinstance(meta[revisions.CLIENT_CAPABILITIES_KEY], dict):
        raise failure(
            what,
            expected=N_("clientCapabilities as an object"),
            got=shown(meta[revisions.CLIENT_CAPABILITIES_KEY]),
            rule=N_("schema RequestMetaObject: clientCapabilities is a ClientCapabilities object"),
            hint=N_("use {} to declare no optional capability"),
        )
    key = (type(msg.id).__name__, msg.id)
    seen_ids.setdefault(key, i)
    return msg


def _expect_result(i: int, msg: jsonrpc.Request, got: list) -> dict:
    what = _label(i)
    answers = [m for m in got if isinstance(m, (jsonrpc.Result, jsonrpc.Error)) and m.id == msg.id]
    if not answers:
        raise failure(
            what,
            expected=_("an answer with id {id}").format(id=json.dumps(msg.id)),
            got=_("nothing with that id ({messages})").format(messages=shown([str(m) for m in got], 160)),
            rule=N_("basic/index: a response carries the id of its request"),
            hint=N_("check the server's stderr"),
        )
    answer = answers[0]
    if isinstance(answer, jsonrpc.Error):
        said = _("error {code} {message}").format(code=answer.code, message=repr(answer.message))
        if answer.data is not None:
            said = _("{error} with data {data}").format(error=said, data=shown(answer.data, 120))
        raise failure(
            what,
            expected=N_("a result"),
            got=said,
            rule=_("the server refused the request ({name})").format(
                name=jsonrpc.ERROR_NAMES.get(answer.code, "error")
            ),
            hint=_(_HINTS.get(answer.code, N_("read the server's message"))).format(latest=revisions.LATEST),
        )
    return answer.result


def _check(requests: Sequence[Any], timeout: float) -> CheckReport:
    from mcp_lab.session.connect import connect

    if isinstance(requests, (dict, str)) or not hasattr(requests, "__len__"):
        raise CheckFailed(
            _("check() takes the list of your four requests: check([discover, list_tools, read_week, create]).")
        )
    if len(requests) != len(EXPECTED):
        raise CheckFailed(
            _("check() takes exactly {n} requests, in order ({methods}); it got {got}.").format(
                n=len(EXPECTED), methods=", ".join(m for m, _purpose in EXPECTED), got=len(requests)
            )
        )
    report = CheckReport(server=_("your four requests"))
    seen_ids: dict = {}
    cal = connect("calendar", timeout=timeout)
    try:
        for i, value in enumerate(requests):
            obj = _as_object(i, value)
            msg = _check_alone(i, obj, seen_ids)
            plumbing.judge_request(_label(i), obj)
            first = seen_ids[(type(msg.id).__name__, msg.id)]
            report.passed.append(
                _("{what}: a valid request with id {id} and both _meta keys").format(
                    what=_label(i), id=json.dumps(msg.id)
                )
                if first == i
                else _(
                    "{what}: a valid request with id {id} (also request {first}'s, answered already: allowed) "
                    "and both _meta keys"
                ).format(what=_label(i), id=json.dumps(msg.id), first=first + 1)
            )
            wire = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))  # one line, exactly this object
            result = _expect_result(i, msg, cal.send_raw(wire, timeout=timeout))
            report.passed.append(_judge(i, obj, result))
        plumbing.judge_trace(_("the calendar's answers"), cal.trace)
    finally:
        cal.close()
    return report


# Long on purpose: one block per request of the lab, each with the failure its answer explains.
def _judge(i: int, obj: dict, result: dict) -> str:
    """The answer a correct request gets; returns the line the report shows."""
    what = _label(i)
    params = obj.get("params") or {}
    if i == 0:
        versions = result.get("supportedVersions")
        if not isinstance(versions, list) or revisions.LATEST not in versions:
            raise failure(
                what,
                expected=_('supportedVersions listing "{version}"').format(version=revisions.LATEST),
                got=shown(versions),
                rule=N_("server/discover: the result lists supportedVersions"),
                hint=N_("look at the whole result"),
            )
        return _("{what}: the server speaks {versions}").format(what=what, versions=", ".join(versions))
    if i == 1:
        names = [t.get("name") for t in result.get("tools") or [] if isinstance(t, dict)]
        if names != ["create_event"]:
            raise failure(
                what,
                expected=N_('the tool list ["create_event"]'),
                got=shown(names),
                rule=N_("server/tools: tools/list MUST return the tools currently available to the client"),
                hint=N_("tools/list takes no arguments besides _meta (and an optional cursor)"),
            )
        return _("{what}: one tool, create_event").format(what=what)
    if i == 2:
        if params.get("uri") != "calendar://week":
            raise failure(
                what,
                expected=N_('params.uri "calendar://week"'),
                got=shown(params.get("uri")),
                rule=N_("server/resources: resources/read names the resource by its uri"),
                hint=N_("copy the uri exactly"),
            )
        contents = result.get("contents") or [{}]
        try:
            events = json.loads(contents[0].get("text", ""))
        except (ValueError, AttributeError):
            events = None
        titles = [e.get("title") for e in events] if isinstance(events, list) else events
        if titles != SEED_TITLES:
            raise failure(
                what,
                expected=_("the two seed events {titles}").format(titles=SEED_TITLES),
                got=shown(titles),
                rule=N_("server/resources: the text of calendar://week is the week's events as JSON"),
                hint=N_("send this request before the tools/call, which adds a third event"),
            )
        return ngettext(
            "{what}: the week holds {n} event ({titles})", "{what}: the week holds {n} events ({titles})", len(events)
        ).format(what=what, n=len(events), titles=", ".join(SEED_TITLES))
    # i == 3: tools/call create_event
    args = params.get("arguments")
    if params.get("name") != "create_event" or not isinstance(args, dict):
        raise failure(
            what,
            expected=N_('params {"name": "create_event", "arguments": {...}}'),
            got=shown({k: v for k, v in params.items() if k != "_meta"}),
            rule=N_("server/tools: tools/call takes the tool's name and its arguments object"),
            hint=N_('arguments is an object: {"title": ..., "startsAt": ...}'),
        )
    if result.get("resultType") == "input_required":
        raise failure(
            what,
            expected=N_('a "complete" result'),
            got=_('resultType "input_required": the server asks for a start time'),
            rule=N_(
                "basic/patterns/mrtr: a server MAY answer input_required when the request lacks something "
                "(this calendar does, for a missing startsAt)"
            ),
            hint=N_('add "startsAt", an ISO 8601 date-time such as "2026-09-10T08:30:00Z", to the arguments'),
        )
    text = " ".join(c.get("text", "") for c in result.get("content") or [] if isinstance(c, dict))
    want = f"Created e3: {args.get('title')} at {args.get('startsAt')}"
    if result.get("isError") or text != want:
        raise failure(
            what,
            expected=repr(want),
            got=_("{text} (isError: true)").format(text=repr(text)) if result.get("isError") else repr(text),
            rule=N_(
                "server/tools: a tool's own failure comes back as a result with isError true, "
                "which the model can read and correct"
            ),
            hint=N_("the text says what the tool did not like"),
        )
    return f"{what}: {text}"


PAGES = N_("every page (tools/list on the paged toolbox)")
_PAGES_RULE = N_(
    "server/utilities/pagination: a page that carries nextCursor is not the last; the client "
    "sends it back unchanged in params.cursor until a page comes without one"
)


def check_pages(list_every_tool: Any, *, timeout: float = 5.0) -> str:
    """Run `list_every_tool(send)` against a fresh paged toolbox; the report's line, or CheckFailed."""
    from mcp_lab.servers.paged import PAGE_SIZE, TOOLS
    from mcp_lab.session.connect import connect

    if is_placeholder(list_every_tool) or not callable(list_every_tool):
        raise CheckFailed(
            _("{what}: list_every_tool should be a function that takes send and returns the tool names.").format(
                what=_(PAGES)
            )
        )
    want = [t["name"] for t in TOOLS]
    sent: list[dict] = []
    with connect("paged", timeout=timeout) as box:

        def send(request: Any) -> dict:
            obj = json.loads(request) if isinstance(request, str) else request
            sent.append(obj)
            got = box.send_raw(json.dumps(obj, ensure_ascii=False, separators=(",", ":")), timeout=timeout)
            answers = [m for m in got if getattr(m, "id", None) == obj.get("id")]
            if not answers:
                raise CheckFailed(
                    _("{what}: no answer to {request}; check its id and method.").format(
                        what=_(PAGES), request=shown(obj, 160)
                    )
                )
            return answers[0].to_dict()

        try:
            names = list_every_tool(send)
        except CheckFailed:
            raise
        except Exception as e:  # the learner's code: one line, not its traceback
            raise CheckFailed(
                _("{what}: list_every_tool raised {error}: {message}").format(
                    what=_(PAGES), error=type(e).__name__, message=e
                )
            ) from None
        plumbing.judge_trace(_("the paged toolbox's answers"), box.trace)
    if list(names or []) != want:
        cursors = [r.get("params", {}).get("cursor") for r in sent if isinstance(r, dict)]
        raise failure(
            _(PAGES),
            expected=_("all {n} tool names, {size} to a page, in order").format(n=len(want), size=PAGE_SIZE),
            got=ngettext(
                "{names} after {n} request(s), cursors sent: {cursors}",
                "{names} after {n} request(s), cursors sent: {cursors}",
                len(sent),
            ).format(names=shown(names, 160), n=len(sent), cursors=shown(cursors, 120)),
            rule=_PAGES_RULE,
            hint=N_('read result["nextCursor"]; while it is there, ask again with params {"cursor": it, "_meta": ...}'),
        )
    return _("{what}: {n} tools over {pages} pages, every nextCursor followed").format(
        what=_(PAGES), n=len(names), pages=len(sent)
    )
