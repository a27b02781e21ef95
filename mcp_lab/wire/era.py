"""The era decision, sans-IO: what came back to a `server/discover`, and what to do next.

Theory of operation. A client that must work with both eras asks first with `server/discover`,
a request only a modern server understands, and reads the era off the answer
(https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions).
`decide()` is that reading, written once for both probes (stdio and Streamable HTTP), as a pure
function: it takes the answer (a Result, an Error, or None for silence past the deadline), the
version that was asked for and, over HTTP, the status line; it returns a `Decision`: the next
step and the reasons, one sentence each, that the probe writes into the Trace. The probes only
send, wait and act (`mcp_lab.session.probe`, `mcp_lab.session.probe_http`).

The rules, in order (never keyed to one error code):
1. a DiscoverResult naming a version both sides speak: modern, use it (USE);
2. a DiscoverResult with no mutual version: modern, but nothing to speak (a case the spec's
   DiscoverResult branch leaves open); report it, as the -32022 rule does, with no
   initialize (MODERN_NO_VERSION); a result that is not a DiscoverResult is no proof of
   modernity: fall back to initialize (FALLBACK);
3. -32022 naming supported versions: modern, wrong version; ask again at a mutual one, even the
   one just refused (RETRY; the caller allows one such retry through `may_retry`), or stop if
   there is none or no retry is allowed (MODERN_NO_VERSION) -- a modern answer rules out the
   fallback;
4. over HTTP, -32020 (our headers disagree with the body): re-derive them and ask again
   (RETRY_HEADERS);
5. any other recognised modern error (the spec says "such as" -32022; -32020 and -32021 are the
   other codes it defines), or over HTTP a 404 carrying -32601 (an unknown method on a request
   that passed validation): modern, nothing more known (MODERN_REFUSED);
6. anything else, or silence: legacy, fall back to initialize (FALLBACK).

After the fallback, `decide_initialize_refused()` reads an error to `initialize`: whatever its
code (implementation-defined on stdio, often -32601; over HTTP the status is 400, since the legacy
request lacks the required headers; a modern-only server SHOULD name its versions in the error,
basic/versioning#backward-compatibility-with-initialization-based-versions), a `data.supported` listing a modern
version proves a modern server, so the client asks `server/discover` again at a mutual version
(RETRY) or stops with no mutual version (MODERN_NO_VERSION); never a legacy verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from mcp_lab.wire import jsonrpc, revisions
from mcp_lab.wire.revisions import Era  # defined beside the versions; re-exported here

__all__ = [
    "Era",
    "Next",
    "Decision",
    "HttpReply",
    "decide",
    "decide_initialize_refused",
    "mutual_versions",
    "supported_versions",
    "discover_shape",
]


class Next(StrEnum):
    USE = "use"
    RETRY = "retry"
    RETRY_HEADERS = "retry-headers"
    MODERN_NO_VERSION = "modern-no-version"
    MODERN_REFUSED = "modern-refused"
    FALLBACK = "fallback"


@dataclass(frozen=True)
class Decision:
    next: Next
    reasons: tuple[str, ...]
    version: str | None = None  # USE: the version to use; RETRY: the one to ask for
    supported: tuple[str, ...] = ()  # what the server listed, when it listed anything

    @property
    def era(self) -> Era | None:
        """MODERN once the answer proves it; None when the initialize fallback decides."""
        return None if self.next is Next.FALLBACK else Era.MODERN

    @property
    def retry_at(self) -> str:
        """The version a RETRY asks for (every RETRY names one); asking it of another step is a bug."""
        if self.next is not Next.RETRY or self.version is None:
            raise ValueError(f"{self.next.name} is not a retry at a named version")
        return self.version


@dataclass(frozen=True)
class HttpReply:
    """What the HTTP layer saw, for the HTTP-only rules and wording."""

    status: int | None
    content_type: str = ""
    empty: bool = False


def supported_versions(data: Any) -> list[str] | None:
    """`data.supported` of a -32022 error, or None when it is not a non-empty list of strings."""
    s = data.get("supported") if isinstance(data, dict) else None
    if isinstance(s, list) and s and all(isinstance(v, str) for v in s):
        return s
    return None


def mutual_versions(supported: Any) -> list[str]:
    """The modern versions mcp_lab speaks that `supported` lists, newest first."""
    if not isinstance(supported, (list, tuple)):
        return []
    return [v for v in revisions.MODERN_VERSIONS if v in supported]


def discover_shape(result: Any) -> tuple[list[str], dict] | None:
    """(supportedVersions, capabilities) when `result` has a DiscoverResult's shape, else None."""
    if not isinstance(result, dict):
        return None
    supported, caps = result.get("supportedVersions"), result.get("capabilities")
    if isinstance(supported, list) and all(isinstance(v, str) for v in supported) and isinstance(caps, dict):
        return supported, caps
    return None


