"""Notebook 02's second half: the rules a definition, a `_meta` key and a result kind follow.

Theory of operation.  Each helper reads what a bundled server really sends and judges it by a
rule of 2026-07-28, at the rule's own level (MUST or SHOULD), so the notebook shows a verdict in
one line and keeps the reading here:

- `tool_report(server)`: lists the server's tools twice and reports the tool-definition rules
  (https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool and #tool-names):
  every `inputSchema` a JSON Schema object with `type: "object"` (MUST; schema.ts types it so),
  names of 1-128 characters from `A-Z a-z 0-9 _ - .`, unique within the server (SHOULD), and the
  same order on both lists (SHOULD, #capabilities).
- `meta_key_kind(key)`: the `_meta` key format of basic/index#general-fields (a prefix of dotted
  labels and a slash, a name that starts and ends alphanumeric), the reserved prefixes (second
  label `modelcontextprotocol` or `mcp`) and the reserved trace-context keys.
- the judges of three typed tasks: names a host gives two servers' tools (disambiguation), an
  `outputSchema` the calendar's real `structuredContent` conforms to, and a reader of
  `resultType` (complete, input_required, absent = complete, anything else invalid), run on the
  calendar's own answers and on a recorded 2025-11-25 answer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mcp_lab.course.lessons import Task
from mcp_lab.wire.words import N_, _

TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_PREFIX = re.compile(rf"{_LABEL}(?:\.{_LABEL})*/")
_NAME = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?")
TRACE_KEYS = ("traceparent", "tracestate", "baggage")
META_KEYS = (
    "com.example/region",
    "dev.mcp/region",
    "com.example.mcp/region",
    "com.example/-region",
    "4example.com/region",
    "traceparent",
)
FORM = {"elicitation": {"form": {}}}
BOOKING = {"title": "Dentist", "startsAt": "2026-09-10T08:30:00Z"}


def _connect(server: str):
    from mcp_lab.session.connect import connect

    return connect(server, timeout=20)


def tool_report(server: str) -> str:
    """One line: how the server's tools/list meets the tool-definition rules (see the docstring)."""
    from jsonschema import Draft202012Validator, SchemaError

    with _connect(server) as client:
        first = client.request("tools/list").unwrap()["tools"]
        second = client.request("tools/list").unwrap()["tools"]
    names = [t["name"] for t in first]
    objects = 0
    for tool in first:
        schema = tool.get("inputSchema")
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError:
            continue
        objects += isinstance(schema, dict) and schema.get("type") == "object"
    odd = [n for n in names if not TOOL_NAME.fullmatch(n)]
    return _(
        "{server:12} {count:2} tools | inputSchema a JSON Schema object of type object: "
        "{objects}/{count} | names outside the rule: {odd} | unique: {unique} | same order twice: {same}"
    ).format(
        server=server,
        count=len(names),
        objects=objects,
        odd=odd or _("none"),
        unique=len(set(names)) == len(names),
        same=names == [t["name"] for t in second],
    )


def meta_key_kind(key: str) -> str:
    """ "reserved", "valid" or "invalid" for a `_meta` key (basic/index, General fields)."""
    if key in TRACE_KEYS:
        return "reserved"
    prefix, slash, name = key.rpartition("/")
    if slash and not _PREFIX.fullmatch(prefix + "/"):
        return "invalid"
    if not _NAME.fullmatch(name):
        return "invalid"
    labels = prefix.split(".") if slash else []
    return "reserved" if len(labels) > 1 and labels[1] in ("modelcontextprotocol", "mcp") else "valid"


def judge_meta_keys(value: Any) -> str | None:
    if not isinstance(value, dict) or set(value) != set(META_KEYS):
        return _("type a dict with the six keys listed above, each mapped to 'valid', 'reserved' or 'invalid'.")
    wrong = [k for k in META_KEYS if value[k] != meta_key_kind(k)]
    if wrong:
        return _("{count} of six are off, {key} among them.").format(count=len(wrong), key=repr(wrong[0]))
    return None


def judge_names(value: Any) -> str | None:
    """Three names a host shows its model: calendar's create_event, sdk_calendar's create_event
    and book_table; each within the name rule, all distinct, each still naming its tool."""
    if not isinstance(value, list) or len(value) != 3 or not all(isinstance(v, str) for v in value):
        return _("type a list of three strings: the names your host shows for the three tools.")
    odd = [v for v in value if not TOOL_NAME.fullmatch(v)]
    if odd:
        return _("{name} breaks the name rule: 1-128 characters from A-Z a-z 0-9 _ - .").format(name=repr(odd[0]))
    if len(set(value)) != 3:
        return _("two of the names are the same: the model could not tell those tools apart.")
    if sum("create_event" in v for v in value) != 2 or not any("book_table" in v for v in value):
        return _("keep each tool's own name inside yours: two with create_event, one with book_table.")
    return None


