"""mcp_lab.widgets: elicitation forms built from real ipywidgets objects (no kernel needed).

Results are checked for exact shape and, where the official schema is available, validated against
schema.json's ElicitResult / InputResponse definitions.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import ipywidgets as w
import pytest
from _support import ROOT as REPO  # noqa: E402

from mcp_lab import widgets as W

SPEC = Path(os.environ.get("MCP_LAB_SPEC_DIR", REPO.parent / "shared" / "spec" / "2026-07-28"))
EXAMPLES = SPEC / "examples"
NEED_SPEC = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="spec examples not found at ../shared/spec")


def form_of(properties: dict, required=(), message="Please answer", **kw) -> W.ElicitationForm:
    params = {
        "mode": "form",
        "message": message,
        "requestedSchema": {"type": "object", "properties": properties, "required": list(required)},
    }
    return W.ElicitationForm(params, **kw)


def one(schema: dict, required=False) -> W.ElicitationForm:
    return form_of({"f": schema}, ["f"] if required else [])


@pytest.fixture(scope="module")
def validate():
    """validate(defn, instance): jsonschema check against the official schema.

    Without the schema it checks nothing (every caller also asserts the exact dict), and
    test_official_schema_is_available reports the skip, so the gap is never silent.
    """
    if not (SPEC / "schema.json").is_file():
        return lambda defn, instance: None
    import jsonschema

    root = json.loads((SPEC / "schema.json").read_text())

    def check(defn: str, instance):
        jsonschema.validate(instance, {"$schema": root["$schema"], "$defs": root["$defs"], "$ref": f"#/$defs/{defn}"})

    return check


def test_official_schema_is_available():
    if not (SPEC / "schema.json").is_file():
        pytest.skip("spec examples not found at ../shared/spec (results not validated against schema.json)")


# ---------------------------------------------------------------- widget type per schema kind
@pytest.mark.parametrize(
    "schema, widget_type, value",
    [
        ({"type": "string", "default": "Ada"}, w.Text, "Ada"),
        ({"type": "string", "format": "email", "default": "a@b.org"}, w.Text, "a@b.org"),
        ({"type": "string", "format": "uri", "default": "https://x.org/"}, w.Text, "https://x.org/"),
        ({"type": "string", "format": "date", "default": "2026-09-10"}, w.DatePicker, dt.date(2026, 9, 10)),
        (
            {"type": "string", "format": "date-time", "default": "2026-09-10T08:30:00Z"},
            w.DatetimePicker,
            dt.datetime(2026, 9, 10, 8, 30, tzinfo=dt.timezone.utc),
        ),
        ({"type": "number", "minimum": 0, "maximum": 100, "default": 50}, w.Text, "50"),
        ({"type": "integer", "default": 7}, w.Text, "7"),
        ({"type": "boolean", "default": True}, w.Checkbox, True),
        ({"type": "string", "enum": ["Red", "Green"], "default": "Green"}, w.Dropdown, "Green"),
        (
            {
                "type": "string",
                "oneOf": [{"const": "#f00", "title": "Red"}, {"const": "#0f0", "title": "Green"}],
                "default": "#0f0",
            },
            w.Dropdown,
            "#0f0",
        ),
        ({"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"], "default": "r"}, w.Dropdown, "r"),
        (
            {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "default": ["c", "a"]},
            w.SelectMultiple,
            ("a", "c"),
        ),
        (
            {
                "type": "array",
                "items": {"anyOf": [{"const": "x", "title": "X"}, {"const": "y", "title": "Y"}]},
                "default": ["y"],
            },
            w.SelectMultiple,
            ("y",),
        ),
    ],
)
def test_widget_type_and_default(schema, widget_type, value):
    form = one(schema)
    widget = form.fields["f"]
    assert type(widget) is widget_type
    assert widget.value == value
    assert form.errors == {}


def test_titles_are_option_labels_and_values_are_consts():
    titled = one({"type": "string", "oneOf": [{"const": "#f00", "title": "Red"}]})
    assert titled.fields["f"].options == (("— choose —", None), ("Red", "#f00"))
    legacy = one({"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]})
    assert [label for label, _ in legacy.fields["f"].options] == ["— choose —", "Red", "Green"]
    multi = one({"type": "array", "items": {"anyOf": [{"const": "x", "title": "Ex"}]}})
    assert multi.fields["f"].options == (("Ex", "x"),)


def test_required_marker_title_and_description_rendered():
    form = form_of({"name": {"type": "string", "title": "Full name", "description": "As on your badge"}}, ["name"])
    text = form.widget.children[1].children[0].value
    assert "Full name" in text and "As on your badge" in text and ">*<" in text


# ---------------------------------------------------------------- accept: exact ElicitResult
def test_set_accept_exact_types(validate):
    form = form_of(
        {
            "title": {"type": "string"},
            "count": {"type": "integer", "minimum": 1},
            "ratio": {"type": "number"},
            "whole": {"type": "number"},
            "ok": {"type": "boolean"},
            "day": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "color": {"type": "string", "enum": ["Red", "Blue"]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}},
            "unset": {"type": "string"},
        }
    )
    form.set(
        title="Dentist",
        count=3,
        ratio=2.5,
        whole=30.0,
        ok=True,
        day=dt.date(2026, 9, 10),
        at=dt.datetime(2026, 9, 10, 10, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        color="Blue",
        tags=["c", "a"],
    )
    result = form.accept()
    assert result == {
        "action": "accept",
        "content": {
            "title": "Dentist",
            "count": 3,
            "ratio": 2.5,
            "whole": 30,
            "ok": True,
            "day": "2026-09-10",
            "at": "2026-09-10T08:30:00Z",
            "color": "Blue",
            "tags": ["a", "c"],
        },
    }
    c = result["content"]
    assert type(c["count"]) is int and type(c["whole"]) is int and type(c["ratio"]) is float
    assert type(c["ok"]) is bool and "unset" not in c
    assert form.result is result
    validate("ElicitResult", {**result, "content": {k: v for k, v in c.items() if k != "ratio"}})


def test_datetime_from_iso_string_with_z():
    form = one({"type": "string", "format": "date-time"}, required=True)
    form.set(f="2026-09-10T08:30:00Z")
    assert form.fields["f"].value == dt.datetime(2026, 9, 10, 8, 30, tzinfo=dt.timezone.utc)
    assert form.accept() == {"action": "accept", "content": {"f": "2026-09-10T08:30:00Z"}}


def test_datetime_from_browser_local_time_is_sent_as_utc():
    # The picker's deserializer yields an aware datetime in the kernel's local zone.
    form = one({"type": "string", "format": "date-time"})
    local = dt.datetime(2026, 9, 10, 8, 30, tzinfo=dt.timezone.utc).astimezone(dt.timezone(dt.timedelta(hours=-7)))
    form.fields["f"].value = local  # what a browser edit does
    assert form.content == {"f": "2026-09-10T08:30:00Z"}


def test_datetime_without_zone_is_an_inline_message():
    form = one({"type": "string", "format": "date-time"}, required=True)
    form.set(f="2026-09-10T08:30:00")
    assert "no time zone" in form.errors["f"]
    assert form.accept() is None


def test_defaults_are_sent_untouched():
    form = form_of(
        {
            "n": {"type": "number", "default": 50},
            "b": {"type": "boolean", "default": False},
            "s": {"type": "string", "default": "hi"},
        }
    )
    assert form.accept() == {"action": "accept", "content": {"n": 50, "b": False, "s": "hi"}}


def test_clearing_an_optional_field_leaves_it_out():
    form = form_of(
        {
            "s": {"type": "string", "default": "hi"},
            "n": {"type": "integer", "default": 1},
            "d": {"type": "string", "format": "date", "default": "2026-01-01"},
        }
    )
    form.set(s="", n=None, d=None)
    assert form.accept() == {"action": "accept", "content": {}}


# ---------------------------------------------------------------- validation before submit
def test_required_missing_blocks_accept_and_shows_message():
    form = form_of(
        {
            "name": {"type": "string"},
            "color": {"type": "string", "enum": ["R", "G"]},
            "tags": {"type": "array", "items": {"enum": ["a"]}},
        },
        ["name", "color", "tags"],
    )
    assert form.errors == {"name": "required", "color": "required", "tags": "required"}
    assert form.buttons["accept"].disabled
    assert "required" in form._fields["name"].message.value
    assert "Fix 3 fields marked" in form._status.value
    assert form.accept() is None and form.result is None
    form.set(name="Ada", color="G", tags=["a"])
    assert not form.buttons["accept"].disabled
    assert form.accept() == {"action": "accept", "content": {"name": "Ada", "color": "G", "tags": ["a"]}}


def test_message_updates_on_widget_edit_like_a_browser():
    form = one({"type": "string", "minLength": 3}, required=True)
    form.fields["f"].value = "ab"
    assert form.errors == {"f": "must be at least 3 characters (now 2)"}
    assert "at least 3" in form._fields["f"].message.value
    form.fields["f"].value = "abc"
    assert form.errors == {} and not form.buttons["accept"].disabled


@pytest.mark.parametrize(
    "schema, bad, message, good",
    [
        ({"type": "string", "minLength": 3}, "ab", "at least 3 characters", "abc"),
        ({"type": "string", "maxLength": 2}, "abc", "at most 2 characters", "ab"),
        ({"type": "string", "format": "email"}, "not-an-email", "not an e-mail", "a@example.com"),
        ({"type": "string", "format": "uri"}, "example dot com", "not an absolute URI", "https://example.com/x"),
        ({"type": "string", "format": "date"}, "2026-13-01", "not a valid calendar date", "2026-12-01"),
        ({"type": "string", "format": "date"}, "10/09/2026", "YYYY-MM-DD", "2026-09-10"),
        ({"type": "string", "format": "date-time"}, "tomorrow", "ISO 8601", "2026-09-10T08:30:00Z"),
        ({"type": "number", "minimum": 18}, 17.5, "at least 18", 18),
        ({"type": "number", "maximum": 100}, 101, "at most 100", 100),
        ({"type": "number"}, "twelve", "not a number", "12.5"),
        ({"type": "integer"}, 2.5, "not a whole number", 2),
        ({"type": "array", "items": {"enum": ["a", "b", "c"]}, "minItems": 2}, ["a"], "at least 2", ["a", "b"]),
        ({"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 1}, ["a", "b"], "at most 1", ["b"]),
    ],
)
def test_validation_messages(schema, bad, message, good):
    form = one(schema, required=True)
    form.set(f=bad)
    assert message in form.errors["f"]
    assert message in form._fields["f"].message.value  # shown inline, before any button
    assert form.buttons["accept"].disabled
    assert form.accept() is None
    form.set(f=good)
    assert form.errors == {}
    assert form.accept()["action"] == "accept"


def test_wrong_types_and_unknown_names_raise_one_line_errors():
    form = form_of({"n": {"type": "integer"}, "b": {"type": "boolean"}, "e": {"type": "string", "enum": ["x"]}})
    with pytest.raises(ValueError, match="no field named 'nope'"):
        form.set(nope=1)
    with pytest.raises(ValueError, match="field 'b': expects True or False"):
        form.set(b="yes")
    with pytest.raises(ValueError, match=r"field 'e': 'y' is not one of \['x'\]"):
        form.set(e="y")
    with pytest.raises(ValueError, match="field 'n': expects a number"):
        form.set(n=True)


# ---------------------------------------------------------------- decline / cancel
@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_and_cancel_shapes(action, validate):
    form = one({"type": "string"}, required=True)  # invalid form: they still work
    result = getattr(form, action)()
    assert result == {"action": action} and form.result == result
    validate("ElicitResult", result)
    # The form is frozen: later presses and sets do nothing / refuse.
    assert form.accept() == {"action": action}
    assert all(b.disabled for b in form.buttons.values()) and form.fields["f"].disabled
    with pytest.raises(ValueError, match="already answered"):
        form.set(f="x")


def test_on_submit_and_real_button_click():
    form = one({"type": "boolean"})
    seen = []
    form.on_submit(seen.append)
    form.buttons["accept"].click()  # the same path a browser click takes
    assert seen == [{"action": "accept", "content": {"f": False}}]


# ---------------------------------------------------------------- schemas outside the subset
@pytest.mark.parametrize(
    "properties, fragment",
    [
        ({"address": {"type": "object", "properties": {"city": {"type": "string"}}}}, "nested objects"),
        ({"people": {"type": "array", "items": {"type": "object"}}}, "arrays of objects"),
        ({"when": {"type": "timestamp"}}, "type 'timestamp' is not allowed"),
        ({"x": {"description": "no type"}}, "has no 'type'"),
        ({"s": {"type": "string", "format": "ipv4"}}, "format 'ipv4' is not allowed"),
        ({"n": {"type": ["string", "null"]}}, "a list of types"),
        ({"a": {"type": "array", "items": {"type": "string"}}}, "'enum' or 'anyOf'"),
        ({"e": {"type": "string", "oneOf": [{"const": "x"}]}}, "'const' and 'title'"),
    ],
)
def test_disallowed_schema_renders_a_message_not_a_traceback(properties, fragment):
    form = form_of(properties)
    assert form.fields == {}
    box = [c for c in form.widget.children if isinstance(c, w.HTML) and "cannot be shown" in c.value]
    assert len(box) == 1 and html.escape(fragment) in box[0].value and "client/elicitation" in box[0].value
    assert any(fragment in m for m in form.errors.values())
    assert form.buttons["accept"].disabled and form.accept() is None
    assert form.decline() == {"action": "decline"}


@pytest.mark.parametrize(
    "params",
    [
        {"message": "x"},
        {"message": "x", "requestedSchema": {"type": "array", "properties": {}}},
        {"message": "x", "requestedSchema": {"type": "object", "properties": {}, "required": ["ghost"]}},
        {"mode": "carrier-pigeon", "message": "x"},
        "not even a dict",
    ],
)
def test_malformed_requests_are_refused_visibly(params):
    form = W.ElicitationForm(params)
    assert form.problems and form.accept() is None
    assert form.cancel() == {"action": "cancel"}


def test_server_text_is_escaped():
    form = form_of({"f": {"type": "string", "title": "<img src=x onerror=alert(1)>"}}, message="<script>x</script>")
    text = "".join(c.value for c in form.widget.children if isinstance(c, w.HTML))
    text += form._fields["f"].label.value
    assert "<script>" not in text and "<img" not in text and "&lt;script&gt;" in text


# ---------------------------------------------------------------- URL mode
@pytest.fixture
def no_network(monkeypatch):
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return calls


def test_url_mode_shows_url_server_and_accept_is_consent(no_network, validate):
    url = "https://mcp.example.com/ui/set_api_key?session=abc"
    form = W.ElicitationForm(
        {"mode": "url", "message": "Please provide your API key to continue.", "url": url}, server_name="calendar"
    )
    text = "".join(c.value for c in form.widget.children if isinstance(c, w.HTML))
    assert "calendar" in text and "Please provide your API key" in text
    assert url.replace("&", "&amp;") in text and 'target="_blank"' in text and "Open link" in text
    assert "consent" in text
    assert form.fields == {} and form.violations == []  # URL mode is the right place for a key
    assert form.accept() == {"action": "accept"}  # no content in URL mode
    validate("ElicitResult", form.result)
    assert no_network == []
    assert "consent" in W.ElicitationForm.__doc__


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_url_mode_decline_cancel(action, no_network):
    form = W.ElicitationForm({"mode": "url", "message": "m", "url": "https://example.com/"})
    assert getattr(form, action)() == {"action": action}


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "/relative"])
def test_url_mode_refuses_non_http_urls(url):
    form = W.ElicitationForm({"mode": "url", "message": "m", "url": url})
    text = "".join(c.value for c in form.widget.children if isinstance(c, w.HTML))
    assert '<a href="' + url not in text
    assert form.accept() is None and form.decline() == {"action": "decline"}


def test_url_mode_warns_about_plain_http_and_credentials():
    form = W.ElicitationForm({"mode": "url", "message": "m", "url": "http://user:pw@evil.example/"})
    text = "".join(c.value for c in form.widget.children if isinstance(c, w.HTML))
    assert "not HTTPS" in text and "credentials" in text
    assert form.violations[0]["term"] == "credentials in URL"


# ---------------------------------------------------------------- the secrets rule
@pytest.mark.parametrize(
    "props, field",
    [
        ({"apiKey": {"type": "string"}}, "apiKey"),
        ({"password": {"type": "string"}}, "password"),
        ({"k": {"type": "string", "title": "Bearer token"}}, "k"),
        ({"k": {"type": "string", "description": "Your SSH private key"}}, "k"),
        ({"cc": {"type": "string", "title": "Card number"}}, "cc"),
        ({"code": {"type": "integer", "title": "CVV"}}, "code"),
        ({"client_secret": {"type": "string"}}, "client_secret"),
    ],
)
def test_secret_field_flagged_disabled_and_not_sent(props, field, validate):
    form = form_of({"user": {"type": "string"}, **props}, ["user", field])
    widget = form.fields[field]
    assert type(widget) is w.Password and widget.disabled  # not a plain Text box
    assert [v["field"] for v in form.violations] and all(v["field"] == field for v in form.violations)
    assert "MUST use URL mode" in form._fields[field].label.value
    with pytest.raises(ValueError, match="refuses to collect"):
        form.set(**{field: "hunter2"})
    widget.value = "hunter2"  # even if a value got into the widget somehow, it is not sent
    form.set(user="ada")
    result = form.accept()
    assert result == {"action": "accept", "content": {"user": "ada"}}
    assert "hunter2" not in json.dumps(result)
    validate("ElicitResult", result)


@pytest.mark.parametrize(
    "text, terms",
    [
        ("apiKey", ["API key"]),
        ("API_KEY", ["API key"]),
        ("passphrase", ["passphrase"]),
        ("accessToken", ["access token"]),
        ("GitHub Username", []),
        ("email", []),
        ("Secretary", []),
        ("tokenCount", []),
        ("Credit card number", ["card number"]),
    ],
)
def test_secret_heuristic(text, terms):
    assert W.secret_terms(text) == terms


def test_non_free_text_fields_are_not_flagged():
    form = form_of({"remember_password": {"type": "boolean"}, "name": {"type": "string", "title": "GitHub Username"}})
    assert form.violations == [] and type(form.fields["remember_password"]) is w.Checkbox


# ---------------------------------------------------------------- the official examples
def _examples(kind: str):
    if not EXAMPLES.is_dir():
        pytest.skip("spec examples not found at ../shared/spec")
    files = sorted((EXAMPLES / kind).glob("*.json"))
    assert files, f"no examples in {EXAMPLES / kind}"
    return [json.loads(p.read_text()) for p in files]


PROPERTY_KINDS = {
    "StringSchema": w.Text,
    "NumberSchema": w.Text,
    "BooleanSchema": w.Checkbox,
    "UntitledSingleSelectEnumSchema": w.Dropdown,
    "TitledSingleSelectEnumSchema": w.Dropdown,
    # LegacyTitledEnumSchema (enum + enumNames) has no example in the spec's folder; the
    # hand-written enumNames cases above cover it.
    "UntitledMultiSelectEnumSchema": w.SelectMultiple,
    "TitledMultiSelectEnumSchema": w.SelectMultiple,
}


@NEED_SPEC
@pytest.mark.parametrize("kind", sorted(PROPERTY_KINDS))
def test_spec_property_examples_render_with_defaults(kind, validate):
    for schema in _examples(kind):
        form = one(schema)
        assert type(form.fields["f"]) is PROPERTY_KINDS[kind], kind
        assert form.problems == [] and form.errors == {}
        result = form.accept()
        assert result["content"]["f"] == schema["default"]
        validate("ElicitResult", result)


@NEED_SPEC
@pytest.mark.parametrize("kind", ["ElicitRequestFormParams", "ElicitRequestURLParams", "ElicitRequest"])
def test_spec_request_examples_render(kind, no_network):
    for ex in _examples(kind):
        params = ex["params"] if kind == "ElicitRequest" else ex
        form = W.ElicitationForm(params, server_name="example")
        assert form.problems == [], form.problems
        assert form.widget._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"]["model_id"]
        assert form.cancel() == {"action": "cancel"}


@NEED_SPEC
def test_spec_elicit_result_examples_are_what_the_form_sends(validate):
    req = json.loads((EXAMPLES / "ElicitRequestFormParams" / "elicit-multiple-fields.json").read_text())
    want = json.loads((EXAMPLES / "ElicitResult" / "input-multiple-fields.json").read_text())
    form = W.ElicitationForm(req)
    assert form.set(**want["content"]).accept() == want
    url = json.loads((EXAMPLES / "ElicitRequestURLParams" / "elicit-sensitive-data.json").read_text())
    assert W.ElicitationForm(url).accept() == json.loads(
        (EXAMPLES / "ElicitResult" / "accept-url-mode-no-content.json").read_text()
    )
    single = json.loads((EXAMPLES / "ElicitRequestFormParams" / "elicit-single-field.json").read_text())
    assert W.ElicitationForm(single).set(name="octocat").accept() == json.loads(
        (EXAMPLES / "ElicitResult" / "input-single-field.json").read_text()
    )


# ---------------------------------------------------------------- FormRound and answerers
def test_form_round_calls_on_complete_once_with_every_key(validate):
    calls = []
    requests = {
        "when": {
            "method": "elicitation/create",
            "params": {
                "message": "When?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"startsAt": {"type": "string", "format": "date-time"}},
                    "required": ["startsAt"],
                },
            },
        },
        "login": {
            "method": "elicitation/create",
            "params": {"mode": "url", "message": "Sign in", "url": "https://example.com/login"},
        },
        "llm": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
        "roots": {"method": "roots/list", "params": {}},
    }
    rnd = W.FormRound(requests, calls.append, server_name="calendar")
    assert set(rnd.forms) == {"when", "login"} and not rnd.done
    text = "".join(
        c.value for box in rnd.widget.children if isinstance(box, w.VBox) for c in box.children if isinstance(c, w.HTML)
    )
    assert text.count("not supported by this client") == 2
    rnd.forms["when"].set(startsAt="2026-09-10T08:30:00Z").accept()
    assert calls == []
    rnd.forms["login"].accept()
    assert calls == [
        {
            "when": {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}},
            "login": {"action": "accept"},
            "llm": {"action": "decline"},
            "roots": {"action": "decline"},
        }
    ]
    assert list(calls[0]) == list(requests)  # same keys, same order
    for answer in calls[0].values():
        validate("InputResponse", answer)
    rnd.forms["login"].decline()  # frozen: nothing fires again
    assert len(calls) == 1 and rnd.done


def test_form_round_without_person_completes_at_once():
    calls = []
    W.FormRound({"llm": {"method": "sampling/createMessage", "params": {}}}, calls.append)
    assert calls == [{"llm": {"action": "decline"}}]


def test_form_round_reports_on_complete_failure():
    def boom(_answers):
        raise RuntimeError("retry failed")

    rnd = W.FormRound(
        {
            "k": {
                "method": "elicitation/create",
                "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
            }
        },
        boom,
    )
    rnd.forms["k"].decline()  # the button dispatcher logs the exception; the round keeps it visible
    assert isinstance(rnd.error, RuntimeError) and "retry failed" in rnd._status.value


@NEED_SPEC
def test_form_round_on_the_spec_input_requests_example():
    reqs = _examples("InputRequests")[0]
    calls = []
    rnd = W.FormRound(reqs, calls.append)
    rnd.forms["github_login"].set(name="octocat").accept()
    expected = json.loads((EXAMPLES / "InputResponses" / "elicitation-and-sampling-input-responses.json").read_text())
    assert calls == [{"github_login": expected["github_login"], "capital_of_france": {"action": "decline"}}]


def test_scripted_answerer_uses_the_widget_code():
    answer = W.scripted_answerer({"startsAt": "2026-09-10T08:30:00Z", "unrelated": 1, "apiKey": "k"})
    req = {
        "method": "elicitation/create",
        "params": {
            "message": "When?",
            "requestedSchema": {
                "type": "object",
                "properties": {"startsAt": {"type": "string", "format": "date-time"}, "apiKey": {"type": "string"}},
                "required": ["startsAt"],
            },
        },
    }
    assert answer("when", req) == {"action": "accept", "content": {"startsAt": "2026-09-10T08:30:00Z"}}
    assert isinstance(answer.last_form, W.ElicitationForm) and answer.last_form.violations
    assert answer("x", {"method": "roots/list"}) == {"action": "decline"}
    with pytest.raises(ValueError, match=r"input 'when': Accept is blocked \(startsAt: required\)"):
        W.scripted_answerer({})("when", req)
    assert W.scripted_answerer(action="cancel")("when", req) == {"action": "cancel"}
    by_key = W.scripted_answerer(by_key={"when": {"startsAt": "2026-01-01T00:00:00Z"}})
    assert by_key("when", req)["content"] == {"startsAt": "2026-01-01T00:00:00Z"}


def test_widget_answerer_raises_pending_and_resumes_on_submit():
    shown, resumed = [], []
    answer = W.widget_answerer(server_name="calendar", show=shown.append)
    req = {
        "method": "elicitation/create",
        "params": {
            "message": "Name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        },
    }
    pendings = []
    for key in ("a", "b"):
        with pytest.raises(W.PendingForms) as info:
            answer(key, req)
        pendings.append(info.value)
    assert answer("s", {"method": "sampling/createMessage"}) == {"action": "decline"}
    pending = W.PendingForms.combine(pendings)
    pending.when_done(resumed.append)
    assert [type(s) for s in shown] == [W.ElicitationForm, W.ElicitationForm]
    pending.forms["a"].set(name="Ada").accept()
    assert resumed == []
    pending.forms["b"].decline()
    assert resumed == [{"a": {"action": "accept", "content": {"name": "Ada"}}, "b": {"action": "decline"}}]


# ---------------------------------------------------------------- display, capability, import cost
def test_display_delegates_to_the_vbox():
    form = one({"type": "string"})
    assert isinstance(form.widget, w.VBox)
    bundle = form._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == form.widget.model_id
    assert callable(form._ipython_display_)


def test_capabilities():
    assert W.capabilities() == {"form": {}, "url": {}}


def test_importing_the_module_does_not_import_ipywidgets():
    code = "import sys, mcp_lab.widgets as m; m.capabilities(); print('ipywidgets' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