def decide(
    answer: Any, *, asked: str, may_retry: bool = True, http: HttpReply | None = None, wait: float | None = None
) -> Decision:
    """The next step after `server/discover` at `asked` got `answer` (None: silence for `wait` s)."""
    status = http.status if http is not None else None
    said = f"{status} with " if http is not None else ""
    if isinstance(answer, jsonrpc.Result) and (http is None or status == 200):
        return _from_result(answer.result, "" if http is None else f"HTTP {status}: ")
    code = answer.code if isinstance(answer, jsonrpc.Error) else None
    refused = http is None or status == 400
    if code == jsonrpc.UNSUPPORTED_PROTOCOL_VERSION and refused:
        listed = supported_versions(answer.data)
        if listed is not None or http is not None:
            # A listed version is retried even when it is the one just refused, on both
            # transports: the server may have refused something else in the request, or one node
            # of a fleet mid-upgrade refused it. The caller bounds the retries with `may_retry`.
            return _wrong_version(listed or [], asked, may_retry, said)
    if code == jsonrpc.HEADER_MISMATCH and http is not None and status == 400 and may_retry:
        return Decision(
            Next.RETRY_HEADERS,
            (f"400 with -32020 ({answer.message}): modern; re-derive the headers from the body and retry",),
            asked,
        )
    if code in jsonrpc.MODERN_ERROR_CODES and refused:
        why = (
            f"{said}{code} ({answer.message}): a modern error, so the server is modern"
            if http is not None
            else f"error {code} ({answer.message!r}) is a modern error: the server is modern; "
            "it refused this discover, so no capabilities are known"
        )
        return Decision(Next.MODERN_REFUSED, (why,), asked)
    if http is not None and status == 404 and code == jsonrpc.METHOD_NOT_FOUND:
        return Decision(
            Next.MODERN_REFUSED,
            ("404 with a JSON-RPC -32601 body: a modern server without this method, so modern",),
            asked,
        )
    return Decision(Next.FALLBACK, (_why_legacy(answer, code, http, wait),))


def decide_initialize_refused(answer: Any, *, http: HttpReply | None = None) -> Decision | None:
    """The next step after the fallback `initialize` got an error; None when it proves nothing modern."""
    if not isinstance(answer, jsonrpc.Error):
        return None
    listed = supported_versions(answer.data) or []
    if not any(_is_modern(v) for v in listed):
        return None
    said = f"HTTP {http.status} with " if http is not None else ""
    first = (
        f"{said}error {answer.code} to initialize with data.supported {listed}: a modern-only server "
        "naming its versions, so the server is modern, not legacy"
    )
    mutual = mutual_versions(listed)
    if not mutual:
        return Decision(
            Next.MODERN_NO_VERSION,
            (first, "no mutual version: none of them is a modern version mcp_lab speaks"),
            supported=tuple(listed),
        )
    return Decision(Next.RETRY, (first, f"probe again: server/discover at {mutual[0]}"), mutual[0], tuple(listed))


def _is_modern(version: str) -> bool:
    """A known modern version, or an unknown one dated after the last initialize-era revision."""
    known = revisions.era_of(version)
    return known == Era.MODERN or (known is None and version > revisions.LEGACY_VERSION)


def _from_result(result: Any, said: str) -> Decision:
    shape = discover_shape(result)
    if shape is None:
        return Decision(
            Next.FALLBACK,
            (
                f"{said}the answer is a result but not a DiscoverResult (no supportedVersions list "
                "and capabilities object): not proof of a modern server",
            ),
        )
    supported, _caps = shape
    mutual = mutual_versions(supported)
    if not mutual:
        # A DiscoverResult is itself the proof of a modern server. The spec's DiscoverResult branch
        # says "select a mutually supported version and continue" and does not say what to do when
        # there is none (its "do not fall back" is written for the modern-error branch); mcp_lab
        # reports an error, since an initialize would only ask a modern server to refuse it. The
        # official Python SDK (the one measured, notebook 06) sends initialize here instead.
        return Decision(
            Next.MODERN_NO_VERSION,
            (
                f"{said}a DiscoverResult: the server is modern; supportedVersions {supported}, none of "
                "them a version mcp_lab speaks",
                "no mutual version: the spec says only to select a mutual version and continue; mcp_lab "
                "reports an error and sends no initialize",
            ),
            supported=tuple(supported),
        )
    return Decision(
        Next.USE,
        (
            f"{said}a DiscoverResult: the server is modern; supportedVersions {supported}, "
            f"use {mutual[0]}. No handshake follows: every request carries _meta",
        ),
        mutual[0],
        tuple(supported),
    )


def _wrong_version(listed: list[str], asked: str, may_retry: bool, said: str) -> Decision:
    first = (
        f"{said}-32022 with data.supported {listed}: the server is modern but refused {asked}; "
        "a modern answer rules out the initialize fallback"
    )
    mutual = mutual_versions(listed)
    if not mutual or not may_retry:
        why = "none of them is a modern version mcp_lab speaks" if not mutual else f"the retry at {asked} was refused"
        return Decision(
            Next.MODERN_NO_VERSION, (first, f"no mutual version: {why}; no initialize is sent"), supported=tuple(listed)
        )
    return Decision(
        Next.RETRY,
        (first, f"retry server/discover at {mutual[0]}, a version both sides speak"),
        mutual[0],
        tuple(listed),
    )


def _why_legacy(answer: Any, code: int | None, http: HttpReply | None, wait: float | None) -> str:
    if http is not None:
        if http.empty:
            body = "an empty body"
        elif code is not None:
            body = f"error {code} ({answer.message!r})"
        else:
            body = f"an unrecognised {http.content_type or 'untyped'} body"
        return f"HTTP {http.status} with {body}: not a modern answer, so the server is legacy"
    if answer is None:
        return f"no answer to server/discover within {wait:g} s: silence means legacy"
    if isinstance(answer, jsonrpc.Error):
        return f"error {answer.code} ({answer.message!r}) is not a recognised modern error: the server is legacy"
    return "the answer is not a DiscoverResult: the server is legacy"
