"""Lab 12's check (token budget): a trimmed tool catalog that fits a token budget and still says what matters.

    from mcp_lab.course import check_budget
    check_budget.check(trimmed, original=catalog)       # CheckFailed, or a report

Theory of operation.  The trimmed catalog is written to a temporary file and served by a real
process (`python -m mcp_lab.course.catalog_server FILE`); the check then asks that process for
`tools/list` and judges the tools that came back on the wire.  First what the model needs, tool
by tool against the original: the same set of names (a name is the API: renaming breaks every
caller), a non-empty description, an `inputSchema` that keeps the JSON Schema rules of
basic/index and server/tools (`schema_rules`: its dialect 2020-12 or one it names in `$schema`
that this check knows, no `$ref` to a network address, nesting bounded, valid in its dialect,
`"type": "object"`), and every required argument still required, still in `properties`.  Then whether the
words still mean something (issue 36: a catalog whose 8 descriptions were one marketing sentence,
and whose optional arguments had lost their descriptions, used to pass): no two tools share a
description; each says more than its name and holds a word of its own tool's job (a word of the
tool's name, or of its original description that is not the catalog's boilerplate, i.e. not in
more than half of the original descriptions); and every argument kept, optional ones included,
keeps its type (and an array's item type) and a description that says more than its name.
Words are compared by their first five letters, so "reminder" and "remind" match.  Only then the price:
`mcp_lab.tokens.catalog_cost` with o200k_base, offline, against the budget.  Meaning is checked
before size so that deleting things cannot pass for trimming them.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from mcp_lab.course import plumbing
from mcp_lab.course._check import CheckFailed, CheckReport, failure, shown
from mcp_lab.wire import jsonrpc
from mcp_lab.wire.errors import McpError
from mcp_lab.wire.words import N_, _, ngettext

__all__ = ["BUDGET", "ENCODING", "check", "load_catalog", "schema_problem", "schema_rules"]

BUDGET = 1100  # tokens for the 8 definitions (name + description + inputSchema)
ENCODING = "o200k_base"
_TOOLS_RULE = N_("server/tools: a tool has a unique name, a description and an inputSchema (JSON Schema, type object)")


def check(trimmed: Any, *, original: Any, budget: int = BUDGET, timeout: float = 5.0) -> CheckReport:
    """Serve `trimmed` from a real process, then check meaning and cost against `original`."""
    try:
        return _check(trimmed, load_catalog(original), budget, timeout)
    except CheckFailed as e:
        raise e.with_traceback(None) from None  # the paragraph, not the check's own frames


def load_catalog(value: Any) -> list[dict]:
    """A list of tool dicts from a list, a {"tools": [...]} dict, or the path of a JSON file."""
    if isinstance(value, (str, Path)):
        value = json.loads(Path(value).read_text(encoding="utf-8"))
    if isinstance(value, dict):
        value = value.get("tools")
    if not isinstance(value, list):
        raise CheckFailed(
            _('a catalog is a list of tool objects (or {{"tools": [...]}}); got {type}.').format(
                type=type(value).__name__
            )
        )
    return value


def _served(tools: list, timeout: float) -> tuple[list[dict], Any]:
    """Write the catalog, serve it from a real process; what tools/list answered, and the trace."""
    from mcp_lab.session.connect import connect

    with tempfile.TemporaryDirectory(prefix="mcp-lab-budget-") as tmp:
        path = Path(tmp) / "trimmed.json"
        path.write_text(json.dumps({"tools": tools}, ensure_ascii=False, indent=1), encoding="utf-8")
        client = connect(
            [sys.executable, "-m", "mcp_lab.course.catalog_server", str(path)], timeout=timeout, name="catalog_server"
        )
        try:
            answer = client.request("tools/list")
        except McpError as e:
            raise CheckFailed(
                _("the catalog server gave no answer ({message}); its stderr: {stderr}").format(
                    message=e.message, stderr=" | ".join(client.stderr[-3:]) or _("(nothing)")
                )
            ) from None
        finally:
            client.close()
    if not isinstance(answer, jsonrpc.Result) or not isinstance(answer.result.get("tools"), list):
        raise CheckFailed(
            _("the catalog server answered {answer} to tools/list; expected a list of tools.").format(
                answer=repr(answer)
            )
        )
    return answer.result["tools"], client.trace


def _check(trimmed: Any, original: list[dict], budget: int, timeout: float) -> CheckReport:
    tools = _readable(trimmed)
    report = CheckReport(server=_("your trimmed catalog"))
    ok = report.passed.append

    wire_tools, trace = _served(tools, timeout)
    ok(
        ngettext(
            "served by a real process: tools/list returned {n} tool",
            "served by a real process: tools/list returned {n} tools",
            len(wire_tools),
        ).format(n=len(wire_tools))
    )
    want = _same_names(wire_tools, original)
    ok(_("all {n} tools kept, names unchanged").format(n=len(want)))

    by_name = {t["name"]: t for t in wire_tools}
    dropped = [arg for orig in original for arg in _check_tool(orig, by_name[orig["name"]])]
    ok(_("every description non-empty; every inputSchema of type object, in a known dialect, no network $ref"))
    ok(_("every required argument kept; every argument kept has its type and a description"))
    _descriptions_mean_something(original, by_name)
    ok(_("every tool's description is its own and says what that tool does"))
    plumbing.judge_trace(_("the served catalog"), trace)  # each Tool as the official schema defines it
    ok(_("the tools/list answer validates against the 2026-07-28 schema (ListToolsResult, Tool)"))
    if dropped:
        ok(_("optional arguments dropped (the model can no longer use them): {names}").format(names=", ".join(dropped)))
    _within_budget(wire_tools, budget, report)
    return report


def _readable(trimmed: Any) -> list[dict]:
    """The learner's catalog as a list of tool dicts, or a CheckFailed saying what it is instead."""
    if trimmed is ... or trimmed is None:
        raise CheckFailed(
            _(
                "`trimmed` is still a placeholder: build the trimmed list of tools (start from a copy "
                "of `catalog`) in place of the `...` under YOUR CODE HERE."
            )
        )
    tools = load_catalog(trimmed)
    try:
        json.dumps(tools)
    except (TypeError, ValueError) as e:
        raise CheckFailed(
            _(
                "the trimmed catalog holds something that is not JSON ({error}); use only dicts, lists, "
                "strings, numbers, booleans and None."
            ).format(error=e)
        ) from None
    if not all(isinstance(t, dict) for t in tools):
        bad = next(t for t in tools if not isinstance(t, dict))
        raise CheckFailed(
            _("every entry of the trimmed catalog must be a tool object (a dict); one is {entry}.").format(
                entry=shown(bad, 80)
            )
        )
    return tools