def judge_output_schema(value: Any) -> str | None:
    """An outputSchema the calendar's real structuredContent conforms to, and that says something:
    an object that requires the event's id."""
    from jsonschema import Draft202012Validator, SchemaError

    if not isinstance(value, dict):
        return _("type a dict: a JSON Schema.")
    try:
        Draft202012Validator.check_schema(value)
    except SchemaError as e:
        return _("that is not a valid JSON Schema 2020-12: {error}.").format(error=e.message)
    if value.get("type") != "object" or "id" not in value.get("required", []):
        return _("say what the result is: an object ('type') whose 'required' list names 'id'.")
    with _connect("calendar") as cal:
        made = cal.request("tools/call", {"name": "create_event", "arguments": BOOKING}).unwrap()
    errors = list(Draft202012Validator(value).iter_errors(made["structuredContent"]))
    if errors:
        return _("the calendar's structuredContent does not conform: {error}.").format(error=errors[0].message)
    return None


def _recorded_legacy_result() -> dict:
    """The reference server's 2025-11-25 tools/list result, from the chapter's recording (in the
    browser edition `cassette.read` opens the packed copy of the same file)."""
    from mcp_lab.servers.inprocess import course_root
    from mcp_lab.session import cassette

    root = course_root(Path(__file__).resolve().parents[3])
    recording = cassette.read(root / "notebooks" / "cassettes" / "probe-everything.jsonl")
    listed = next(x for x in recording.exchanges if x.method == "tools/list")
    return listed.answer["result"]


def result_cases() -> list[tuple[str, dict, str]]:
    """(where it came from, the result, how a 2026-07-28 client must read it)."""
    with _connect("calendar") as cal:
        listed = cal.request("tools/list").unwrap()
        cal.capabilities = FORM
        asked = cal.request("tools/call", {"name": "create_event", "arguments": {"title": "x"}}).result
    made_up = {**listed, "resultType": "partial"}
    return [
        (N_("the calendar's tools/list"), listed, "complete"),
        (N_("the calendar asking for a start"), asked, "input_required"),
        (N_("a recorded 2025-11-25 tools/list"), _recorded_legacy_result(), "complete"),
        (N_("the same list, resultType set to 'partial' by hand"), made_up, "invalid"),
    ]


def judge_result_reader(reader: Any) -> str | None:
    if not callable(reader):
        return _("type a function: def my_reading(result): return 'complete', 'input_required' or 'invalid'.")
    for label, result, right in result_cases():
        try:
            said = reader(json.loads(json.dumps(result)))
        except Exception as e:  # the learner's code: any failure is one sentence
            return _("on {case} your function raised {error}: {message}.").format(
                case=_(label), error=type(e).__name__, message=e
            )
        if said != right:
            return _("on {case} your function said {said}.").format(case=_(label), said=repr(said))
    return None


TASKS = {
    "names-for-two-servers": Task(
        judge=judge_names,
        hint=N_("prefix each name with a short name for its server, joined by a dot or an underscore."),
        prompt=N_("Write my_names above (a list of three strings), run it, then run this cell."),
        done=N_("done: three names a model can tell apart, each within the rule."),
    ),
    "output-schema-for-create-event": Task(
        judge=judge_output_schema,
        hint='{"type": "object", "properties": {"id": {"type": "string"}, ...}, "required": ["id"]}',
        prompt=N_("Write my_output_schema above (a dict), run it, then run this cell."),
        done=N_("done: the calendar's real structuredContent conforms to your schema."),
    ),
    "meta-key-verdicts": Task(
        judge=judge_meta_keys,
        hint=N_(
            "read each prefix label by label: the second label decides 'reserved'; a label starts "
            "with a letter; a name starts and ends with a letter or a digit."
        ),
        prompt=N_("Write my_verdicts above (a dict), run it, then run this cell."),
        done=N_("done: the six keys read as the rule reads them."),
    ),
    "read-result-type": Task(
        judge=judge_result_reader,
        hint=N_("three cases: a value you know, no value at all (an older server), a value you do not know."),
        prompt=N_("Write my_reading above (a function), run it, then run this cell."),
        done=N_("done: four results read as a 2026-07-28 client must read them."),
    ),
}
