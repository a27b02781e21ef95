"""Elicitation schema analysis, sans-IO: what a form-mode ``requestedSchema`` asks for.

A form-mode ``elicitation/create`` carries a *restricted* schema: a flat object whose properties
are primitives (string, number/integer, boolean, single-select enum, multi-select enum array).
`analyse` turns one property into a `FieldSpec` (its kind, options and bounds) or a list of
problems; `secret_terms` is the heuristic that refuses to collect passwords, keys and card
numbers in form mode (servers MUST use URL mode for those); the parsers turn typed text into
values. No widgets here: `mcp_lab.notebook.fields` and `.form` build on this.

See https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation
"""

from __future__ import annotations

import datetime as _dt
import math
import re

__all__ = [
    "FieldSpec",
    "analyse",
    "capabilities",
    "secret_terms",
    "parse_date",
    "parse_datetime",
    "utc_string",
    "format_number",
    "is_num",
    "is_count",
    "EMAIL_RE",
    "URI_RE",
    "INT_RE",
    "SCHEMA_REF",
    "SPEC_ELICITATION",
]


SPEC_ELICITATION = "https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation"
SCHEMA_REF = "schema.json $defs/PrimitiveSchemaDefinition"
_FORMATS = ("email", "uri", "date", "date-time")
_PRIMITIVE_TYPES = ("string", "number", "integer", "boolean", "array")

# A deliberately simple e-mail shape (local@domain.tld, no spaces): the server validates for real;
# the client only catches obvious typos before the person presses Accept.
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
# RFC 3986 absolute URI: a scheme, a colon, then something without whitespace.
URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:[^\s]+$")
INT_RE = re.compile(r"^[+-]?\d+$")


def capabilities() -> dict:
    """The ``clientCapabilities.elicitation`` object this module can render: both modes."""
    return {"form": {}, "url": {}}


# --------------------------------------------------------------------------------------------
# The secrets heuristic
# --------------------------------------------------------------------------------------------
# Text is normalised first: camelCase and snake/kebab case become separate lower-case words
# ("apiKey" -> "api key", "card_number" -> "card number"), then these word patterns are searched.
# Only free-entry fields (plain strings and numbers) are checked: a boolean "Remember password?"
# or an enum cannot carry a secret. It is a heuristic: it errs towards flagging, and a server can
# always evade it; the spec's rule binds the server, this only protects the person from the
# obvious cases. Names, e-mails and usernames are not secrets per the spec and are not flagged.
_SECRET_PATTERNS: tuple[tuple[str, re.Pattern], ...] = tuple(
    (label, re.compile(rx))
    for label, rx in (
        ("password", r"\b(pass ?word|passwd|pwd)s?\b"),
        ("passphrase", r"\bpass ?phrases?\b"),
        ("passcode", r"\bpass ?codes?\b"),
        ("API key", r"\bapi ?keys?\b"),
        ("secret", r"\bsecrets?\b"),
        ("access token", r"\b(access|bearer|auth|refresh|api|personal access) ?tokens?\b"),
        ("private key", r"\bprivate ?keys?\b"),
        ("card number", r"\b(credit |debit )?card ?(number|no|num)s?\b|\bcredit ?cards?\b"),
        ("CVV", r"\b(cvv2?|cvc2?|csc|card security code)\b"),
        ("payment credential", r"\bpayment (credentials?|details|card)\b"),
    )
)


def _words(text: str) -> str:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text)
    return re.sub(r"[\s_\-./:]+", " ", text).lower().strip()


def secret_terms(text: str | None) -> list[str]:
    """Which secret kinds ``text`` asks for, e.g. ``secret_terms("apiKey") == ["API key"]``."""
    if not text:
        return []
    norm = _words(str(text))
    return [label for label, rx in _SECRET_PATTERNS if rx.search(norm)]


# --------------------------------------------------------------------------------------------
# Schema analysis: property schema -> (kind, options) or a list of problems
# --------------------------------------------------------------------------------------------
class FieldSpec:
    """What one property asks for, after checking it against the restricted subset."""

    def __init__(self, name: str, schema: dict, required: bool):
        self.name = name
        self.schema = schema
        self.required = required
        self.kind = ""  # string|email|uri|date|date-time|number|integer|boolean|enum|multi
        self.options: list[tuple[str, str]] = []  # (label, const) for enum/multi
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.title = schema.get("title") if isinstance(schema.get("title"), str) else None
        self.description = schema.get("description") if isinstance(schema.get("description"), str) else None