def _same_names(wire_tools: list[dict], original: list[dict]) -> list[str]:
    """The original's tool names, when the served catalog has exactly those, once each."""
    names = [t.get("name") for t in wire_tools]
    want = [t["name"] for t in original]
    missing = [n for n in want if n not in names]
    extra = [n for n in names if n not in want]
    if missing or extra or len(names) != len(set(names)):
        if missing and extra:
            got = _("missing {missing} and names not in the original {extra}").format(missing=missing, extra=extra)
        elif missing or extra:
            got = (
                _("missing {missing}").format(missing=missing)
                if missing
                else _("names not in the original {extra}").format(extra=extra)
            )
        else:
            got = _("duplicated names {names}").format(names=names)
        raise failure(
            _("tool names"),
            expected=_("the same {n} tools, names unchanged: {names}").format(n=len(want), names=want),
            got=got,
            rule=_("{rule}; the name is what the model calls, so it is the API").format(rule=_(_TOOLS_RULE)),
            hint=N_("shorten what a tool says, never which tools exist or what they are called"),
        )
    return want


def _check_tool(orig: dict, tool: dict) -> list[str]:
    """One served tool against its original; returns the optional arguments it dropped."""
    name = orig["name"]
    schema = _check_described_schema(name, tool)
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = schema.get("required") or []
    orig_props = orig["inputSchema"].get("properties", {})
    wanted = orig["inputSchema"].get("required", [])
    for arg in wanted:
        _check_required_argument(
            _("tool {name}, required argument {arg}").format(name=name, arg=repr(arg)), arg, props, required
        )
    dropped = []
    for arg, o in orig_props.items():
        if arg not in props:
            dropped.append(f"{name}.{arg}")
            continue
        what = (
            _("tool {name}, required argument {arg}") if arg in wanted else _("tool {name}, optional argument {arg}")
        ).format(name=name, arg=repr(arg))
        _check_argument_described(what, arg, props[arg], o)
        if "enum" in o and props[arg].get("enum") != o["enum"]:
            raise failure(
                _("tool {name}, argument {arg}").format(name=name, arg=repr(arg)),
                expected=_("the enum {values}").format(values=shown(o["enum"])),
                got=shown(props[arg].get("enum")),
                rule=N_("an enum is the list of values the tool accepts; without it the model guesses"),
                hint=N_("keep enum"),
            )
    return dropped


