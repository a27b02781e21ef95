"""Every branch of the one era decision (`mcp_lab.wire.era.decide`), without a process."""

from __future__ import annotations

import pytest

from mcp_lab.wire import jsonrpc
from mcp_lab.wire.era import (
    Era,
    HttpReply,
    Next,
    decide,
    decide_initialize_refused,
    discover_shape,
    mutual_versions,
    supported_versions,
)
from mcp_lab.wire.revisions import LATEST

DISCOVER = {"supportedVersions": [LATEST], "capabilities": {"tools": {}}, "resultType": "complete"}
OK = HttpReply(200, "application/json")
BAD = HttpReply(400, "application/json")


def result(body):
    return jsonrpc.Result(id=1, result=body)


def error(code, data=None, message="m"):
    return jsonrpc.Error(id=1, code=code, message=message, data=data)


@pytest.mark.parametrize("http", [None, OK], ids=["stdio", "http"])
def test_a_discover_result_with_a_mutual_version_is_modern_use_it(http):
    d = decide(result(DISCOVER), asked=LATEST, http=http)
    assert (d.next, d.version, d.era, d.supported) == (Next.USE, LATEST, Era.MODERN, (LATEST,))


@pytest.mark.parametrize("body", [{"tools": []}, {"supportedVersions": "2026-07-28", "capabilities": {}}, "x"])
def test_a_result_that_is_not_a_discover_result_falls_back(body):
    d = decide(result(body), asked=LATEST)
    assert d.next is Next.FALLBACK and d.era is None and "not a DiscoverResult" in d.reasons[0]


def test_a_discover_result_with_no_mutual_version_is_modern_and_never_falls_back():
    # https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning : a DiscoverResult
    # means modern; with no version in common the client reports an error (the SDKs' fallback is
    # a deviation).
    d = decide(result({**DISCOVER, "supportedVersions": ["2099-01-01"]}), asked=LATEST)
    assert d.next is Next.MODERN_NO_VERSION and d.supported == ("2099-01-01",), d
    assert any("no initialize" in r for r in d.reasons), d.reasons


def test_32022_with_a_mutual_version_retries_there_and_never_falls_back():
    d = decide(error(-32022, {"supported": [LATEST, "2099-01-01"]}), asked=LATEST)
    assert (d.next, d.version, d.era) == (Next.RETRY, LATEST, Era.MODERN)
    again = decide(error(-32022, {"supported": [LATEST]}), asked=LATEST, may_retry=False)
    assert again.next is Next.MODERN_NO_VERSION and "refused" in again.reasons[-1]


def test_32022_with_no_mutual_version_is_modern_without_a_version():
    d = decide(error(-32022, {"supported": ["2099-01-01"]}), asked=LATEST)
    assert (d.next, d.version, d.supported) == (Next.MODERN_NO_VERSION, None, ("2099-01-01",))
    assert "no initialize is sent" in d.reasons[-1]


@pytest.mark.parametrize("http", [None, BAD], ids=["stdio", "http"])
def test_32022_listing_the_refused_version_retries_it_once_on_both_transports(http):
    # The conformance suite's request-metadata scenario refuses a version it lists, once.
    d = decide(error(-32022, {"supported": [LATEST]}), asked=LATEST, http=http)
    assert (d.next, d.version, d.era) == (Next.RETRY, LATEST, Era.MODERN), d.reasons
    again = decide(error(-32022, {"supported": [LATEST]}), asked=LATEST, http=http, may_retry=False)
    assert (again.next, again.version) == (Next.MODERN_NO_VERSION, None), again.reasons
    assert f"the retry at {LATEST} was refused" in again.reasons[-1], again.reasons


@pytest.mark.parametrize("code", [-32020, -32021, -32022])
def test_other_modern_errors_settle_the_era_at_the_asked_version(code):
    d = decide(error(code), asked=LATEST)
    assert (d.next, d.version, d.era) == (Next.MODERN_REFUSED, LATEST, Era.MODERN)


def test_over_http_a_header_mismatch_retries_with_headers_from_the_body():
    assert decide(error(-32020), asked=LATEST, http=BAD).next is Next.RETRY_HEADERS
    assert decide(error(-32020), asked=LATEST, http=BAD, may_retry=False).next is Next.MODERN_REFUSED


def test_over_http_a_404_with_method_not_found_is_modern():
    d = decide(error(-32601), asked=LATEST, http=HttpReply(404, "application/json"))
    assert d.next is Next.MODERN_REFUSED and d.reasons[0].startswith("404")


@pytest.mark.parametrize(
    "answer, http, says",
    [
        (None, None, "silence means legacy"),
        (error(-32601), None, "not a recognised modern error"),
        (error(-32600), None, "not a recognised modern error"),
        (error(-32601), HttpReply(400, "application/json"), "not a modern answer"),
        (None, HttpReply(400, "text/html"), "unrecognised text/html body"),
        (None, HttpReply(405, "", empty=True), "an empty body"),
    ],
)
def test_anything_else_is_legacy_and_falls_back(answer, http, says):
    d = decide(answer, asked=LATEST, http=http, wait=0.5)
    assert d.next is Next.FALLBACK and d.era is None and says in d.reasons[0], d.reasons


def test_the_helpers_read_versions_and_shapes():
    assert supported_versions({"supported": [LATEST]}) == [LATEST]
    assert supported_versions({"supported": []}) is None and supported_versions("x") is None
    assert mutual_versions([LATEST, "2025-11-25"]) == [LATEST] and mutual_versions(None) == []
    assert mutual_versions(["2099-01-01"]) == []
    assert discover_shape(DISCOVER) == ([LATEST], {"tools": {}}) and discover_shape({"capabilities": {}}) is None
    assert Era.MODERN == "modern"


# -- after the fallback: an initialize refused by a modern-only server --------------------------
@pytest.mark.parametrize("code", [-32601, -32022, -32602])
@pytest.mark.parametrize("http", [None, HttpReply(404), HttpReply(400)])
def test_initialize_refused_naming_a_modern_version_is_modern_reprobe_never_legacy(code, http):
    answer = jsonrpc.Error(1, code, "Method not found: initialize", {"supported": [LATEST]})
    d = decide_initialize_refused(answer, http=http)
    assert d is not None, "a refusal listing a modern version must not be read as a legacy failure"
    assert (d.next, d.version, d.era) == (Next.RETRY, LATEST, Era.MODERN), d
    assert any("server/discover" in r for r in d.reasons), d.reasons


def test_initialize_refused_naming_only_unknown_future_versions_is_modern_without_a_version():
    d = decide_initialize_refused(jsonrpc.Error(1, -32601, "no", {"supported": ["2099-01-01"]}))
    assert d is not None and (d.next, d.supported) == (Next.MODERN_NO_VERSION, ("2099-01-01",)), d


@pytest.mark.parametrize(
    "answer",
    [
        jsonrpc.Error(1, -32602, "Unsupported protocol version", {"supported": ["2025-11-25", "2025-06-18"]}),
        jsonrpc.Error(1, -32601, "Method not found", None),
        jsonrpc.Error(1, -32603, "boom", {"supported": "2026-07-28"}),
        None,
    ],
)
def test_initialize_refused_without_a_modern_version_listed_proves_nothing_modern(answer):
    assert decide_initialize_refused(answer) is None