def is_num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def is_count(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _titled_options(seq, where: str, problems: list[str]) -> list[tuple[str, str]]:
    if not isinstance(seq, list) or not seq:
        problems.append(f"{where} must be a non-empty list of {{const, title}} objects")
        return []
    out = []
    for i, o in enumerate(seq):
        if not (isinstance(o, dict) and isinstance(o.get("const"), str) and isinstance(o.get("title"), str)):
            problems.append(f"{where}[{i}] must be an object with string 'const' and 'title'")
            return []
        out.append((o["title"], o["const"]))
    return out


def _plain_options(seq, where: str, problems: list[str]) -> list[tuple[str, str]]:
    if not isinstance(seq, list) or not seq or not all(isinstance(v, str) for v in seq):
        problems.append(f"{where} must be a non-empty list of strings")
        return []
    return [(v, v) for v in seq]


def analyse(name: str, schema, required: bool) -> FieldSpec:  # noqa: C901 -- one branch per primitive kind of the restricted schema
    if not isinstance(schema, dict):
        spec = FieldSpec(name, {}, required)
        spec.problems.append("a property schema must be an object")
        return spec
    spec = FieldSpec(name, schema, required)
    p = spec.problems
    t = schema.get("type")
    if isinstance(t, list):
        p.append(f"type {t!r}: a list of types is not allowed; use one primitive type")
    elif t is None:
        p.append("has no 'type' (allowed: string, number, integer, boolean, or array of enum strings)")
    elif t == "object" or "properties" in schema:
        p.append("nested objects are not allowed: requestedSchema must be flat")
    elif t not in _PRIMITIVE_TYPES:
        p.append(f"type {t!r} is not allowed (allowed: string, number, integer, boolean, array of enum strings)")
    elif t == "array":
        items = schema.get("items")
        if not isinstance(items, dict):
            p.append("an array must have 'items' with 'enum' or 'anyOf' (multi-select enum)")
        elif items.get("type") == "object" or "properties" in items:
            p.append("arrays of objects are not allowed; only arrays of enum strings (multi-select)")
        elif "enum" in items:
            if items.get("type", "string") != "string":
                p.append(f"items.type {items.get('type')!r}: multi-select items must be strings")
            spec.options = _plain_options(items["enum"], "items.enum", p)
        elif "anyOf" in items:
            spec.options = _titled_options(items["anyOf"], "items.anyOf", p)
        else:
            p.append("an array must be a multi-select enum: 'items' needs 'enum' or 'anyOf'")
        for k in ("minItems", "maxItems"):
            if k in schema and not is_count(schema[k]):
                p.append(f"{k} must be a non-negative integer")
        if (
            is_count(schema.get("minItems"))
            and is_count(schema.get("maxItems"))
            and schema["minItems"] > schema["maxItems"]
        ):
            p.append("minItems is larger than maxItems: no selection can be valid")
        spec.kind = "multi"
    elif t == "string":
        if "oneOf" in schema:
            spec.options = _titled_options(schema["oneOf"], "oneOf", p)
            spec.kind = "enum"
        elif "enum" in schema:
            spec.options = _plain_options(schema["enum"], "enum", p)
            names = schema.get("enumNames")
            if names is not None and spec.options:
                if (
                    isinstance(names, list)
                    and len(names) == len(spec.options)
                    and all(isinstance(n, str) for n in names)
                ):
                    # LegacyTitledEnumSchema: enumNames are the display labels.
                    spec.options = [(n, c) for n, (_, c) in zip(names, spec.options)]
                else:
                    p.append("enumNames must be a list of strings as long as enum")
            spec.kind = "enum"
        else:
            fmt = schema.get("format")
            if fmt is not None and fmt not in _FORMATS:
                p.append(f"format {fmt!r} is not allowed (allowed: email, uri, date, date-time)")
            spec.kind = fmt if fmt in _FORMATS else "string"
            for k in ("minLength", "maxLength"):
                if k in schema and not is_count(schema[k]):
                    p.append(f"{k} must be a non-negative integer")
    elif t in ("number", "integer"):
        for k in ("minimum", "maximum"):
            if k in schema and not is_num(schema[k]):
                p.append(f"{k} must be a number")
        spec.kind = t
    elif t == "boolean":
        spec.kind = "boolean"
    return spec


# --------------------------------------------------------------------------------------------
# Value parsing shared by set() and validation
# --------------------------------------------------------------------------------------------
def parse_date(text: str) -> _dt.date:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise ValueError(f"{text!r} is not a date in the form YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a valid calendar date") from None


def parse_datetime(value) -> _dt.datetime:
    if isinstance(value, str):
        try:
            value = _dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO 8601 date-time such as 2026-09-10T08:30:00Z") from None
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{value.isoformat()} has no time zone; give it in UTC with a Z, e.g. 2026-09-10T08:30:00Z")
    return value


def utc_string(value: _dt.datetime) -> str:
    """RFC 3339 / ISO 8601 in UTC with a Z, whole seconds: ``2026-09-10T08:30:00Z``."""
    return value.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def format_number(x) -> str:
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    return repr(x) if isinstance(x, float) else str(x)