def _check_described_schema(name: str, tool: dict) -> dict:
    """A non-empty description and an inputSchema that is a valid tool schema (`schema_rules`)."""
    desc = tool.get("description")
    if not isinstance(desc, str) or not desc.strip():
        raise failure(
            _("tool {name}").format(name=name),
            expected=N_("a non-empty description"),
            got=shown(desc),
            rule=_("{rule}; the description is how the model knows when to call the tool").format(rule=_(_TOOLS_RULE)),
            hint=N_("one short sentence: what the tool does, and a warning if it writes"),
        )
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        raise failure(
            _("tool {name}").format(name=name),
            expected=N_("an inputSchema object"),
            got=shown(schema, 120),
            rule=_TOOLS_RULE,
            hint=N_("keep inputSchema; trim inside it"),
        )
    schema_rules(_("tool {name}").format(name=name), schema)
    return schema


def schema_problem(schema: Any) -> str | None:
    """The sentence the check would give an inputSchema, or None when it keeps every rule."""
    try:
        schema_rules(_("this inputSchema"), schema)
    except CheckFailed as e:
        return str(e)
    return None


def schema_rules(what: str, schema: Any) -> None:
    """The JSON Schema rules of basic/index and server/tools, in the order a client meets them.

    The dialect first (no `$schema` means 2020-12; one this check does not know is refused, not
    guessed), then no `$ref` to a network address (nothing here would fetch it, so the schema
    could not be checked), then the schema valid in its own dialect, then `"type": "object"`."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, dict):
        raise failure(
            what,
            expected=N_("an inputSchema object"),
            got=shown(schema, 120),
            rule=_TOOLS_RULE,
            hint=N_("keep inputSchema; trim inside it"),
        )
    validator = _dialect(what, schema)
    remote = _remote_refs(what, schema)
    if remote:
        raise failure(
            what,
            expected=N_("only local references ($ref starting with #)"),
            got=shown(remote[0]),
            rule=N_(
                "basic/index#ref-resolution: an implementation must not fetch a $ref that points "
                "at the network, so the schema cannot be checked"
            ),
            hint=N_("write the referenced schema inline, or under $defs and point at it with #/$defs/NAME"),
        )
    try:
        validator.check_schema(schema)
    except SchemaError as e:
        where = "/".join(str(p) for p in e.absolute_path) or _("(top)")
        raise failure(
            what,
            expected=N_("an inputSchema that is valid JSON Schema 2020-12")
            if validator is Draft202012Validator
            else N_("an inputSchema valid in the dialect its $schema names"),
            got=_("{message} at {where}").format(message=e.message, where=where),
            rule=N_("server/tools: inputSchema is a JSON Schema (2020-12 unless it says otherwise)"),
            hint=N_("a keyword's value must keep its type, e.g. required stays a list of strings"),
        ) from None
    if schema.get("type") != "object":
        raise failure(
            what,
            expected=N_('inputSchema with "type": "object"'),
            got=shown(schema["type"]) if "type" in schema else _("no type at all"),
            rule=N_(
                'server/tools#tool: inputSchema is a JSON Schema object whose type is "object": '
                "the arguments of a call are one object"
            ),
            hint=N_('keep "type": "object"'),
        )


def _dialect(what: str, schema: dict) -> Any:
    """The validator class of the schema's dialect: 2020-12 when `$schema` is absent, else the
    one `$schema` names, or a CheckFailed when this check does not know that dialect."""
    from jsonschema import Draft202012Validator, validators

    if "$schema" not in schema:
        return Draft202012Validator
    validator = validators.validator_for(schema, default=None)
    if validator is None:
        raise failure(
            what,
            expected=N_(
                "no $schema (then it is 2020-12), or a dialect this check knows (2020-12, 2019-09, draft-07 or older)"
            ),
            got=shown(schema["$schema"]),
            rule=N_(
                "basic/index#schema-dialect: a schema names its dialect in $schema; a dialect "
                "the reader does not support is refused with an error, never guessed"
            ),
            hint=N_("delete $schema: without it a schema is JSON Schema 2020-12"),
        )
    return validator


_MAX_DEPTH = 32  # levels of nesting a tool's inputSchema may have (a bound, as basic/index asks)


def _remote_refs(what: str, node: Any, depth: int = 0) -> list[str]:
    """Every `$ref` (or `$dynamicRef`) under `node` that names an http(s) address; a schema
    nested deeper than _MAX_DEPTH is refused rather than walked (or validated) without end."""
    if depth > _MAX_DEPTH:
        raise failure(
            what,
            expected=_("a schema nested at most {n} levels deep").format(n=_MAX_DEPTH),
            got=_("a deeper one"),
            rule=N_(
                "basic/index#composition-keyword-resource-use: a validator should bound the depth "
                "and size of a schema, so that a schema cannot make it work without end"
            ),
            hint=N_("flatten the schema: an argument rarely needs more than a few levels"),
        )
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                if value.strip().lower().startswith(("http://", "https://")):
                    found.append(value)
            else:
                found += _remote_refs(what, value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            found += _remote_refs(what, value, depth + 1)
    return found


def _check_required_argument(what: str, arg: str, props: dict, required: list) -> None:
    """A required argument stays required and defined in `properties`."""
    prop = props.get(arg)
    if arg not in required or not isinstance(prop, dict):
        raise failure(
            what,
            expected=N_("still listed in required and defined in properties"),
            got=(
                _("not in required (properties: {names})")
                if arg not in required
                else _("not in properties (properties: {names})")
            ).format(names=sorted(props)),
            rule=N_(
                "server/tools: the model can only send "
                "the arguments the schema describes; a required one it does not know makes every "
                "call fail"
            ),
            hint=N_(
                'a property may be called "title" or "description": strip '
                "keywords from schemas, not entries from properties"
            ),
        )


def _check_argument_described(what: str, arg: str, prop: dict, o: dict) -> None:
    """An argument kept (required or optional) keeps its type, item type and a description."""
    if prop.get("type") != o.get("type"):
        raise failure(
            what,
            expected=_("its type {type}").format(type=shown(o.get("type"))),
            got=shown(prop.get("type")),
            rule=N_("the type is what the model must send; without it any value looks valid"),
            hint=N_("keep type (and format) on every argument you keep"),
        )
    if o.get("type") == "array" and (prop.get("items") or {}).get("type") != (o.get("items") or {}).get("type"):
        raise failure(
            what,
            expected=_("items of type {type}").format(type=shown((o.get("items") or {}).get("type"))),
            got=shown(prop.get("items")),
            rule=N_("an array's item type is part of its type"),
            hint=N_("keep items"),
        )
    d = prop.get("description")
    if not isinstance(d, str) or not d.strip() or _plain(d) == _plain(arg):
        raise failure(
            what,
            expected=N_("a description that says what to send"),
            got=shown(d),
            rule=N_("server/tools: the schema is the model's only documentation of an argument"),
            hint=N_("a few words: the unit, the format or an example value"),
        )


def _within_budget(wire_tools: list[dict], budget: int, report: CheckReport) -> None:
    """The price, last: o200k_base tokens of the served definitions against the budget."""
    import mcp_lab.tokens as tokens

    cost = tokens.catalog_cost(wire_tools, None, ENCODING)
    report.cost = cost  # type: ignore[attr-defined]   (the per-tool table, for the notebook)
    if cost.tools_total > budget:
        worst = max(cost.tools, key=lambda t: t.tokens)
        raise CheckFailed(
            _(
                "catalog costs {cost} tokens; the budget is {budget} ({encoding}, "
                "name + description + inputSchema of every tool, as a client receives them). "
                "{over} tokens to go; the costliest tool is {worst} "
                "({worst_tokens}). Hint: prose that repeats itself, examples in descriptions, and "
                "schema keywords a model does not need (title, examples) are the cheapest to cut."
            ).format(
                cost=f"{cost.tools_total:,}",
                budget=f"{budget:,}",
                encoding=ENCODING,
                over=f"{cost.tools_total - budget:,}",
                worst=worst.name,
                worst_tokens=f"{worst.tokens:,}",
            )
        )
    report.passed.append(
        _("catalog costs {cost} tokens; the budget is {budget} ({encoding})").format(
            cost=f"{cost.tools_total:,}", budget=f"{budget:,}", encoding=ENCODING
        )
    )


def _plain(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


# Words that carry no meaning of their own in a tool description (compared as stems, below).
_FILLER = frozenset(
    "the a an and or of to in on for with from by is are be it its this that you your at as "
    "when what which who will should use can may".split()
)


def _stems(text: str) -> set[str]:
    """The words of `text` that can carry meaning, by their first five letters."""
    return {w[:5] for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in _FILLER}


def _descriptions_mean_something(original: list[dict], by_name: dict[str, dict]) -> None:
    """No two tools share a description; each says more than its name, in words of its own job."""
    seen: dict[str, str] = {}
    for orig in original:
        name = orig["name"]
        key = _plain(by_name[name]["description"])
        if key in seen:
            raise failure(
                _("tools {first} and {second}").format(first=seen[key], second=name),
                expected=N_("a description of each tool's own job"),
                got=_("the same description for both: {description}").format(
                    description=shown(by_name[name]["description"], 120)
                ),
                rule=N_(
                    "server/tools: the description is how the model tells tools apart; "
                    "the same words on two tools leave it guessing which one to call"
                ),
                hint=N_("one short sentence per tool: what it does, and a warning if it writes"),
            )
        seen[key] = name
    counts = Counter(stem for orig in original for stem in _stems(str(orig.get("description", ""))))
    boilerplate = {stem for stem, n in counts.items() if n > len(original) / 2}
    for orig in original:
        name, desc = orig["name"], by_name[orig["name"]]["description"]
        named = _stems(name.replace("_", " ").replace("-", " "))
        own = (_stems(str(orig.get("description", ""))) - boilerplate) | named
        said = _stems(desc)
        if not said & own or said <= named:
            words = ", ".join(sorted(w for w in re.findall(r"[a-z]+", name.lower()) if len(w) > 2))
            raise failure(
                _("tool {name}").format(name=name),
                expected=N_("a description that says what this tool does, beyond its name"),
                got=shown(desc, 120),
                rule=N_(
                    "server/tools: the description is how the model knows when to call the tool; "
                    "praise of the product, or the name said again, tells it nothing"
                ),
                hint=_(
                    "say what {name} does to what (its name says {words}); add what it returns, "
                    "a unit, or a warning if it writes"
                ).format(name=name, words=words),
            )
