"""The sans-IO protocol layer: spec rules of the JSON-RPC envelope
(https://modelcontextprotocol.io/specification/2026-07-28/basic#messages)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_lab import jsonrpc, revisions
from mcp_lab.wire.jsonrpc import Error, Notification, ProtocolError, Request, Result, encode, parse


def test_codes_are_the_spec_numbers():
    assert (
        jsonrpc.PARSE_ERROR,
        jsonrpc.INVALID_REQUEST,
        jsonrpc.METHOD_NOT_FOUND,
        jsonrpc.INVALID_PARAMS,
        jsonrpc.INTERNAL_ERROR,
    ) == (-32700, -32600, -32601, -32602, -32603)
    # Renumbered during drafting from -32001/-32003/-32004 (changelog, minor item 12).
    assert (
        jsonrpc.HEADER_MISMATCH,
        jsonrpc.MISSING_REQUIRED_CLIENT_CAPABILITY,
        jsonrpc.UNSUPPORTED_PROTOCOL_VERSION,
    ) == (-32020, -32021, -32022)


@pytest.mark.parametrize(
    "line, kind",
    [
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}', Request),
        ('{"jsonrpc":"2.0","id":"a","method":"tools/list"}', Request),
        ('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}', Notification),
        ('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}', Result),
        ('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}', Error),
        ('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', Error),
    ],
)
def test_parse_classifies_the_four_kinds(line, kind):
    assert isinstance(parse(line), kind)
    assert isinstance(parse(line + "\n"), kind)  # the framing delimiter is allowed


def test_parse_error_for_text_that_is_not_json():
    with pytest.raises(ProtocolError) as e:
        parse("{not json")
    assert e.value.code == jsonrpc.PARSE_ERROR and e.value.id is None


def test_parse_error_for_invalid_utf8():
    with pytest.raises(ProtocolError) as e:
        parse(b'{"jsonrpc":"2.0","id":1,"method":"\xff"}')
    assert e.value.code == jsonrpc.PARSE_ERROR


def test_embedded_newline_breaks_framing():
    with pytest.raises(ProtocolError) as e:
        parse('{"jsonrpc":"2.0",\n"id":1,"method":"x"}')
    assert e.value.code == jsonrpc.PARSE_ERROR


@pytest.mark.parametrize(
    "line, why",
    [
        ('{"jsonrpc":"2.0","id":null,"method":"tools/list"}', "never null"),
        ('{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', "string or an integer"),
        ('{"jsonrpc":"2.0","id":true,"method":"tools/list"}', "string or an integer"),
        ('{"id":1,"method":"tools/list"}', "jsonrpc"),
        ('{"jsonrpc":"1.0","id":1,"method":"tools/list"}', "jsonrpc"),
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}', "params"),
        ('[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', "batches"),
        ('"hello"', "JSON object"),
        ('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}', "not both"),
        ('{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}', "integer"),
        ('{"jsonrpc":"2.0","id":1,"result":[1]}', "object"),
        ('{"jsonrpc":"2.0","id":1}', "neither"),
    ],
)
def test_invalid_envelopes_are_invalid_request(line, why):
    with pytest.raises(ProtocolError) as e:
        parse(line)
    assert e.value.code == jsonrpc.INVALID_REQUEST
    assert why in e.value.message


def test_invalid_request_keeps_a_readable_id():
    with pytest.raises(ProtocolError) as e:
        parse('{"jsonrpc":"1.0","id":7,"method":"x"}')
    assert e.value.id == 7
    assert jsonrpc.Error.from_exception(e.value).to_dict() == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32600, "message": e.value.message},
    }


def test_result_type_defaults_to_complete_for_legacy_results():
    assert parse('{"jsonrpc":"2.0","id":1,"result":{}}').result_type == "complete"
    assert parse('{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}').result_type == "input_required"


def test_error_unwrap_raises_the_one_error_type_with_its_code():
    err = parse('{"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"nope","data":{"supported":["2026-07-28"]}}}')
    assert not err.ok
    with pytest.raises(ProtocolError) as e:
        err.unwrap()
    assert (e.value.code, e.value.data, e.value.id) == (-32022, {"supported": ["2026-07-28"]}, 3)


def test_encode_is_one_compact_line():
    msg = Request(id=1, method="tools/call", params={"name": "x", "arguments": {"text": "a\nb\u2028ç"}})
    line = encode(msg)
    assert "\n" not in line and ": " not in line and ", " not in line
    assert parse(line) == msg
    assert line.encode("utf-8").decode("utf-8") == line


def test_encode_accepts_dicts_and_round_trips():
    d = {"jsonrpc": "2.0", "id": "x", "result": {"resultType": "complete"}}
    assert json.loads(encode(d)) == d
    assert parse(encode(d)).to_dict() == d


def test_pending_ids_refuse_reuse_while_pending():
    p = jsonrpc.PendingIds()
    p.add(1)
    with pytest.raises(ProtocolError) as e:
        p.add(1)
    assert e.value.code == jsonrpc.INVALID_REQUEST and "still pending" in e.value.message
    assert p.resolve(1)
    p.add(1)  # reusable once answered
    with pytest.raises(ProtocolError):
        p.add(None)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=6))
def test_any_params_round_trip_through_one_line(params):
    msg = Request(id=1, method="tools/call", params=params)
    line = encode(msg)
    assert "\n" not in line
    assert parse(line) == msg


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=80) | st.binary(max_size=80))
def test_parse_never_raises_anything_but_protocol_error(line):
    try:
        parse(line)
    except ProtocolError as e:
        assert e.code in (jsonrpc.PARSE_ERROR, jsonrpc.INVALID_REQUEST)


def test_meta_builder_has_the_required_keys():
    m = revisions.meta()
    assert m[revisions.PROTOCOL_VERSION_KEY] == "2026-07-28"
    assert m[revisions.CLIENT_CAPABILITIES_KEY] == {}
    assert set(m[revisions.CLIENT_INFO_KEY]) == {"name", "version"}
    assert revisions.missing_meta_keys({"_meta": m}) == []
    assert revisions.missing_meta_keys({}) == list(revisions.REQUIRED_META_KEYS)
    assert revisions.meta(capabilities={"elicitation": {"form": {}}}, progressToken=3)["progressToken"] == 3


def test_eras():
    assert revisions.era_of(revisions.LATEST) == "modern"
    assert revisions.era_of(revisions.LEGACY_VERSION) == "legacy"
    assert revisions.era_of("1900-01-01") is None
    assert "initialize" in revisions.LEGACY_ONLY_METHODS and "ping" in revisions.LEGACY_ONLY_METHODS
    assert "server/discover" in revisions.MODERN_REQUEST_METHODS
    assert not revisions.LEGACY_ONLY_METHODS & revisions.MODERN_REQUEST_METHODS


def test_known_request_methods_match_the_official_schema():
    """Our method list is the schema's ClientRequest union (read from ../shared when present)."""
    from _support import SPEC_2026

    schema_path = SPEC_2026 / "schema.json"
    if not schema_path.exists():
        pytest.skip(f"official schema not found at {schema_path}")
    defs = json.loads(schema_path.read_text())
    defs = defs.get("$defs") or defs.get("definitions")
    union = defs["ClientRequest"]["anyOf"]
    methods = {defs[ref["$ref"].rsplit("/", 1)[-1]]["properties"]["method"]["const"] for ref in union}
    assert methods == set(revisions.MODERN_REQUEST_METHODS)


def test_an_error_without_message_is_refused():
    # https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-responses
    with pytest.raises(ProtocolError, match="error.message"):
        jsonrpc.parse('{"jsonrpc":"2.0","id":1,"error":{"code":-32601}}')
